//! `indexer eval train-blocks`: trains the block classifier ([`crate::clean::block_classifier`])
//! on the cleaning training sets and measures it by k-fold cross-validation by site, never
//! reading a test set.
//!
//! Protocol (recorded in the model file it writes):
//! - Data: the `[[training_sets]]` of the cleaning configuration (`../shared/data/clean-train`).
//!   Pages whose gold is mostly absent from the HTML (`gold_not_visible` in the set's
//!   `meta.tsv`) are never trained on; they are scored like the others.
//! - Examples: every block of a page (a container with terms of its own), its features
//!   computed on the tag tree and the `docview` cleaner's result under the current
//!   `[cleaning]` settings. Label: content when at least `blocks.label_min_gold_share` of the
//!   word trigrams of the text extraction writes for it (tokens of `eval clean`; a block of one
//!   or two tokens: its words or its bigram) are trigrams of the page's gold text; blocks
//!   without such tokens, and the title heading's block when it holds only the headline, are
//!   not examples. Trigrams, not words: a menu's words are in most gold texts. Weight: the block's share of its page's tokens,
//!   scaled so the weights average 1: every page counts alike, as in the metric, and within a
//!   page a block counts by its tokens. (`blocks.labels = "aligned"` and
//!   `blocks.example_weight = "sqrt-tokens"` are the measured alternatives, README.)
//! - Vocabulary: the `blocks.vocabulary_size` class and id words found on most training
//!   pages (ties in alphabetical order), learned from the pages of each fit.
//! - Learner: gradient-boosted trees (`forust-ml`, log loss) with the `[blocks]` settings.
//! - Folds: `blocks.folds` by site (the folds of `eval tune-cleaner`). For each fold, the
//!   threshold is chosen on the next fold by a model fitted on the remaining ones (the grid
//!   [`THRESHOLDS`], objective the mean over sets of `eval clean`'s F1), then a model fitted
//!   on all other folds scores the fold's pages with it. Cross-validated F1 pools the folds.
//! - Shipped model: fitted on every training page; its threshold is the grid value with the
//!   best mean F1 over the out-of-fold probabilities of the cross-validation.
//! - Stacked (`--stacking`): the shipped first stage as above; a second stage, same learner
//!   settings, on the block features plus [`context_features`] of the first stage's
//!   out-of-fold probabilities of the cross-validation (as the cleaner's first stage reads a
//!   page it was not fitted on), fitted on every training page. Its threshold: the grid value
//!   with the best mean F1 over the second stage's out-of-fold probabilities, each fold read
//!   by a second stage fitted on the other folds (whose rows' first-stage probabilities came
//!   from fits that did see that fold: a little less strictly held out than the grid's
//!   pairwise first stages, `grid.rs`). The report's cross-validated F1 stays the first
//!   stage's; the grid's stacked row is the second stage's cross-validated figure.

mod grid;

pub use grid::{GridReport, GridSetting, GridSpec, grid_blocks, grid_markdown, write_grid_report};

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use super::clean::{CleanEvalError, GoldSet, PageScore, aggregate, for_each_score_token};
use super::clean_report::{CrossValidatedF1, GoldSetConfig};
use super::tune_cleaner::seeded_fold_of;
use crate::clean::block_classifier::{
    BlockModel, BoostSettings, CONTEXT_FEATURES, RepeatRule, SecondStage, Tree, block_features, blocks,
    context_features, drop_repeated, feature_names, first_copies, is_bare_headline, probability, trees_of,
    vocabulary_word,
};
use crate::clean::{BlockWeights, CleanerKind, Layout, TopicContent, block_weights, clean_page, site_of};
use crate::config::{BlockLabels, BlocksConfig, Config, ExampleWeight};
use crate::page::PageContext;
use crate::tagtree::{NodeId, TagTree, hint_words};
use crate::text::StopWords;

/// The decision thresholds tried (probability that a block is content).
pub const THRESHOLDS: &[f64] = &[0.1, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];

/// A training page, parsed and labelled.
struct BlockPage {
    set: usize,
    /// The page's file stem (it names its gold file).
    stem: String,
    fold: usize,
    /// Not `gold_not_visible`: may be trained on.
    trainable: bool,
    tree: TagTree,
    layout: Layout,
    weights: BlockWeights,
    docview: TopicContent,
    blocks: Vec<NodeId>,
    /// Per block, the tokens of the text extraction writes for it, as (token id, count).
    bags: Vec<Vec<(u32, u32)>>,
    /// Gold count per token id.
    gold: Vec<u32>,
    gold_total: u32,
    /// Per block: `Some(content?)` for an example, `None` otherwise.
    labels: Vec<Option<bool>>,
    /// Per block: bare headline (kept as `docview` decided).
    bare_headline: Vec<bool>,
    /// The vocabulary-worthy hint words of the page.
    hint_words: BTreeSet<String>,
    /// How the page's blocks weigh as examples.
    example_weight: ExampleWeight,
    /// Aligned labels were asked but the page was too large to align: trigram labels.
    alignment_skipped: bool,
    /// Per block, the first block with the same own terms (`first_copies` at one term).
    copies: Vec<Option<usize>>,
    /// `[blocks] repeat_min_terms` and `repeat_scope`: the cleaner's repeated-text rule,
    /// applied when scoring.
    repeat: RepeatRule,
    /// `[blocks] item_runs`: the rows hold the item-run feature.
    item_runs: bool,
}

