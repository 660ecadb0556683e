//! What the hub-page model sees of a page: a few scale-free quantities of the whole page, its
//! central area (§4.1) and the topic content a cleaner found.

use crate::clean::topic_content::shape;
use crate::clean::{Layout, TopicContent};
use crate::tagtree::{BlockStats, BlockType, TagTree};

/// The page-level features of the hub-page model ([`super::HubModel`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageFeatures {
    /// §4.1's quantity: terms of hub blocks over the terms of the central area.
    pub central_hub_share: f64,
    /// Anchor terms over all terms of the page.
    pub page_link_density: f64,
    /// Anchor terms over the terms of the central area.
    pub central_link_density: f64,
    /// Terms of the topic content over the page's terms.
    pub content_share: f64,
    /// Anchor terms over the terms of the topic content.
    pub content_link_density: f64,
    /// ln(1 + terms of running text, outside links, in the topic content).
    pub content_text_terms: f64,
    /// ln(1 + running terms of the topic content's longest block): one paragraph of
    /// substance makes an article.
    pub longest_block: f64,
    /// ln(1 + the most sibling containers of one shape, each holding a link, under one parent
    /// of the central area): the entries of a listing.
    pub repeated_entries: f64,
    /// ln(1 + links in the topic content).
    pub content_links: f64,
    /// Teaser terms (anchors that are a sentence or more) over the page's anchor terms.
    pub teaser_share: f64,
    /// Terms of the largest group of repeated entries ([`Self::repeated_entries`]) over the
    /// terms of the central area: how much of the page the entries are.
    pub entry_share: f64,
    /// ln(1 + headings (h1–h6) of the central area that are mostly link text): a listing's
    /// entry titles link to the entries.
    pub linked_headings: f64,
    /// Of the central area's headings, the share that are mostly link text (0 without any).
    pub linked_heading_share: f64,
}

impl PageFeatures {
    pub const NAMES: &'static [&'static str] = &[
        "central_hub_share",
        "page_link_density",
        "central_link_density",
        "content_share",
        "content_link_density",
        "content_text_terms",
        "longest_block",
        "repeated_entries",
        "content_links",
        "teaser_share",
        "entry_share",
        "linked_headings",
        "linked_heading_share",
    ];

    /// The features of a page cleaned to `content` with the margins of `layout`.
    pub fn of(tree: &TagTree, layout: &Layout, content: &TopicContent) -> PageFeatures {
        let page = tree.nodes[TagTree::ROOT].subtree;
        let mut central = BlockStats::default();
        let mut hub_terms = 0usize;
        let (mut headings, mut linked_headings) = (0usize, 0usize);
        for (id, node) in tree.nodes.iter().enumerate() {
            if layout.is_margin(id) {
                continue;
            }
            central.terms += node.own.terms;
            central.anchor_terms += node.own.anchor_terms;
            if node.own_type == BlockType::Hub {
                hub_terms += node.own.terms;
            }
            for tag in node.weighty.iter().filter(|t| is_heading(&t.tag) && t.terms > 0) {
                headings += 1;
                if 2 * tag.anchor_terms > tag.terms {
                    linked_headings += 1;
                }
            }
        }
        let (entries, entry_terms) = repeated_entries(tree, layout);
        let mut kept = BlockStats::default();
        let mut longest = 0usize;
        for &id in &content.nodes {
            let own = &tree.nodes[id].own;
            kept.terms += own.terms;
            kept.anchor_terms += own.anchor_terms;
            kept.links += own.links;
            longest = longest.max(own.text_terms());
        }
        let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let log = |n: usize| (1.0 + n as f64).ln();
        PageFeatures {
            central_hub_share: ratio(hub_terms, central.terms),
            page_link_density: page.link_density(),
            central_link_density: central.link_density(),
            content_share: ratio(kept.terms, page.terms),
            content_link_density: kept.link_density(),
            content_text_terms: log(kept.text_terms()),
            longest_block: log(longest),
            repeated_entries: log(entries),
            content_links: log(kept.links),
            teaser_share: ratio(page.teaser_terms, page.anchor_terms),
            entry_share: ratio(entry_terms, central.terms),
            linked_headings: log(linked_headings),
            linked_heading_share: ratio(linked_headings, headings),
        }
    }

    pub fn to_vec(&self) -> Vec<f64> {
        vec![
            self.central_hub_share,
            self.page_link_density,
            self.central_link_density,
            self.content_share,
            self.content_link_density,
            self.content_text_terms,
            self.longest_block,
            self.repeated_entries,
            self.content_links,
            self.teaser_share,
            self.entry_share,
            self.linked_headings,
            self.linked_heading_share,
        ]
    }
}

fn is_heading(tag: &str) -> bool {
    matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// The largest group of sibling containers of one shape (tag, and id/class without digits)
/// that each hold a link, under a parent outside the margins: its entries and their terms.
fn repeated_entries(tree: &TagTree, layout: &Layout) -> (usize, usize) {
    let mut best = (0, 0);
    let mut shapes: Vec<((&str, String), usize)> = Vec::new();
    for (parent, node) in tree.nodes.iter().enumerate() {
        if node.children.len() < 2 || layout.is_margin(parent) {
            continue;
        }
        shapes.clear();
        shapes.extend(
            node.children
                .iter()
                .filter(|&&c| tree.nodes[c].subtree.links > 0)
                .map(|&c| (shape(tree, c), tree.nodes[c].subtree.terms)),
        );
        shapes.sort_unstable();
        for group in shapes.chunk_by(|a, b| a.0 == b.0) {
            let entry = (group.len(), group.iter().map(|(_, terms)| terms).sum());
            best = best.max(entry);
        }
    }
    best
}
