//! The `satisfiable` cleaner: satisfiable sub-tree heuristics (Qi & Sun, "Eliminating Noisy
//! Information in Webpage through Heuristic Rules", §3.2–3.3).
//!
//! The paper's procedure, step by step as implemented here:
//! 1. Every non-empty text node is followed "up along the DOM tree to \[its\] G-generation
//!    parent node" `pgNode` (the `deNoise` listing of §3.3.3).
//! 2. `pgNode` is kept if its sub-tree is *satisfiable* (§3.2): within its first G generations
//!    of children there is a text node with LENGTH ≥ α, and over the whole sub-tree
//!    SL_text ≥ β and SL_anchor ≤ γ × SL_text (anchor text counts in SL_text too, "anchor text
//!    is a special text").
//! 3. `getMaxSet`: a satisfiable sub-tree inside another one is deleted, leaving
//!    ROOT(SST_max).
//! 4. The topic content is the text of each remaining sub-tree, depth first, in the order the
//!    roots were found (which is document order, as the roots are disjoint). Nothing else is
//!    added: the paper notes that the headline outside the sub-tree is lost and points to the
//!    `<title>`, which our records keep as a field of their own anyway.
//!
//! Filtering (§3.3.2: scripts, styles, applets, comments) is done by the tag tree already.
//!
//! Approximations, because the tag tree is not the DOM:
//! - Generations are counted in containers: inline elements (`a`, `b`, `span`, headings …)
//!   are not nodes, so a text's first generation is the container it stands in, and G = 2
//!   reaches the container's parent. The tree's root stands for `<html>`, the parent of
//!   `<body>`; a text with fewer than G generations above it has no `pgNode` and is skipped.
//! - A text node is a text item of a container: runs of text the tree merged across inline
//!   tags (same link or none) count as one text node. Its LENGTH is its number of characters
//!   once white space is collapsed and trimmed (the listing trims text to test emptiness).
//! - "In G-generation child node" is read as "within the first G generations" (the container
//!   itself and its descendants down to G − 1 levels), not "exactly at generation G".

use crate::config::SatisfiableConfig;
use crate::tagtree::{Item, NodeId, TagTree};

/// Character lengths of one container's own text (children excluded).
#[derive(Debug, Clone, Copy, Default)]
struct OwnText {
    /// Sum of the lengths of its text nodes.
    chars: usize,
    /// Sum of the lengths of its anchor text nodes.
    anchor_chars: usize,
    /// Length of its longest text node.
    longest: usize,
    /// Whether it holds a non-empty text node at all.
    has_text: bool,
}

fn own_text(tree: &TagTree, id: NodeId) -> OwnText {
    let mut own = OwnText::default();
    for item in &tree.nodes[id].items {
        if let Item::Text { text, link } = item {
            let length = text.trim().chars().count();
            if length == 0 {
                continue;
            }
            own.has_text = true;
            own.chars += length;
            own.longest = own.longest.max(length);
            if link.is_some() {
                own.anchor_chars += length;
            }
        }
    }
    own
}

/// ROOT(SST_max): the roots of the largest satisfiable sub-tree set, in document order.
pub fn satisfiable_roots(tree: &TagTree, config: &SatisfiableConfig) -> Vec<NodeId> {
    let n = tree.nodes.len();
    let own: Vec<OwnText> = (0..n).map(|id| own_text(tree, id)).collect();
    // SL_text and SL_anchor of every sub-tree, bottom-up (children have larger ids).
    let mut sl_text: Vec<usize> = own.iter().map(|o| o.chars).collect();
    let mut sl_anchor: Vec<usize> = own.iter().map(|o| o.anchor_chars).collect();
    for id in (1..n).rev() {
        if let Some(parent) = tree.nodes[id].parent {
            sl_text[parent] += sl_text[id];
            sl_anchor[parent] += sl_anchor[id];
        }
    }
    let generations = config.generations.max(1);
    let mut judged: Vec<Option<bool>> = vec![None; n];
    let mut found = vec![false; n];
    let mut roots = Vec::new();
    for id in 0..n {
        if !own[id].has_text {
            continue;
        }
        // Every text node of a container has the same G-generation parent.
        let Some(pg) = generation_parent(tree, id, generations) else { continue };
        let satisfiable = *judged[pg].get_or_insert_with(|| {
            sl_text[pg] >= config.min_subtree_text_chars
                && sl_anchor[pg] as f64 <= config.max_anchor_share * sl_text[pg] as f64
                && has_long_text_within(tree, &own, pg, generations, config.min_text_node_chars)
        });
        if satisfiable && !found[pg] {
            found[pg] = true;
            roots.push(pg);
        }
    }
    // getMaxSet: drop a sub-tree that is an element of another one.
    roots.retain(|&r| !tree.ancestors(r).any(|a| found[a]));
    roots.sort_unstable();
    roots
}

/// The ancestor `generations` − 1 containers above the container of a text: the text's
/// G-generation parent.
fn generation_parent(tree: &TagTree, container: NodeId, generations: usize) -> Option<NodeId> {
    let mut node = container;
    for _ in 1..generations {
        node = tree.nodes[node].parent?;
    }
    Some(node)
}

/// Condition 1: a text node of at least `min_chars` characters within the first
/// `generations` generations below `root`.
fn has_long_text_within(tree: &TagTree, own: &[OwnText], root: NodeId, generations: usize, min_chars: usize) -> bool {
    let mut stack = vec![(root, 1usize)];
    while let Some((id, generation)) = stack.pop() {
        if own[id].has_text && own[id].longest >= min_chars {
            return true;
        }
        if generation < generations {
            stack.extend(tree.nodes[id].children.iter().map(|&c| (c, generation + 1)));
        }
    }
    false
}