impl BlockPage {
    fn new(
        set: usize,
        stem: &str,
        fold: usize,
        trainable: bool,
        tree: TagTree,
        gold_text: &str,
        config: &Config,
    ) -> BlockPage {
        let layout = Layout::of(&tree, &config.layout);
        let weights = block_weights(&tree, &config.block_weight);
        let docview = clean_page(&tree, &layout, &weights, CleanerKind::DocView, config);
        let ids = blocks(&tree);
        let mut interned: HashMap<String, u32> = HashMap::new();
        let mut intern = |token: String| {
            let next = interned.len() as u32;
            *interned.entry(token).or_insert(next)
        };
        let headline = layout.headline(&tree).map(|(node, tag)| (node, tag.items.clone()));
        // Each block's tokens in order, then as a bag.
        let sequences: Vec<Vec<u32>> = ids
            .iter()
            .map(|&id| {
                let text = match &headline {
                    Some((node, items)) if *node == id => tree.render_text_without(|n| n == id, id, items.clone()),
                    _ => tree.render_subtree_text(id, |n| n == id),
                };
                let mut sequence = Vec::new();
                for_each_score_token(&text, |token| sequence.push(intern(token)));
                sequence
            })
            .collect();
        let mut gold_sequence = Vec::new();
        for_each_score_token(gold_text, |token| gold_sequence.push(intern(token)));
        let mut gold = vec![0u32; interned.len()];
        for &token in &gold_sequence {
            gold[token as usize] += 1;
        }
        let gold_total = gold.iter().sum();
        let bags: Vec<Vec<(u32, u32)>> = sequences
            .iter()
            .map(|sequence| {
                let mut sorted = sequence.clone();
                sorted.sort_unstable();
                sorted.chunk_by(|a, b| a == b).map(|run| (run[0], run.len() as u32)).collect()
            })
            .collect();
        // The gold's word trigrams (and the bigrams and words, for blocks that short): a block
        // is content when its own trigrams are found there, not merely its words (a menu's
        // "home", "about", "the" are in most gold texts).
        let mut gold_ngrams: HashSet<[u32; 3]> = HashSet::new();
        for n in 1..=3 {
            for window in gold_sequence.windows(n) {
                gold_ngrams.insert(ngram(window));
            }
        }
        let bare_headline: Vec<bool> = ids.iter().map(|&id| is_bare_headline(&tree, &layout, id)).collect();
        let aligned = match config.blocks.labels {
            BlockLabels::Trigrams => None,
            BlockLabels::Aligned => aligned_tokens(&sequences, &gold_sequence, &gold),
        };
        let labels = sequences
            .iter()
            .zip(&bare_headline)
            .enumerate()
            .map(|(b, (sequence, &bare))| {
                let n = sequence.len().min(3);
                if bare || n == 0 {
                    return None;
                }
                if let Some(aligned) = &aligned {
                    return Some(aligned[b] as f64 >= config.blocks.label_min_gold_share * sequence.len() as f64);
                }
                let windows = sequence.windows(n);
                let total = windows.len();
                let found = windows.filter(|w| gold_ngrams.contains(&ngram(w))).count();
                Some(found as f64 >= config.blocks.label_min_gold_share * total as f64)
            })
            .collect();
        let hint_words = tree
            .nodes
            .iter()
            .flat_map(|node| hint_words(&node.hint))
            .filter(|w| vocabulary_word(w))
            .map(str::to_string)
            .collect();
        let copies = first_copies(&tree, &ids, 1);
        BlockPage {
            set,
            stem: stem.to_string(),
            fold,
            trainable,
            tree,
            layout,
            weights,
            docview,
            blocks: ids,
            bags,
            gold,
            gold_total,
            labels,
            bare_headline,
            hint_words,
            example_weight: config.blocks.example_weight,
            alignment_skipped: config.blocks.labels == BlockLabels::Aligned && aligned.is_none(),
            copies,
            repeat: RepeatRule::of(&config.blocks),
            item_runs: config.blocks.item_runs,
        }
    }

    fn rows(&self, vocabulary: &[String]) -> Vec<f64> {
        block_features(&self.tree, &self.layout, &self.weights, &self.docview, vocabulary, self.item_runs, &self.blocks)
    }

    /// The features of a row of `rows(vocabulary)`.
    fn width(&self, vocabulary: &[String]) -> usize {
        feature_names(vocabulary, self.item_runs).len()
    }

    /// The blocks `copies` groups by their text for the repeated-text rule at `min_terms`
    /// (judged blocks only, as the cleaner applies it).
    fn copies_at(&self, min_terms: usize) -> Vec<Option<usize>> {
        (0..self.blocks.len())
            .map(|b| {
                self.copies[b]
                    .filter(|_| !self.bare_headline[b] && self.tree.nodes[self.blocks[b]].terms.len() >= min_terms)
            })
            .collect()
    }

    /// Whether the repeated-text rule lets kept block `earlier` make block `later` (indices
    /// into the page's blocks) a copy to drop.
    fn apart(&self, earlier: usize, later: usize) -> bool {
        self.repeat.apart(&self.tree, self.blocks[earlier], self.blocks[later])
    }

    /// The page's score when the blocks with `probability` at least `threshold` are kept
    /// (and the repeated-text rule applied, when `[blocks] repeat_min_terms` asks).
    fn score(&self, probability: &[f64], threshold: f64) -> PageScore {
        let mut keep: Vec<bool> = (0..self.bags.len())
            .map(
                |b| if self.bare_headline[b] { self.docview.keep[self.blocks[b]] } else { probability[b] >= threshold },
            )
            .collect();
        if self.repeat.min_terms > 0 {
            drop_repeated(&self.copies_at(self.repeat.min_terms), &mut keep, |e, l| self.apart(e, l));
        }
        let mut output = vec![0u32; self.gold.len()];
        for (b, bag) in self.bags.iter().enumerate() {
            if keep[b] {
                for &(token, count) in bag {
                    output[token as usize] += count;
                }
            }
        }
        PageScore {
            output_tokens: output.iter().sum(),
            gold_tokens: self.gold_total,
            true_positives: output.iter().zip(&self.gold).map(|(o, g)| *o.min(g)).sum(),
        }
    }
}

/// Cells of the alignment table beyond which a page keeps the trigram labels (memory: one
/// byte a cell).
const MAX_ALIGNMENT_CELLS: usize = 40_000_000;

