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
use crate::clean::logistic::{
    LogisticRegression, ModelFileError, fit_logistic_regression, model_file_text, model_json, parse_model,
};
use crate::config::CleanerKind;

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

/// A trained hub-page model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HubModel {
    /// The cleaner whose output the features were taken from ([`typing_cleaner`]); a cleaner
    /// uses only a model fitted on the output it types its pages on.
    pub cleaner: String,
    /// How the model was trained: data, labels, learner.
    pub protocol: String,
    /// The logistic regression over [`PageFeatures::NAMES`].
    #[serde(flatten)]
    pub regression: LogisticRegression,
    /// A page is a hub when its probability is at least this.
    pub threshold: f64,
    /// Training pages and how many were hubs.
    pub examples: usize,
    pub positives: usize,
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
}

/// The learner's settings, fixed before any measurement (not tuned): a mild L2 penalty for a
/// few thousand pages and twenty features, and enough steps for the loss to settle.
const L2: f64 = 0.01;
const EPOCHS: usize = 3000;
const LEARNING_RATE: f64 = 0.5;

/// What errors call the model.
const MODEL: &str = "hub-page model";

impl HubModel {
    /// Reads a model from JSON and checks its shape.
    pub fn from_json(text: &str) -> Result<HubModel, HubModelError> {
        let model: HubModel = parse_model(text, MODEL)?;
        model.regression.check_features(MODEL, PageFeatures::NAMES)?;
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
    /// [`typing_cleaner`]) with the fixed learner settings; a page is a hub when its probability is at least `threshold`
    /// (`indexer eval page-types` chooses it by cross-validation).
    pub fn fit(examples: &[(PageFeatures, bool)], threshold: f64, cleaner: CleanerKind, protocol: String) -> HubModel {
        let data: Vec<(Vec<f64>, bool)> = examples.iter().map(|(f, hub)| (f.model_inputs(), *hub)).collect();
        let fit = fit_logistic_regression(&data, L2, EPOCHS, LEARNING_RATE);
        HubModel {
            cleaner: cleaner.name().to_string(),
            protocol,
            regression: LogisticRegression::new(PageFeatures::NAMES, fit),
            threshold,
            examples: examples.len(),
            positives: examples.iter().filter(|(_, hub)| *hub).count(),
        }
    }

    /// The probability that the page is a hub.
    pub fn probability(&self, features: &PageFeatures) -> f64 {
        self.regression.probability(&features.model_inputs())
    }

    pub fn is_hub(&self, features: &PageFeatures) -> bool {
        self.probability(features) >= self.threshold
    }
}
