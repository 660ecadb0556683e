//! The block model: gradient-boosted regression trees over the block features, as a small
//! JSON file (the trees' splits and leaf values only), with how it was trained.
//!
//! Trees are fitted by `forust-ml` (`indexer eval train-blocks`) and copied into this form:
//! prediction is a walk down each tree (`value < threshold` goes left), the sum of the leaves
//! reached plus the base score being the log-odds that the block is content.

use serde::{Deserialize, Serialize};

use super::features::feature_names;

/// The built-in model, trained by `indexer eval train-blocks` (see its `protocol`).
pub const DEFAULT_MODEL_JSON: &str = include_str!("block-model.json");

/// One regression tree: node `i` splits on `feature[i]` at `threshold[i]` (left when below),
/// or is a leaf worth `value[i]` when `feature[i]` is negative.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tree {
    pub feature: Vec<i32>,
    pub threshold: Vec<f64>,
    pub left: Vec<u32>,
    pub right: Vec<u32>,
    pub value: Vec<f64>,
}

impl Tree {
    /// The leaf value `row` reaches.
    pub fn predict(&self, row: &[f64]) -> f64 {
        let mut i = 0usize;
        loop {
            let f = self.feature[i];
            if f < 0 {
                return self.value[i];
            }
            i = if row[f as usize] < self.threshold[i] { self.left[i] } else { self.right[i] } as usize;
        }
    }

    /// Whether every index points inside the tree and every split to a known feature, and
    /// children come after their parent (so a walk ends).
    fn is_well_formed(&self, features: usize) -> bool {
        let n = self.feature.len();
        n > 0
            && [self.threshold.len(), self.left.len(), self.right.len(), self.value.len()].iter().all(|&l| l == n)
            && (0..n).all(|i| {
                let f = self.feature[i];
                f < 0
                    || ((f as usize) < features
                        && (self.left[i] as usize) < n
                        && (self.right[i] as usize) < n
                        && self.left[i] as usize > i
                        && self.right[i] as usize > i)
            })
    }
}

/// A trained block model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockModel {
    /// How the model was trained: data, labels, learner, threshold.
    pub protocol: String,
    /// The class and id words learned on the training pages, in feature order.
    pub vocabulary: Vec<String>,
    /// Feature names, in vector order ([`feature_names`] of the vocabulary).
    pub features: Vec<String>,
    /// Log-odds before the first tree.
    pub base_score: f64,
    pub trees: Vec<Tree>,
    /// A block is content when its probability reaches this (chosen on the training folds).
    pub threshold: f64,
    /// Training examples (blocks) and how many were content.
    pub examples: usize,
    pub positives: usize,
}

/// A model file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("cannot read the block model: {0}")]
    Read(#[from] std::io::Error),
    #[error("the block model is not valid JSON: {0}")]
    Parse(#[from] serde_json::Error),
    #[error("the block model's features do not match this build's ({found} found, {expected} expected)")]
    Features { found: usize, expected: usize },
    #[error("the block model's tree {0} is malformed (an index out of range or pointing backwards)")]
    Tree(usize),
    #[error("the block model's vocabulary has {0} words; at most 64 are supported")]
    Vocabulary(usize),
}

impl BlockModel {
    /// Reads a model from JSON and checks its shape.
    pub fn from_json(text: &str) -> Result<BlockModel, ModelError> {
        let model: BlockModel = serde_json::from_str(text)?;
        if model.vocabulary.len() > 64 {
            return Err(ModelError::Vocabulary(model.vocabulary.len()));
        }
        let expected = feature_names(&model.vocabulary);
        if model.features != expected {
            return Err(ModelError::Features { found: model.features.len(), expected: expected.len() });
        }
        if let Some(bad) = model.trees.iter().position(|t| !t.is_well_formed(expected.len())) {
            return Err(ModelError::Tree(bad));
        }
        Ok(model)
    }

    /// The built-in model, or the file `path` when it is not empty.
    pub fn load(path: &str) -> Result<BlockModel, ModelError> {
        if path.is_empty() {
            Self::from_json(DEFAULT_MODEL_JSON)
        } else {
            Self::from_json(&std::fs::read_to_string(path)?)
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default() + "\n"
    }

    /// The log-odds that the block of feature row `row` is content.
    pub fn log_odds(&self, row: &[f64]) -> f64 {
        self.base_score + self.trees.iter().map(|t| t.predict(row)).sum::<f64>()
    }

    /// The probability that the block of feature row `row` is content.
    pub fn probability(&self, row: &[f64]) -> f64 {
        1.0 / (1.0 + (-self.log_odds(row)).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stump() -> Tree {
        Tree {
            feature: vec![0, -1, -1],
            threshold: vec![0.5, 0.0, 0.0],
            left: vec![1, 0, 0],
            right: vec![2, 0, 0],
            value: vec![0.0, -2.0, 2.0],
        }
    }

    #[test]
    fn trees_walk_left_below_the_threshold() {
        let tree = stump();
        assert_eq!(tree.predict(&[0.2]), -2.0);
        assert_eq!(tree.predict(&[0.5]), 2.0);
        assert!(tree.is_well_formed(1));
        let mut backwards = stump();
        backwards.left[0] = 0;
        assert!(!backwards.is_well_formed(1));
        assert!(!stump().is_well_formed(0), "a split on a feature the model does not have");
    }

    #[test]
    fn the_built_in_model_loads_and_a_broken_one_is_refused() {
        let model = BlockModel::load("").unwrap();
        assert!(!model.trees.is_empty());
        let back = BlockModel::from_json(&model.to_json()).unwrap();
        assert_eq!(back, model);
        let mut broken = model.clone();
        broken.features.pop();
        assert!(matches!(BlockModel::from_json(&broken.to_json()), Err(ModelError::Features { .. })));
        let mut broken = model.clone();
        broken.trees[0].left[0] = 10_000;
        assert!(matches!(BlockModel::from_json(&broken.to_json()), Err(ModelError::Tree(0))));
        assert!(matches!(BlockModel::from_json("{"), Err(ModelError::Parse(_))));
        assert!(matches!(BlockModel::load("/nonexistent/block-model.json"), Err(ModelError::Read(_))));
    }
}