/// Per block, its tokens matched by a longest common subsequence of the page's tokens (the
/// blocks' sequences one after another) and the gold sequence, counting only matches in runs
/// of consecutive tokens on both sides at least three long (or the block's length, when
/// shorter). `None` when the table would be too large.
fn aligned_tokens(sequences: &[Vec<u32>], gold_sequence: &[u32], gold: &[u32]) -> Option<Vec<u32>> {
    // Page positions whose token is in the gold at all (the others never match).
    let mut page: Vec<(usize, usize, u32)> = Vec::new();
    let mut position = 0;
    for (b, sequence) in sequences.iter().enumerate() {
        for &token in sequence {
            if gold[token as usize] > 0 {
                page.push((b, position, token));
            }
            position += 1;
        }
    }
    let (n, m) = (page.len(), gold_sequence.len());
    if n * m > MAX_ALIGNMENT_CELLS {
        return None;
    }
    let mut out = vec![0u32; sequences.len()];
    if n == 0 || m == 0 {
        return Some(out);
    }
    // 0: diagonal match, 1: up (skip a page token), 2: left (skip a gold token).
    let mut step = vec![0u8; n * m];
    let mut previous = vec![0u32; m + 1];
    let mut current = vec![0u32; m + 1];
    for i in 0..n {
        for j in 0..m {
            let (value, direction) = if page[i].2 == gold_sequence[j] {
                (previous[j] + 1, 0)
            } else if previous[j + 1] >= current[j] {
                (previous[j + 1], 1)
            } else {
                (current[j], 2)
            };
            current[j + 1] = value;
            step[i * m + j] = direction;
        }
        std::mem::swap(&mut previous, &mut current);
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let (mut i, mut j) = (n, m);
    while i > 0 && j > 0 {
        match step[(i - 1) * m + (j - 1)] {
            0 => {
                pairs.push((i - 1, j - 1));
                i -= 1;
                j -= 1;
            }
            1 => i -= 1,
            _ => j -= 1,
        }
    }
    pairs.reverse();
    // Runs of matches consecutive in the page and in the gold.
    let mut start = 0;
    while start < pairs.len() {
        let mut end = start + 1;
        while end < pairs.len()
            && page[pairs[end].0].1 == page[pairs[end - 1].0].1 + 1
            && pairs[end].1 == pairs[end - 1].1 + 1
        {
            end += 1;
        }
        for &(i, _) in &pairs[start..end] {
            let block = page[i].0;
            if end - start >= sequences[block].len().min(3) {
                out[block] += 1;
            }
        }
        start = end;
    }
    Some(out)
}

/// An n-gram of up to three tokens, padded.
fn ngram(tokens: &[u32]) -> [u32; 3] {
    let mut out = [u32::MAX; 3];
    out[..tokens.len()].copy_from_slice(tokens);
    out
}

/// The class and id words found on most of `pages` (ties alphabetical), at most `size`.
fn vocabulary(pages: &[&BlockPage], size: usize) -> Vec<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for page in pages {
        for word in &page.hint_words {
            *counts.entry(word.as_str()).or_default() += 1;
        }
    }
    let mut words: Vec<(&str, usize)> = counts.into_iter().collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    words.into_iter().take(size).map(|(w, _)| w.to_string()).collect()
}

/// Fits a model on the trainable pages among `pages` (threshold 0.5 until chosen).
fn fit(pages: &[&BlockPage], config: &BlocksConfig, protocol: String) -> Result<BlockModel, CleanEvalError> {
    let pages: Vec<&BlockPage> = pages.iter().copied().filter(|p| p.trainable).collect();
    let vocabulary = vocabulary(&pages, config.vocabulary_size);
    let names = feature_names(&vocabulary, config.item_runs);
    let width = names.len();
    let per_page: Vec<Examples> = pages
        .par_iter()
        .map(|page| {
            let rows = page.rows(&vocabulary);
            page.examples(|b, out| out.extend_from_slice(&rows[b * width..(b + 1) * width]))
        })
        .collect();
    let (base_score, trees) = boost_examples(&per_page, width, config)?;
    Ok(BlockModel {
        protocol,
        vocabulary,
        features: names,
        base_score,
        trees,
        threshold: 0.5,
        examples: per_page.iter().map(|e| e.labels.len()).sum(),
        positives: per_page.iter().flat_map(|e| &e.labels).filter(|&&y| y > 0.5).count(),
        stage2: None,
    })
}

/// Fits a second stage on the trainable pages among `pages`, whose first-stage probabilities
/// are `stage1` (out of fold: made without the page's labels, as at cleaning time), reading the
/// block features of `vocabulary` followed by the context features.
fn fit_second_stage(
    pages: &[&BlockPage],
    stage1: &[&[f64]],
    vocabulary: &[String],
    config: &BlocksConfig,
) -> Result<SecondStage, CleanEvalError> {
    let width = feature_names(vocabulary, config.item_runs).len();
    let c = CONTEXT_FEATURES.len();
    let per_page: Vec<Examples> = pages
        .par_iter()
        .zip(stage1)
        .filter(|(page, _)| page.trainable)
        .map(|(page, stage1)| {
            let rows = page.rows(vocabulary);
            let context = context_features(&page.tree, &page.blocks, stage1);
            page.examples(|b, out| {
                out.extend_from_slice(&rows[b * width..(b + 1) * width]);
                out.extend_from_slice(&context[b * c..(b + 1) * c]);
            })
        })
        .collect();
    let (base_score, trees) = boost_examples(&per_page, width + c, config)?;
    Ok(SecondStage { context_features: SecondStage::context_feature_names(), base_score, trees })
}

/// Each page's block probabilities under the second stage `stage2` of a model with
/// `vocabulary`, the pages' first-stage probabilities being `stage1`.
fn predict_second_stage(
    stage2: &SecondStage,
    vocabulary: &[String],
    pages: &[&BlockPage],
    stage1: &[&[f64]],
) -> Vec<Vec<f64>> {
    let c = CONTEXT_FEATURES.len();
    pages
        .par_iter()
        .zip(stage1)
        .map(|(page, stage1)| {
            let rows = page.rows(vocabulary);
            let width = page.width(vocabulary);
            let context = context_features(&page.tree, &page.blocks, stage1);
            let mut row = Vec::with_capacity(width + c);
            (0..page.blocks.len())
                .map(|b| {
                    row.clear();
                    row.extend_from_slice(&rows[b * width..(b + 1) * width]);
                    row.extend_from_slice(&context[b * c..(b + 1) * c]);
                    probability(stage2.log_odds(&row))
                })
                .collect()
        })
        .collect()
}

/// One page's labelled blocks as training examples.
struct Examples {
    /// The blocks' feature rows, one after another.
    rows: Vec<f64>,
    /// 1 for content, 0 for noise.
    labels: Vec<f64>,
    /// Each block's share of the page's labelled tokens, so that a page weighs the same
    /// whatever the number of its blocks.
    weights: Vec<f64>,
}

