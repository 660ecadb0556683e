//! Node importance and composite importance (§3.3, Formulas 1–5), and the noisy /
//! meaningful marks of §3.4 (MarkNoise, MarkMeaningful), in one bottom-up pass as the paper's
//! implementation does.

use super::style_tree::{ElementNode, Mark, SiteStyleTree};
use crate::clean::ordered_sum;

/// NodeImp of Formula (1): the entropy of the element node's style nodes, in base `m`.
fn node_importance(node: &ElementNode, tree: &SiteStyleTree) -> f64 {
    let m = node.pages;
    if m <= 1 {
        return 1.0;
    }
    let ln_m = f64::from(m).ln();
    node.styles
        .iter()
        .filter_map(|&s| tree.styles.get(s))
        .map(|style| f64::from(style.pages) / f64::from(m))
        .filter(|&p| p > 0.0)
        .map(|p| -p * p.ln() / ln_m)
        .sum()
}

/// CompImp of a `#text` leaf, Formula (4): one minus the mean entropy (Formula 5) of its
/// features. A leaf without features carries no information: 0.
fn leaf_importance(node: &ElementNode) -> f64 {
    if node.pages <= 1 {
        return 1.0;
    }
    if node.content.is_empty() {
        return 0.0;
    }
    let total = ordered_sum(node.content.values().map(|c| c.entropy(node.pages)));
    1.0 - total / node.content.len() as f64
}

/// Computes CompImp for every element node (Formulas 2–4) and marks them (§3.4).
///
/// Element nodes are created after their parent (a style node's elements when the style node
/// is added below an existing element), so a pass over the ids in reverse sees every node's
/// descendants before the node itself: no recursion, whatever the depth.
pub fn mark_site(tree: &mut SiteStyleTree, noise_threshold: f64, attenuation: f64) {
    for id in (0..tree.elements.len()).rev() {
        let Some(node) = tree.elements.get(id) else { continue };
        let (importance, children_noisy, noisy_below) = if node.text || node.styles.is_empty() {
            let importance = if node.text { leaf_importance(node) } else { 0.0 };
            (importance, true, false)
        } else {
            let m = f64::from(node.pages.max(1));
            let l = node.styles.len() as i32;
            let weight = attenuation.powi(l);
            let mut children_noisy = true;
            let mut noisy_below = false;
            let mut styles_part = 0.0;
            for style in node.styles.iter().filter_map(|&s| tree.styles.get(s)) {
                let children: Vec<&ElementNode> = style.elements.iter().filter_map(|&e| tree.elements.get(e)).collect();
                for child in &children {
                    let noisy = child.mark == Mark::Noisy;
                    children_noisy &= noisy;
                    noisy_below |= noisy || child.mark == Mark::Mixed;
                }
                // Formula (3): a style node's importance is the mean of its element nodes'.
                let style_importance = if children.is_empty() {
                    0.0
                } else {
                    children.iter().map(|c| c.importance).sum::<f64>() / children.len() as f64
                };
                styles_part += f64::from(style.pages) / m * style_importance;
            }
            // Formula (2).
            let importance = (1.0 - weight) * node_importance(node, tree) + weight * styles_part;
            (importance, children_noisy, noisy_below)
        };
        let mark = if children_noisy && importance <= noise_threshold {
            Mark::Noisy
        } else if noisy_below {
            Mark::Mixed
        } else {
            Mark::Meaningful
        };
        if let Some(node) = tree.elements.get_mut(id) {
            node.importance = importance;
            node.mark = mark;
        }
    }
}
