//! The features of one content block: DocView quantities of the block, its ancestors and its
//! neighbours, the page, and the default cleaner's judgement of the page.
//!
//! Every feature is a number the tag tree, the block weights (Algorithm 1), Formula 2 or the
//! `docview` cleaner already computes; the class and id words are a vocabulary learned on the
//! training pages (the model file holds it), each word a flag on the block and on its
//! ancestors.

use fnv::FnvHashMap;

use super::super::{BlockWeights, Layout, TopicContent};
use crate::tagtree::{BlockType, Item, NodeId, TagTree, hint_words};
use crate::text::generic_stop_words;

/// The block's own tag, one flag each (the rest: none of them).
const TAGS: &[&str] =
    &["p", "div", "td", "li", "article", "section", "main", "span", "blockquote", "pre", "dd", "figcaption", "body"];

/// Ancestors' tags, one flag each: the block lies inside one.
const ANCESTOR_TAGS: &[&str] =
    &["article", "main", "section", "aside", "nav", "header", "footer", "form", "li", "td", "figure", "blockquote"];

/// The names of the features before the tag flags and the vocabulary's, in vector order.
const BASE: &[&str] = &[
    "log_terms",
    "log_text_terms",
    "link_density",
    "teaser_share",
    "links",
    "images",
    "block_weight",
    "page_similarity",
    "own_type",
    "block_type",
    "depth",
    "relative_depth",
    "text_position",
    "node_position",
    "log_subtree_terms",
    "subtree_link_density",
    "children",
    "heading_share",
    "is_title_heading",
    "punctuation_density",
    "digit_share",
    "margin",
    "article_body",
    "parent_log_terms",
    "parent_link_density",
    "parent_children",
    "grandparent_link_density",
    "alike_siblings",
    "previous_log_text_terms",
    "previous_link_density",
    "previous_kept",
    "next_log_text_terms",
    "next_link_density",
    "next_kept",
    "page_log_terms",
    "page_link_density",
    "page_log_blocks",
    "page_type",
    "docview_kept",
    "docview_kept_share",
    "in_docview_root",
    "steps_up_to_root",
    "steps_down_from_root",
    "side_of_root",
    "in_headline_story",
];

/// The item-run feature ([`item_run_shares`]), read by a model whose features name it
/// (`[blocks] item_runs` when it was trained).
pub const ITEM_RUN_SHARE: &str = "item_run_share";

/// The feature names of a model with hint vocabulary `vocabulary` (and the item-run feature
/// when `item_runs`), in vector order.
pub fn feature_names(vocabulary: &[String], item_runs: bool) -> Vec<String> {
    let mut names: Vec<String> = BASE.iter().map(|s| s.to_string()).collect();
    if item_runs {
        names.push(ITEM_RUN_SHARE.to_string());
    }
    names.extend(TAGS.iter().map(|t| format!("tag_{t}")));
    names.extend(ANCESTOR_TAGS.iter().map(|t| format!("inside_{t}")));
    names.extend(vocabulary.iter().map(|w| format!("hint_{w}")));
    names.extend(vocabulary.iter().map(|w| format!("ancestor_hint_{w}")));
    names
}

/// The hint words a vocabulary can hold: letters only, two or more (numbers and one-letter
/// fragments name instances, not roles).
pub fn vocabulary_word(word: &str) -> bool {
    word.len() >= 2 && word.bytes().all(|b| b.is_ascii_alphabetic())
}

/// The blocks of a page the classifier judges: containers with terms of their own.
pub fn blocks(tree: &TagTree) -> Vec<NodeId> {
    (0..tree.nodes.len()).filter(|&id| tree.nodes[id].own.terms > 0).collect()
}

fn code(block_type: BlockType) -> f64 {
    match block_type {
        BlockType::Topic => 0.0,
        BlockType::Hub => 1.0,
        BlockType::Image => 2.0,
        BlockType::Empty => 3.0,
    }
}

fn ln1p(x: usize) -> f64 {
    (x as f64).ln_1p()
}

