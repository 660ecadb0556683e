//! The ridge classifier (§4): which ridges are primary content.
//!
//! The paper trains an SVM with an RBF kernel on hand-labelled ridges. Ours is a logistic
//! regression on the four standardised ridge features, fitted by full-batch gradient descent
//! with an L2 penalty: deterministic, a few dozen lines, and the decision stays readable from
//! four weights. The model file (JSON) records the weights, the standardisation, how it was
//! trained and the pages it was trained on, so `indexer eval clean` can leave those out.

use serde::{Deserialize, Serialize};

use super::ridges::RidgeFeatures;
use crate::config::MountainConfig;

/// The built-in model, trained by `indexer eval train-mountain` (see its `protocol`).
pub const DEFAULT_MODEL_JSON: &str = include_str!("ridge-model.json");

/// A trained ridge classifier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RidgeModel {
    /// How the model was trained: data, split, labels, learner.
    pub protocol: String,
    /// Feature names, in the order of the vectors below ([`RidgeFeatures::NAMES`]).
    pub features: Vec<String>,
    /// Standardisation: each feature minus its training mean, over its training deviation.
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    /// Logistic-regression weights of the standardised features, and the intercept.
    pub weights: Vec<f64>,
    pub bias: f64,
    /// Training examples (ridges) and how many were primary.
    pub examples: usize,
    pub positives: usize,
    /// The Mountain Model parameters the ridges were computed with.
    pub config: MountainConfig,
    /// The pages trained on, as `<set-name>/<stem>`.
    pub training_pages: Vec<String>,
}

/// A model file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("cannot read the ridge model: {0}")]
    Read(#[from] std::io::Error),
    #[error("the ridge model is not valid JSON: {0}")]
    Parse(#[from] serde_json::Error),
    #[error(
        "the ridge model has features {found:?}; this build expects {expected:?} with one mean, scale and weight each"
    )]
    Shape { found: Vec<String>, expected: Vec<String> },
}

impl RidgeModel {
    /// Reads a model from JSON and checks its shape.
    pub fn from_json(text: &str) -> Result<RidgeModel, ModelError> {
        let model: RidgeModel = serde_json::from_str(text)?;
        let n = RidgeFeatures::NAMES.len();
        let names_match = model.features.iter().map(String::as_str).eq(RidgeFeatures::NAMES);
        if !names_match || model.mean.len() != n || model.scale.len() != n || model.weights.len() != n {
            return Err(ModelError::Shape {
                found: model.features.clone(),
                expected: RidgeFeatures::NAMES.iter().map(|s| s.to_string()).collect(),
            });
        }
        Ok(model)
    }

    /// The built-in model, or the file `path` when it is not empty.
    pub fn load(path: &str) -> Result<RidgeModel, ModelError> {
        if path.is_empty() {
            Self::from_json(DEFAULT_MODEL_JSON)
        } else {
            Self::from_json(&std::fs::read_to_string(path)?)
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The probability that a ridge is primary content.
    pub fn probability(&self, features: &RidgeFeatures) -> f64 {
        logistic_probability(&features.to_vec(), &self.mean, &self.scale, &self.weights, self.bias)
    }
}

/// The probability a fitted logistic regression ([`fit_logistic_regression`]) gives the
/// feature vector `x`: standardised by `mean` and `scale`, weighed, plus `bias`, through the
/// sigmoid. Every model with this form predicts through here.
pub fn logistic_probability(x: &[f64], mean: &[f64], scale: &[f64], weights: &[f64], bias: f64) -> f64 {
    sigmoid(bias + linear(weights, &standardise(x, mean, scale)))
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

    fn features(height: f64, width: f64) -> RidgeFeatures {
        RidgeFeatures { height, width, ridge_position: 0.5, cell_position: 0.5 }
    }

    #[test]
    fn the_trainer_separates_a_separable_toy_set() {
        // Primary ridges are high and wide; the other two features are noise.
        let mut examples = Vec::new();
        for i in 0..20 {
            let t = i as f64 / 20.0;
            examples.push((vec![0.7 + 0.3 * t, 0.6 + 0.4 * t, t, 1.0 - t], true));
            examples.push((vec![0.1 + 0.3 * t, 0.05 + 0.4 * t, 1.0 - t, t], false));
        }
        let fit = fit_logistic_regression(&examples, 0.001, 2000, 0.5);
        let model = RidgeModel {
            protocol: "toy".into(),
            features: RidgeFeatures::NAMES.iter().map(|s| s.to_string()).collect(),
            mean: fit.mean,
            scale: fit.scale,
            weights: fit.weights.clone(),
            bias: fit.bias,
            examples: examples.len(),
            positives: 20,
            config: MountainConfig::default(),
            training_pages: vec!["toy/1".into()],
        };
        for (x, label) in &examples {
            let f = RidgeFeatures { height: x[0], width: x[1], ridge_position: x[2], cell_position: x[3] };
            assert_eq!(model.probability(&f) >= 0.5, *label, "{x:?}");
        }
        assert!(fit.weights[0] > 0.0 && fit.weights[1] > 0.0);
        assert!(model.probability(&features(1.0, 1.0)) > 0.9);
        assert!(model.probability(&features(0.1, 0.1)) < 0.1);
        // Training again gives the very same model.
        let again = fit_logistic_regression(&examples, 0.001, 2000, 0.5);
        assert_eq!(again.weights, fit.weights);
    }

    #[test]
    fn a_model_file_round_trips_and_a_misshapen_one_is_refused() {
        let model = RidgeModel::load("").unwrap();
        let back = RidgeModel::from_json(&model.to_json()).unwrap();
        assert_eq!(back, model);
        let mut broken = model.clone();
        broken.weights.pop();
        assert!(matches!(RidgeModel::from_json(&broken.to_json()), Err(ModelError::Shape { .. })));
        assert!(matches!(RidgeModel::from_json("{"), Err(ModelError::Parse(_))));
        assert!(matches!(RidgeModel::load("/nonexistent/ridge-model.json"), Err(ModelError::Read(_))));
    }
}
