//! The ridge classifier (§4): which ridges are primary content.
//!
//! The paper trains an SVM with an RBF kernel on hand-labelled ridges. Ours is a logistic
//! regression on the four standardised ridge features ([`crate::clean::logistic`]), fitted by
//! full-batch gradient descent with an L2 penalty: deterministic, a few dozen lines, and the
//! decision stays readable from four weights. The model file (JSON) records the weights, the
//! standardisation, how it was trained and the pages it was trained on, so `indexer eval
//! clean` can leave those out.

use serde::{Deserialize, Serialize};

use super::ridges::RidgeFeatures;
use crate::clean::logistic::{LogisticRegression, ModelFileError, model_file_text, model_json, parse_model};
use crate::config::MountainConfig;

/// The built-in model, trained by `indexer eval train-mountain` (see its `protocol`).
pub const DEFAULT_MODEL_JSON: &str = include_str!("ridge-model.json");

/// What errors call the model.
const MODEL: &str = "ridge model";

/// A trained ridge classifier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RidgeModel {
    /// How the model was trained: data, split, labels, learner.
    pub protocol: String,
    /// The logistic regression over [`RidgeFeatures::NAMES`].
    #[serde(flatten)]
    pub regression: LogisticRegression,
    /// Training examples (ridges) and how many were primary.
    pub examples: usize,
    pub positives: usize,
    /// The Mountain Model parameters the ridges were computed with.
    pub config: MountainConfig,
    /// The pages trained on, as `<set-name>/<stem>`.
    pub training_pages: Vec<String>,
}

impl RidgeModel {
    /// Reads a model from JSON and checks its shape.
    pub fn from_json(text: &str) -> Result<RidgeModel, ModelFileError> {
        let model: RidgeModel = parse_model(text, MODEL)?;
        model.regression.check_features(MODEL, &RidgeFeatures::NAMES)?;
        Ok(model)
    }

    /// The built-in model, or the file `path` when it is not empty.
    pub fn load(path: &str) -> Result<RidgeModel, ModelFileError> {
        let path = (!path.is_empty()).then(|| std::path::Path::new(path));
        Self::from_json(&model_json(path, DEFAULT_MODEL_JSON, MODEL)?)
    }

    pub fn to_json(&self) -> String {
        model_file_text(self)
    }

    /// The probability that a ridge is primary content.
    pub fn probability(&self, features: &RidgeFeatures) -> f64 {
        self.regression.probability(&features.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::logistic::Fit;

    #[test]
    fn a_model_reads_the_ridge_features_in_their_order() {
        // Only the width (the second feature) counts: a wide ridge is primary, a narrow one not.
        let fit = Fit { mean: vec![0.0; 4], scale: vec![1.0; 4], weights: vec![0.0, 10.0, 0.0, 0.0], bias: -5.0 };
        let model = RidgeModel {
            protocol: "toy".into(),
            regression: LogisticRegression::new(&RidgeFeatures::NAMES, fit),
            examples: 0,
            positives: 0,
            config: MountainConfig::default(),
            training_pages: Vec::new(),
        };
        let ridge = |height, width| RidgeFeatures { height, width, ridge_position: 0.5, cell_position: 0.5 };
        assert!(model.probability(&ridge(0.0, 0.9)) > 0.9);
        assert!(model.probability(&ridge(1.0, 0.1)) < 0.1);
    }

    #[test]
    fn a_model_file_round_trips_and_a_misshapen_one_is_refused() {
        let model = RidgeModel::load("").unwrap();
        assert_eq!(model.to_json(), DEFAULT_MODEL_JSON, "the shipped file is written as to_json writes it");
        let back = RidgeModel::from_json(&model.to_json()).unwrap();
        assert_eq!(back, model);
        let mut broken = model.clone();
        broken.regression.weights.pop();
        assert!(matches!(RidgeModel::from_json(&broken.to_json()), Err(ModelFileError::Shape { .. })));
        assert!(matches!(RidgeModel::from_json("{"), Err(ModelFileError::Parse { .. })));
        assert!(matches!(RidgeModel::load("/nonexistent/ridge-model.json"), Err(ModelFileError::Read { .. })));
        let unknown = DEFAULT_MODEL_JSON.replacen("\"bias\"", "\"intercept\": 0.0,\n  \"bias\"", 1);
        assert!(
            matches!(RidgeModel::from_json(&unknown), Err(ModelFileError::Parse { .. })),
            "unknown keys are refused"
        );
    }
}