impl BlockPage {
    /// The page's labelled blocks as examples; `row(b, out)` appends block `b`'s features.
    fn examples(&self, mut row: impl FnMut(usize, &mut Vec<f64>)) -> Examples {
        let tokens = |b: usize| {
            let tokens = self.bags[b].iter().map(|&(_, c)| c as f64).sum::<f64>();
            match self.example_weight {
                ExampleWeight::Tokens => tokens,
                ExampleWeight::SqrtTokens => tokens.sqrt(),
            }
        };
        let page_tokens: f64 = (0..self.blocks.len()).filter(|&b| self.labels[b].is_some()).map(tokens).sum();
        let mut examples = Examples { rows: Vec::new(), labels: Vec::new(), weights: Vec::new() };
        for (b, label) in self.labels.iter().enumerate() {
            if let Some(label) = label {
                row(b, &mut examples.rows);
                examples.labels.push(if *label { 1.0 } else { 0.0 });
                examples.weights.push(tokens(b) / page_tokens.max(1.0));
            }
        }
        examples
    }
}

/// Gradient-boosted trees on the examples of several pages, `width` features each: laid out
/// column-major, as the learner reads them, with the weights scaled to average 1 per page.
fn boost_examples(
    per_page: &[Examples],
    width: usize,
    config: &BlocksConfig,
) -> Result<(f64, Vec<Tree>), CleanEvalError> {
    let examples: usize = per_page.iter().map(|e| e.labels.len()).sum();
    if examples == 0 {
        return Err(CleanEvalError { path: "training sets".into(), message: "no labelled block to train on".into() });
    }
    let scale = examples as f64 / per_page.len() as f64;
    let mut data = vec![0.0; examples * width];
    let mut labels = Vec::with_capacity(examples);
    let mut weights = Vec::with_capacity(examples);
    for page in per_page {
        for (r, row) in page.rows.chunks(width).enumerate() {
            let at = labels.len();
            for (f, &v) in row.iter().enumerate() {
                data[f * examples + at] = v;
            }
            labels.push(page.labels[r]);
            weights.push(page.weights[r] * scale);
        }
    }
    boost(&data, examples, width, &labels, &weights, config)
}

/// Gradient-boosted trees on a column-major matrix of `rows` × `width`, copied into the
/// model's form: the base score and the trees.
fn boost(
    data: &[f64],
    rows: usize,
    width: usize,
    labels: &[f64],
    weights: &[f64],
    config: &BlocksConfig,
) -> Result<(f64, Vec<Tree>), CleanEvalError> {
    crate::clean::block_classifier::fit_booster(data, rows, width, labels, weights, &boost_settings(config))
        .map(|booster| trees_of(&booster))
        .map_err(learner_error)
}

#[cfg(test)]
fn fit_booster(
    data: &[f64],
    rows: usize,
    width: usize,
    labels: &[f64],
    weights: &[f64],
    config: &BlocksConfig,
) -> Result<forust_ml::GradientBooster, CleanEvalError> {
    crate::clean::block_classifier::fit_booster(data, rows, width, labels, weights, &boost_settings(config))
        .map_err(learner_error)
}

fn learner_error(message: String) -> CleanEvalError {
    CleanEvalError { path: "block classifier (forust-ml)".into(), message }
}

/// The learner's settings of `[blocks]`.
fn boost_settings(config: &BlocksConfig) -> BoostSettings {
    BoostSettings {
        trees: config.trees,
        learning_rate: config.learning_rate,
        max_depth: config.max_depth,
        l2: config.l2,
        min_leaf_weight: config.min_leaf_weight,
    }
}

/// Each page's block probabilities under `model`.
fn predict(model: &BlockModel, pages: &[&BlockPage]) -> Vec<Vec<f64>> {
    let width = model.features.len();
    pages
        .par_iter()
        .map(|page| {
            let rows = page.rows(&model.vocabulary);
            rows.chunks(width).map(|row| model.probability(row)).collect()
        })
        .collect()
}

/// F1 per set (`sets` of them) of `pages` kept at `threshold`.
fn set_f1(pages: &[&BlockPage], probabilities: &[Vec<f64>], threshold: f64, sets: usize) -> Vec<f64> {
    (0..sets)
        .map(|set| {
            let scores: Vec<PageScore> = pages
                .iter()
                .zip(probabilities)
                .filter(|(p, _)| p.set == set)
                .map(|(p, probability)| p.score(probability, threshold))
                .collect();
            aggregate("", &scores, 1.0).f1
        })
        .collect()
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 }
}

/// The threshold of [`THRESHOLDS`] with the best mean F1 over the sets the pages come from
/// (the first on ties).
fn choose_threshold(pages: &[&BlockPage], probabilities: &[Vec<f64>], sets: usize) -> f64 {
    let present: Vec<usize> = (0..sets).filter(|&s| pages.iter().any(|p| p.set == s)).collect();
    let objective = |t: f64| {
        let f1 = set_f1(pages, probabilities, t, sets);
        mean(&present.iter().map(|&s| f1[s]).collect::<Vec<_>>())
    };
    let mut best = (THRESHOLDS[0], objective(THRESHOLDS[0]));
    for &t in &THRESHOLDS[1..] {
        let score = objective(t);
        if score > best.1 + 1e-12 {
            best = (t, score);
        }
    }
    best.0
}

/// One fold of the cross-validation.
#[derive(Debug, Clone, Serialize)]
pub struct BlocksFold {
    pub fold: usize,
    pub pages: usize,
    /// The threshold chosen without this fold.
    pub threshold: f64,
    /// F1 of the fold's pages per set: `docview`, then the block classifier.
    pub docview_f1: Vec<f64>,
    pub blocks_f1: Vec<f64>,
}

/// What `train-blocks` measured.
#[derive(Debug, Clone, Serialize)]
pub struct BlocksReport {
    pub sets: Vec<String>,
    pub set_pages: Vec<usize>,
    /// Pages never trained on (`gold_not_visible`), per set.
    pub untrainable_pages: Vec<usize>,
    pub folds: usize,
    pub config: BlocksConfig,
    /// The `docview` cleaner under the current settings, every page (its settings were chosen
    /// on these pages: in-sample).
    pub docview_f1: Vec<f64>,
    /// The block classifier, each page scored by the model fitted without its fold.
    pub cross_validated_f1: Vec<f64>,
    /// The same, as the cleaning table reads it (`eval clean`'s cross-validated rows).
    pub cross_validated: CrossValidatedF1,
    pub cross_validated_precision: Vec<f64>,
    pub cross_validated_recall: Vec<f64>,
    pub fold_results: Vec<BlocksFold>,
    /// The shipped model's threshold (chosen on the out-of-fold probabilities: the second
    /// stage's when stacked), its examples.
    pub threshold: f64,
    /// The second stage's trees, when stacked.
    pub second_stage_trees: Option<usize>,
    pub examples: usize,
    pub positives: usize,
    pub trees: usize,
}