/// The feature rows of `blocks` (row-major, `feature_names(vocabulary, item_runs).len()` per
/// block). `docview` is the default cleaner's topic content of the same tree read with
/// `layout`.
pub fn block_features(
    tree: &TagTree,
    layout: &Layout,
    weights: &BlockWeights,
    docview: &TopicContent,
    vocabulary: &[String],
    item_runs: bool,
    blocks: &[NodeId],
) -> Vec<f64> {
    let page = PageFeatures::new(tree, layout, weights, docview, vocabulary, item_runs, blocks);
    let width = page.width();
    let mut rows = vec![0.0; width * blocks.len()];
    for (b, row) in rows.chunks_mut(width).enumerate() {
        page.fill_row(b, row);
    }
    rows
}

/// What the rows of one page's blocks are computed from: the page-wide quantities (one pass
/// over the tree each), then [`PageFeatures::fill_row`] per block. A cleaner fills one row
/// at a time and judges it, so a page's rows never exist at once.
pub struct PageFeatures<'a> {
    tree: &'a TagTree,
    layout: &'a Layout,
    weights: &'a BlockWeights,
    docview: &'a TopicContent,
    vocabulary: &'a [String],
    blocks: &'a [NodeId],
    /// Per node: depth, its own hint words and its ancestors' (bit sets), its ancestors'
    /// tags, inside an `articleBody`.
    depth: Vec<usize>,
    own_hints: Vec<u64>,
    above_hints: Vec<u64>,
    above_tags: Vec<u32>,
    in_article_body: Vec<bool>,
    max_depth: f64,
    /// Per block: its terms before it on the page, Formula 2 similarity to the page vector,
    /// siblings of the same tag and hint, steps up to the docview root's path and down it.
    terms_before: Vec<usize>,
    similarity: Vec<f64>,
    alike: Vec<usize>,
    root_steps: Vec<(f64, f64)>,
    root_span: Option<(NodeId, NodeId)>,
    story_span: Option<(NodeId, NodeId)>,
    kept_terms: usize,
    title_node: Option<NodeId>,
    /// Per block, [`item_run_shares`]; `None` when the model does not read it.
    item_run_share: Option<Vec<f64>>,
}

