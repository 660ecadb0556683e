//! Context features for a second, stacked stage: what a first model said of the blocks around
//! a block, in document order and in the tree (the sequence-labelling idea of Web2Text and
//! BoilerNet, with trees: a block among content is likelier content, a lone paragraph inside
//! a menu column likelier not).
//!
//! The first stage judges every block alone; these features read its probabilities of the
//! block's neighbours (1 and 2 away in document order), of the other blocks under its parent,
//! grandparent and great-grandparent (mean, max, mean weighted by terms), of its siblings, and
//! of the whole page. A second model trained on the block features plus these must see
//! first-stage probabilities made without the page's labels (out of fold), as at cleaning time.

use crate::tagtree::{NodeId, TagTree};

/// The names of the context features, in vector order.
pub const CONTEXT_FEATURES: &[&str] = &[
    "stage1",
    "stage1_previous",
    "stage1_previous2",
    "stage1_next",
    "stage1_next2",
    "stage1_parent_mean",
    "stage1_parent_max",
    "stage1_parent_weighted",
    "stage1_grandparent_mean",
    "stage1_grandparent_max",
    "stage1_grandparent_weighted",
    "stage1_ancestor3_mean",
    "stage1_ancestor3_max",
    "stage1_ancestor3_weighted",
    "stage1_siblings_mean",
    "stage1_siblings_max",
    "stage1_page_max",
    "stage1_page_mean",
    "stage1_page_share",
    "stage1_of_page_max",
];

/// The value of a context feature with nothing to read (no neighbour, no other block).
const ABSENT: f64 = -1.0;

/// The context rows (row-major, [`CONTEXT_FEATURES`]`.len()` per block) of `blocks` (ascending
/// ids, as [`super::blocks`] lists them), whose first-stage probabilities are `probability`.
pub fn context_features(tree: &TagTree, blocks: &[NodeId], probability: &[f64]) -> Vec<f64> {
    let width = CONTEXT_FEATURES.len();
    let n = blocks.len();
    let mut rows = vec![0.0; width * n];
    if n == 0 {
        return rows;
    }
    let terms: Vec<f64> = blocks.iter().map(|&id| tree.nodes[id].own.terms as f64).collect();
    let page_max = probability.iter().copied().fold(0.0, f64::max);
    let page_mean = probability.iter().sum::<f64>() / n as f64;
    let total_terms: f64 = terms.iter().sum();
    let kept_terms: f64 = terms.iter().zip(probability).filter(|&(_, &p)| p >= 0.5).map(|(t, _)| t).sum();
    let page_share = if total_terms > 0.0 { kept_terms / total_terms } else { 0.0 };
    // The blocks of a subtree are a run of `blocks` (ids of a subtree are contiguous).
    let run_of = |a: NodeId| {
        let last = last_descendant(tree, a);
        (blocks.partition_point(|&id| id < a), blocks.partition_point(|&id| id <= last))
    };
    // Mean, max and term-weighted mean of the blocks of `lo..hi` other than `b`.
    let summary = |lo: usize, hi: usize, b: usize| {
        let (mut count, mut sum, mut max, mut weighted, mut weight) = (0usize, 0.0, f64::MIN, 0.0, 0.0);
        for o in (lo..hi).filter(|&o| o != b) {
            count += 1;
            sum += probability[o];
            max = max.max(probability[o]);
            weighted += terms[o] * probability[o];
            weight += terms[o];
        }
        if count == 0 {
            (ABSENT, ABSENT, ABSENT)
        } else {
            (sum / count as f64, max, if weight > 0.0 { weighted / weight } else { ABSENT })
        }
    };
    // Siblings: the blocks whose parent is the block's parent.
    let mut by_parent: fnv::FnvHashMap<Option<NodeId>, Vec<usize>> = fnv::FnvHashMap::default();
    for (b, &id) in blocks.iter().enumerate() {
        by_parent.entry(tree.nodes[id].parent).or_default().push(b);
    }
    for (b, row) in rows.chunks_mut(width).enumerate() {
        let id = blocks[b];
        let p = probability[b];
        let at = |i: Option<usize>| i.and_then(|i| probability.get(i).copied()).unwrap_or(ABSENT);
        let mut values = Vec::with_capacity(width);
        values.extend([p, at(b.checked_sub(1)), at(b.checked_sub(2)), at(Some(b + 1)), at(Some(b + 2))]);
        let mut ancestor = tree.nodes[id].parent;
        for _ in 0..3 {
            let (mean, max, weighted) = match ancestor {
                Some(a) => {
                    let (lo, hi) = run_of(a);
                    summary(lo, hi, b)
                }
                None => (ABSENT, ABSENT, ABSENT),
            };
            values.extend([mean, max, weighted]);
            ancestor = ancestor.and_then(|a| tree.nodes[a].parent);
        }
        let siblings = &by_parent[&tree.nodes[id].parent];
        let others: Vec<f64> = siblings.iter().filter(|&&o| o != b).map(|&o| probability[o]).collect();
        if others.is_empty() {
            values.extend([ABSENT, ABSENT]);
        } else {
            values
                .extend([others.iter().sum::<f64>() / others.len() as f64, others.iter().copied().fold(0.0, f64::max)]);
        }
        values.extend([page_max, page_mean, page_share, if page_max > 0.0 { p / page_max } else { 0.0 }]);
        row.copy_from_slice(&values);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::block_classifier::blocks;

    #[test]
    fn context_reads_the_neighbours_the_ancestors_and_the_page() {
        let html = "<html><body><div id=menu><p>Home and away</p><p>World news desk</p></div>\
            <div id=story><p>First paragraph of the story.</p><p>Second paragraph of it.</p>\
            <p>Third and last paragraph.</p></div></body></html>";
        let tree = TagTree::with_default_config(html);
        let ids = blocks(&tree);
        assert_eq!(ids.len(), 5, "{ids:?}");
        let probability = [0.1, 0.2, 0.9, 0.8, 0.7];
        let rows = context_features(&tree, &ids, &probability);
        let width = CONTEXT_FEATURES.len();
        assert_eq!(rows.len(), width * ids.len());
        let value = |b: usize, name: &str| rows[b * width + CONTEXT_FEATURES.iter().position(|&n| n == name).unwrap()];
        assert_eq!(value(0, "stage1"), 0.1);
        assert_eq!(value(0, "stage1_previous"), ABSENT);
        assert_eq!(value(2, "stage1_previous"), 0.2);
        assert_eq!(value(2, "stage1_next2"), 0.7);
        assert_eq!(value(4, "stage1_next"), ABSENT);
        // The story's middle paragraph: the other two of its div.
        assert!((value(3, "stage1_parent_mean") - 0.8).abs() < 1e-12);
        assert_eq!(value(3, "stage1_parent_max"), 0.9);
        assert!((value(3, "stage1_siblings_mean") - 0.8).abs() < 1e-12);
        assert_eq!(value(0, "stage1_page_max"), 0.9);
        assert!((value(0, "stage1_of_page_max") - 0.1 / 0.9).abs() < 1e-12);
        assert!(rows.iter().all(|v| v.is_finite()));
    }
}
