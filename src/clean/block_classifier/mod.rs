//! The learned block classifier (`cleaning.cleaner = "blocks"`): each content block of the
//! tag tree (a container with terms of its own) is kept or dropped by gradient-boosted trees
//! trained on the cleaning training sets (`indexer eval train-blocks`).
//!
//! Why: the `docview` cleaner's topic-root search picks one root and keeps what lies under it;
//! on pages whose content is spread over several regions (service pages, documentation,
//! pages of sections) it drops the rest, and on unseen pages its recall was the weak point.
//! The classifier sees every block with the DocView quantities (§3: terms, anchor terms,
//! images, block weight of Algorithm 1, similarity of its vector to the page's by Formula 2,
//! block types, the central-area margin of §4.1), its place (depth, position, tag, class and
//! id words, its ancestors' and neighbours' figures) and the `docview` cleaner's judgement
//! (kept or not, inside its topic root or how far from it, inside the headline's
//! `<article>`/`<main>`), so it can add the regions the root search missed and drop the boxes
//! it kept.
//!
//! The result is a [`TopicContent`] over the same tree: abstracts, keywords and fingerprints
//! are built on it as on any cleaner's. The page type is the `docview` cleaner's (§4.1 as that
//! cleaner applies it). The title heading's block, when it holds nothing but the headline
//! and blocks without
//! terms (no label can be learned for them: the headline is written apart by extraction, and
//! the labels are text) stay as `docview` decided, so the DocView record keeps its headline.

mod context;
mod features;
mod model;

pub use context::{CONTEXT_FEATURES, context_features};
pub use features::{ITEM_RUN_SHARE, PageFeatures, block_features, blocks, feature_names, vocabulary_word};
pub use model::{
    BlockModel, BoostSettings, DEFAULT_MODEL_JSON, Forest, MAX_DEPTH, ModelError, SecondStage, Tree, fit_booster,
    probability, trees_of,
};

use std::sync::{Arc, OnceLock};

use super::{BlockWeights, Layout, TopicContent};
use crate::config::{BlocksConfig, RepeatScope};
use crate::tagtree::{NodeId, TagTree};

/// Whether block `id` holds nothing but the page's headline (the title heading's own items).
pub fn is_bare_headline(tree: &TagTree, layout: &Layout, id: NodeId) -> bool {
    layout.headline(tree).is_some_and(|(node, tag)| node == id && tag.terms >= tree.nodes[id].own.terms)
}

/// Whether the model has support for the page: it holds at least `min_page_terms` terms. The
/// training pages are longer but for a handful, so on a shorter page (a headline and one
/// paragraph) the trees extrapolate, and the `docview` cleaner's judgement stands.
pub fn has_support(tree: &TagTree, min_page_terms: usize) -> bool {
    tree.nodes[TagTree::ROOT].subtree.terms >= min_page_terms
}

/// Per block of `blocks`, the first block of the page whose own terms are the same sequence
/// (itself when it is the first), for blocks of at least `min_terms` terms; `None` for
/// shorter ones. A page that renders its text twice (a copy for narrow screens, a tab or
/// print version, a carousel's cloned slides) has every block of the copy labelled content,
/// since its text is in the gold, and alike features: no model over single blocks tells the
/// copy from the first, while the gold and a reader's text hold it once.
pub fn first_copies(tree: &TagTree, blocks: &[NodeId], min_terms: usize) -> Vec<Option<usize>> {
    let mut first: std::collections::HashMap<Vec<&str>, usize> = std::collections::HashMap::new();
    blocks
        .iter()
        .enumerate()
        .map(|(b, &id)| {
            let terms = &tree.nodes[id].terms;
            (terms.len() >= min_terms.max(1)).then(|| *first.entry(terms.into_iter().collect()).or_insert(b))
        })
        .collect()
}