impl<'a> PageFeatures<'a> {
    pub fn new(
        tree: &'a TagTree,
        layout: &'a Layout,
        weights: &'a BlockWeights,
        docview: &'a TopicContent,
        vocabulary: &'a [String],
        item_runs: bool,
        blocks: &'a [NodeId],
    ) -> PageFeatures<'a> {
        let n = tree.nodes.len();
        let words: FnvHashMap<&str, usize> = vocabulary.iter().enumerate().map(|(i, w)| (w.as_str(), i)).collect();
        let mask_words = vocabulary.len().min(64);
        // Parents come before children (ids in document order).
        let mut depth = vec![0usize; n];
        let mut own_hints = vec![0u64; n];
        let mut above_hints = vec![0u64; n];
        let mut above_tags = vec![0u32; n];
        let mut own_tag = vec![0u32; n];
        let mut in_article_body = vec![false; n];
        for id in 0..n {
            let node = &tree.nodes[id];
            for word in hint_words(&node.hint) {
                if let Some(&i) = words.get(word).filter(|&&i| i < mask_words) {
                    own_hints[id] |= 1 << i;
                }
            }
            own_tag[id] = ANCESTOR_TAGS.iter().position(|&t| t == node.tag).map_or(0, |i| 1u32 << i);
            in_article_body[id] = node.article_body;
            if let Some(p) = node.parent {
                depth[id] = depth[p] + 1;
                above_hints[id] = above_hints[p] | own_hints[p];
                above_tags[id] = above_tags[p] | own_tag[p];
                in_article_body[id] |= in_article_body[p];
            }
        }
        let max_depth = depth.iter().copied().max().unwrap_or(0).max(1) as f64;
        let mut terms_before = Vec::with_capacity(blocks.len());
        let mut before = 0usize;
        for &id in blocks {
            terms_before.push(before);
            before += tree.nodes[id].own.terms;
        }
        let similarity = page_similarities(tree, weights, blocks);
        let alike = alike_siblings(tree, blocks);
        // Where each block stands from the docview root: steps up to the root's path (the
        // root and its ancestors), and how far down that path the meeting point lies.
        let root_steps = match docview.root {
            Some(r) => {
                let mut path_position = vec![usize::MAX; n];
                for (i, a) in std::iter::once(r).chain(tree.ancestors(r)).enumerate() {
                    path_position[a] = i;
                }
                let path_len = path_position.iter().filter(|&&i| i != usize::MAX).count();
                // Per node: the first node of its ancestry (itself included) on the path, or
                // the tree's root, and the steps up to it.
                let mut meeting = vec![(0usize, 0usize); n];
                for id in 0..n {
                    meeting[id] = match tree.nodes[id].parent {
                        Some(p) if path_position[id] == usize::MAX => (meeting[p].0, meeting[p].1 + 1),
                        _ => (id, 0),
                    };
                }
                blocks
                    .iter()
                    .map(|&id| {
                        let (common, up) = meeting[id];
                        let down = if path_position[common] == usize::MAX { path_len } else { path_position[common] };
                        (up as f64, down as f64)
                    })
                    .collect()
            }
            None => vec![(-1.0, -1.0); blocks.len()],
        };
        let root_span = docview.root.map(|r| (r, last_descendant(tree, r)));
        // The headline's story: its <article> or <main>.
        let story = layout
            .title_heading()
            .and_then(|h| tree.ancestors(h.node).find(|&a| matches!(tree.nodes[a].tag.as_str(), "article" | "main")));
        let story_span = story.map(|s| (s, last_descendant(tree, s)));
        let kept_terms: usize = docview.nodes.iter().map(|&id| tree.nodes[id].own.terms).sum();
        let title_node = layout.title_heading().map(|h| h.node);
        let item_run_share = item_runs.then(|| item_run_shares(tree, blocks));
        PageFeatures {
            tree,
            layout,
            weights,
            docview,
            vocabulary,
            blocks,
            depth,
            own_hints,
            above_hints,
            above_tags,
            in_article_body,
            max_depth,
            terms_before,
            similarity,
            alike,
            root_steps,
            root_span,
            story_span,
            kept_terms,
            title_node,
            item_run_share,
        }
    }

    /// Features per block.
    pub fn width(&self) -> usize {
        BASE.len() + self.extra() + TAGS.len() + ANCESTOR_TAGS.len() + 2 * self.vocabulary.len()
    }

    /// Features between the base ones and the tags: the item-run share, when read.
    fn extra(&self) -> usize {
        usize::from(self.item_run_share.is_some())
    }

    /// Writes the features of block `b` (of `blocks`, in order) into `row` (`width()` long).
    pub fn fill_row(&self, b: usize, row: &mut [f64]) {
        let (tree, docview, blocks) = (self.tree, self.docview, self.blocks);
        let id = blocks[b];
        let n = tree.nodes.len();
        let node = &tree.nodes[id];
        let own = node.own;
        let (punctuation, digits, chars) = text_marks(node);
        let headings: usize = node.weighty.iter().filter(|w| w.tag.starts_with('h')).map(|w| w.terms).sum();
        let parent = node.parent.map(|p| &tree.nodes[p]);
        let grandparent = node.parent.and_then(|p| tree.nodes[p].parent).map(|g| &tree.nodes[g]);
        let previous = b.checked_sub(1).map(|p| blocks[p]);
        let next = blocks.get(b + 1).copied();
        let neighbour = |other: Option<NodeId>| {
            other.map_or((0.0, 0.0, 0.0), |o| {
                let s = tree.nodes[o].own;
                (ln1p(s.text_terms()), s.link_density(), f64::from(u8::from(docview.keep[o])))
            })
        };
        let (prev_text, prev_density, prev_kept) = neighbour(previous);
        let (next_text, next_density, next_kept) = neighbour(next);
        // The side of the docview root the block lies on (before −1, inside 0, after 1).
        let (up, down) = self.root_steps[b];
        let (side, inside) = match self.root_span {
            Some((r, _)) if id < r => (-1.0, false),
            Some((_, end)) if id > end => (1.0, false),
            Some(_) => (0.0, true),
            None => (0.0, false),
        };
        let in_story = self.story_span.is_some_and(|(s, end)| id >= s && id <= end);
        let root = tree.nodes[TagTree::ROOT].subtree;
        let page_terms = root.terms.max(1) as f64;
        let depth = self.depth[id];
        let values = [
            ln1p(own.terms),
            ln1p(own.text_terms()),
            own.link_density(),
            own.teaser_terms as f64 / own.terms.max(1) as f64,
            own.links as f64,
            own.images as f64,
            self.weights.get(id),
            self.similarity[b],
            code(node.own_type),
            code(node.block_type),
            depth as f64,
            depth as f64 / self.max_depth,
            self.terms_before[b] as f64 / page_terms,
            id as f64 / n as f64,
            ln1p(node.subtree.terms),
            node.subtree.link_density(),
            node.children.len() as f64,
            headings as f64 / own.terms.max(1) as f64,
            f64::from(u8::from(self.title_node == Some(id))),
            punctuation as f64 / own.terms.max(1) as f64,
            digits as f64 / chars.max(1) as f64,
            f64::from(u8::from(self.layout.is_margin(id))),
            f64::from(u8::from(self.in_article_body[id])),
            parent.map_or(0.0, |p| ln1p(p.subtree.terms)),
            parent.map_or(0.0, |p| p.subtree.link_density()),
            parent.map_or(0.0, |p| p.children.len() as f64),
            grandparent.map_or(0.0, |g| g.subtree.link_density()),
            self.alike[b] as f64,
            prev_text,
            prev_density,
            prev_kept,
            next_text,
            next_density,
            next_kept,
            ln1p(root.terms),
            root.link_density(),
            ln1p(blocks.len()),
            code(docview.page_type),
            f64::from(u8::from(docview.keep[id])),
            self.kept_terms as f64 / page_terms,
            f64::from(u8::from(inside)),
            up,
            down,
            side,
            f64::from(u8::from(in_story)),
        ];
        row.fill(0.0);
        row[..BASE.len()].copy_from_slice(&values);
        let mut at = BASE.len();
        if let Some(shares) = &self.item_run_share {
            row[at] = shares[b];
        }
        at += self.extra();
        if let Some(i) = TAGS.iter().position(|&t| t == node.tag) {
            row[at + i] = 1.0;
        }
        at += TAGS.len();
        for i in 0..ANCESTOR_TAGS.len() {
            row[at + i] = f64::from(u8::from(self.above_tags[id] & (1 << i) != 0));
        }
        at += ANCESTOR_TAGS.len();
        let words = self.vocabulary.len();
        for i in 0..words.min(64) {
            row[at + i] = f64::from(u8::from(self.own_hints[id] & (1 << i) != 0));
            row[at + words + i] = f64::from(u8::from(self.above_hints[id] & (1 << i) != 0));
        }
    }
}

