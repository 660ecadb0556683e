//! `indexer eval page-types`: the page types of the configured cleaner against page types
//! labelled by people, on the cleaning training sets, with the hub-page model
//! ([`crate::clean::HubModel`]) cross-validated by site. No test set is read.
//!
//! Protocol:
//! - Data: the `[[training_sets]]` of the cleaning configuration. A page's label is the first
//!   tag of its set's `meta.tsv` `extra` when that is a WCXB page type ([`WCXB_TYPES`]:
//!   wcxb-train); the pages of the other sets (dragnet-train, page-signal: news articles, by
//!   their READMEs) are labelled `article`.
//! - Expected type: hub for `listing` and `collection` ([`HUB_LABELS`]: their content is
//!   entries linking elsewhere, §4.1's hub page); topic for every other label.
//! - Pages: each cleaned by the configured cleaner (site evidence learned over its set, as
//!   `eval clean` does), typed by the rules of §4.1 alone, and its [`PageFeatures`] taken
//!   (for `docview` and `blocks`, of docview's result).
//! - Model: [`HubModel::fit`] (fixed learner settings) on those features, over the pages of the fit sets (`--fit-set`, default every set); its
//!   threshold is the one of a grid with the best mean accuracy over the sets by
//!   cross-validation. Nested cross-validation: `folds` folds by site (the folds of `eval
//!   tune-cleaner`); each page is typed by the model fitted on the fit sets' pages of the other
//!   folds, at the threshold chosen by cross-validation inside those folds. The shipped model
//!   (`--write-model`) is fitted on every page of the fit sets, at the threshold chosen over
//!   every fold. `docview` and `blocks` type pages on docview's result, so the features, and
//!   the model, are the same under either ([`typing_cleaner`]).
//! - Accuracy: the share of pages whose type is hub exactly when the expected type is hub.
//! - Also, per set, the pages whose topic content is under 200 characters where the gold
//!   text has over 500 (an article lost), and the pages with no topic content that are not
//!   typed empty.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use super::clean::{CleanEvalError, GoldSet};
use super::clean_report::GoldSetConfig;
use super::tune_cleaner::fold_of;
use crate::clean::block_classifier::BoostSettings;
use crate::clean::{
    Cleaner, HeadlinePlacement, HubModel, HubModelError, Learned, LearnerSettings, PageFeatures, block_weights, retype,
    site_of, typing_cleaner,
};
use crate::config::{CleanerKind, Config, HubLearner, PageTypeConfig};
use crate::input::RawPage;
use crate::page::PageContext;
use crate::tagtree::BlockType;
use crate::text::StopWords;

/// The page types of WCXB (the first tag of wcxb-train's `meta.tsv` `extra`).
pub const WCXB_TYPES: &[&str] = &["article", "collection", "documentation", "forum", "listing", "product", "service"];

/// The labels whose pages are hub pages.
pub const HUB_LABELS: &[&str] = &["listing", "collection"];

/// The types a page can get, in the columns' order.
const TYPES: [BlockType; 4] = [BlockType::Topic, BlockType::Hub, BlockType::Image, BlockType::Empty];

/// Topic content this short…
pub const SHORT_OUTPUT_CHARS: usize = 200;
/// …where the gold text is this long: an article lost.
pub const LONG_GOLD_CHARS: usize = 500;

/// What to measure.
#[derive(Debug, Clone)]
pub struct PageTypeOptions {
    pub sets: Vec<GoldSetConfig>,
    /// The sets the model is fitted on (empty: every set).
    pub fit_sets: Vec<String>,
    pub folds: usize,
    /// Partitions of the pages into folds by site scored by nested cross-validation: the
    /// shipped folds, then `partitions - 1` others ([`other_fold`]); at least 1.
    pub partitions: usize,
    pub max_pages: Option<usize>,
    /// The settings pages are cleaned with (the cleaner is `cleaning.cleaner`).
    pub config: Config,
}

/// One training page, cleaned and typed.
struct TypedPage {
    set: usize,
    stem: String,
    label: String,
    fold: usize,
    /// The site the other partitions draw folds by ([`partition_site`]).
    partition_site: String,
    rule_type: BlockType,
    features: PageFeatures,
    output_chars: usize,
    gold_chars: usize,
    no_content: bool,
}

