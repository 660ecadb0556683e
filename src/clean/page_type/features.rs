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
    /// Terms of the central area inside linked entries (every group of at least
    /// [`MIN_ENTRIES`] sibling containers of one shape, each holding a link, nested groups
    /// counted once) over the central area's terms: how much of the page is a list of entries.
    pub entry_text_share: f64,
    /// ln(1 + the median central terms of an entry of the largest group): a listing's entries
    /// are a title and a line, a thread's posts and an article's paragraphs are longer.
    pub entry_terms: f64,
    /// ln(1 + links of the central area per central block with text): anchors per block.
    pub links_per_block: f64,
    /// Running terms of the central area's longest block over the central area's running
    /// terms: an article's text stands in a few long paragraphs, a listing's in many short
    /// snippets.
    pub longest_block_share: f64,
    /// 1 when the rules of §4.1 type the page a hub, else 0: the model decides over both.
    pub rules_hub: f64,
    /// ln(1 + the median, over the entries of the largest group, of an entry's longest block
    /// of running text): a listing's entry is a link and a short line, a post or a section
    /// with a link holds a paragraph.
    pub entry_longest_block: f64,
    /// Anchor terms over the terms inside linked entries (central, nested groups once): a
    /// listing's entries are mostly their links.
    pub entry_anchor_share: f64,
    /// Of the entries of the largest group, the share holding an image: the thumbnails of
    /// listings and product grids.
    pub entry_image_share: f64,
    /// Running terms of the central area's body over the central area's running terms: the
    /// most, under one central parent, of the parent's own running terms and those of its
    /// children that hold no link. An article's paragraphs stand together without links; a
    /// listing's text is spread over entries that each hold one.
    pub body_share: f64,
}

/// The least siblings of one shape that make a group of entries.
pub const MIN_ENTRIES: usize = 3;

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
        "entry_text_share",
        "entry_terms",
        "links_per_block",
        "longest_block_share",
        "rules_hub",
        "entry_longest_block",
        "entry_anchor_share",
        "entry_image_share",
        "body_share",
    ];

    /// The features that are shares (0–1): the model reads them as ln(0.01 + share), since
    /// what tells a listing from an article is mostly near zero (a content share of 0.02
    /// against 0.2, a longest block of 0.03 of the text against 0.3).
    pub const SHARES: &'static [&'static str] = &[
        "central_hub_share",
        "page_link_density",
        "central_link_density",
        "content_share",
        "content_link_density",
        "teaser_share",
        "entry_share",
        "linked_heading_share",
        "entry_text_share",
        "longest_block_share",
        "entry_anchor_share",
        "entry_image_share",
        "body_share",
    ];

    /// The features of a page cleaned to `content` with the margins of `layout`
    /// (`content.page_type` is the type §4.1 gave the page).
    pub fn of(tree: &TagTree, layout: &Layout, content: &TopicContent) -> PageFeatures {
        let page = tree.nodes[TagTree::ROOT].subtree;
        let mut central = BlockStats::default();
        let mut hub_terms = 0usize;
        let (mut headings, mut linked_headings) = (0usize, 0usize);
        let (mut central_blocks, mut central_longest) = (0usize, 0usize);
        for (id, node) in tree.nodes.iter().enumerate() {
            if layout.is_margin(id) {
                continue;
            }
            central.terms += node.own.terms;
            central.anchor_terms += node.own.anchor_terms;
            central.links += node.own.links;
            if node.own.terms > 0 {
                central_blocks += 1;
            }
            central_longest = central_longest.max(node.own.text_terms());
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
        let entry_groups = linked_entries(tree, layout);
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
            entry_share: ratio(entry_terms, central.terms).min(1.0),
            linked_headings: log(linked_headings),
            linked_heading_share: ratio(linked_headings, headings),
            entry_text_share: ratio(entry_groups.terms, central.terms).min(1.0),
            entry_terms: log(entry_groups.median_entry_terms),
            links_per_block: (1.0 + ratio(central.links, central_blocks)).ln(),
            longest_block_share: ratio(central_longest, central.text_terms()),
            rules_hub: if content.page_type == BlockType::Hub { 1.0 } else { 0.0 },
            entry_longest_block: log(entry_groups.median_longest_block),
            entry_anchor_share: ratio(entry_groups.anchor_terms, entry_groups.terms),
            entry_image_share: entry_groups.image_share,
            body_share: ratio(body_text(tree, layout), central.text_terms()).min(1.0),
        }
    }

    /// What the model reads: [`Self::to_vec`] with each of [`Self::SHARES`] as
    /// ln(0.01 + share).
    pub fn model_inputs(&self) -> Vec<f64> {
        let mut inputs = self.to_vec();
        for (value, name) in inputs.iter_mut().zip(Self::NAMES) {
            if Self::SHARES.contains(name) {
                *value = (0.01 + *value).ln();
            }
        }
        inputs
    }

    /// The features in the order of [`Self::NAMES`], as measured.
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
            self.entry_text_share,
            self.entry_terms,
            self.links_per_block,
            self.longest_block_share,
            self.rules_hub,
            self.entry_longest_block,
            self.entry_anchor_share,
            self.entry_image_share,
            self.body_share,
        ]
    }
}

