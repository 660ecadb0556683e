//! The features of one content block: DocView quantities of the block, its ancestors and its
//! neighbours, the page, and the default cleaner's judgement of the page.
//!
//! Every feature is a number the tag tree, the block weights (Algorithm 1), Formula 2 or the
//! `docview` cleaner already computes; the class and id words are a vocabulary learned on the
//! training pages (the model file holds it), each word a flag on the block and on its
//! ancestors.

use std::collections::HashMap;

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

/// The feature names of a model with hint vocabulary `vocabulary`, in vector order.
pub fn feature_names(vocabulary: &[String]) -> Vec<String> {
    let mut names: Vec<String> = BASE.iter().map(|s| s.to_string()).collect();
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

/// The feature rows of `blocks` (row-major, `feature_names(vocabulary).len()` per block).
/// `docview` is the default cleaner's topic content of the same tree read with `layout`.
pub fn block_features(
    tree: &TagTree,
    layout: &Layout,
    weights: &BlockWeights,
    docview: &TopicContent,
    vocabulary: &[String],
    blocks: &[NodeId],
) -> Vec<f64> {
    let n = tree.nodes.len();
    let width = BASE.len() + TAGS.len() + ANCESTOR_TAGS.len() + 2 * vocabulary.len();
    let words: HashMap<&str, usize> = vocabulary.iter().enumerate().map(|(i, w)| (w.as_str(), i)).collect();
    let mask_words = vocabulary.len().min(64);
    // Per node: depth, its own hint words and its ancestors' (bit sets), its ancestors' tags.
    // Parents come before children (ids in document order).
    let mut depth = vec![0usize; n];
    let mut own_hints = vec![0u64; n];
    let mut above_hints = vec![0u64; n];
    let mut above_tags = vec![0u32; n];
    let mut in_article_body = vec![false; n];
    for id in 0..n {
        let node = &tree.nodes[id];
        for word in hint_words(&node.hint) {
            if let Some(&i) = words.get(word).filter(|&&i| i < mask_words) {
                own_hints[id] |= 1 << i;
            }
        }
        in_article_body[id] = node.article_body;
        if let Some(p) = node.parent {
            depth[id] = depth[p] + 1;
            above_hints[id] = above_hints[p] | own_hints[p];
            let parent_tag = ANCESTOR_TAGS.iter().position(|&t| t == tree.nodes[p].tag).map_or(0, |i| 1u32 << i);
            above_tags[id] = above_tags[p] | parent_tag;
            in_article_body[id] |= in_article_body[p];
        }
    }
    let max_depth = depth.iter().copied().max().unwrap_or(0).max(1) as f64;
    // Formula 2's page vector over every block (stop words out), for each block's similarity.
    let stop = generic_stop_words();
    let content = |term: &str| !stop.contains(term);
    let mut page_vector: HashMap<&str, f64> = HashMap::new();
    for &id in blocks {
        let bw = weights.get(id);
        for term in tree.nodes[id].terms.iter().filter(|t| content(t)) {
            *page_vector.entry(term).or_default() += bw;
        }
    }
    let page_norm = crate::clean::ordered_sum(page_vector.values().map(|w| w * w)).sqrt();
    let root = tree.nodes[TagTree::ROOT].subtree;
    let page_terms = root.terms.max(1) as f64;
    // The topic root of the docview cleaner, and the headline's story (its <article> or <main>).
    let docview_root = docview.root;
    let root_path: Vec<NodeId> =
        docview_root.map(|r| std::iter::once(r).chain(tree.ancestors(r)).collect()).unwrap_or_default();
    let root_end = docview_root.map(|r| last_descendant(tree, r));
    let story = layout
        .title_heading()
        .and_then(|h| tree.ancestors(h.node).find(|&a| matches!(tree.nodes[a].tag.as_str(), "article" | "main")));
    let story_end = story.map(|s| last_descendant(tree, s));
    let kept_terms: usize = docview.nodes.iter().map(|&id| tree.nodes[id].own.terms).sum();
    let title_node = layout.title_heading().map(|h| h.node);

    let mut rows = vec![0.0; width * blocks.len()];
    let mut terms_before = 0usize;
    for (b, &id) in blocks.iter().enumerate() {
        let node = &tree.nodes[id];
        let row = &mut rows[b * width..(b + 1) * width];
        let own = node.own;
        let (punctuation, digits, chars) = text_marks(node);
        let headings: usize = node.weighty.iter().filter(|w| w.tag.starts_with('h')).map(|w| w.terms).sum();
        let parent = node.parent.map(|p| &tree.nodes[p]);
        let grandparent = node.parent.and_then(|p| tree.nodes[p].parent).map(|g| &tree.nodes[g]);
        let alike = parent.map_or(0, |p| {
            p.children
                .iter()
                .filter(|&&c| c != id && tree.nodes[c].tag == node.tag && tree.nodes[c].hint == node.hint)
                .count()
        });
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
        // Similarity to the page vector: the block's own vector (its weight is one factor of
        // every component and cancels in the cosine).
        let mut own_terms: Vec<&str> = node.terms.iter().filter(|t| content(t)).collect();
        own_terms.sort_unstable();
        let mut dot = 0.0;
        let mut norm = 0.0;
        for run in own_terms.chunk_by(|a, b| a == b) {
            let tf = run.len() as f64;
            dot += tf * page_vector.get(run[0]).copied().unwrap_or(0.0);
            norm += tf * tf;
        }
        let similarity = if norm > 0.0 && page_norm > 0.0 { dot / (norm.sqrt() * page_norm) } else { 0.0 };
        // Where the block stands from the docview root: steps up to their common ancestor,
        // steps down from the root to it, and the side (before −1, inside 0, after 1).
        let (up, down, side, inside) = match (docview_root, root_end) {
            (Some(r), Some(end)) => {
                let mut up = 0usize;
                let mut common = id;
                while !root_path.contains(&common) {
                    match tree.nodes[common].parent {
                        Some(p) => {
                            common = p;
                            up += 1;
                        }
                        None => break,
                    }
                }
                let down = root_path.iter().position(|&a| a == common).unwrap_or(root_path.len());
                let side = if id < r {
                    -1.0
                } else if id > end {
                    1.0
                } else {
                    0.0
                };
                (up as f64, down as f64, side, id >= r && id <= end)
            }
            _ => (-1.0, -1.0, 0.0, false),
        };
        let in_story = story.zip(story_end).is_some_and(|(s, end)| id >= s && id <= end);
        let values = [
            ln1p(own.terms),
            ln1p(own.text_terms()),
            own.link_density(),
            own.teaser_terms as f64 / own.terms.max(1) as f64,
            own.links as f64,
            own.images as f64,
            weights.get(id),
            similarity,
            code(node.own_type),
            code(node.block_type),
            depth[id] as f64,
            depth[id] as f64 / max_depth,
            terms_before as f64 / page_terms,
            id as f64 / n as f64,
            ln1p(node.subtree.terms),
            node.subtree.link_density(),
            node.children.len() as f64,
            headings as f64 / own.terms.max(1) as f64,
            f64::from(u8::from(title_node == Some(id))),
            punctuation as f64 / own.terms.max(1) as f64,
            digits as f64 / chars.max(1) as f64,
            f64::from(u8::from(layout.is_margin(id))),
            f64::from(u8::from(in_article_body[id])),
            parent.map_or(0.0, |p| ln1p(p.subtree.terms)),
            parent.map_or(0.0, |p| p.subtree.link_density()),
            parent.map_or(0.0, |p| p.children.len() as f64),
            grandparent.map_or(0.0, |g| g.subtree.link_density()),
            alike as f64,
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
            kept_terms as f64 / page_terms,
            f64::from(u8::from(inside)),
            up,
            down,
            side,
            f64::from(u8::from(in_story)),
        ];
        row[..BASE.len()].copy_from_slice(&values);
        let mut at = BASE.len();
        if let Some(i) = TAGS.iter().position(|&t| t == node.tag) {
            row[at + i] = 1.0;
        }
        at += TAGS.len();
        for i in 0..ANCESTOR_TAGS.len() {
            row[at + i] = f64::from(u8::from(above_tags[id] & (1 << i) != 0));
        }
        at += ANCESTOR_TAGS.len();
        for i in 0..mask_words {
            row[at + i] = f64::from(u8::from(own_hints[id] & (1 << i) != 0));
            row[at + vocabulary.len() + i] = f64::from(u8::from(above_hints[id] & (1 << i) != 0));
        }
        terms_before += own.terms;
    }
    rows
}

/// The last node of `id`'s subtree (ids of a subtree are contiguous).
fn last_descendant(tree: &TagTree, id: NodeId) -> NodeId {
    let mut last = id;
    while let Some(&child) = tree.nodes[last].children.last() {
        last = child;
    }
    last
}

/// Sentence punctuation marks, digits and characters of a block's own text: running text
/// has sentences, menus and bylines have few marks, dates and prices many digits.
fn text_marks(node: &crate::tagtree::Node) -> (usize, usize, usize) {
    let (mut punctuation, mut digits, mut chars) = (0, 0, 0);
    for item in &node.items {
        if let Item::Text { text, .. } = item {
            for c in text.chars().filter(|c| !c.is_whitespace()) {
                chars += 1;
                if matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | '。' | '，' | '；' | '：' | '！' | '？' | '、')
                {
                    punctuation += 1;
                } else if c.is_ascii_digit() {
                    digits += 1;
                }
            }
        }
    }
    (punctuation, digits, chars)
}