impl TypedPage {
    fn expects_hub(&self) -> bool {
        HUB_LABELS.contains(&self.label.as_str())
    }
}

/// Pages of one label of one set, counted by type (in the order topic, hub, image, empty).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ConfusionRow {
    pub set: String,
    pub label: String,
    pub pages: usize,
    pub rules: [usize; 4],
    pub model: [usize; 4],
}

/// Per set: accuracy and the lost-article counts.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SetPageTypes {
    pub set: String,
    pub pages: usize,
    pub rules_accuracy: f64,
    pub model_accuracy: f64,
    /// Topic content under [`SHORT_OUTPUT_CHARS`] where gold has over [`LONG_GOLD_CHARS`].
    pub lost_articles: usize,
    /// Pages with no topic content whose type is not empty.
    pub typed_without_content: usize,
}

/// One partition's nested cross-validation: accuracy per set (in the sets' order), and the
/// pages typed hub by label.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PartitionSummary {
    /// 0: the shipped folds ([`fold_of`]); 1, 2, …: [`other_fold`] with that seed.
    pub partition: usize,
    pub accuracy: Vec<f64>,
    /// Listings and collections typed hub.
    pub hubs_typed_hub: usize,
    /// Articles typed hub.
    pub articles_typed_hub: usize,
    /// Pages of the other labels typed hub.
    pub others_typed_hub: usize,
    pub fold_choices: Vec<(String, f64)>,
}

/// What `eval page-types` measured.
#[derive(Debug, Clone, Serialize)]
pub struct PageTypeReport {
    pub cleaner: String,
    pub fit_sets: Vec<String>,
    pub folds: usize,
    /// The learner (`page_type.learner`).
    pub learner: HubLearner,
    /// The learner settings and threshold each fold's model used, chosen inside the other
    /// folds.
    pub fold_choices: Vec<(String, f64)>,
    /// The nested cross-validation's figures on the shipped folds (partition 0), then on the
    /// site folds drawn again with other hashes (`--partitions`).
    pub partitions: Vec<PartitionSummary>,
    pub types: Vec<String>,
    pub rows: Vec<ConfusionRow>,
    pub sets: Vec<SetPageTypes>,
    /// The model fitted on every page of the fit sets, with the threshold chosen by
    /// cross-validation over every fold.
    pub model: HubModel,
    /// Every page: set, stem, label, fold, the rules' type, the cross-validated probability
    /// of a hub, the features.
    #[serde(skip)]
    pub pages: Vec<(String, String, String, usize, BlockType, f64, PageFeatures)>,
}

/// A set's page labels from its `meta.tsv`: the first tag of `extra` when it is a WCXB type.
fn labels(html_dir: &Path) -> HashMap<String, String> {
    let meta = html_dir.parent().unwrap_or(Path::new(".")).join("meta.tsv");
    let Ok(text) = std::fs::read_to_string(meta) else { return HashMap::new() };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let id = fields.next()?;
            let first = fields.nth(1)?.split(',').next()?.trim();
            WCXB_TYPES.contains(&first).then(|| (id.to_string(), first.to_string()))
        })
        .collect()
}

fn column(page_type: BlockType) -> usize {
    TYPES.iter().position(|&t| t == page_type).unwrap_or(3)
}

