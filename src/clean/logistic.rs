//! Logistic regression, the learner of the cleaners' small models (the Mountain Model's ridge
//! classifier, the hub-page model): the fit, the prediction, and the part of a model file that
//! holds what was fitted ([`LogisticRegression`]), read and checked the same way for every
//! model.

use std::borrow::Cow;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A fitted logistic regression as model files store it. A model file flattens it among its
/// own fields (`#[serde(flatten)]`), so its JSON keeps these keys at the top level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogisticRegression {
    /// Feature names, in the order of the vectors below.
    pub features: Vec<String>,
    /// Standardisation: each feature minus its training mean, over its training deviation.
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    /// Logistic-regression weights of the standardised features, and the intercept.
    pub weights: Vec<f64>,
    pub bias: f64,
}

/// A model file that cannot be used; `model` names it ("ridge model", "hub-page model").
#[derive(Debug, thiserror::Error)]
pub enum ModelFileError {
    #[error("cannot read the {model}: {source}")]
    Read { model: &'static str, source: std::io::Error },
    #[error("the {model} is not valid JSON: {source}")]
    Parse { model: &'static str, source: serde_json::Error },
    #[error("the {model} has features {found:?}; this build expects {expected:?} with one mean, scale and weight each")]
    Shape { model: &'static str, found: Vec<String>, expected: Vec<String> },
}

impl LogisticRegression {
    /// What [`fit_logistic_regression`] learned, over the features `names`.
    pub fn new(names: &[&str], fit: Fit) -> LogisticRegression {
        LogisticRegression {
            features: names.iter().map(|s| s.to_string()).collect(),
            mean: fit.mean,
            scale: fit.scale,
            weights: fit.weights,
            bias: fit.bias,
        }
    }

    /// The probability it gives the feature vector `x` (in the order of `features`):
    /// standardised, weighed, plus the intercept, through the sigmoid.
    pub fn probability(&self, x: &[f64]) -> f64 {
        sigmoid(self.bias + linear(&self.weights, &standardise(x, &self.mean, &self.scale)))
    }

    /// Checks that it has the features `names` of this build, in order, with one mean, scale
    /// and weight each.
    pub fn check_features(&self, model: &'static str, names: &[&str]) -> Result<(), ModelFileError> {
        let n = names.len();
        let names_match = self.features.iter().map(String::as_str).eq(names.iter().copied());
        if !names_match || self.mean.len() != n || self.scale.len() != n || self.weights.len() != n {
            return Err(ModelFileError::Shape {
                model,
                found: self.features.clone(),
                expected: names.iter().map(|s| s.to_string()).collect(),
            });
        }
        Ok(())
    }
}

/// The JSON of a model file: the file at `path`, or the built-in model when there is none.
pub fn model_json(
    path: Option<&Path>,
    built_in: &'static str,
    model: &'static str,
) -> Result<Cow<'static, str>, ModelFileError> {
    match path {
        None => Ok(Cow::Borrowed(built_in)),
        Some(path) => {
            std::fs::read_to_string(path).map(Cow::Owned).map_err(|source| ModelFileError::Read { model, source })
        }
    }
}

/// Parses a model file's JSON.
pub fn parse_model<T: DeserializeOwned>(text: &str, model: &'static str) -> Result<T, ModelFileError> {
    serde_json::from_str(text).map_err(|source| ModelFileError::Parse { model, source })
}

/// A model file's text: pretty JSON and a final newline.
pub fn model_file_text(model: &impl Serialize) -> String {
    serde_json::to_string_pretty(model).expect("a model serialises") + "\n"
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn linear(weights: &[f64], x: &[f64]) -> f64 {
    weights.iter().zip(x).map(|(w, x)| w * x).sum()
}

fn standardise(x: &[f64], mean: &[f64], scale: &[f64]) -> Vec<f64> {
    x.iter().zip(mean).zip(scale).map(|((x, m), s)| (x - m) / s).collect()
}

/// What logistic regression learned: standardisation, weights, intercept.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    pub weights: Vec<f64>,
    pub bias: f64,
}

/// Fits a logistic regression to `examples` (feature vector, label) by full-batch gradient
/// descent on the mean log loss plus `l2`/2·|w|² (the intercept is not penalised), after
/// standardising every feature to mean 0 and deviation 1 (a constant feature keeps scale 1).
/// Deterministic: no sampling, fixed steps.
pub fn fit_logistic_regression(examples: &[(Vec<f64>, bool)], l2: f64, epochs: usize, learning_rate: f64) -> Fit {
    let dims = examples.first().map_or(0, |(x, _)| x.len());
    let n = examples.len().max(1) as f64;
    let mut mean = vec![0.0; dims];
    for (x, _) in examples {
        for (m, v) in mean.iter_mut().zip(x) {
            *m += v / n;
        }
    }
    let mut scale = vec![0.0; dims];
    for (x, _) in examples {
        for ((s, v), m) in scale.iter_mut().zip(x).zip(&mean) {
            *s += (v - m).powi(2) / n;
        }
    }
    for s in &mut scale {
        *s = if *s > 1e-12 { s.sqrt() } else { 1.0 };
    }
    let data: Vec<(Vec<f64>, f64)> =
        examples.iter().map(|(x, y)| (standardise(x, &mean, &scale), if *y { 1.0 } else { 0.0 })).collect();
    let mut weights = vec![0.0; dims];
    let mut bias = 0.0;
    for _ in 0..epochs {
        let mut gradient: Vec<f64> = weights.iter().map(|w| l2 * w).collect();
        let mut bias_gradient = 0.0;
        for (x, y) in &data {
            let error = sigmoid(bias + linear(&weights, x)) - y;
            for (g, v) in gradient.iter_mut().zip(x) {
                *g += error * v / n;
            }
            bias_gradient += error / n;
        }
        for (w, g) in weights.iter_mut().zip(&gradient) {
            *w -= learning_rate * g;
        }
        bias -= learning_rate * bias_gradient;
    }
    Fit { mean, scale, weights, bias }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trainer_separates_a_separable_toy_set_the_same_way_every_time() {
        // The positives are high in the first two features; the other two are noise.
        let mut examples = Vec::new();
        for i in 0..20 {
            let t = i as f64 / 20.0;
            examples.push((vec![0.7 + 0.3 * t, 0.6 + 0.4 * t, t, 1.0 - t], true));
            examples.push((vec![0.1 + 0.3 * t, 0.05 + 0.4 * t, 1.0 - t, t], false));
        }
        let fit = fit_logistic_regression(&examples, 0.001, 2000, 0.5);
        let model = LogisticRegression::new(&["a", "b", "c", "d"], fit.clone());
        for (x, label) in &examples {
            assert_eq!(model.probability(x) >= 0.5, *label, "{x:?}");
        }
        assert!(fit.weights[0] > 0.0 && fit.weights[1] > 0.0);
        assert!(model.probability(&[1.0, 1.0, 0.5, 0.5]) > 0.9);
        assert!(model.probability(&[0.1, 0.1, 0.5, 0.5]) < 0.1);
        assert_eq!(fit_logistic_regression(&examples, 0.001, 2000, 0.5), fit);
    }

    #[test]
    fn the_features_must_be_this_builds_with_one_value_each() {
        let fit = Fit { mean: vec![0.0; 2], scale: vec![1.0; 2], weights: vec![1.0; 2], bias: 0.0 };
        let model = LogisticRegression::new(&["a", "b"], fit);
        assert!(model.check_features("toy model", &["a", "b"]).is_ok());
        assert!(matches!(model.check_features("toy model", &["b", "a"]), Err(ModelFileError::Shape { .. })));
        let short = LogisticRegression { weights: vec![1.0], ..model };
        let refused = short.check_features("toy model", &["a", "b"]).unwrap_err().to_string();
        assert!(refused.starts_with("the toy model has features [\"a\", \"b\"]"), "{refused}");
    }
}