/// Formula 2 similarity of each block's vector to the page vector (every block's terms
/// weighted by its block weight, stop words out). The block's own weight is one factor of
/// every component of its vector and cancels in the cosine. Terms are numbered once per page
/// in their sort order, so that each block's sums run over its terms in that order.
fn page_similarities(tree: &TagTree, weights: &BlockWeights, blocks: &[NodeId]) -> Vec<f64> {
    let stop = generic_stop_words();
    // Each distinct term once: its number, and whether it is a content term.
    let occurrences_on_page: usize = blocks.iter().map(|&id| tree.nodes[id].terms.len()).sum();
    let mut numbers: FnvHashMap<&str, u32> =
        FnvHashMap::with_capacity_and_hasher(occurrences_on_page, Default::default());
    let mut terms: Vec<&str> = Vec::new();
    let mut content: Vec<bool> = Vec::new();
    let mut page_weight: Vec<f64> = Vec::new();
    // The content terms of each block, by number: `occurrences[starts[b]..starts[b + 1]]`.
    let mut occurrences: Vec<u32> = Vec::with_capacity(occurrences_on_page);
    let mut starts = Vec::with_capacity(blocks.len() + 1);
    for &id in blocks {
        starts.push(occurrences.len());
        let bw = weights.get(id);
        for term in tree.nodes[id].terms.iter() {
            let number = *numbers.entry(term).or_insert_with(|| {
                terms.push(term);
                content.push(!stop.contains(term));
                page_weight.push(0.0);
                (terms.len() - 1) as u32
            });
            if content[number as usize] {
                page_weight[number as usize] += bw;
                occurrences.push(number);
            }
        }
    }
    starts.push(occurrences.len());
    let page_norm =
        crate::clean::ordered_sum(page_weight.iter().zip(&content).filter(|&(_, &c)| c).map(|(w, _)| w * w)).sqrt();
    // Renumber by sort order of the terms.
    let mut by_term: Vec<u32> = (0..terms.len() as u32).collect();
    by_term.sort_unstable_by_key(|&i| terms[i as usize]);
    let mut rank = vec![0u32; terms.len()];
    let mut weight_by_rank = vec![0.0; terms.len()];
    for (r, &i) in by_term.iter().enumerate() {
        rank[i as usize] = r as u32;
        weight_by_rank[r] = page_weight[i as usize];
    }
    let mut own: Vec<u32> = Vec::new();
    (0..blocks.len())
        .map(|b| {
            own.clear();
            own.extend(occurrences[starts[b]..starts[b + 1]].iter().map(|&i| rank[i as usize]));
            own.sort_unstable();
            let mut dot = 0.0;
            let mut norm = 0.0;
            for run in own.chunk_by(|a, b| a == b) {
                let tf = run.len() as f64;
                dot += tf * weight_by_rank[run[0] as usize];
                norm += tf * tf;
            }
            if norm > 0.0 && page_norm > 0.0 { dot / (norm.sqrt() * page_norm) } else { 0.0 }
        })
        .collect()
}