/// The running terms of the central area's body: the most, under one central parent, of its
/// own running terms and the central running terms of its children without a link.
fn body_text(tree: &TagTree, layout: &Layout) -> usize {
    let n = tree.nodes.len();
    let mut running = vec![0usize; n];
    for id in (0..n).rev() {
        if !layout.is_margin(id) {
            running[id] += tree.nodes[id].own.text_terms();
        }
        if let Some(parent) = tree.nodes[id].parent {
            running[parent] += running[id];
        }
    }
    let mut body = 0usize;
    for (parent, node) in tree.nodes.iter().enumerate() {
        if layout.is_margin(parent) {
            continue;
        }
        let children: usize =
            node.children.iter().filter(|&&c| tree.nodes[c].subtree.links == 0).map(|&c| running[c]).sum();
        body = body.max(node.own.text_terms() + children);
    }
    body
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

/// The linked entries of a page's central area ([`linked_entries`]).
struct LinkedEntries {
    /// Central terms inside every group's entries, nested groups counted once.
    terms: usize,
    /// Central anchor terms inside every group's entries, nested groups counted once.
    anchor_terms: usize,
    /// The median central terms of an entry of the group with the most entries.
    median_entry_terms: usize,
    /// The median, over that group's entries, of an entry's longest central block of running
    /// text.
    median_longest_block: usize,
    /// The share of that group's entries that hold an image.
    image_share: f64,
}

/// Every group of at least [`MIN_ENTRIES`] sibling containers of one shape that each hold a
/// link, under a parent outside the margins; a group inside an entry of another is part of it.
/// Terms are counted in the central area only (a margin block inside an entry is not).
fn linked_entries(tree: &TagTree, layout: &Layout) -> LinkedEntries {
    let n = tree.nodes.len();
    // Central terms, anchor terms and longest running-text block of each subtree: ids grow
    // from parent to child, so a reverse pass sums up.
    let mut central_terms = vec![0usize; n];
    let mut central_anchor_terms = vec![0usize; n];
    let mut longest_block = vec![0usize; n];
    for id in (0..n).rev() {
        if !layout.is_margin(id) {
            let own = &tree.nodes[id].own;
            central_terms[id] += own.terms;
            central_anchor_terms[id] += own.anchor_terms;
            longest_block[id] = longest_block[id].max(own.text_terms());
        }
        if let Some(parent) = tree.nodes[id].parent {
            central_terms[parent] += central_terms[id];
            central_anchor_terms[parent] += central_anchor_terms[id];
            longest_block[parent] = longest_block[parent].max(longest_block[id]);
        }
    }
    let mut in_entry = vec![false; n];
    let (mut terms, mut anchor_terms) = (0usize, 0usize);
    let mut largest: Vec<usize> = Vec::new();
    let mut shapes: Vec<((&str, String), usize)> = Vec::new();
    for (parent, node) in tree.nodes.iter().enumerate() {
        if let Some(grandparent) = node.parent {
            in_entry[parent] |= in_entry[grandparent];
        }
        if node.children.len() < MIN_ENTRIES || layout.is_margin(parent) {
            continue;
        }
        shapes.clear();
        shapes.extend(node.children.iter().filter(|&&c| tree.nodes[c].subtree.links > 0).map(|&c| (shape(tree, c), c)));
        shapes.sort_unstable();
        for group in shapes.chunk_by(|a, b| a.0 == b.0).filter(|group| group.len() >= MIN_ENTRIES) {
            if !in_entry[parent] {
                terms += group.iter().map(|&(_, c)| central_terms[c]).sum::<usize>();
                anchor_terms += group.iter().map(|&(_, c)| central_anchor_terms[c]).sum::<usize>();
            }
            for &(_, c) in group {
                in_entry[c] = true;
            }
            if group.len() > largest.len() {
                largest = group.iter().map(|&(_, c)| c).collect();
            }
        }
    }
    let median = |mut values: Vec<usize>| {
        values.sort_unstable();
        values.get(values.len() / 2).copied().unwrap_or(0)
    };
    let with_image = largest.iter().filter(|&&c| tree.nodes[c].subtree.images > 0).count();
    LinkedEntries {
        terms,
        anchor_terms,
        median_entry_terms: median(largest.iter().map(|&c| central_terms[c]).collect()),
        median_longest_block: median(largest.iter().map(|&c| longest_block[c]).collect()),
        image_share: if largest.is_empty() { 0.0 } else { with_image as f64 / largest.len() as f64 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::{Cleaner, HubModel, block_weights, retype};
    use crate::config::{CleanerKind, Config};

    const NAV: &str = "<nav><a href=/>Home</a> <a href=/a>Archive</a> <a href=/b>About us</a></nav>";

    /// A news listing of 30 entries, each a linked thumbnail, a linked title, a byline and a
    /// line of summary (so that no entry is a hub block).
    fn listing() -> String {
        let entries: String = (0..30)
            .map(|i| {
                format!(
                    "<div class=entry-{i}><a href=/s{i}><img src=t{i}.jpg></a><h3><a href=/s{i}>Title of story \
                     {i}</a></h3><div class=byline>By <a href=/au{i}>Author {i}</a></div>\
                     <p>One line of summary for story {i} with a few more words.</p></div>"
                )
            })
            .collect();
        format!("<html><body>{NAV}<main><h1>Latest</h1>{entries}</main></body></html>")
    }

    /// An article with a short box of related links below its text.
    fn article() -> String {
        let paragraph = "The council met on Tuesday and agreed a new plan for the river banks, \
            which have flooded three times since the spring, after a long debate about the cost. ";
        let related: String = (0..4).map(|i| format!("<li><a href=/r{i}>Related story number {i}</a></li>")).collect();
        format!(
            "<html><body>{NAV}<article><h1>Flood plan agreed</h1><p>{}</p><p>{}</p><p>{}</p>\
             <ul class=related>{related}</ul></article></body></html>",
            paragraph.repeat(3),
            paragraph.repeat(2),
            paragraph.repeat(3)
        )
    }

    fn typed(html: &str, kind: CleanerKind) -> (BlockType, PageFeatures) {
        let config = Config::default();
        let tree = TagTree::with_default_config(html);
        let weights = block_weights(&tree, &config.block_weight);
        let cleaner = Cleaner::new(kind, &config).unwrap();
        let (content, features) = cleaner.clean_by_rules("example.org", &tree, &weights, &config, true);
        (content.page_type, features.unwrap())
    }

    #[test]
    fn a_listing_is_linked_entries_of_short_blocks_and_an_article_is_not() {
        let (_, listing) = typed(&listing(), CleanerKind::DocView);
        let (rules, article) = typed(&article(), CleanerKind::DocView);
        assert_eq!(rules, BlockType::Topic);
        assert!(listing.entry_text_share > 0.8, "{listing:?}");
        assert!(article.entry_text_share < 0.3, "{article:?}");
        assert!(listing.longest_block_share < 0.15, "{listing:?}");
        assert!(article.longest_block_share > 0.3, "{article:?}");
        assert!(listing.entry_terms < article.longest_block);
        assert!(listing.body_share < 0.1, "{listing:?}");
        assert!(article.body_share > 0.8, "{article:?}");
        let inputs = listing.model_inputs();
        let share = PageFeatures::NAMES.iter().position(|&n| n == "entry_text_share").unwrap();
        assert!((inputs[share] - (0.01 + listing.entry_text_share).ln()).abs() < 1e-12);
    }

    #[test]
    fn blocks_types_pages_on_the_features_of_docviews_result() {
        for page in [listing(), article()] {
            assert_eq!(typed(&page, CleanerKind::Blocks), typed(&page, CleanerKind::DocView));
        }
    }

    #[test]
    fn the_built_in_model_types_the_listing_hub_and_the_article_topic_under_both_cleaners() {
        let config = Config::default();
        for kind in [CleanerKind::DocView, CleanerKind::Blocks] {
            let model = HubModel::load(None, kind).unwrap();
            let (listing_rules, listing) = typed(&listing(), kind);
            let (article_rules, article) = typed(&article(), kind);
            let listing_type = retype(listing_rules, &listing, model.is_hub(&listing), &config.page_type);
            assert_eq!(listing_type, BlockType::Hub, "{kind}: {listing:?}");
            let article_type = retype(article_rules, &article, model.is_hub(&article), &config.page_type);
            assert_eq!(article_type, BlockType::Topic, "{kind}: {article:?}");
        }
    }
}