/// Cleans and types every page of `sets`, fits and cross-validates the hub-page model.
pub fn evaluate_page_types(
    options: &PageTypeOptions,
    progress: impl Fn(&str),
) -> Result<PageTypeReport, CleanEvalError> {
    let config = &options.config;
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(config, &stop_words)
        .map_err(|e| CleanEvalError { path: "configuration".into(), message: e.to_string() })?;
    let cleaner_error = |e: crate::clean::CleanerError| CleanEvalError { path: e.path, message: e.message };
    let fit_indices: Vec<usize> = if options.fit_sets.is_empty() {
        (0..options.sets.len()).collect()
    } else {
        let index = |name: &String| {
            options.sets.iter().position(|s| &s.name == name).ok_or_else(|| CleanEvalError {
                path: "[[training_sets]]".into(),
                message: format!("no training set named {name}"),
            })
        };
        options.fit_sets.iter().map(index).collect::<Result<_, _>>()?
    };
    let mut pages: Vec<TypedPage> = Vec::new();
    for (index, set_config) in options.sets.iter().enumerate() {
        let mut set = GoldSet::open(&set_config.html, &set_config.gold)?;
        if let Some(n) = options.max_pages {
            set.pages.truncate(n);
        }
        let labels = labels(&set_config.html);
        let raw: Vec<RawPage> = set.pages.iter().map(|p| p.raw_page()).collect();
        let mut cleaner = Cleaner::new(config.cleaning.cleaner, config).map_err(cleaner_error)?;
        cleaner.learn_from_pages(&raw, |page| ctx.tag_tree(page).0);
        let typed: Vec<TypedPage> = set
            .pages
            .par_iter()
            .zip(raw.par_iter())
            .map(|(page, raw)| {
                let (tree, _) = ctx.tag_tree(raw);
                let weights = block_weights(&tree, &config.block_weight);
                let site = site_of(&page.url);
                let (content, features) = cleaner.clean_by_rules(&site, &tree, &weights, config, true);
                let output = content.text_with(&tree, HeadlinePlacement::default());
                TypedPage {
                    set: index,
                    stem: page.stem.clone(),
                    label: labels.get(&page.stem).cloned().unwrap_or_else(|| "article".into()),
                    fold: fold_of(&site, options.folds),
                    partition_site: partition_site(&set_config.name, &page.stem, &page.url),
                    rule_type: content.page_type,
                    // `docview` and `blocks` give the features with their site templates marked;
                    // the other cleaners are typed on the page's own layout.
                    features: features.unwrap_or_else(|| {
                        PageFeatures::of(&tree, &crate::clean::Layout::of(&tree, &config.layout), &content)
                    }),
                    output_chars: output.trim().chars().count(),
                    gold_chars: page.gold.trim().chars().count(),
                    no_content: content.nodes.is_empty(),
                }
            })
            .collect();
        progress(&format!("{}: {} pages cleaned and typed", set_config.name, typed.len()));
        pages.extend(typed);
    }
    let is_example: Vec<bool> = pages.iter().map(|p| fit_indices.contains(&p.set)).collect();
    // The output the features were taken from: docview's for `docview` and `blocks`.
    let typed_on = typing_cleaner(config.cleaning.cleaner).unwrap_or(config.cleaning.cleaner);
    let candidates = learner_candidates(config.page_type.learner);
    let cv = CrossValidation {
        pages: &pages,
        is_example: &is_example,
        folds: options.folds,
        candidates: &candidates,
        typed_on,
        config: &config.page_type,
    };
    let shipped_folds: Vec<usize> = pages.iter().map(|p| p.fold).collect();
    let nested = cv.nested(&shipped_folds).map_err(model_error)?;
    let (model_types, probabilities) = (nested.types.clone(), nested.probabilities.clone());
    let mut partitions = vec![cv.summary(0, &nested)];
    for seed in 1..options.partitions {
        let folds: Vec<usize> = pages.iter().map(|p| other_fold(seed, &p.partition_site, options.folds)).collect();
        partitions.push(cv.summary(seed, &cv.nested(&folds).map_err(model_error)?));
        progress(&format!("partition {seed} of {}: nested cross-validation done", options.partitions - 1));
    }
    // The shipped model: the learner's settings and threshold chosen by cross-validation over
    // every fold, the model fitted on every example.
    let all: Vec<usize> = (0..pages.len()).collect();
    let (learner, threshold) = cv.choose(&all, &shipped_folds).map_err(model_error)?;
    let fit_names: Vec<&str> = fit_indices.iter().map(|&i| options.sets[i].name.as_str()).collect();
    let learner_text = match config.page_type.learner {
        HubLearner::Logistic => "logistic regression on standardised features, full-batch gradient descent, fixed \
                                 settings"
            .to_string(),
        HubLearner::Boosted => format!(
            "gradient-boosted trees (forust-ml, log loss, rate {BOOSTED_RATE}, L2 {BOOSTED_L2}, min leaf weight \
             {BOOSTED_MIN_LEAF_WEIGHT}), trees and depth chosen with the threshold from {grid} (ties: the first)",
            grid = candidates.iter().map(LearnerSettings::describe).collect::<Vec<_>>().join("; ")
        ),
    };
    let protocol = format!(
        "indexer eval page-types. Examples: every page of {fit}, cleaned by the {cleaner} cleaner under the \
         settings of the run; features clean::PageFeatures of the page, its central area, the topic content of \
         the {typed_on} cleaner's result (on which {cleaner} types pages) and the type section 4.1 gives it (shares read as ln(0.01 + share)). Label: hub when the page's WCXB type \
         (meta.tsv) is {hubs}, else not (the other sets are news articles). Learner: {learner_text}. Threshold: the one of {grid} with \
         the best mean accuracy over the sets by {folds}-fold cross-validation by site (ties: the highest).",
        fit = fit_names.join(", "),
        cleaner = config.cleaning.cleaner.name(),
        typed_on = typed_on.name(),
        hubs = HUB_LABELS.join(" or "),
        grid = "0.05, 0.10 ... 0.95",
        folds = options.folds,
    );
    let shipped = HubModel::fit(&examples_of(&pages, &all, &is_example), &learner, threshold, typed_on, protocol)
        .map_err(model_error)?;

    let mut rows: BTreeMap<(usize, String), ConfusionRow> = BTreeMap::new();
    for (page, &model_type) in pages.iter().zip(&model_types) {
        let row = rows.entry((page.set, page.label.clone())).or_insert_with(|| ConfusionRow {
            set: options.sets[page.set].name.clone(),
            label: page.label.clone(),
            pages: 0,
            rules: [0; 4],
            model: [0; 4],
        });
        row.pages += 1;
        row.rules[column(page.rule_type)] += 1;
        row.model[column(model_type)] += 1;
    }
    let sets = options
        .sets
        .iter()
        .enumerate()
        .map(|(index, set)| {
            let of_set: Vec<(&TypedPage, BlockType)> =
                pages.iter().zip(model_types.iter().copied()).filter(|(p, _)| p.set == index).collect();
            let n = of_set.len().max(1) as f64;
            let right = |typed: &dyn Fn(&(&TypedPage, BlockType)) -> BlockType| {
                of_set.iter().filter(|pair| (typed(pair) == BlockType::Hub) == pair.0.expects_hub()).count() as f64 / n
            };
            SetPageTypes {
                set: set.name.clone(),
                pages: of_set.len(),
                rules_accuracy: right(&|(p, _)| p.rule_type),
                model_accuracy: right(&|(_, t)| *t),
                lost_articles: of_set
                    .iter()
                    .filter(|(p, _)| p.output_chars < SHORT_OUTPUT_CHARS && p.gold_chars > LONG_GOLD_CHARS)
                    .count(),
                typed_without_content: of_set.iter().filter(|(p, t)| p.no_content && *t != BlockType::Empty).count(),
            }
        })
        .collect();
    Ok(PageTypeReport {
        cleaner: config.cleaning.cleaner.name().to_string(),
        fit_sets: fit_names.iter().map(|s| s.to_string()).collect(),
        folds: options.folds,
        learner: config.page_type.learner,
        fold_choices: nested.choices.iter().map(|(l, t)| (l.describe(), *t)).collect(),
        partitions,
        types: TYPES.iter().map(|t| t.as_str().to_string()).collect(),
        rows: rows.into_values().collect(),
        sets,
        model: shipped,
        pages: pages
            .iter()
            .zip(&probabilities)
            .map(|(p, &probability)| {
                let set = options.sets[p.set].name.clone();
                (set, p.stem.clone(), p.label.clone(), p.fold, p.rule_type, probability, p.features)
            })
            .collect(),
    })
}

