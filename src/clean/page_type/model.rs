//! The hub-page model: a logistic regression over [`PageFeatures`] that decides whether a
//! page is a hub (a listing, a collection, a category page: its content is entries linking
//! elsewhere) or not, trained on page types labelled by people (`indexer eval page-types`).
//!
//! §4.1 types a page by one ratio (terms in hub blocks over the central area's terms). On
//! real pages that ratio misses listings whose entries carry a sentence of summary each
//! (their blocks are not hub blocks) and calls articles with long link boxes in the centre
//! hubs. The model weighs that ratio, and the rules' verdict itself, with the link density of
//! the page and of its topic content, the linked entries of a listing and their share of the
//! text, and the running text of the topic content and its longest block.

use serde::{Deserialize, Serialize};

use super::PageFeatures;
use crate::clean::block_classifier::{BoostSettings, MAX_DEPTH, Tree, fit_booster, probability, trees_of};
use crate::clean::logistic::{
    LogisticRegression, ModelFileError, fit_logistic_regression, model_file_text, model_json, parse_model,
};
use crate::config::{CleanerKind, HubLearner};

/// The built-in model, trained by `indexer eval page-types --write-model` (see its
/// `protocol`) on the features of docview's result, on which both `docview` and `blocks` type
/// pages ([`typing_cleaner`]).
pub const DEFAULT_MODEL_JSON: &str = include_str!("hub-model.json");

/// The cleaner whose result a cleaner types its pages on, and so whose output its hub-page
/// model must have been fitted on: `docview` for `docview` and `blocks` (which keeps
/// docview's page type); `None` for the cleaners without a hub-page model.
pub fn typing_cleaner(cleaner: CleanerKind) -> Option<CleanerKind> {
    match cleaner {
        CleanerKind::DocView | CleanerKind::Blocks => Some(CleanerKind::DocView),
        _ => None,
    }
}

/// A trained hub-page model. Its file ([`ModelFile`]) names the learner and holds that
/// learner's fields only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ModelFile", into = "ModelFile")]
pub struct HubModel {
    /// The cleaner whose output the features were taken from ([`typing_cleaner`]); a cleaner
    /// uses only a model fitted on the output it types its pages on.
    pub cleaner: String,
    /// How the model was trained: data, labels, learner.
    pub protocol: String,
    /// What the learner learned over [`PageFeatures::NAMES`]; the file's `learner` names it.
    pub learned: Learned,
    /// A page is a hub when its probability is at least this.
    pub threshold: f64,
    /// Training pages and how many were hubs.
    pub examples: usize,
    pub positives: usize,
}

/// What a learner ([`HubLearner`]) learned.
#[derive(Debug, Clone, PartialEq)]
pub enum Learned {
    /// A logistic regression over the model inputs.
    Logistic(LogisticRegression),
    /// Gradient-boosted trees over the model inputs.
    Boosted(BoostedTrees),
}

/// Gradient-boosted trees over [`PageFeatures::model_inputs`]: the log-odds of a hub is the
/// base score plus the leaves a page reaches.
#[derive(Debug, Clone, PartialEq)]
pub struct BoostedTrees {
    /// Feature names, in the order the trees' splits number them.
    pub features: Vec<String>,
    /// The settings the trees were fitted with.
    pub settings: BoostSettings,
    /// Log-odds before the first tree.
    pub base_score: f64,
    pub trees: Vec<Tree>,
}

/// A hub-page model as its file holds it: the learner, then the fields of that learner only
/// (a logistic model's `mean`, `scale`, `weights` and `bias`; a boosted model's `settings`,
/// `base_score` and `trees`). A field of the other learner, or one missing, is an error.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelFile {
    cleaner: String,
    protocol: String,
    learner: HubLearner,
    features: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mean: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scale: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    weights: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bias: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    settings: Option<BoostSettings>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trees: Option<Vec<Tree>>,
    threshold: f64,
    examples: usize,
    positives: usize,
}

impl TryFrom<ModelFile> for HubModel {
    type Error = String;