/// The ids of a set's pages marked `gold_not_visible` in its `meta.tsv` (third column).
fn gold_not_visible(html_dir: &Path) -> HashSet<String> {
    let meta = html_dir.parent().unwrap_or(Path::new(".")).join("meta.tsv");
    let Ok(text) = std::fs::read_to_string(meta) else { return HashSet::new() };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let id = fields.next()?;
            let extra = fields.nth(1)?;
            extra.split(',').any(|tag| tag.trim() == "gold_not_visible").then(|| id.to_string())
        })
        .collect()
}

/// Reads, parses and labels the pages of `sets` (at most `max_pages` each): the set names and
/// the pages, each with its fold by site.
fn read_pages(
    sets: &[GoldSetConfig],
    config: &Config,
    max_pages: Option<usize>,
    progress: &impl Fn(&str),
) -> Result<(Vec<String>, Vec<BlockPage>), CleanEvalError> {
    if sets.is_empty() {
        return Err(CleanEvalError {
            path: "[[training_sets]]".into(),
            message: "the configuration names no training sets".into(),
        });
    }
    let stop_words = StopWords::generic();
    // The pages are read with the `docview` cleaner, whatever the default: the model being
    // trained must not depend on the one it replaces (whose features may no longer match).
    let mut reading = config.clone();
    reading.cleaning.cleaner = CleanerKind::DocView;
    let ctx = PageContext::new(&reading, &stop_words)
        .map_err(|e| CleanEvalError { path: "configuration".into(), message: e.to_string() })?;
    let folds = config.blocks.folds;
    let mut names = Vec::new();
    let mut pages: Vec<BlockPage> = Vec::new();
    for (index, set_config) in sets.iter().enumerate() {
        let mut set = GoldSet::open(&set_config.html, &set_config.gold)?;
        if let Some(n) = max_pages {
            set.pages.truncate(n);
        }
        let hidden = gold_not_visible(&set_config.html);
        names.push(set_config.name.clone());
        let parsed: Vec<BlockPage> = set
            .pages
            .par_iter()
            .map(|page| {
                let (tree, _) = ctx.tag_tree(&page.raw_page());
                let fold = seeded_fold_of(&site_of(&page.url), folds, config.blocks.fold_seed);
                BlockPage::new(index, &page.stem, fold, !hidden.contains(&page.stem), tree, &page.gold, config)
            })
            .collect();
        let skipped = parsed.iter().filter(|p| p.alignment_skipped).count();
        let labelled: usize = parsed.iter().map(|p| p.labels.iter().flatten().count()).sum();
        let content: usize = parsed.iter().map(|p| p.labels.iter().flatten().filter(|&&l| l).count()).sum();
        pages.extend(parsed);
        progress(&format!(
            "{}: {} pages parsed and labelled ({content} of {labelled} blocks content; {skipped} too large to \
             align, trigram labels)",
            set_config.name,
            set.pages.len()
        ));
    }
    Ok((names, pages))
}