/// The thresholds tried: 0.05, 0.10 … 0.95.
fn thresholds() -> impl Iterator<Item = f64> {
    (1..20).map(|step| step as f64 * 0.05)
}

/// Examples of the pages `scope` that are in a fit set.
fn examples_of(pages: &[TypedPage], scope: &[usize], is_example: &[bool]) -> Vec<(PageFeatures, bool)> {
    scope.iter().filter(|&&i| is_example[i]).map(|&i| (pages[i].features, pages[i].expects_hub())).collect()
}

fn model_error(e: HubModelError) -> CleanEvalError {
    CleanEvalError { path: "hub-page model".into(), message: e.to_string() }
}

/// The boosted learner's fixed settings (not tuned): a mild shrinkage, the learner's default
/// L2, and leaves that may be small (hubs are a few in a hundred training pages, so a leaf
/// of hubs holds few).
const BOOSTED_RATE: f64 = 0.1;
const BOOSTED_L2: f64 = 1.0;
const BOOSTED_MIN_LEAF_WEIGHT: f64 = 0.1;

/// The boosted learner's grid (trees, depth), small to large: the one chosen with the
/// threshold by cross-validation inside the training folds, never on the fold scored.
const BOOSTED_GRID: &[(usize, usize)] = &[(25, 2), (50, 2), (100, 2), (25, 3), (50, 3), (100, 3)];