    fn try_from(file: ModelFile) -> Result<HubModel, String> {
        let learned = match file.learner {
            HubLearner::Logistic => {
                match (file.mean, file.scale, file.weights, file.bias, file.settings, file.base_score, file.trees) {
                    (Some(mean), Some(scale), Some(weights), Some(bias), None, None, None) => {
                        Learned::Logistic(LogisticRegression { features: file.features, mean, scale, weights, bias })
                    }
                    _ => {
                        return Err("a logistic hub-page model has mean, scale, weights and bias, and no settings, \
                                 base_score or trees"
                            .into());
                    }
                }
            }
            HubLearner::Boosted => {
                match (file.mean, file.scale, file.weights, file.bias, file.settings, file.base_score, file.trees) {
                    (None, None, None, None, Some(settings), Some(base_score), Some(trees)) => {
                        Learned::Boosted(BoostedTrees { features: file.features, settings, base_score, trees })
                    }
                    _ => {
                        return Err("a boosted hub-page model has settings, base_score and trees, and no mean, \
                                 scale, weights or bias"
                            .into());
                    }
                }
            }
        };
        Ok(HubModel {
            cleaner: file.cleaner,
            protocol: file.protocol,
            learned,
            threshold: file.threshold,
            examples: file.examples,
            positives: file.positives,
        })
    }
}

impl From<HubModel> for ModelFile {
    fn from(model: HubModel) -> ModelFile {
        let mut file = ModelFile {
            cleaner: model.cleaner,
            protocol: model.protocol,
            learner: model.learned.learner(),
            features: Vec::new(),
            mean: None,
            scale: None,
            weights: None,
            bias: None,
            settings: None,
            base_score: None,
            trees: None,
            threshold: model.threshold,
            examples: model.examples,
            positives: model.positives,
        };
        match model.learned {
            Learned::Logistic(r) => {
                file.features = r.features;
                (file.mean, file.scale, file.weights, file.bias) =
                    (Some(r.mean), Some(r.scale), Some(r.weights), Some(r.bias));
            }
            Learned::Boosted(b) => {
                file.features = b.features;
                (file.settings, file.base_score, file.trees) = (Some(b.settings), Some(b.base_score), Some(b.trees));
            }
        }
        file
    }
}

impl Learned {
    /// The learner that learned it.
    pub fn learner(&self) -> HubLearner {
        match self {
            Learned::Logistic(_) => HubLearner::Logistic,
            Learned::Boosted(_) => HubLearner::Boosted,
        }
    }
}

/// A learner with its settings: what [`HubModel::fit`] fits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LearnerSettings {
    /// Logistic regression with the fixed settings below.
    Logistic,
    /// Gradient-boosted trees with these settings.
    Boosted(BoostSettings),
}

impl LearnerSettings {
    /// The settings as a report shows them.
    pub fn describe(&self) -> String {
        match self {
            LearnerSettings::Logistic => "logistic".into(),
            LearnerSettings::Boosted(s) => format!(
                "boosted: {} trees, depth {}, rate {}, min leaf weight {}",
                s.trees, s.max_depth, s.learning_rate, s.min_leaf_weight
            ),
        }
    }
}

/// A model file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum HubModelError {
    #[error(transparent)]
    File(#[from] ModelFileError),
    #[error(
        "the hub-page model was fitted on the output of the {model} cleaner, but {cleaner} types pages on \
         {typed_on}'s; train one with `indexer eval page-types --write-model FILE`"
    )]
    OtherCleaner { model: String, cleaner: String, typed_on: String },
    #[error("the {cleaner} cleaner has no hub-page model; set page_type.hub_model to off")]
    NoModel { cleaner: String },
    #[error("the hub-page model's tree {0} is malformed or deeper than {MAX_DEPTH} splits")]
    Tree(usize),
    #[error("the hub-page model's learner failed: {0}")]
    Learner(String),
    #[error(
        "the boosted hub-page model needs hubs and other pages among its examples ({examples} examples, {hubs} \
         hubs): fitted on one class its base score is infinite, which its file cannot hold"
    )]
    OneClass { examples: usize, hubs: usize },
}

/// The logistic learner's settings, fixed before any measurement (not tuned): a mild L2
/// penalty for a few thousand pages and twenty features, and enough steps for the loss to
/// settle.
const L2: f64 = 0.01;
const EPOCHS: usize = 3000;
const LEARNING_RATE: f64 = 0.5;

/// What errors call the model.
const MODEL: &str = "hub-page model";