/// Trains the block classifier on `sets` as the module documentation says: the shipped model
/// (with a second stage when `stacking`) and the cross-validation report. `progress` hears
/// each step.
pub fn train_blocks(
    sets: &[GoldSetConfig],
    config: &Config,
    max_pages: Option<usize>,
    stacking: bool,
    progress: impl Fn(&str),
) -> Result<(BlockModel, BlocksReport), CleanEvalError> {
    let (names, pages) = read_pages(sets, config, max_pages, &progress)?;
    let folds = config.blocks.folds;
    let all: Vec<&BlockPage> = pages.iter().collect();
    let n_sets = names.len();
    let docview_scores = |pages: &[&BlockPage]| {
        let probabilities: Vec<Vec<f64>> = pages
            .iter()
            .map(|p| p.blocks.iter().map(|&id| if p.docview.keep[id] { 1.0 } else { 0.0 }).collect())
            .collect();
        set_f1(pages, &probabilities, 0.5, n_sets)
    };
    let docview_f1 = docview_scores(&all);
    let protocol = |threshold_note: &str| {
        format!(
            "indexer eval train-blocks. Sets: {sets}. Examples: the blocks (containers with terms of their own) of \
             every training page not marked gold_not_visible; features of clean::block_classifier, with the \
             docview cleaner's result under the [cleaning] settings of the run. Label: content when at least {share} \
             of the word trigrams extraction writes for the block (tokens of `indexer eval clean`) are trigrams \
             of the gold text. Weight: the block's share of its page's tokens, averaging 1. Vocabulary: the {vocab} class/id \
             words on most pages. Learner: forust-ml gradient-boosted trees, log loss, {trees} trees, depth {depth}, \
             learning rate {rate}, l2 {l2}, min leaf weight {leaf}. {threshold_note}",
            sets = names.join(", "),
            share = config.blocks.label_min_gold_share,
            vocab = config.blocks.vocabulary_size,
            trees = config.blocks.trees,
            depth = config.blocks.max_depth,
            rate = config.blocks.learning_rate,
            l2 = config.blocks.l2,
            leaf = config.blocks.min_leaf_weight,
        )
    };

    let mut out_of_fold: Vec<Vec<f64>> = vec![Vec::new(); pages.len()];
    let mut held_out_scores = vec![PageScore { output_tokens: 0, gold_tokens: 0, true_positives: 0 }; pages.len()];
    let mut fold_results = Vec::new();
    let mut fold_vocabularies = Vec::new();
    for fold in 0..folds {
        let inner = (fold + 1) % folds;
        let inner_train: Vec<&BlockPage> = all.iter().copied().filter(|p| p.fold != fold && p.fold != inner).collect();
        let inner_val: Vec<&BlockPage> = all.iter().copied().filter(|p| p.fold == inner).collect();
        let inner_model = fit(&inner_train, &config.blocks, String::new())?;
        let threshold = choose_threshold(&inner_val, &predict(&inner_model, &inner_val), n_sets);
        let train: Vec<&BlockPage> = all.iter().copied().filter(|p| p.fold != fold).collect();
        let model = fit(&train, &config.blocks, String::new())?;
        let test_ids: Vec<usize> = (0..pages.len()).filter(|&i| pages[i].fold == fold).collect();
        let test: Vec<&BlockPage> = test_ids.iter().map(|&i| &pages[i]).collect();
        let probabilities = predict(&model, &test);
        fold_vocabularies.push(model.vocabulary);
        for ((&i, page), probability) in test_ids.iter().zip(&test).zip(probabilities.iter()) {
            held_out_scores[i] = page.score(probability, threshold);
            out_of_fold[i] = probability.clone();
        }
        let result = BlocksFold {
            fold,
            pages: test.len(),
            threshold,
            docview_f1: docview_scores(&test),
            blocks_f1: set_f1(&test, &probabilities, threshold, n_sets),
        };
        progress(&format!(
            "fold {fold}: {} pages, threshold {threshold}, F1 blocks {:.4} docview {:.4} (mean over sets)",
            result.pages,
            mean(&result.blocks_f1),
            mean(&result.docview_f1)
        ));
        fold_results.push(result);
    }
    let per_set = |f: fn(&super::clean::CleanScore) -> f64| -> Vec<f64> {
        (0..n_sets)
            .map(|s| {
                let scores: Vec<PageScore> =
                    pages.iter().zip(&held_out_scores).filter(|(p, _)| p.set == s).map(|(_, sc)| *sc).collect();
                f(&aggregate("", &scores, 1.0))
            })
            .collect()
    };
    let cross_validated_f1 = per_set(|s| s.f1);
    let threshold = choose_threshold(&all, &out_of_fold, n_sets);
    progress(&format!(
        "cross-validated F1 {:?} (docview {:?}); shipped threshold {threshold}; fitting on every page",
        cross_validated_f1.iter().map(|f| (f * 1e4).round() / 1e4).collect::<Vec<_>>(),
        docview_f1.iter().map(|f| (f * 1e4).round() / 1e4).collect::<Vec<_>>(),
    ));
    let note = format!(
        "Threshold {threshold}: the best of {THRESHOLDS:?} for the mean F1 over the sets of the {folds}-fold \
         cross-validation's out-of-fold probabilities (folds by site)."
    );
    let mut model = fit(&all, &config.blocks, String::new())?;
    model.threshold = threshold;
    let mut protocol_note = note;
    if stacking {
        let stage1: Vec<&[f64]> = out_of_fold.iter().map(Vec::as_slice).collect();
        // The second stage's out-of-fold probabilities, for its threshold: for each fold, a
        // second stage fitted on the other folds' pages (their first-stage probabilities out of
        // fold, as the shipped one's) reads the fold's pages.
        let mut stage2_out_of_fold: Vec<Vec<f64>> = vec![Vec::new(); pages.len()];
        for (fold, vocabulary) in fold_vocabularies.iter().enumerate() {
            let train: Vec<usize> = (0..pages.len()).filter(|&i| pages[i].fold != fold).collect();
            let test: Vec<usize> = (0..pages.len()).filter(|&i| pages[i].fold == fold).collect();
            let pick = |ids: &[usize]| -> (Vec<&BlockPage>, Vec<&[f64]>) {
                ids.iter().map(|&i| (&pages[i], stage1[i])).unzip()
            };
            let (train_pages, train_stage1) = pick(&train);
            let stage2 = fit_second_stage(&train_pages, &train_stage1, vocabulary, &config.blocks)?;
            let (test_pages, test_stage1) = pick(&test);
            for (&i, probability) in
                test.iter().zip(predict_second_stage(&stage2, vocabulary, &test_pages, &test_stage1))
            {
                stage2_out_of_fold[i] = probability;
            }
            progress(&format!("stacking: second stage without fold {fold} fitted"));
        }
        let stage2_threshold = choose_threshold(&all, &stage2_out_of_fold, n_sets);
        progress(&format!(
            "stacking: second-stage out-of-fold F1 {:?} at threshold {stage2_threshold} (chosen on these same \
             probabilities: in-sample for the threshold); fitting the second stage on every page",
            set_f1(&all, &stage2_out_of_fold, stage2_threshold, n_sets)
                .iter()
                .map(|f| (f * 1e4).round() / 1e4)
                .collect::<Vec<_>>()
        ));
        model.stage2 = Some(fit_second_stage(&all, &stage1, &model.vocabulary, &config.blocks)?);
        model.threshold = stage2_threshold;
        protocol_note = format!(
            "Stacked: a second stage with the same learner settings reads the block features plus the context \
             features (clean::block_classifier::context) of the first stage's probabilities; its training rows \
             carry the first stage's out-of-fold probabilities of the {folds}-fold cross-validation (folds by \
             site), as the cleaner reads a new page with the first stage fitted on every page. Threshold \
             {stage2_threshold} (applies to the second stage): the best of {THRESHOLDS:?} for the mean F1 over \
             the sets of the second stage's out-of-fold probabilities (a second stage fitted without each fold, \
             its training rows' first-stage probabilities from fits that did see that fold)."
        );
    }
    model.protocol = protocol(&protocol_note);
    let report = BlocksReport {
        set_pages: (0..n_sets).map(|s| pages.iter().filter(|p| p.set == s).count()).collect(),
        untrainable_pages: (0..n_sets).map(|s| pages.iter().filter(|p| p.set == s && !p.trainable).count()).collect(),
        cross_validated: CrossValidatedF1 {
            cleaner: CleanerKind::Blocks.name().to_string(),
            folds,
            sets: names.iter().cloned().zip(cross_validated_f1.iter().copied()).collect(),
            part: None,
        },
        sets: names,
        folds,
        config: config.blocks.clone(),
        docview_f1,
        cross_validated_f1,
        cross_validated_precision: per_set(|s| s.precision),
        cross_validated_recall: per_set(|s| s.recall),
        fold_results,
        threshold: model.threshold,
        second_stage_trees: model.stage2.as_ref().map(|s| s.trees.len()),
        examples: model.examples,
        positives: model.positives,
        trees: model.trees.len(),
    };
    Ok((model, report))
}

fn row(f1: &[f64]) -> String {
    let cells: Vec<String> = f1.iter().map(|f| format!("{f:.4}")).collect();
    format!("{} | {:.4}", cells.join(" | "), mean(f1))
}