/// Drops from `keep` every block whose text (`first_copies`) an earlier kept block already
/// holds, so that the topic content holds each repeated text once; with `apart`, only when the
/// earlier kept copy is apart from it (`apart(earlier, later)`, indices into `copies`).
pub fn drop_repeated(copies: &[Option<usize>], keep: &mut [bool], apart: impl Fn(usize, usize) -> bool) {
    let mut held: std::collections::HashMap<usize, Vec<usize>> = std::collections::HashMap::new();
    for (b, copy) in copies.iter().enumerate() {
        if let Some(first) = copy.filter(|_| keep[b]) {
            let earlier = held.entry(first).or_default();
            if earlier.iter().any(|&e| apart(e, b)) {
                keep[b] = false;
            } else {
                earlier.push(b);
            }
        }
    }
}

/// The repeated-text rule as the cleaner applies it (`[blocks] repeat_min_terms` and
/// `repeat_scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepeatRule {
    /// The least terms of a block the rule drops; 0: the rule off.
    pub min_terms: usize,
    pub scope: RepeatScope,
}

impl RepeatRule {
    pub const OFF: RepeatRule = RepeatRule { min_terms: 0, scope: RepeatScope::Page };

    pub fn of(config: &BlocksConfig) -> RepeatRule {
        RepeatRule { min_terms: config.repeat_min_terms, scope: config.repeat_scope }
    }

    /// Whether a kept copy at node `earlier` makes the block at node `later` a copy to drop.
    pub fn apart(&self, tree: &TagTree, earlier: NodeId, later: NodeId) -> bool {
        match self.scope {
            RepeatScope::Page => true,
            RepeatScope::OtherRegion => other_region(tree, earlier, later),
        }
    }
}

/// Whether `earlier` lies in another region of the page than `later`: outside `later`'s
/// nearest article-like container (an `<article>`, a `<main>`, an `itemprop="articleBody"`
/// element). A template renders a second copy of the text elsewhere (a version for narrow
/// screens, a tab, a modal, a carousel's clones), while an author's repeat (a pull quote, a
/// refrain, a summary line) stands inside the article's own container; a block with no such
/// container has no region to hold its repeats, and any earlier copy counts.
pub fn other_region(tree: &TagTree, earlier: NodeId, later: NodeId) -> bool {
    let container = std::iter::once(later).chain(tree.ancestors(later)).find(|&n| {
        let node = &tree.nodes[n];
        node.article_body || matches!(node.tag.as_str(), "article" | "main")
    });
    container.is_none_or(|c| !tree.contains(c, earlier))
}

/// A block model ready to judge pages: the model and its trees (and its second stage's, when
/// stacked) laid out for prediction.
#[derive(Debug, Clone)]
pub struct BlockClassifier {
    pub model: BlockModel,
    forest: Forest,
    second_stage: Option<Forest>,
}

impl BlockClassifier {
    pub fn new(model: BlockModel) -> BlockClassifier {
        let forest = Forest::of(&model);
        let second_stage = Forest::of_second_stage(&model);
        BlockClassifier { model, forest, second_stage }
    }

    /// The classifier of the built-in model ([`DEFAULT_MODEL_JSON`]), read once per process
    /// and shared: a build makes a cleaner for each of its passes, and reading the model's
    /// JSON is the larger part of making one.
    pub fn built_in() -> Result<Arc<BlockClassifier>, ModelError> {
        static BUILT_IN: OnceLock<Arc<BlockClassifier>> = OnceLock::new();
        if let Some(classifier) = BUILT_IN.get() {
            return Ok(Arc::clone(classifier));
        }
        let classifier = Arc::new(BlockClassifier::new(BlockModel::from_json(DEFAULT_MODEL_JSON)?));
        Ok(Arc::clone(BUILT_IN.get_or_init(|| classifier)))
    }
}

/// Feature rows held at once: a page's blocks are judged in batches of this many, so that a
/// page of many thousand blocks does not hold all its rows (a bound on memory, not tuned).
const ROWS_AT_ONCE: usize = 256;

