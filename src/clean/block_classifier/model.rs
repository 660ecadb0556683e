//! The block model: gradient-boosted regression trees over the block features, as a small
//! JSON file (the trees' splits and leaf values only), with how it was trained.
//!
//! Trees are fitted by `forust-ml` ([`fit_booster`]: `indexer eval train-blocks`, and the
//! hub-page model's boosted learner) and copied into this form:
//! prediction is a walk down each tree (`value < threshold` goes left), the sum of the leaves
//! reached plus the base score being the log-odds that the block is content.

use forust_ml::{GradientBooster, Matrix, objective::ObjectiveType};
use serde::{Deserialize, Serialize};

use super::context::CONTEXT_FEATURES;
use super::features::{ITEM_RUN_SHARE, feature_names};

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
    /// A tree of one split (tests): `below` when column `feature` is under `at`, else `above`.
    #[cfg(test)]
    pub(crate) fn one_split(feature: usize, at: f64, below: f64, above: f64) -> Tree {
        Tree {
            feature: vec![feature as i32, -1, -1],
            threshold: vec![at, 0.0, 0.0],
            left: vec![1, 0, 0],
            right: vec![2, 0, 0],
            value: vec![0.0, below, above],
        }
    }

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

    /// Splits on the longest way from the root to a leaf (for a well-formed tree).
    pub fn depth(&self) -> usize {
        // Children come after their parent: one pass from the leaves up.
        let mut depth = vec![0usize; self.feature.len()];
        for i in (0..self.feature.len()).rev() {
            if self.feature[i] >= 0 {
                depth[i] = 1 + depth[self.left[i] as usize].max(depth[self.right[i] as usize]);
            }
        }
        depth[0]
    }

    /// Whether every index points inside the tree and every split to a known feature, and
    /// children come after their parent (so a walk ends).
    pub fn is_well_formed(&self, features: usize) -> bool {
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

/// The settings of a boosting run (log loss, no sampling, seed 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoostSettings {
    /// Boosting rounds (trees).
    pub trees: usize,
    /// The shrinkage of each tree.
    pub learning_rate: f64,
    /// The depth of each tree.
    pub max_depth: usize,
    /// L2 penalty on leaf values.
    pub l2: f64,
    /// The least hessian weight in a leaf.
    pub min_leaf_weight: f64,
}

/// A `forust-ml` booster fitted on a column-major matrix of `rows` × `width` with `labels`
/// (1 or 0) and `weights`; the error is the learner's message.
pub fn fit_booster(
    data: &[f64],
    rows: usize,
    width: usize,
    labels: &[f64],
    weights: &[f64],
    settings: &BoostSettings,
) -> Result<GradientBooster, String> {
    let matrix = Matrix::new(data, rows, width);
    let mut booster = GradientBooster::default()
        .set_objective_type(ObjectiveType::LogLoss)
        .set_iterations(settings.trees)
        .set_learning_rate(settings.learning_rate as f32)
        .set_max_depth(settings.max_depth)
        .set_l2(settings.l2 as f32)
        .set_min_leaf_weight(settings.min_leaf_weight as f32)
        .set_allow_missing_splits(false)
        .set_seed(0)
        .set_parallel(true);
    booster.fit(&matrix, labels, weights, None).map_err(|e| e.to_string())?;
    Ok(booster)
}

/// A fitted booster ([`fit_booster`]) copied into the model's form: the base score (log-odds
/// before the first tree) and the trees.
pub fn trees_of(booster: &GradientBooster) -> (f64, Vec<Tree>) {
    (booster.base_score, booster.trees.iter().map(copy_tree).collect())
}

/// A fitted tree in the model's form (leaves keep their value, splits their feature,
/// threshold and children).
fn copy_tree(tree: &forust_ml::tree::Tree) -> Tree {
    let n = tree.nodes.len();
    let mut out = Tree {
        feature: vec![-1; n],
        threshold: vec![0.0; n],
        left: vec![0; n],
        right: vec![0; n],
        value: vec![0.0; n],
    };
    for (i, node) in tree.nodes.iter().enumerate() {
        if node.is_leaf {
            out.value[i] = node.weight_value as f64;
        } else {
            out.feature[i] = node.split_feature as i32;
            out.threshold[i] = node.split_value;
            out.left[i] = node.left_child as u32;
            out.right[i] = node.right_child as u32;
        }
    }
    out
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
    /// A stacked second stage, when trained with `--stacking`: it reads the block features
    /// followed by the context features of the first stage's probabilities, and
    /// [`BlockModel::threshold`] applies to its probability. A file without it is a
    /// one-stage model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage2: Option<SecondStage>,
}