/// The kept nodes: every node of every sub-tree in ROOT(SST_max), so that the topic content
/// is the whole text of each sub-tree ("depth-first traversal … printing the text node").
pub fn satisfiable_nodes(tree: &TagTree, config: &SatisfiableConfig) -> Vec<NodeId> {
    satisfiable_roots(tree, config).into_iter().flat_map(|root| tree.descendants(root)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn tree(html: &str) -> TagTree {
        TagTree::with_default_config(html)
    }

    fn find(tree: &TagTree, hint: &str) -> NodeId {
        tree.node_with_hint(hint).unwrap()
    }

    fn roots(html: &str) -> (TagTree, Vec<NodeId>) {
        let t = tree(html);
        let roots = satisfiable_roots(&t, &Config::default().satisfiable);
        (t, roots)
    }

    /// A text of exactly `n` characters (words of nine letters, no edge spaces).
    fn chars(n: usize) -> String {
        let mut s = "abcdefghi ".repeat(n / 10 + 1);
        s.truncate(n);
        if s.ends_with(' ') {
            s.pop();
            s.push('x');
        }
        s
    }

    #[test]
    fn sentence_helper_has_the_asked_length() {
        for n in [5, 39, 40, 41, 99, 100] {
            assert_eq!(chars(n).trim().chars().count(), n);
        }
    }

    #[test]
    fn the_papers_example_keeps_the_article_div_only() {
        // §3.2's fragment: the headline h2 (L1) is outside the kept sub-tree, the link list
        // fails γ, and the paragraph's own sub-tree is inside the div's and is dropped.
        let body = format!(
            "<body><h2>News title</h2><div id=n1><p><b>{}</b><p align=center><img src=a.png><p>{}<p><a href=/i>Related Info</a></div>\
             <div id=links><a href=/1>Link1</a> <a href=/2>Link2</a> <a href=/3>Link3</a></div></body>",
            chars(60),
            chars(60)
        );
        let (t, roots) = roots(&body);
        assert_eq!(roots, [find(&t, "n1")]);
        let nodes = satisfiable_nodes(&t, &Config::default().satisfiable);
        let text = t.render_text(|id| nodes.contains(&id));
        assert!(text.contains("Related Info") && !text.contains("News title") && !text.contains("Link1"), "{text}");
    }

    #[test]
    fn condition_one_needs_a_text_node_of_alpha_characters() {
        // Three 39-character paragraphs: SL_text ≥ β but no text node reaches α = 40.
        let short = chars(39);
        let html = format!("<body><div id=d><p>{short}</p><p>{short}</p><p>{short}</p></div></body>");
        assert!(roots(&html).1.is_empty());
        let long = chars(40);
        let html = format!("<body><div id=d><p>{long}</p><p>{short}</p><p>{short}</p></div></body>");
        let (t, r) = roots(&html);
        assert_eq!(r, [find(&t, "d")]);
    }

    #[test]
    fn condition_one_looks_only_g_generations_down() {
        // The long text is three containers below the G-generation parent of the short texts:
        // with G = 2 the outer div is not satisfiable through them; the inner one is, via its
        // own long text.
        let html = format!(
            "<body><div id=outer><p>{}</p><p>{}</p><div id=mid><div id=inner><p>{}</p></div></div></div></body>",
            chars(39),
            chars(39),
            chars(120)
        );
        let (t, r) = roots(&html);
        assert_eq!(r, [find(&t, "inner")]);
        let mut config = Config::default().satisfiable;
        config.generations = 4;
        let r = satisfiable_roots(&t, &config);
        assert!(r.iter().all(|&id| t.contains(id, find(&t, "inner"))), "a bigger G reaches further up");
        assert!(!r.contains(&find(&t, "inner")));
    }

    #[test]
    fn condition_two_needs_beta_characters_of_text() {
        // One 60-character paragraph: a long text node, but SL_text = 60 < β = 100.
        let html = format!("<body><div id=d><p>{}</p></div></body>", chars(60));
        assert!(roots(&html).1.is_empty());
        let html = format!("<body><div id=d><p>{}</p><p>{}</p></div></body>", chars(60), chars(40));
        let (t, r) = roots(&html);
        assert_eq!(r, [find(&t, "d")]);
    }

    #[test]
    fn condition_two_caps_anchor_text_at_gamma() {
        // 100 characters of plain text and 50 of anchor text: 50 > 0.3 × 150.
        let html = format!("<body><div id=d><p>{}</p><p><a href=/x>{}</a></p></div></body>", chars(100), chars(50));
        assert!(roots(&html).1.is_empty());
        // 100 + 40: 40 ≤ 0.3 × 140 = 42.
        let html = format!("<body><div id=d><p>{}</p><p><a href=/x>{}</a></p></div></body>", chars(100), chars(40));
        let (t, r) = roots(&html);
        assert_eq!(r, [find(&t, "d")]);
    }

    #[test]
    fn separate_satisfiable_blocks_are_all_kept_in_document_order() {
        let part = format!("<p>{}</p><p>{}</p>", chars(80), chars(80));
        let html = format!(
            "<body><div id=page><div id=a>{part}</div><div id=nav><a href=/1>{}</a></div></div><div id=b>{part}</div></body>",
            chars(200)
        );
        let (t, r) = roots(&html);
        assert_eq!(r, [find(&t, "a"), find(&t, "b")]);
    }

    #[test]
    fn a_page_of_short_texts_has_no_topic_content() {
        let (_, r) = roots("<body><div><p>Short.</p><p>Also short.</p></div></body>");
        assert!(r.is_empty());
        let (_, r) = roots("");
        assert!(r.is_empty());
    }
}