/// The report as markdown.
pub fn blocks_markdown(report: &BlocksReport, command: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# The block classifier, trained and cross-validated on the training sets\n");
    let _ = writeln!(md, "Made by `{command}`. No test set is read.\n");
    let sets: Vec<String> = report.sets.iter().zip(&report.set_pages).map(|(s, n)| format!("{s} ({n})")).collect();
    let _ = writeln!(md, "| cleaner | {} | mean |\n|---|{}---|", sets.join(" | "), "---|".repeat(sets.len()));
    let _ = writeln!(md, "| **blocks, {}-fold cross-validated** | {} |", report.folds, row(&report.cross_validated_f1));
    let _ = writeln!(md, "| blocks, precision (cross-validated) | {} |", row(&report.cross_validated_precision));
    let _ = writeln!(md, "| blocks, recall (cross-validated) | {} |", row(&report.cross_validated_recall));
    let _ = writeln!(md, "| docview, current settings (in-sample for its settings) | {} |", row(&report.docview_f1));
    let _ = writeln!(
        md,
        "\nPages never trained on (`gold_not_visible`, scored all the same): {:?}.\n\n\
         ## Folds\n\n| fold | pages | threshold | docview | blocks |\n|---|---:|---:|---:|---:|",
        report.untrainable_pages
    );
    for f in &report.fold_results {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.4} | {:.4} |",
            f.fold,
            f.pages,
            f.threshold,
            mean(&f.docview_f1),
            mean(&f.blocks_f1)
        );
    }
    let _ = writeln!(
        md,
        "\nShipped model: {} trees{} over {} blocks ({} content), threshold {} (chosen on the out-of-fold \
         probabilities).",
        report.trees,
        report.second_stage_trees.map(|n| format!(" and a stacked second stage of {n}")).unwrap_or_default(),
        report.examples,
        report.positives,
        report.threshold
    );
    md
}