/// The log-odds `forest` gives `blocks` (indices into the page's blocks), their rows of
/// `width` filled by `fill_row` and judged [`ROWS_AT_ONCE`] at a time
/// (`Forest::log_odds_of_rows`).
fn log_odds_of_blocks(
    blocks: &[usize],
    width: usize,
    forest: &Forest,
    fill_row: impl Fn(usize, &mut [f64]),
) -> Vec<f64> {
    let mut rows = vec![0.0; blocks.len().min(ROWS_AT_ONCE) * width];
    let mut log_odds = vec![0.0; blocks.len()];
    for (chunk, out) in blocks.chunks(ROWS_AT_ONCE).zip(log_odds.chunks_mut(ROWS_AT_ONCE)) {
        let rows = &mut rows[..chunk.len() * width];
        for (&b, row) in chunk.iter().zip(rows.chunks_exact_mut(width)) {
            fill_row(b, row);
        }
        forest.log_odds_of_rows(rows, width, out);
    }
    log_odds
}

/// The topic content the classifier keeps, from the `docview` cleaner's `docview` of the same
/// tree read with the same `layout`.
pub fn clean_blocks(
    tree: &TagTree,
    layout: &Layout,
    weights: &BlockWeights,
    docview: &TopicContent,
    classifier: &BlockClassifier,
    threshold: f64,
    repeat: RepeatRule,
) -> TopicContent {
    let ids = blocks(tree);
    let model = &classifier.model;
    let page = PageFeatures::new(tree, layout, weights, docview, &model.vocabulary, model.item_runs(), &ids);
    let judged: Vec<usize> = (0..ids.len()).filter(|&b| !is_bare_headline(tree, layout, ids[b])).collect();
    let width = page.width();
    let log_odds = match &classifier.second_stage {
        None => log_odds_of_blocks(&judged, width, &classifier.forest, |b, row| page.fill_row(b, row)),
        Some(second_stage) => {
            // Stacked (`context`): the first stage reads every block, as in training, then the
            // second reads each judged block's features followed by its context. A page of at
            // most `ROWS_AT_ONCE` blocks has its rows filled once, for both stages.
            let kept_rows: Option<Vec<f64>> = (ids.len() <= ROWS_AT_ONCE).then(|| {
                let mut rows = vec![0.0; ids.len() * width];
                for (b, row) in rows.chunks_exact_mut(width).enumerate() {
                    page.fill_row(b, row);
                }
                rows
            });
            let stage1_log_odds = match &kept_rows {
                Some(rows) => {
                    let mut log_odds = vec![0.0; ids.len()];
                    classifier.forest.log_odds_of_rows(rows, width, &mut log_odds);
                    log_odds
                }
                None => {
                    let every: Vec<usize> = (0..ids.len()).collect();
                    log_odds_of_blocks(&every, width, &classifier.forest, |b, row| page.fill_row(b, row))
                }
            };
            let stage1: Vec<f64> = stage1_log_odds.into_iter().map(model::probability).collect();
            let context = context_features(tree, &ids, &stage1);
            let c = CONTEXT_FEATURES.len();
            log_odds_of_blocks(&judged, width + c, second_stage, |b, row| {
                match &kept_rows {
                    Some(rows) => row[..width].copy_from_slice(&rows[b * width..(b + 1) * width]),
                    None => page.fill_row(b, &mut row[..width]),
                }
                row[width..].copy_from_slice(&context[b * c..(b + 1) * c]);
            })
        }
    };
    let mut judgements = judged.iter().zip(&log_odds).peekable();
    let mut keep: Vec<bool> = Vec::with_capacity(ids.len());
    let mut is_judged: Vec<bool> = Vec::with_capacity(ids.len());
    for (b, &id) in ids.iter().enumerate() {
        let judgement = judgements.next_if(|&(&j, _)| j == b);
        is_judged.push(judgement.is_some());
        keep.push(match judgement {
            Some((_, &log_odds)) => model::probability(log_odds) >= threshold,
            None => docview.keep[id],
        });
    }
    if repeat.min_terms > 0 {
        let mut copies = first_copies(tree, &ids, repeat.min_terms);
        for (copy, &judged) in copies.iter_mut().zip(&is_judged) {
            *copy = copy.filter(|_| judged);
        }
        drop_repeated(&copies, &mut keep, |earlier, later| repeat.apart(tree, ids[earlier], ids[later]));
    }
    let mut kept: Vec<NodeId> = ids.iter().zip(&keep).filter(|&(_, &k)| k).map(|(&id, _)| id).collect();
    // Blocks without terms (pictures of a gallery) stay as `docview` decided: the labels are
    // text, and nothing was learned about them.
    kept.extend(docview.nodes.iter().copied().filter(|&id| tree.nodes[id].own.terms == 0));
    TopicContent::new(tree, layout, docview.page_type, kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::{CleanerKind, block_weights, clean_page};
    use crate::config::Config;

    /// A model of one tree splitting on feature `name` at `at`: content above when `above`,
    /// below otherwise.
    fn stump(name: &str, at: f64, above: bool) -> BlockModel {
        let sign = if above { 1.0 } else { -1.0 };
        let features = feature_names(&[], false);
        let f = features.iter().position(|n| n == name).unwrap();
        BlockModel {
            protocol: "test".into(),
            vocabulary: Vec::new(),
            features,
            base_score: 0.0,
            trees: vec![Tree::one_split(f, at, -5.0 * sign, 5.0 * sign)],
            threshold: 0.5,
            examples: 0,
            positives: 0,
            stage2: None,
        }
    }

    const PAGE: &str = "<html><head><title>Terns return</title></head><body>\
        <nav><a href=/a>Home</a> <a href=/b>World</a> <a href=/c>Sports</a> <a href=/d>Science</a></nav>\
        <article><h1>Terns return</h1><p>The terns came back to the bay this spring, after ten years away. \
        Volunteers who watched the colony daily counted three hundred nests, and most held eggs.</p></article>\
        <div class=more><p>Another region of the page with running text the root search does not take in, \
        though it reads like the story's own paragraphs.</p></div></body></html>";

    #[test]
    fn repeated_text_is_kept_once_and_short_repeats_stay() {
        let text = "The terns came back to the bay this spring after ten years away";
        let html = format!(
            "<html><body><div><p>{text}</p><p>Share this</p></div>\
             <div class=copy><p>{text}</p><p>Share this</p><p>Only here, in the second part.</p></div></body></html>"
        );
        let tree = TagTree::with_default_config(&html);
        let ids = blocks(&tree);
        assert_eq!(ids.len(), 5);
        let copies = first_copies(&tree, &ids, 3);
        assert_eq!(copies, vec![Some(0), None, Some(0), None, Some(4)]);
        let mut keep = vec![true; 5];
        drop_repeated(&copies, &mut keep, |_, _| true);
        assert_eq!(keep, vec![true, true, false, true, true]);
        // When the first copy is not kept, the second holds the text.
        let mut keep = vec![false, true, true, true, true];
        drop_repeated(&copies, &mut keep, |_, _| true);
        assert_eq!(keep, vec![false, true, true, true, true]);
        // The cleaner: a model keeping every block with terms keeps the copy only with the rule off.
        let config = Config::default();
        let layout = Layout::of(&tree, &config.layout);
        let weights = block_weights(&tree, &config.block_weight);
        let docview = clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config);
        let every = BlockClassifier::new(stump("log_terms", 0.0, true));
        let kept = |min_terms| {
            let repeat = RepeatRule { min_terms, scope: RepeatScope::Page };
            clean_blocks(&tree, &layout, &weights, &docview, &every, 0.5, repeat).nodes
        };
        assert!(kept(0).contains(&ids[2]));
        assert!(!kept(3).contains(&ids[2]) && kept(3).contains(&ids[0]) && kept(3).contains(&ids[3]));
    }

    #[test]
    fn within_regions_a_repeat_inside_the_article_stays_and_a_second_rendering_goes() {
        let line = "We will plant the trees again next spring and every spring after";
        let other = "The council voted to fund the nursery for another five years";
        // The author repeats a line inside the article; the page renders the article's text a
        // second time outside it (a version for narrow screens).
        let html = format!(
            "<html><body><main><article><p>{line}</p><p>{other}</p><p>{line}</p></article></main>\
             <div class=narrow><p>{other}</p><p>{line}</p></div></body></html>"
        );
        let tree = TagTree::with_default_config(&html);
        let ids = blocks(&tree);
        assert_eq!(ids.len(), 5);
        let copies = first_copies(&tree, &ids, 3);
        assert_eq!(copies, vec![Some(0), Some(1), Some(0), Some(1), Some(0)]);
        let kept_with = |scope| {
            let rule = RepeatRule { min_terms: 3, scope };
            let mut keep = vec![true; 5];
            drop_repeated(&copies, &mut keep, |e, l| rule.apart(&tree, ids[e], ids[l]));
            keep
        };
        assert_eq!(kept_with(RepeatScope::Page), vec![true, true, false, false, false]);
        assert_eq!(kept_with(RepeatScope::OtherRegion), vec![true, true, true, false, false]);
        // The container is the later block's: a copy inside an article of an earlier text
        // outside it goes.
        assert!(other_region(&tree, ids[3], ids[1]) && !other_region(&tree, ids[0], ids[2]));
        // A block in no article-like container drops any earlier copy.
        let bare =
            TagTree::with_default_config(&format!("<html><body><div><p>{line}</p></div><p>{line}</p></body></html>"));
        let bare_ids = blocks(&bare);
        assert!(other_region(&bare, bare_ids[0], bare_ids[1]));
        // An itemprop=articleBody element is a container too.
        let body = TagTree::with_default_config(&format!(
            "<html><body><div itemprop=articleBody><p>{line}</p><p>{other}</p><p>{line}</p></div></body></html>"
        ));
        let body_ids = blocks(&body);
        assert!(!other_region(&body, body_ids[0], body_ids[2]));
        // The cleaner reads the scope from the configuration.
        let mut config = Config::default();
        config.blocks.repeat_min_terms = 3;
        config.blocks.repeat_scope = RepeatScope::OtherRegion;
        assert_eq!(RepeatRule::of(&config.blocks), RepeatRule { min_terms: 3, scope: RepeatScope::OtherRegion });
    }

    #[test]
    fn a_model_trained_with_item_runs_loads_and_reads_them() {
        let mut model = stump("log_terms", 0.0, true);
        let features = feature_names(&[], true);
        let at = features.iter().position(|n| n == ITEM_RUN_SHARE).unwrap();
        assert_eq!(features.len(), model.features.len() + 1);
        model.features = features;
        // Content inside a run of items, whatever else the block is.
        model.trees = vec![Tree::one_split(at, 0.0, -5.0, 5.0)];
        let model = BlockModel::from_json(&serde_json::to_string(&model).unwrap()).unwrap();
        assert!(model.item_runs() && !stump("log_terms", 0.0, true).item_runs());
        let item =
            |who: &str| format!("<li><div>{who} on 3 May</div><p>A reply by {who}, longer than its byline.</p></li>");
        let html = format!(
            "<html><body><p>The story, one paragraph of it.</p><ol>{}{}{}</ol></body></html>",
            item("Ann"),
            item("Bo"),
            item("Cy")
        );
        let config = Config::default();
        let tree = TagTree::with_default_config(&html);
        let layout = Layout::of(&tree, &config.layout);
        let weights = block_weights(&tree, &config.block_weight);
        let docview = clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config);
        let ids = blocks(&tree);
        let rows = block_features(&tree, &layout, &weights, &docview, &[], true, &ids);
        let width = model.features.len();
        assert_eq!(rows.len(), ids.len() * width);
        let share = |word: &str| {
            let b = (0..ids.len()).find(|&b| tree.nodes[ids[b]].terms.iter().any(|t| t.contains(word))).unwrap();
            rows[b * width + at]
        };
        assert_eq!(share("story"), 0.0);
        assert!(share("reply") > 0.0 && share("ann") == share("reply"));
        let kept = clean_blocks(&tree, &layout, &weights, &docview, &BlockClassifier::new(model), 0.5, RepeatRule::OFF);
        let text = kept.text(&tree);
        assert!(text.contains("A reply by Ann") && text.contains("Cy on 3 May"), "{text}");
    }

    #[test]
    fn a_model_that_copies_docview_keeps_what_docview_keeps() {
        let config = Config::default();
        let tree = TagTree::with_default_config(PAGE);
        let layout = Layout::of(&tree, &config.layout);
        let weights = block_weights(&tree, &config.block_weight);
        let docview = clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config);
        let content = clean_blocks(
            &tree,
            &layout,
            &weights,
            &docview,
            &BlockClassifier::new(stump("docview_kept", 0.5, true)),
            0.5,
            RepeatRule::OFF,
        );
        assert_eq!(content.nodes, docview.nodes);
        assert_eq!(content.page_type, docview.page_type);
    }

    #[test]
    fn a_second_stage_that_copies_the_first_keeps_what_the_first_keeps() {
        let config = Config::default();
        let tree = TagTree::with_default_config(PAGE);
        let layout = Layout::of(&tree, &config.layout);
        let weights = block_weights(&tree, &config.block_weight);
        let docview = clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config);
        let one_stage = stump("link_density", 0.5, false);
        let clean = |model: BlockModel| {
            clean_blocks(&tree, &layout, &weights, &docview, &BlockClassifier::new(model), 0.5, RepeatRule::OFF).nodes
        };
        let expected = clean(one_stage.clone());
        // A second stage that splits on the first stage's own probability at 0.5.
        let copy = Tree::one_split(one_stage.features.len(), 0.5, -5.0, 5.0);
        let mut stacked = one_stage.clone();
        stacked.stage2 = Some(SecondStage {
            context_features: SecondStage::context_feature_names(),
            base_score: 0.0,
            trees: vec![copy],
        });
        assert_eq!(clean(stacked.clone()), expected);
        // One that reads a context feature: a block is kept when the page's best block is
        // likely content, so every judged block is.
        let page_max =
            (one_stage.features.len() + CONTEXT_FEATURES.iter().position(|&n| n == "stage1_page_max").unwrap()) as i32;
        stacked.stage2.as_mut().unwrap().trees[0].feature[0] = page_max;
        let all = clean(stacked);
        assert!(all.len() > expected.len(), "{all:?} against {expected:?}");
        let text = TopicContent::new(&tree, &layout, docview.page_type, all).text(&tree);
        assert!(text.contains("Sports") && text.contains("Another region"), "{text}");
    }

    #[test]
    fn a_page_shorter_than_the_training_pages_keeps_docviews_result() {
        // A headline and one paragraph: fewer terms than nearly every training page.
        let page = "<html><head><title>Comet night</title></head><body><div id=nav><a href='/'>Home</a></div>\
            <div id=story><h1>Comet night</h1><p>The observatory opens its telescopes to the public for \
            the comet, and astronomers explain how its tail forms as it nears the sun.</p></div></body></html>";
        let mut config = Config::default();
        config.cleaning.cleaner = CleanerKind::Blocks;
        let tree = TagTree::with_default_config(page);
        let weights = block_weights(&tree, &config.block_weight);
        let terms = tree.nodes[TagTree::ROOT].subtree.terms;
        assert!(terms > 0 && terms < config.blocks.min_page_terms, "{terms}");
        assert!(!has_support(&tree, config.blocks.min_page_terms) && has_support(&tree, terms));
        let layout = Layout::of(&tree, &config.layout);
        let docview = clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config);
        let cleaner = crate::clean::Cleaner::new(CleanerKind::Blocks, &config).unwrap();
        let content = cleaner.clean("astro.example", &tree, &weights, &config);
        assert_eq!(content.nodes, docview.nodes);
        assert!(content.text(&tree).contains("telescopes"));
    }

    #[test]
    fn a_model_keeps_blocks_by_their_features_and_the_headline_stays_with_docview() {
        let config = Config::default();
        let tree = TagTree::with_default_config(PAGE);
        let layout = Layout::of(&tree, &config.layout);
        let weights = block_weights(&tree, &config.block_weight);
        let docview = clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config);
        // Running text of its own: every paragraph, not the menu.
        let content = clean_blocks(
            &tree,
            &layout,
            &weights,
            &docview,
            &BlockClassifier::new(stump("link_density", 0.5, false)),
            0.5,
            RepeatRule::OFF,
        );
        let text = content.text(&tree);
        assert!(text.contains("terns came back") && text.contains("Another region"), "{text}");
        assert!(!text.contains("Sports"), "{text}");
        let features = block_features(&tree, &layout, &weights, &docview, &[], false, &blocks(&tree));
        assert_eq!(features.len(), blocks(&tree).len() * feature_names(&[], false).len());
        assert!(features.iter().all(|v| v.is_finite()));
    }
}