/// The settings `eval page-types` chooses among for `learner`, in order of preference on a tie.
pub fn learner_candidates(learner: HubLearner) -> Vec<LearnerSettings> {
    match learner {
        HubLearner::Logistic => vec![LearnerSettings::Logistic],
        HubLearner::Boosted => BOOSTED_GRID
            .iter()
            .map(|&(trees, max_depth)| {
                LearnerSettings::Boosted(BoostSettings {
                    trees,
                    learning_rate: BOOSTED_RATE,
                    max_depth,
                    l2: BOOSTED_L2,
                    min_leaf_weight: BOOSTED_MIN_LEAF_WEIGHT,
                })
            })
            .collect(),
    }
}

/// The fold of a page's site in partition `seed` (1, 2, …): md5 of "seed:site" as a number,
/// modulo `folds`. Partition 0 is the folds of `eval tune-cleaner` ([`fold_of`]).
pub fn other_fold(seed: usize, site: &str, folds: usize) -> usize {
    use md5::{Digest, Md5};
    let digest = Md5::digest(format!("{seed}:{site}").as_bytes());
    (u128::from_be_bytes(digest.into()) % folds.max(1) as u128) as usize
}

/// The site a page is drawn into the other partitions by: the URL's host, or the set and the
/// page where there is no web URL (each such page its own site).
fn partition_site(set: &str, stem: &str, url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .filter(|u| u.scheme() == "http" || u.scheme() == "https")
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| format!("{set}/{stem}"))
}

/// A nested cross-validation's result: each page's type and hub probability from the model
/// fitted without its fold, and each fold's learner settings and threshold.
struct Nested {
    types: Vec<BlockType>,
    probabilities: Vec<f64>,
    choices: Vec<(LearnerSettings, f64)>,
}

/// The pages and protocol the cross-validations share.
struct CrossValidation<'a> {
    pages: &'a [TypedPage],
    is_example: &'a [bool],
    folds: usize,
    candidates: &'a [LearnerSettings],
    typed_on: CleanerKind,
    config: &'a PageTypeConfig,
}