impl HubModel {
    /// Reads a model from JSON and checks its shape: its learner's features must be this
    /// build's, in order, and its trees well formed.
    pub fn from_json(text: &str) -> Result<HubModel, HubModelError> {
        let model: HubModel = parse_model(text, MODEL)?;
        match &model.learned {
            Learned::Logistic(regression) => regression.check_features(MODEL, PageFeatures::NAMES)?,
            Learned::Boosted(boosted) => {
                if !boosted.features.iter().map(String::as_str).eq(PageFeatures::NAMES.iter().copied()) {
                    return Err(ModelFileError::Shape {
                        model: MODEL,
                        found: boosted.features.clone(),
                        expected: PageFeatures::NAMES.iter().map(|s| s.to_string()).collect(),
                    }
                    .into());
                }
                let width = PageFeatures::NAMES.len();
                if let Some(bad) = boosted.trees.iter().position(|t| !t.is_well_formed(width) || t.depth() > MAX_DEPTH)
                {
                    return Err(HubModelError::Tree(bad));
                }
            }
        }
        Ok(model)
    }

    /// The model in `path`, or the built-in one when `path` is `None`, for `cleaner`: it must
    /// have been fitted on the output `cleaner` types its pages on ([`typing_cleaner`]).
    pub fn load(path: Option<&std::path::Path>, cleaner: CleanerKind) -> Result<HubModel, HubModelError> {
        let typed_on =
            typing_cleaner(cleaner).ok_or_else(|| HubModelError::NoModel { cleaner: cleaner.name().into() })?;
        let model = HubModel::from_json(&model_json(path, DEFAULT_MODEL_JSON, MODEL)?)?;
        if model.cleaner != typed_on.name() {
            return Err(HubModelError::OtherCleaner {
                model: model.cleaner,
                cleaner: cleaner.name().into(),
                typed_on: typed_on.name().into(),
            });
        }
        Ok(model)
    }

    pub fn to_json(&self) -> String {
        model_file_text(self)
    }

    /// Fits a model to `examples` (features of `cleaner`'s output, is a hub: `cleaner` is a
    /// [`typing_cleaner`]) with `learner`; a page is a hub when its probability is at least
    /// `threshold` (`indexer eval page-types` chooses it, and the boosted learner's settings,
    /// by cross-validation).
    pub fn fit(
        examples: &[(PageFeatures, bool)],
        learner: &LearnerSettings,
        threshold: f64,
        cleaner: CleanerKind,
        protocol: String,
    ) -> Result<HubModel, HubModelError> {
        let learned = match learner {
            LearnerSettings::Logistic => {
                let data: Vec<(Vec<f64>, bool)> = examples.iter().map(|(f, hub)| (f.model_inputs(), *hub)).collect();
                let fit = fit_logistic_regression(&data, L2, EPOCHS, LEARNING_RATE);
                Learned::Logistic(LogisticRegression::new(PageFeatures::NAMES, fit))
            }
            LearnerSettings::Boosted(settings) => {
                let hubs = examples.iter().filter(|(_, hub)| *hub).count();
                if hubs == 0 || hubs == examples.len() {
                    return Err(HubModelError::OneClass { examples: examples.len(), hubs });
                }
                let width = PageFeatures::NAMES.len();
                let rows = examples.len();
                // Column-major, as the learner reads it.
                let mut data = vec![0.0; rows * width];
                for (r, (features, _)) in examples.iter().enumerate() {
                    for (f, value) in features.model_inputs().into_iter().enumerate() {
                        data[f * rows + r] = value;
                    }
                }
                let labels: Vec<f64> = examples.iter().map(|(_, hub)| if *hub { 1.0 } else { 0.0 }).collect();
                let (base_score, trees) = fit_booster(&data, rows, width, &labels, &vec![1.0; rows], settings)
                    .map(|booster| trees_of(&booster))
                    .map_err(HubModelError::Learner)?;
                Learned::Boosted(BoostedTrees {
                    features: PageFeatures::NAMES.iter().map(|s| s.to_string()).collect(),
                    settings: *settings,
                    base_score,
                    trees,
                })
            }
        };
        Ok(HubModel {
            cleaner: cleaner.name().to_string(),
            protocol,
            learned,
            threshold,
            examples: examples.len(),
            positives: examples.iter().filter(|(_, hub)| *hub).count(),
        })
    }

    /// The probability that the page is a hub.
    pub fn probability(&self, features: &PageFeatures) -> f64 {
        let inputs = features.model_inputs();
        match &self.learned {
            Learned::Logistic(regression) => regression.probability(&inputs),
            Learned::Boosted(boosted) => {
                probability(boosted.base_score + boosted.trees.iter().map(|t| t.predict(&inputs)).sum::<f64>())
            }
        }
    }

    pub fn is_hub(&self, features: &PageFeatures) -> bool {
        self.probability(features) >= self.threshold
    }
}