/// For each block, its siblings with the same tag and hint (a list's items, a grid's cells):
/// each parent's children are grouped once.
fn alike_siblings(tree: &TagTree, blocks: &[NodeId]) -> Vec<usize> {
    let mut alike = vec![0usize; tree.nodes.len()];
    let mut grouped = vec![false; tree.nodes.len()];
    let mut children: Vec<NodeId> = Vec::new();
    for &id in blocks {
        let Some(p) = tree.nodes[id].parent else { continue };
        if std::mem::replace(&mut grouped[p], true) {
            continue;
        }
        let key = |c: &NodeId| (tree.nodes[*c].tag.as_str(), tree.nodes[*c].hint.as_str());
        children.clear();
        children.extend_from_slice(&tree.nodes[p].children);
        children.sort_unstable_by_key(key);
        for run in children.chunk_by(|a, b| key(a) == key(b)) {
            for &c in run {
                alike[c] = run.len() - 1;
            }
        }
    }
    blocks.iter().map(|&id| alike[id]).collect()
}

/// Items of a run: at least this many alike siblings.
const MIN_RUN_ITEMS: usize = 3;

/// A lead block of at most this many terms is byline-like (an author and a date, a title).
const MAX_LEAD_TERMS: usize = 15;

/// Per block, the share of the page's terms held by the run of alike items the block lies in
/// (its nearest ancestor, or itself, that is an item of one), 0 outside every run.
///
/// A run is at least [`MIN_RUN_ITEMS`] siblings of the same tag and first class/id word,
/// at least half of them led by a byline: the item
/// holds two blocks or more, and its first block is short ([`MAX_LEAD_TERMS`]) and shorter
/// than its longest. Comments, reader reviews and forum replies are such runs (a name and a
/// date, then the text), and so are a listing's cards (a title, then a blurb); what tells
/// them apart is how much of the page the run holds and where it lies, which the model reads
/// beside it. An article's paragraphs are no run (one block each), nor is a menu (a link
/// each), whatever the page's class names, in any language.
fn item_run_shares(tree: &TagTree, blocks: &[NodeId]) -> Vec<f64> {
    let n = tree.nodes.len();
    // Bottom-up (children after their parent in id order): blocks in each subtree, the first
    // block's terms and the largest block's terms.
    let mut count = vec![0usize; n];
    let mut lead = vec![None::<usize>; n];
    let mut largest = vec![0usize; n];
    for id in (0..n).rev() {
        let node = &tree.nodes[id];
        let own = node.own.terms;
        count[id] = usize::from(own > 0) + node.children.iter().map(|&c| count[c]).sum::<usize>();
        lead[id] = if own > 0 { Some(own) } else { node.children.iter().find_map(|&c| lead[c]) };
        largest[id] = node.children.iter().map(|&c| largest[c]).fold(own, usize::max);
    }
    let byline_led =
        |id: NodeId| count[id] >= 2 && lead[id].is_some_and(|terms| terms <= MAX_LEAD_TERMS && terms < largest[id]);
    let key = |id: NodeId| {
        let node = &tree.nodes[id];
        (node.tag.as_str(), hint_words(&node.hint).find(|w| w.bytes().all(|b| b.is_ascii_alphabetic())).unwrap_or(""))
    };
    let page_terms = tree.nodes[TagTree::ROOT].subtree.terms.max(1) as f64;
    // Per node: the share of the run it is an item of.
    let mut item_share = vec![0.0; n];
    let mut children: Vec<NodeId> = Vec::new();
    for node in &tree.nodes {
        children.clear();
        children.extend(node.children.iter().copied().filter(|&c| tree.nodes[c].subtree.terms > 0));
        if children.len() < MIN_RUN_ITEMS {
            continue;
        }
        children.sort_by_key(|&c| key(c));
        for run in children.chunk_by(|&a, &b| key(a) == key(b)) {
            let led = run.iter().filter(|&&c| byline_led(c)).count();
            if run.len() >= MIN_RUN_ITEMS && 2 * led >= run.len() {
                let terms: usize = run.iter().map(|&c| tree.nodes[c].subtree.terms).sum();
                for &c in run {
                    item_share[c] = terms as f64 / page_terms;
                }
            }
        }
    }
    // Top-down: a node outside every run of its own takes its nearest ancestor's.
    for id in 0..n {
        if item_share[id] == 0.0
            && let Some(p) = tree.nodes[id].parent
        {
            item_share[id] = item_share[p];
        }
    }
    blocks.iter().map(|&id| item_share[id]).collect()
}