impl CrossValidation<'_> {
    /// Nested cross-validation over the folds `fold_of` (one per page): each fold's pages
    /// typed by the model fitted on the other folds, with the learner's settings and the
    /// threshold chosen by cross-validation inside those folds.
    fn nested(&self, fold_of: &[usize]) -> Result<Nested, HubModelError> {
        let all: Vec<usize> = (0..self.pages.len()).collect();
        let outer: Vec<(usize, LearnerSettings, f64, HubModel)> = (0..self.folds)
            .into_par_iter()
            .map(|fold| {
                let training: Vec<usize> = all.iter().copied().filter(|&i| fold_of[i] != fold).collect();
                let (learner, threshold) = self.choose(&training, fold_of)?;
                let examples = examples_of(self.pages, &training, self.is_example);
                let model = HubModel::fit(&examples, &learner, threshold, self.typed_on, String::new())?;
                Ok((fold, learner, threshold, model))
            })
            .collect::<Result<_, HubModelError>>()?;
        let mut nested = Nested {
            types: vec![BlockType::Empty; self.pages.len()],
            probabilities: vec![0.0; self.pages.len()],
            choices: Vec::new(),
        };
        for (fold, learner, threshold, model) in outer {
            for (i, page) in self.pages.iter().enumerate().filter(|&(i, _)| fold_of[i] == fold) {
                nested.probabilities[i] = model.probability(&page.features);
                nested.types[i] = retype(page.rule_type, &page.features, model.is_hub(&page.features), self.config);
            }
            nested.choices.push((learner, threshold));
        }
        Ok(nested)
    }

    /// The learner settings and threshold with the best mean accuracy over the sets by
    /// cross-validation over the folds `fold_of` of the pages `scope` (ties: the earlier
    /// settings, then the higher threshold).
    fn choose(&self, scope: &[usize], fold_of: &[usize]) -> Result<(LearnerSettings, f64), HubModelError> {
        let mut best: Option<(f64, LearnerSettings, f64)> = None;
        for learner in self.candidates {
            let scored = self.out_of_fold(scope, fold_of, learner)?;
            let (accuracy, threshold) = choose_threshold(self.pages, &scored, self.config);
            if best.as_ref().is_none_or(|(a, _, _)| accuracy > *a + 1e-12) {
                best = Some((accuracy, *learner, threshold));
            }
        }
        let (_, learner, threshold) = best.expect("a learner to choose from");
        Ok((learner, threshold))
    }

    /// The probability of a hub of every page of `scope`, each from the model of `learner`
    /// fitted on the examples of `scope` outside its fold: (page, probability).
    fn out_of_fold(
        &self,
        scope: &[usize],
        fold_of: &[usize],
        learner: &LearnerSettings,
    ) -> Result<Vec<(usize, f64)>, HubModelError> {
        let per_fold: Vec<Vec<(usize, f64)>> = (0..self.folds)
            .into_par_iter()
            .map(|fold| {
                let training: Vec<usize> = scope.iter().copied().filter(|&i| fold_of[i] != fold).collect();
                let examples = examples_of(self.pages, &training, self.is_example);
                let model = if examples.is_empty() {
                    None
                } else {
                    Some(HubModel::fit(&examples, learner, 0.5, self.typed_on, String::new())?)
                };
                Ok(scope
                    .iter()
                    .filter(|&&i| fold_of[i] == fold)
                    .map(|&i| (i, model.as_ref().map_or(0.0, |m| m.probability(&self.pages[i].features))))
                    .collect())
            })
            .collect::<Result<_, HubModelError>>()?;
        Ok(per_fold.into_iter().flatten().collect())
    }

    /// What partition `seed`'s nested cross-validation typed hub, and its accuracy per set.
    fn summary(&self, seed: usize, nested: &Nested) -> PartitionSummary {
        let mut summary = PartitionSummary {
            partition: seed,
            accuracy: Vec::new(),
            hubs_typed_hub: 0,
            articles_typed_hub: 0,
            others_typed_hub: 0,
            fold_choices: nested.choices.iter().map(|(l, t)| (l.describe(), *t)).collect(),
        };
        let mut by_set: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
        for (page, &typed) in self.pages.iter().zip(&nested.types) {
            let hub = typed == BlockType::Hub;
            let entry = by_set.entry(page.set).or_default();
            entry.0 += usize::from(hub == page.expects_hub());
            entry.1 += 1;
            if hub {
                match page.label.as_str() {
                    _ if page.expects_hub() => summary.hubs_typed_hub += 1,
                    "article" => summary.articles_typed_hub += 1,
                    _ => summary.others_typed_hub += 1,
                }
            }
        }
        summary.accuracy = by_set.values().map(|&(right, n)| right as f64 / n.max(1) as f64).collect();
        summary
    }
}

/// The threshold with the best mean over the sets of the accuracy of `scored` pages (typed
/// by [`retype`] at that threshold), and that accuracy; ties go to the highest (fewer pages
/// called hubs).
fn choose_threshold(pages: &[TypedPage], scored: &[(usize, f64)], config: &PageTypeConfig) -> (f64, f64) {
    let mut best = (f64::NEG_INFINITY, 0.5);
    for threshold in thresholds() {
        // (right, pages) per set
        let mut by_set: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
        for &(i, probability) in scored {
            let page = &pages[i];
            let typed = retype(page.rule_type, &page.features, probability >= threshold, config);
            let entry = by_set.entry(page.set).or_default();
            entry.0 += usize::from((typed == BlockType::Hub) == page.expects_hub());
            entry.1 += 1;
        }
        let mean = by_set.values().map(|&(right, n)| right as f64 / n as f64).sum::<f64>() / by_set.len().max(1) as f64;
        if mean >= best.0 - 1e-12 {
            best = (mean, threshold);
        }
    }
    best
}

