//! The `sst` cleaner: the Site Style Tree of Yi, Liu & Li, "Eliminating Noisy Information
//! in Web Pages for Data Mining" (KDD 2003).
//!
//! Pages of one site share their template; the template's parts repeat both their
//! presentation and their content from page to page, the main content does not. So:
//! 1. every sampled page of a site is merged into the site's style tree ([`SiteStyleTree`],
//!    §3.2): element nodes `(TAG, Attr, Ss)` with, below each, the style nodes `(Es, n)` —
//!    the child sequences the pages used and how many pages used each;
//! 2. each element node gets a composite importance from the entropy of its styles
//!    (NodeImp, Formula 1) and, at the leaves, of its content features (Formulas 4–5),
//!    combined upwards with the attenuating factor γ (Formulas 2–3); element nodes whose
//!    subtree stays at or below the threshold `t` are noisy, those without noisy
//!    descendants meaningful (§3.4, `importance`);
//! 3. a page is cleaned by mapping its own style tree onto the site's (MapSST, Figure 7):
//!    noisy parts are dropped, a part whose style the site tree does not know is kept
//!    ("possibly meaningful"), the rest is followed down to the leaves.
//!
//! How our tag tree stands in for the paper's DOM:
//! - The DOM's tag nodes are our *containers* ([`crate::tagtree`]); inline markup (links,
//!   emphasis, headings) is already folded into the container it stands in. That is the
//!   paper's enhancement 2 (§3.6): the parents of the actual leaf tags are the leaves.
//! - `Attr`, the display attributes (bgcolor, width …) of 2003, are the container's id and
//!   class (`hint`), digits removed so that generated ids (`post-4711`) do not make every
//!   page a style of its own.
//! - A container's own content (its text, link targets and image sources) is a virtual leaf
//!   element node `#text` put first in its style node — the paper's "Text" element node of
//!   Figure 4. Its features (words, link references, image files) feed Formulas (4)–(5).
//!   Containers with no content anywhere below them (spacers) are left out of the styles.
//! - Enhancement 3 (ε) is applied per block, not per word: our topic content keeps or drops
//!   whole blocks, so a kept block is dropped when *all* its features are locally noisy. The
//!   paper states "entropy smaller than ε"; read literally that would drop the features
//!   unique to one page, so we take the importance 1 − H(a) below ε (a feature spread evenly
//!   over all the node's pages).
//!
//! Deviation, off by default (`sst.drop_link_blocks`): the paper keeps whatever content is
//! diverse across the site, so a "related articles" list — different links on every page —
//! is kept as main content; the option drops kept blocks that are mostly anchor text (hub
//! blocks of §3.1 of the DocView paper).
//!
//! Not implemented: enhancement 1 (merging element nodes of sibling style nodes by their
//! content), and random sampling — the first `max_pages_per_site` pages of a site in input
//! order are merged; later pages are only cleaned.
//!
//! With few pages the entropies carry no cross-page evidence (with one page every node has
//! importance 1 and nothing is noise). A site with fewer than `sst.min_site_pages` sampled
//! pages — and any page cleaned without a learning pass — is cleaned by the default
//! `docview` cleaner instead.

mod importance;
mod style_tree;

use std::collections::HashMap;

pub use style_tree::{ElementId, ElementNode, FeatureCounts, Mark, PageStyle, SiteStyleTree, StyleNode};

use crate::clean::topic_content::TopicContent;
use crate::clean::{Layout, page_type, type_of_area};
use crate::config::{Config, SstConfig};
use crate::tagtree::{BlockType, NodeId, TagTree};
use style_tree::{PageChild, ROOT_ELEMENT};

/// The style trees of all sites of an input, learned in one pass.
#[derive(Debug, Clone, Default)]
pub struct SiteStyleTrees {
    config: SstConfig,
    sites: HashMap<String, SiteStyleTree>,
    approx_bytes: usize,
    finished: bool,
    /// Pages not merged: their site was over `max_pages_per_site`, or new when the memory
    /// budget was spent.
    pub pages_not_sampled: usize,
}

impl SiteStyleTrees {
    pub fn new(config: &SstConfig) -> SiteStyleTrees {
        SiteStyleTrees { config: config.clone(), ..SiteStyleTrees::default() }
    }