/// The second stage of a stacked model ([`super::context`]): trees over a row of the block
/// features ([`BlockModel::features`]) followed by the context features
/// ([`SecondStage::context_features`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecondStage {
    /// The context feature names, in vector order ([`CONTEXT_FEATURES`]).
    pub context_features: Vec<String>,
    /// Log-odds before the first tree.
    pub base_score: f64,
    pub trees: Vec<Tree>,
}

impl SecondStage {
    /// The context feature names of this build, as a second stage records them.
    pub fn context_feature_names() -> Vec<String> {
        CONTEXT_FEATURES.iter().map(|n| n.to_string()).collect()
    }

    /// The log-odds that the block of row `row` (block features, then context) is content.
    pub fn log_odds(&self, row: &[f64]) -> f64 {
        self.base_score + self.trees.iter().map(|t| t.predict(row)).sum::<f64>()
    }
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
    #[error(
        "the block model's tree {0} is {1} splits deep; at most {MAX_DEPTH} are supported (retrain with a smaller blocks.max_depth)"
    )]
    Depth(usize, usize),
    #[error(
        "the block model's second stage has context features that do not match this build's ({0}); retrain with `indexer eval train-blocks --stacking`"
    )]
    ContextFeatures(String),
    #[error("the block model's second-stage tree {0} is malformed (an index out of range or pointing backwards)")]
    SecondStageTree(usize),
    #[error(
        "the block model's second-stage tree {0} is {1} splits deep; at most {MAX_DEPTH} are supported (retrain with a smaller blocks.max_depth)"
    )]
    SecondStageDepth(usize, usize),
}

/// The deepest tree a model may hold: [`Forest`] lays each tree out complete (2^depth leaves).
pub const MAX_DEPTH: usize = 12;

impl BlockModel {
    /// Whether the model reads the item-run feature (trained with `[blocks] item_runs`).
    pub fn item_runs(&self) -> bool {
        self.features.iter().any(|f| f == ITEM_RUN_SHARE)
    }