/// The report as markdown (deterministic).
pub fn page_type_markdown(report: &PageTypeReport, command: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Page types on the cleaning training sets\n\n`{command}`\n\nCleaner: {}. Labels: the WCXB page type \
         of meta.tsv where a set gives one (wcxb-train); the pages of the other sets are news articles. Expected type: hub for {}, topic otherwise. \
         \"rules\": §4.1 as the cleaner types pages; \"model\": the hub-page model fitted on {} (its inputs \
         include the rules' verdict), by nested {}-fold cross-validation by site: each page typed by the model \
         fitted without its fold, with the learner's settings and the threshold chosen by cross-validation \
         inside the other folds (per fold: {}). Accuracy: hub exactly when expected. Training data only; no \
         test set is read.\n",
        report.cleaner,
        HUB_LABELS.join(", "),
        report.fit_sets.join(", "),
        report.folds,
        report.fold_choices.iter().map(|(l, t)| format!("{l} at {t:.2}")).collect::<Vec<_>>().join("; "),
    );
    let types = report.types.join(" / ");
    let _ = writeln!(md, "## Confusion\n\n| set | label | pages | rules: {types} | model (CV): {types} |");
    let _ = writeln!(md, "|---|---|---:|---|---|");
    let counts = |c: &[usize; 4]| c.iter().map(usize::to_string).collect::<Vec<_>>().join(" / ");
    for row in &report.rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            row.set,
            row.label,
            row.pages,
            counts(&row.rules),
            counts(&row.model)
        );
    }
    let _ = writeln!(
        md,
        "\n## Per set\n\n| set | pages | accuracy, rules | accuracy, model (CV) | topic content < {SHORT_OUTPUT_CHARS} \
         chars, gold > {LONG_GOLD_CHARS} | no topic content, not typed empty |\n|---|---:|---:|---:|---:|---:|"
    );
    for set in &report.sets {
        let _ = writeln!(
            md,
            "| {} | {} | {:.3} | {:.3} | {} | {} |",
            set.set, set.pages, set.rules_accuracy, set.model_accuracy, set.lost_articles, set.typed_without_content
        );
    }
    let _ = writeln!(
        md,
        "\n## Partitions\n\nThe nested cross-validation on the shipped folds (0) and on the site folds drawn \
         again with other hashes (md5 of \"seed:site\").\n\n| partition | accuracy ({}) | listings + collections \
         hub | articles hub | other pages hub |\n|---:|---|---:|---:|---:|",
        report.sets.iter().map(|s| s.set.as_str()).collect::<Vec<_>>().join(" / ")
    );
    for p in &report.partitions {
        let accuracy = p.accuracy.iter().map(|a| format!("{a:.3}")).collect::<Vec<_>>().join(" / ");
        let _ = writeln!(
            md,
            "| {} | {accuracy} | {} | {} | {} |",
            p.partition, p.hubs_typed_hub, p.articles_typed_hub, p.others_typed_hub
        );
    }
    if report.partitions.len() > 1 {
        let others = &report.partitions[1..];
        let sum = |f: fn(&PartitionSummary) -> usize| others.iter().map(f).sum::<usize>();
        let _ = writeln!(
            md,
            "| sum of the others | | {} | {} | {} |",
            sum(|p| p.hubs_typed_hub),
            sum(|p| p.articles_typed_hub),
            sum(|p| p.others_typed_hub)
        );
    }
    let model = &report.model;
    let _ = writeln!(
        md,
        "\n## The model fitted on every page of {} ({} pages, {} hubs)\n\nThreshold {:.2}, chosen by {}-fold \
         cross-validation over every fold. Shares enter as ln(0.01 + share).\n",
        report.fit_sets.join(", "),
        model.examples,
        model.positives,
        model.threshold,
        report.folds,
    );
    match &model.learned {
        Learned::Logistic(regression) => {
            let _ = writeln!(md, "| feature | weight (standardised) |\n|---|---:|");
            for (name, weight) in regression.features.iter().zip(&regression.weights) {
                let _ = writeln!(md, "| {name} | {weight:.3} |");
            }
            let _ = writeln!(md, "| intercept | {:.3} |", regression.bias);
        }
        Learned::Boosted(boosted) => {
            let settings = LearnerSettings::Boosted(boosted.settings).describe();
            let _ = writeln!(md, "Learner {settings}.\n\n| feature | splits |\n|---|---:|");
            let mut splits = vec![0usize; boosted.features.len()];
            for feature in boosted.trees.iter().flat_map(|t| t.feature.iter()).filter(|&&f| f >= 0) {
                splits[*feature as usize] += 1;
            }
            for (name, n) in boosted.features.iter().zip(&splits) {
                let _ = writeln!(md, "| {name} | {n} |");
            }
        }
    }
    md
}