    /// Merges a page of `site` into the site's style tree, within the sampling limits.
    pub fn observe(&mut self, site: &str, tree: &TagTree) {
        let budget = self.config.max_memory_mib.saturating_mul(1 << 20);
        let known = self.sites.contains_key(site);
        if !known && self.approx_bytes >= budget {
            self.pages_not_sampled += 1;
            return;
        }
        let sst = self.sites.entry(site.to_string()).or_default();
        if sst.pages >= self.config.max_pages_per_site {
            self.pages_not_sampled += 1;
            return;
        }
        let grown = sst.merge(&PageStyle::new(tree));
        self.approx_bytes += grown + if known { 0 } else { site.len() + 64 };
    }

    /// Computes importance and marks for every site with enough pages; drops the others.
    pub fn finish(&mut self) {
        let min_pages = self.config.min_site_pages.max(1);
        self.sites.retain(|_, sst| sst.pages >= min_pages);
        for sst in self.sites.values_mut() {
            importance::mark_site(sst, self.config.noise_threshold, self.config.attenuation);
        }
        self.finished = true;
    }

    /// The learned style tree of `site`, if the site had enough pages.
    pub fn site(&self, site: &str) -> Option<&SiteStyleTree> {
        if self.finished { self.sites.get(site) } else { None }
    }

    /// Sites with a learned style tree, and the pages merged into them.
    pub fn learned(&self) -> (usize, usize) {
        if !self.finished {
            return (0, 0);
        }
        (self.sites.len(), self.sites.values().map(|s| s.pages).sum())
    }

    /// The topic content of a page of `site` by MapSST, or `None` when the site has no
    /// learned style tree (the caller falls back to the default cleaner).
    pub fn clean(&self, site: &str, tree: &TagTree, layout: &Layout, config: &Config) -> Option<TopicContent> {
        let sst = self.site(site)?;
        let global = page_type(tree, layout, &config.page_type);
        if global == BlockType::Empty {
            return Some(TopicContent::new(tree, layout, global, Vec::new()));
        }
        let mut nodes = map_page(sst, &PageStyle::new(tree), self.config.local_noise_epsilon);
        if self.config.drop_link_blocks {
            nodes.retain(|&id| tree.nodes.get(id).is_some_and(|n| n.own_type != BlockType::Hub));
        }
        // The page type of what was kept, as for the other non-DocView cleaners: the type of
        // the kept area, or the whole page's when nothing typed was kept.
        let kept_type = match type_of_area(tree, layout, &nodes, &config.page_type) {
            BlockType::Empty => global,
            kept => kept,
        };
        Some(TopicContent::new(tree, layout, kept_type, nodes))
    }
}

/// MapSST (Figure 7): walks the page and the site tree together and returns the page's
/// nodes whose own content is kept.
fn map_page(sst: &SiteStyleTree, page: &PageStyle<'_>, epsilon: f64) -> Vec<NodeId> {
    let mut kept = Vec::new();
    let mut stack = vec![(ROOT_ELEMENT, PageChild::Container(TagTree::ROOT))];
    while let Some((element, child)) = stack.pop() {
        let Some(node) = sst.elements.get(element) else { continue };
        if node.mark == Mark::Noisy {
            continue;
        }
        match child {
            PageChild::OwnContent(id) => {
                // A `#text` leaf that is not noisy is meaningful; enhancement 3 drops the
                // block if nothing in it is more than locally noisy.
                if !all_locally_noisy(node, page.features(id), epsilon) {
                    kept.push(id);
                }
            }
            PageChild::Container(id) => {
                let children = page.children(id);
                match sst.matching_style(element, &children) {
                    Some(style) => {
                        if let Some(style) = sst.styles.get(style) {
                            stack.extend(style.elements.iter().copied().zip(children.iter().map(|&(_, c)| c)));
                        }
                    }
                    // A style the site tree has not seen: "possibly meaningful", kept whole.
                    None => kept.extend(page.content_nodes(id)),
                }
            }
        }
    }
    kept
}

/// Whether every feature of a block is locally noisy in its `#text` leaf: importance
/// 1 − H(a) below ε (see the module documentation).
fn all_locally_noisy(leaf: &ElementNode, features: &[u64], epsilon: f64) -> bool {
    leaf.pages > 1
        && !features.is_empty()
        && features.iter().all(|f| leaf.content.get(f).is_some_and(|c| 1.0 - c.entropy(leaf.pages) < epsilon))
}

#[cfg(test)]
mod tests;