/// The last node of `id`'s subtree (ids of a subtree are contiguous).
fn last_descendant(tree: &TagTree, id: NodeId) -> NodeId {
    let mut last = id;
    while let Some(&child) = tree.nodes[last].children.last() {
        last = child;
    }
    last
}

/// A mark that ends or divides a sentence, in Latin or CJK (full-width) script.
fn is_sentence_mark(c: char) -> bool {
    matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | '。' | '，' | '；' | '：' | '！' | '？' | '、')
}

/// Sentence punctuation marks, digits and characters of a block's own text: running text
/// has sentences, menus and bylines have few marks, dates and prices many digits.
fn text_marks(node: &crate::tagtree::Node) -> (usize, usize, usize) {
    let (mut punctuation, mut digits, mut chars) = (0, 0, 0);
    for item in &node.items {
        if let Item::Text { text, .. } = item {
            if text.is_ascii() {
                // A byte a character, the same counts without decoding (the marks beyond
                // ASCII cannot occur).
                for &b in text.as_bytes().iter().filter(|&&b| !matches!(b, b'\t'..=b'\r' | b' ')) {
                    chars += 1;
                    punctuation += usize::from(is_sentence_mark(char::from(b)));
                    digits += usize::from(b.is_ascii_digit());
                }
                continue;
            }
            for c in text.chars().filter(|c| !c.is_whitespace()) {
                chars += 1;
                if is_sentence_mark(c) {
                    punctuation += 1;
                } else if c.is_ascii_digit() {
                    digits += 1;
                }
            }
        }
    }
    (punctuation, digits, chars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_byline_led_items_holds_its_blocks_and_paragraphs_and_menus_are_no_run() {
        let comment = |name: &str, text: &str| {
            format!(
                "<li class=c><div class=who>{name} on 3 May</div><p>{text} and some more words to read here.</p></li>"
            )
        };
        let html = format!(
            "<html><body><ul class=nav><li><a href=/a>Home</a></li><li><a href=/b>World</a></li>\
             <li><a href=/c>Sports</a></li></ul><div id=story><p>The first paragraph of the story.</p>\
             <p>The second paragraph of the story.</p><p>The third paragraph of the story.</p></div>\
             <ol class=replies>{}{}{}</ol></body></html>",
            comment("Ann", "I liked it"),
            comment("Bo", "Not for me"),
            comment("Cy", "Well written")
        );
        let tree = TagTree::with_default_config(&html);
        let ids = blocks(&tree);
        let shares = item_run_shares(&tree, &ids);
        let text = |b: usize| tree.nodes[ids[b]].terms.iter().collect::<Vec<_>>().join(" ");
        let share_of = |word: &str| shares[(0..ids.len()).find(|&b| text(b).contains(word)).unwrap()];
        for word in ["home", "sports", "first", "third"] {
            assert_eq!(share_of(word), 0.0, "{word}");
        }
        let run = share_of("ann");
        assert!(run > 0.0 && run < 1.0, "{run}");
        for word in ["liked", "bo", "written"] {
            assert_eq!(share_of(word), run, "{word}");
        }
        let comments: usize =
            tree.nodes.iter().filter(|n| n.tag == "li" && n.hint == "c").map(|n| n.subtree.terms).sum();
        assert!((run - comments as f64 / tree.nodes[TagTree::ROOT].subtree.terms as f64).abs() < 1e-12);
    }
}
