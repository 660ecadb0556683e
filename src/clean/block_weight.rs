//! Block weights: Algorithm 1 of §3.2, with the pseudo-weighty filter.

use crate::config::BlockWeightConfig;
use crate::tagtree::{BlockType, NodeId, TagTree, WeightyTag};

/// The block weight of every node of a tag tree, indexed by [`NodeId`].
#[derive(Debug, Clone, PartialEq)]
pub struct BlockWeights(pub Vec<f64>);

impl BlockWeights {
    pub fn get(&self, id: NodeId) -> f64 {
        self.0[id]
    }
}

/// Whether a weighty tag carries "pseudo-weighty" information (§3.2): logos and banners (an
/// image with no text), emphasised links, layout tags wrapping whole regions, and inline
/// emphasis (b, font, em …, not headings) covering nearly all the text of its block: a
/// paragraph set entirely in `<font>` or `<b>` is styled, not emphasised against its block.
fn is_pseudo_weighty(tag: &WeightyTag, block_terms: usize, config: &BlockWeightConfig) -> bool {
    let heading = tag.tag.len() == 2 && tag.tag.starts_with('h');
    tag.terms == 0
        || tag.terms > config.pseudo_weighty_max_terms
        || tag.anchor_terms as f64 >= config.pseudo_weighty_anchor_ratio * tag.terms as f64
        || (!heading && tag.terms as f64 >= config.pseudo_weighty_coverage * block_terms as f64)
}

/// Computes the block weights of Algorithm 1.
///
/// 1. Every block weight starts at 1.
/// 2. A node's force is the sum of the forces of its (non-pseudo) weighty tags, or 1 if it
///    has none; capped at `max_force`. Weighty tags in hub and image blocks are pseudo too:
///    emphasis in a link list or a banner says nothing about the topic.
/// 3. Each leaf multiplies its own weight by its force, and its parent's and siblings' by
///    `pforce`, a share of the force (the paper leaves pforce undefined; see
///    `propagation_share`).
///
/// Deviation: the paper applies step 3 to leaves only, and today's most common article
/// shape is `<div><h1>…</h1><p>…</p><p>…</p></div>`, where the heading is text of a non-leaf
/// container. Such own text is treated as a virtual leaf inside its node: the node's weight is
/// multiplied by the force, and the virtual leaf's siblings, i.e. the node's children, by
/// pforce (its parent is the node itself, already scaled).
pub fn block_weights(tree: &TagTree, config: &BlockWeightConfig) -> BlockWeights {
    let n = tree.nodes.len();
    let force: Vec<f64> = tree
        .nodes
        .iter()
        .map(|node| {
            if matches!(node.own_type, BlockType::Hub | BlockType::Image) {
                return 1.0;
            }
            let sum: f64 = node
                .weighty
                .iter()
                .filter(|w| !is_pseudo_weighty(w, node.own.terms, config))
                .map(|w| config.forces.get(&w.tag).copied().unwrap_or(1.0))
                .sum();
            if sum == 0.0 { 1.0 } else { sum.min(config.max_force) }
        })
        .collect();
    let pforce: Vec<f64> = force.iter().map(|f| 1.0 + (f - 1.0) * config.propagation_share).collect();

    let mut weight = vec![1.0; n];
    // What each node passes to its children: the product of the pforces of its leaf children
    // (each child then divides out its own, leaving its siblings' product: O(n) instead of
    // O(children²)), times its own pforce if it is a virtual leaf.
    let mut to_children = vec![1.0; n];
    for id in 0..n {
        let node = &tree.nodes[id];
        if node.own.terms == 0 {
            continue;
        }
        weight[id] *= force[id];
        if tree.is_leaf(id) {
            if let Some(parent) = node.parent {
                weight[parent] *= pforce[id];
                to_children[parent] *= pforce[id];
            }
        } else {
            to_children[id] *= pforce[id];
        }
    }
    for id in 0..n {
        if let Some(parent) = tree.nodes[id].parent {
            let own = if tree.is_leaf(id) && tree.nodes[id].own.terms > 0 { pforce[id] } else { 1.0 };
            weight[id] *= to_children[parent] / own;
        }
    }
    BlockWeights(weight)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::tagtree::build_tag_tree;

    fn weights(html: &str) -> (TagTree, BlockWeights) {
        let config = Config::default();
        let weighty = config.block_weight.forces.keys().cloned().collect();
        let tree = build_tag_tree(html, &config.tag_tree, &weighty);
        let w = block_weights(&tree, &config.block_weight);
        (tree, w)
    }

    fn id(tree: &TagTree, hint: &str) -> NodeId {
        tree.node_with_hint(hint).unwrap()
    }

    #[test]
    fn a_forceful_leaf_lifts_itself_its_parent_and_its_siblings() {
        // Figure 2 of the paper: leaf 2 has force f2 (here <h1>: 3.0, pforce 2.0).
        let (t, w) = weights(
            "<body><div id=p><div id=a><h1>Title words</h1></div><p id=b>plain text</p><p id=c>more text</p></div></body>",
        );
        let (p, a, b, c) = (id(&t, "p"), id(&t, "a"), id(&t, "b"), id(&t, "c"));
        assert_eq!(w.get(a), 3.0);
        assert_eq!(w.get(b), 2.0);
        assert_eq!(w.get(c), 2.0);
        assert_eq!(w.get(p), 2.0);
    }

    #[test]
    fn a_heading_in_a_non_leaf_lifts_the_paragraphs_beside_it() {
        let (t, w) = weights("<body><div id=s><h1>Title</h1><p id=b>text</p></div><div id=o><p>other</p></div></body>");
        assert_eq!(w.get(id(&t, "s")), 3.0);
        assert_eq!(w.get(id(&t, "b")), 2.0);
        assert_eq!(w.get(id(&t, "o")), 1.0);
    }

    #[test]
    fn no_weighty_tags_means_all_weights_one() {
        let (_, w) = weights("<body><div><p>a b</p><p>c d</p></div></body>");
        assert!(w.0.iter().all(|&x| x == 1.0));
    }

    #[test]
    fn pseudo_weighty_tags_carry_no_force() {
        // Bold link (a banner) and a bold image (a logo): no force.
        let (t, w) = weights(
            "<body><div id=x><b><a href=/>Big sale today</a></b> and some text</div><div id=y><b><img src=logo.png></b> text</div></body>",
        );
        assert_eq!(w.get(id(&t, "x")), 1.0);
        assert_eq!(w.get(id(&t, "y")), 1.0);
    }

    #[test]
    fn styling_that_covers_the_whole_block_is_not_emphasis() {
        let (t, w) = weights(
            "<body><p id=a><font face=arial><font size=2>All of this paragraph is styled</font></font></p><p id=b>Some <b>bold</b> words in plain text here</p></body>",
        );
        // a: no force of its own (2 × 1.1 if the fonts counted), only its sibling's pforce.
        assert_eq!(w.get(id(&t, "a")), 1.25);
        assert_eq!(w.get(id(&t, "b")), 1.5);
    }

    #[test]
    fn force_is_capped() {
        let html =
            format!("<body><p id=a>{} and a long tail of plain words after them</p></body>", "<b>word</b> ".repeat(20));
        let (t, w) = weights(&html);
        assert_eq!(w.get(id(&t, "a")), Config::default().block_weight.max_force);
    }
}