/// Writes report.md and report.json into `out`.
pub fn write_blocks_report(report: &BlocksReport, out: &Path, command: &str) -> Result<(), CleanEvalError> {
    let error = |path: &Path, message: String| CleanEvalError { path: path.display().to_string(), message };
    std::fs::create_dir_all(out).map_err(|e| error(out, e.to_string()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| error(out, e.to_string()))? + "\n";
    std::fs::write(out.join("report.json"), json).map_err(|e| error(&out.join("report.json"), e.to_string()))?;
    std::fs::write(out.join("report.md"), blocks_markdown(report, command))
        .map_err(|e| error(&out.join("report.md"), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copied_trees_predict_what_the_learner_predicts() {
        // Two informative features and one of noise; 400 rows, column-major.
        let rows = 400;
        let mut data = vec![0.0; rows * 3];
        let mut labels = Vec::new();
        for r in 0..rows {
            let (a, b, c) = ((r % 20) as f64 / 20.0, ((r * 7) % 13) as f64 / 13.0, ((r * 31) % 17) as f64);
            data[r] = a;
            data[rows + r] = b;
            data[2 * rows + r] = c;
            labels.push(if a + 0.5 * b > 0.7 { 1.0 } else { 0.0 });
        }
        let weights = vec![1.0; rows];
        let config = BlocksConfig { trees: 20, max_depth: 3, ..BlocksConfig::default() };
        let booster = fit_booster(&data, rows, 3, &labels, &weights, &config).unwrap();
        let expected = booster.predict(&forust_ml::Matrix::new(&data, rows, 3), false);
        let (base, trees) = boost(&data, rows, 3, &labels, &weights, &config).unwrap();
        let mut correct = 0;
        for r in 0..rows {
            let row = [data[r], data[rows + r], data[2 * rows + r]];
            let ours = base + trees.iter().map(|t| t.predict(&row)).sum::<f64>();
            assert!((ours - expected[r]).abs() < 1e-9, "row {r}: {ours} against {}", expected[r]);
            correct += usize::from((ours > 0.0) == (labels[r] > 0.5));
        }
        assert!(correct >= 380, "{correct} of {rows} on the training rows");
    }

    #[test]
    fn ngrams_are_padded_and_labels_need_the_gold_order() {
        assert_eq!(ngram(&[4]), [4, u32::MAX, u32::MAX]);
        assert_eq!(ngram(&[1, 2, 3]), [1, 2, 3]);
        let config = Config::default();
        let story = "The terns came back to the bay this spring after ten years away, and the counts rose fast.";
        let menu = "the bay the spring the years";
        let html = format!("<html><body><div><p>{story}</p></div><div><p>{menu}</p></div></body></html>");
        let tree = TagTree::with_default_config(&html);
        let page = BlockPage::new(0, "page", 0, true, tree, story, &config);
        let labels: Vec<Option<bool>> = page.labels.clone();
        // The story's block is content; the menu's words are all in the gold, not its trigrams.
        assert_eq!(labels, vec![Some(true), Some(false)], "{:?}", page.blocks);
        let all = page.score(&[1.0, 1.0], 0.5);
        let story_only = page.score(&[1.0, 0.0], 0.5);
        assert_eq!(story_only.true_positives, story_only.output_tokens);
        assert!(all.output_tokens > story_only.output_tokens);
        assert_eq!(all.gold_tokens, story_only.gold_tokens);
    }

    #[test]
    fn aligned_labels_match_in_order_and_in_runs() {
        // Block 0 holds a gold word alone among others (a run of one); block 1 the gold text.
        let sequences = vec![vec![20, 11, 21], vec![10, 11, 12, 13, 14]];
        let gold_sequence = vec![10, 11, 12, 13, 14];
        let mut gold = vec![0u32; 22];
        for &t in &gold_sequence {
            gold[t as usize] += 1;
        }
        assert_eq!(aligned_tokens(&sequences, &gold_sequence, &gold), Some(vec![0, 5]));
        // The gold's order is kept: the longer run in order wins over the gold's tail placed
        // first, and a repeated word is matched where the run continues.
        let sequences = vec![vec![13, 14], vec![10], vec![10, 11, 12]];
        assert_eq!(aligned_tokens(&sequences, &gold_sequence, &gold), Some(vec![0, 0, 3]));
        let config = Config {
            blocks: BlocksConfig { labels: BlockLabels::Aligned, ..BlocksConfig::default() },
            ..Config::default()
        };
        let story = "The terns came back to the bay this spring after ten years away, and the counts rose fast.";
        let menu = "the bay the spring the years";
        let html = format!("<html><body><div><p>{story}</p></div><div><p>{menu}</p></div></body></html>");
        let page = BlockPage::new(0, "page", 0, true, TagTree::with_default_config(&html), story, &config);
        assert_eq!(page.labels, vec![Some(true), Some(false)]);
        assert!(!page.alignment_skipped);
    }

    /// A training set of 12 pages we wrote, in `dir`: a menu, a story (the gold), on some pages
    /// an aside of sentences not in the gold, class words that vary by page; one page marked
    /// `gold_not_visible`.
    pub(super) fn synthetic_sets(dir: &Path) -> Vec<GoldSetConfig> {
        let (html, gold) = (dir.join("s/html"), dir.join("s/gold"));
        std::fs::create_dir_all(&html).unwrap();
        std::fs::create_dir_all(&gold).unwrap();
        let menu: String =
            ["Home", "World", "Sports", "Science", "Arts"].iter().map(|m| format!("<a href=/{m}>{m}</a> ")).collect();
        let mut meta = String::from("id\turl\textra\n");
        for i in 0..12 {
            let body = format!(
                "Story {i}: the river carries silt down from the mountains every spring, and the farmers of valley {i} \
                 wait for it with their seed ready."
            );
            let class = ["story", "entry", "post"][i % 3];
            let aside = if i % 2 == 0 {
                "<aside class=related><p>Readers also liked the piece on harbour seals, and the one on tides.</p></aside>"
            } else {
                ""
            };
            let page = format!(
                "<html><head><title>T{i}</title></head><body><nav>{menu}</nav><article class={class}><p>{body}</p>\
                 </article>{aside}<footer><p>Copyright of the example company, all rights reserved.</p></footer>\
                 </body></html>"
            );
            std::fs::write(html.join(format!("{i}.html")), page).unwrap();
            std::fs::write(gold.join(format!("{i}.txt")), &body).unwrap();
            let extra = if i == 11 { "gold_not_visible" } else { "" };
            meta.push_str(&format!("{i}\thttps://site{i}.example/a\t{extra}\n"));
        }
        std::fs::write(dir.join("s/meta.tsv"), meta).unwrap();
        vec![GoldSetConfig { name: "s".into(), html, gold }]
    }

    #[test]
    fn training_cross_validates_by_site_and_writes_a_model_that_loads() {
        let dir = tempfile::tempdir().unwrap();
        let sets = synthetic_sets(dir.path());
        assert_eq!(gold_not_visible(&sets[0].html), HashSet::from(["11".to_string()]));
        let config = Config {
            blocks: BlocksConfig { trees: 5, folds: 3, min_leaf_weight: 0.1, ..BlocksConfig::default() },
            ..Config::default()
        };
        let (model, report) = train_blocks(&sets, &config, None, false, |_| {}).unwrap();
        assert!(model.stage2.is_none() && report.second_stage_trees.is_none());
        assert_eq!(report.set_pages, vec![12]);
        assert_eq!(report.untrainable_pages, vec![1]);
        assert_eq!(report.fold_results.iter().map(|f| f.pages).sum::<usize>(), 12);
        assert!(THRESHOLDS.contains(&model.threshold));
        assert!(model.examples > 0 && model.positives > 0 && model.positives < model.examples);
        let back = BlockModel::from_json(&model.to_json()).unwrap();
        assert_eq!(back, model);
        let md = blocks_markdown(&report, "test");
        assert!(md.contains("3-fold cross-validated"), "{md}");
        let out = dir.path().join("report");
        write_blocks_report(&report, &out, "test").unwrap();
        assert!(out.join("report.json").is_file());
    }

    #[test]
    fn a_stacked_model_trains_saves_loads_and_cleans_a_page() {
        use crate::clean::block_classifier::{BlockClassifier, clean_blocks};
        let dir = tempfile::tempdir().unwrap();
        let sets = synthetic_sets(dir.path());
        let config = Config {
            blocks: BlocksConfig { trees: 30, folds: 3, min_leaf_weight: 0.1, ..BlocksConfig::default() },
            ..Config::default()
        };
        let (one_stage, _) = train_blocks(&sets, &config, None, false, |_| {}).unwrap();
        let (model, report) = train_blocks(&sets, &config, None, true, |_| {}).unwrap();
        // The first stage is the one-stage model's; the cross-validation report is the same.
        assert_eq!((&model.trees, &model.vocabulary), (&one_stage.trees, &one_stage.vocabulary));
        assert_eq!(report.fold_results.iter().map(|f| f.pages).sum::<usize>(), 12);
        let stage2 = model.stage2.as_ref().expect("a second stage");
        assert_eq!(stage2.trees.len(), 30);
        assert_eq!((report.second_stage_trees, report.threshold), (Some(30), model.threshold));
        assert!(blocks_markdown(&report, "test").contains("stacked second stage of 30"));
        assert!(THRESHOLDS.contains(&model.threshold));
        assert!(model.protocol.contains("Stacked"), "{}", model.protocol);
        let path = dir.path().join("stacked.json");
        std::fs::write(&path, model.to_json()).unwrap();
        let loaded = BlockModel::load(path.to_str().unwrap()).unwrap();
        assert_eq!(loaded, model);

        // A page like the training pages: its story kept, its menu and footer dropped.
        let story = "The river carries silt down from the mountains every spring, and the farmers of the valley \
                     wait for it with their seed ready.";
        let menu: String =
            ["Home", "World", "Sports", "Science", "Arts"].iter().map(|m| format!("<a href=/{m}>{m}</a> ")).collect();
        let html = format!(
            "<html><head><title>T</title></head><body><nav>{menu}</nav><article class=story><p>{story}</p></article>\
             <footer><p>Copyright of the example company, all rights reserved.</p></footer></body></html>"
        );
        let tree = TagTree::with_default_config(&html);
        let layout = Layout::of(&tree, &config.layout);
        let weights = block_weights(&tree, &config.block_weight);
        let docview = clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config);
        let classifier = BlockClassifier::new(loaded);
        let content = clean_blocks(&tree, &layout, &weights, &docview, &classifier, model.threshold, RepeatRule::OFF);
        let text = content.text(&tree);
        assert!(text.contains("farmers of the valley"), "{text}");
        assert!(!text.contains("Copyright"), "{text}");
        // The cleaner's second pass reads what training's does: its probabilities are those
        // `predict_second_stage` gives the page.
        let page = BlockPage::new(0, "page", 0, true, TagTree::with_default_config(&html), story, &config);
        let stage1 = predict(&model, &[&page]).swap_remove(0);
        let stage2_probability =
            predict_second_stage(stage2, &model.vocabulary, &[&page], &[stage1.as_slice()]).swap_remove(0);
        for (b, &id) in page.blocks.iter().enumerate() {
            if !page.bare_headline[b] && tree.nodes[id].own.terms > 0 {
                assert_eq!(content.keep[id], stage2_probability[b] >= model.threshold, "block {b}");
            }
        }
    }
}