    /// Reads a model from JSON and checks its shape.
    pub fn from_json(text: &str) -> Result<BlockModel, ModelError> {
        let model: BlockModel = serde_json::from_str(text)?;
        if model.vocabulary.len() > 64 {
            return Err(ModelError::Vocabulary(model.vocabulary.len()));
        }
        let expected = feature_names(&model.vocabulary, model.item_runs());
        if model.features != expected {
            return Err(ModelError::Features { found: model.features.len(), expected: expected.len() });
        }
        if let Some(bad) = model.trees.iter().position(|t| !t.is_well_formed(expected.len())) {
            return Err(ModelError::Tree(bad));
        }
        if let Some((bad, depth)) = model.trees.iter().map(Tree::depth).enumerate().find(|&(_, d)| d > MAX_DEPTH) {
            return Err(ModelError::Depth(bad, depth));
        }
        if let Some(stage2) = &model.stage2 {
            let context = SecondStage::context_feature_names();
            if stage2.context_features != context {
                let found = &stage2.context_features;
                let what = match found.iter().zip(&context).find(|(f, e)| f != e) {
                    Some((f, e)) => format!("`{f}` where this build has `{e}`"),
                    None => format!("{} found, {} expected", found.len(), context.len()),
                };
                return Err(ModelError::ContextFeatures(what));
            }
            let width = expected.len() + context.len();
            if let Some(bad) = stage2.trees.iter().position(|t| !t.is_well_formed(width)) {
                return Err(ModelError::SecondStageTree(bad));
            }
            if let Some((bad, depth)) = stage2.trees.iter().map(Tree::depth).enumerate().find(|&(_, d)| d > MAX_DEPTH) {
                return Err(ModelError::SecondStageDepth(bad, depth));
            }
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

/// Rows [`Forest::log_odds_of_rows`] walks down a tree together.
const LANES: usize = 8;

/// A model's trees laid out for prediction: each tree padded to a complete tree of its depth
/// (a leaf above the last level becomes splits whose two sides lead to copies of it), its
/// splits in heap order (the children of split `h` at `2h + 1` and `2h + 2`), so that a walk
/// is `depth` steps without a branch on the data. Predictions are those of
/// [`BlockModel::log_odds`], bit for bit: the same leaves, summed in the same order.
///
/// A split is a threshold and a column, in two arrays indexed alike, so that a step's two
/// loads are indexed by the heap position itself. The column is stored as the feature's
/// offset in a block of [`LANES`] rows laid out feature-major (`feature * LANES`), the layout
/// [`Forest::log_odds_of_rows`] walks.
#[derive(Debug, Clone)]
pub struct Forest {
    base_score: f64,
    thresholds: Vec<f64>,
    columns: Vec<u32>,
    leaves: Vec<f64>,
    /// Per tree: depth, first split, first leaf.
    trees: Vec<(u32, usize, usize)>,
    /// One more than the largest feature a split reads: the least row width the walk may
    /// be given.
    width: usize,
}

impl Forest {
    /// The trees of a model read by [`BlockModel::from_json`] (well formed, at most
    /// [`MAX_DEPTH`] deep).
    pub fn of(model: &BlockModel) -> Forest {
        Forest::of_trees(model.base_score, &model.trees)
    }

    /// The second stage of a model read by [`BlockModel::from_json`], when it has one.
    pub fn of_second_stage(model: &BlockModel) -> Option<Forest> {
        model.stage2.as_ref().map(|stage2| Forest::of_trees(stage2.base_score, &stage2.trees))
    }

    /// Trees checked as [`BlockModel::from_json`] checks them, after `base_score`.
    fn of_trees(base_score: f64, trees: &[Tree]) -> Forest {
        let mut forest = Forest {
            base_score,
            thresholds: Vec::new(),
            columns: Vec::new(),
            leaves: Vec::new(),
            trees: Vec::new(),
            width: 0,
        };
        for tree in trees {
            let depth = tree.depth();
            let (split_start, leaf_start) = (forest.thresholds.len(), forest.leaves.len());
            forest.thresholds.resize(split_start + (1 << depth) - 1, 0.0);
            forest.columns.resize(split_start + (1 << depth) - 1, 0);
            forest.leaves.resize(leaf_start + (1 << depth), 0.0);
            forest.lay_out(tree, 0, 0, depth, split_start, leaf_start);
            forest.trees.push((depth as u32, split_start, leaf_start));
        }
        forest
    }

    /// Places `tree`'s node `i` at heap position `h` of a complete tree `levels` deep below it.
    fn lay_out(&mut self, tree: &Tree, i: usize, h: usize, levels: usize, split_start: usize, leaf_start: usize) {
        let splits = (1usize << (h + 1).ilog2()) - 1; // heap positions above h's level
        let level_position = h - splits;
        if levels == 0 {
            self.leaves[leaf_start + level_position] = tree.value[i];
            return;
        }
        let (left, right) = if tree.feature[i] < 0 {
            (i, i)
        } else {
            let feature = tree.feature[i] as usize;
            self.thresholds[split_start + h] = tree.threshold[i];
            self.columns[split_start + h] = (feature * LANES) as u32;
            self.width = self.width.max(feature + 1);
            (tree.left[i] as usize, tree.right[i] as usize)
        };
        self.lay_out(tree, left, 2 * h + 1, levels - 1, split_start, leaf_start);
        self.lay_out(tree, right, 2 * h + 2, levels - 1, split_start, leaf_start);
    }

    /// The log-odds of each block of `rows` (row-major, `width` features each) into `out`, as
    /// [`Forest::log_odds`] gives them bit for bit. [`LANES`] rows go down each tree together:
    /// one row's walk is a chain of dependent loads, the walks of several rows are not, so the
    /// processor overlaps them. The rows are first copied feature-major, so that one pointer
    /// reaches every lane's feature (`column + lane`).
    ///
    /// Panics if `width` is narrower than a feature the trees read.
    pub fn log_odds_of_rows(&self, rows: &[f64], width: usize, out: &mut [f64]) {
        assert!(width >= self.width, "rows of {width} features, the trees read {}", self.width);
        if width == 0 {
            out.iter_mut().for_each(|o| *o = self.log_odds(&[]));
            return;
        }
        let mut columns = vec![0.0f64; width * LANES];
        for (chunk, out) in rows.chunks(LANES * width).zip(out.chunks_mut(LANES)) {
            let present = out.len().min(chunk.len() / width);
            if present == 0 {
                break;
            }
            // A short last chunk repeats its last row in the lanes it lacks (lanes do not
            // interact; their results are not used).
            for l in 0..LANES {
                let row = &chunk[l.min(present - 1) * width..][..width];
                for (column, &value) in columns.chunks_exact_mut(LANES).zip(row) {
                    column[l] = value;
                }
            }
            let sums = self.log_odds_of_lanes(&columns);
            out[..present].copy_from_slice(&sums[..present]);
        }
    }

    /// The log-odds of the [`LANES`] rows of `columns`, laid out feature-major
    /// (`columns[feature * LANES + lane]`), at least `self.width` features.
    fn log_odds_of_lanes(&self, columns: &[f64]) -> [f64; LANES] {
        assert!(columns.len() >= self.width * LANES);
        // `Sum` of f64 starts from -0.0: the same start keeps the sums bit for bit.
        let mut sums = [-0.0f64; LANES];
        for &(depth, split_start, leaf_start) in &self.trees {
            let splits = (1usize << depth) - 1;
            let thresholds = &self.thresholds[split_start..split_start + splits];
            let split_columns = &self.columns[split_start..split_start + splits];
            let leaves = &self.leaves[leaf_start..leaf_start + splits + 1];
            let mut h = [0usize; LANES];
            for _ in 0..depth {
                for (l, h) in h.iter_mut().enumerate() {
                    // SAFETY: before step k (k < depth) `h` is a heap position of level k, at
                    // most 2^(k+1) - 2 < 2^depth - 1 = `splits`, the length of `thresholds`
                    // and `split_columns`. A column is `feature * LANES` for a feature below
                    // `self.width` (`lay_out`), so `column + l` < `self.width * LANES`, which
                    // the assertion above bounds by `columns.len()`.
                    let (threshold, value) = unsafe {
                        let column = *split_columns.get_unchecked(*h) as usize;
                        (*thresholds.get_unchecked(*h), *columns.get_unchecked(column + l))
                    };
                    // Left (2h + 1) when below the threshold, else right (2h + 2): NaN goes right.
                    *h = 2 * *h + 2 - usize::from(value < threshold);
                }
            }
            for (sum, &h) in sums.iter_mut().zip(&h) {
                *sum += leaves[h - splits];
            }
        }
        sums.map(|sum| self.base_score + sum)
    }

    /// The log-odds that the block of feature row `row` is content.
    pub fn log_odds(&self, row: &[f64]) -> f64 {
        let leaves = self.trees.iter().map(|&(depth, split_start, leaf_start)| {
            let mut h = 0usize;
            for _ in 0..depth {
                let feature = self.columns[split_start + h] as usize / LANES;
                // Left (2h + 1) when below the threshold, else right (2h + 2): NaN goes right.
                h = 2 * h + 2 - usize::from(row[feature] < self.thresholds[split_start + h]);
            }
            self.leaves[leaf_start + h + 1 - (1 << depth)]
        });
        self.base_score + leaves.sum::<f64>()
    }

    /// The probability that the block of feature row `row` is content.
    pub fn probability(&self, row: &[f64]) -> f64 {
        probability(self.log_odds(row))
    }
}

/// The probability of log-odds `log_odds`.
pub fn probability(log_odds: f64) -> f64 {
    1.0 / (1.0 + (-log_odds).exp())
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
    fn the_laid_out_forest_predicts_what_the_trees_do_bit_for_bit() {
        let model = BlockModel::load("").unwrap();
        let forest = Forest::of(&model);
        // Rows of every kind a split meets: values at a threshold, beside it, and NaN.
        let thresholds: Vec<f64> = model.trees.iter().flat_map(|t| t.threshold.iter().copied()).collect();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut rows = Vec::new();
        for _ in 0..2000 {
            let row: Vec<f64> = (0..model.features.len())
                .map(|_| {
                    let t = thresholds[next() as usize % thresholds.len()];
                    match next() % 5 {
                        0 => t,
                        1 => t - 1e-9,
                        2 => t + 1.0,
                        3 => f64::NAN,
                        _ => (next() % 1000) as f64 / 100.0,
                    }
                })
                .collect();
            assert_eq!(forest.log_odds(&row).to_bits(), model.log_odds(&row).to_bits());
            rows.extend_from_slice(&row);
        }
        // Rows taken together, a whole number of lanes and a remainder.
        for n in [2000, 2000 - LANES - 3, 5] {
            let width = model.features.len();
            let mut out = vec![0.0; n];
            forest.log_odds_of_rows(&rows[..n * width], width, &mut out);
            for (b, value) in out.iter().enumerate() {
                let row = &rows[b * width..(b + 1) * width];
                assert_eq!(value.to_bits(), model.log_odds(row).to_bits(), "{n} rows, row {b}");
            }
        }
        // A tree shallower than its depth on one side, and a tree that is one leaf.
        let mut uneven = model.clone();
        let deeper_right = Tree {
            feature: vec![0, -1, 0, -1, -1],
            threshold: vec![0.5, 0.0, 0.8, 0.0, 0.0],
            left: vec![1, 0, 3, 0, 0],
            right: vec![2, 0, 4, 0, 0],
            value: vec![0.0, -2.0, 0.0, 1.0, 3.0],
        };
        let leaf = Tree { feature: vec![-1], threshold: vec![0.0], left: vec![0], right: vec![0], value: vec![0.25] };
        uneven.trees = vec![deeper_right, leaf];
        let forest = Forest::of(&uneven);
        for x in [0.1, 0.5, 0.79, 0.8, 0.9, f64::NAN] {
            let mut row = model.features.iter().map(|_| 0.0).collect::<Vec<f64>>();
            row[0] = x;
            assert_eq!(forest.log_odds(&row).to_bits(), uneven.log_odds(&row).to_bits(), "{x}");
        }
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

    #[test]
    fn a_second_stage_is_optional_round_trips_and_a_broken_one_is_refused() {
        let mut model = BlockModel::load("").unwrap();
        assert!(model.stage2.is_some(), "the shipped model is stacked");
        // Its first stage alone: a one-stage model.
        model.stage2 = None;
        assert!(!model.to_json().contains("stage2"), "a one-stage model's file keeps its format");
        assert_eq!(BlockModel::from_json(&model.to_json()).unwrap(), model);
        let width = model.features.len() + CONTEXT_FEATURES.len();
        let on_stage1 = Tree::one_split(model.features.len(), 0.5, -3.0, 3.0);
        let mut stacked = model.clone();
        stacked.stage2 = Some(SecondStage {
            context_features: SecondStage::context_feature_names(),
            base_score: 0.25,
            trees: vec![on_stage1],
        });
        let back = BlockModel::from_json(&stacked.to_json()).unwrap();
        assert_eq!(back, stacked);
        let stage2 = back.stage2.as_ref().unwrap();
        let mut row = vec![0.0; width];
        row[model.features.len()] = 0.9;
        assert_eq!(stage2.log_odds(&row), 3.25);
        let forest = Forest::of_second_stage(&back).unwrap();
        assert_eq!(forest.log_odds(&row).to_bits(), stage2.log_odds(&row).to_bits());
        assert!(Forest::of_second_stage(&model).is_none());

        let mut broken = stacked.clone();
        broken.stage2.as_mut().unwrap().context_features.pop();
        assert!(matches!(BlockModel::from_json(&broken.to_json()), Err(ModelError::ContextFeatures(_))));
        let mut broken = stacked.clone();
        broken.stage2.as_mut().unwrap().trees[0].feature[0] = width as i32;
        assert!(matches!(BlockModel::from_json(&broken.to_json()), Err(ModelError::SecondStageTree(0))));
        let unknown = stacked.to_json().replace("\"base_score\":0.25", "\"base_score\":0.25,\"bias\":1");
        assert!(matches!(BlockModel::from_json(&unknown), Err(ModelError::Parse(_))));
        let renamed = stacked.to_json().replace("\"context_features\"", "\"context\"");
        assert!(matches!(BlockModel::from_json(&renamed), Err(ModelError::Parse(_))));
    }
}