/// Every page's figures as TSV: set, stem, label, fold, the rules' type, the cross-validated
/// probability of a hub, then the features as measured ([`PageFeatures::NAMES`]).
pub fn page_features_tsv(report: &PageTypeReport) -> String {
    let mut tsv = format!("set\tstem\tlabel\tfold\trules\tcv_hub_probability\t{}\n", PageFeatures::NAMES.join("\t"));
    for (set, stem, label, fold, rules, probability, features) in &report.pages {
        let values: Vec<String> = features.to_vec().iter().map(|v| format!("{v:.4}")).collect();
        let rules = rules.as_str();
        let _ = writeln!(tsv, "{set}\t{stem}\t{label}\t{fold}\t{rules}\t{probability:.4}\t{}", values.join("\t"));
    }
    tsv
}

/// Writes report.md and report.json to `out`.
pub fn write_page_type_report(report: &PageTypeReport, out: &Path, command: &str) -> Result<(), CleanEvalError> {
    let error =
        |path: &Path, e: std::io::Error| CleanEvalError { path: path.display().to_string(), message: e.to_string() };
    std::fs::create_dir_all(out).map_err(|e| error(out, e))?;
    let md = out.join("report.md");
    std::fs::write(&md, page_type_markdown(report, command)).map_err(|e| error(&md, e))?;
    let json = out.join("report.json");
    let text = serde_json::to_string_pretty(report).expect("a report serialises") + "\n";
    std::fs::write(&json, text).map_err(|e| error(&json, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_learner_is_chosen_in_the_configuration_and_an_unknown_one_is_an_error() {
        let config: Config = toml::from_str("[page_type]\nlearner = \"boosted\"\n").unwrap();
        assert_eq!(config.page_type.learner, HubLearner::Boosted);
        assert_eq!(Config::default().page_type.learner, HubLearner::Logistic);
        assert!(toml::from_str::<Config>("[page_type]\nlearner = \"forest\"\n").is_err());
        assert_eq!(learner_candidates(HubLearner::Logistic), [LearnerSettings::Logistic]);
        let boosted = learner_candidates(HubLearner::Boosted);
        assert!(boosted.len() > 1, "the boosted learner's size is chosen among several");
        assert!(boosted.iter().all(|l| matches!(l, LearnerSettings::Boosted(s) if s.max_depth <= 3)));
    }

    #[test]
    fn other_partitions_draw_sites_into_folds_apart_from_the_shipped_ones() {
        assert_eq!(partition_site("wcxb-train", "0001", "https://News.Example.com/a/b"), "news.example.com");
        assert_eq!(partition_site("dragnet-train", "R1", "file:///data/R1.html"), "dragnet-train/R1");
        let sites: Vec<String> = (0..200).map(|i| format!("site{i}.example")).collect();
        for seed in 1..5 {
            let folds: Vec<usize> = sites.iter().map(|s| other_fold(seed, s, 5)).collect();
            assert!(folds.iter().all(|&f| f < 5));
            assert!((0..5).all(|f| folds.contains(&f)), "every fold drawn");
            assert_eq!(folds, sites.iter().map(|s| other_fold(seed, s, 5)).collect::<Vec<_>>(), "deterministic");
        }
        let shipped: Vec<usize> = sites.iter().map(|s| fold_of(s, 5)).collect();
        let first: Vec<usize> = sites.iter().map(|s| other_fold(1, s, 5)).collect();
        assert_ne!(shipped, first);
        // As eval/page-types/nested_cv.py draws them: int(md5("seed:site").hexdigest(), 16) % 5.
        let python = [(1, "a", 0), (2, "news.example.com", 3), (3, "dragnet-train/R1", 1), (4, "b", 0)];
        for (seed, site, fold) in python {
            assert_eq!(other_fold(seed, site, 5), fold, "{seed}:{site}");
        }
    }
}
