//! The markup tag tree of §3.1.
//!
//! The DOM is reduced to a tree of *container* nodes (the paper's TABLE, TR, TD, P, DIV, plus
//! the HTML5 blocks: section, article, main, aside, nav, header, footer, lists, forms …). Text,
//! links, images and *weighty* tags (B, STRONG, H1 …) are attached to the container they stand
//! in, in document order, so that a container is a content block. Each node carries its counts
//! of terms, anchor terms, links and images, and a block type: hub when anchor terms dominate,
//! image when images outweigh terms, topic otherwise.
//!
//! The tree describes the page; what its blocks are for the cleaner (margins, the title
//! heading, content images) is judged in `clean::layout`.
//!
//! Invariants: node 0 is the root; a node's id is greater than its parent's (nodes are created
//! in document order), so bottom-up passes iterate ids in reverse; every walk is iterative
//! (deep markup must not overflow the stack) and container depth is capped by
//! `tag_tree.max_depth`.

mod build;
pub mod dom;
mod prepass;
mod render;
mod streamed;

use serde::{Deserialize, Serialize};

pub(crate) use build::collapse_whitespace;
pub use build::{ParsedHtml, build_tag_tree, parse_html, tag_tree_of};
pub use prepass::prepare_markup;

/// Index of a node in [`TagTree::nodes`].
pub type NodeId = usize;

/// The paper's three block (and page) types, plus blocks with nothing in them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockType {
    Topic,
    Hub,
    Image,
    Empty,
}

impl BlockType {
    pub fn as_str(self) -> &'static str {
        match self {
            BlockType::Topic => "topic",
            BlockType::Hub => "hub",
            BlockType::Image => "image",
            BlockType::Empty => "empty",
        }
    }
}

/// Counts that describe a block's content (§3.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockStats {
    pub terms: usize,
    pub anchor_terms: usize,
    /// The part of `anchor_terms` in teaser links: links whose anchor text is a sentence or
    /// more (`teaser_anchor_terms`), a listing's linked entries rather than navigation.
    pub teaser_terms: usize,
    pub links: usize,
    pub images: usize,
}

impl BlockStats {
    fn add(&mut self, other: &BlockStats) {
        self.terms += other.terms;
        self.anchor_terms += other.anchor_terms;
        self.teaser_terms += other.teaser_terms;
        self.links += other.links;
        self.images += other.images;
    }

    /// The block type by the thresholds of §3.1.
    pub fn block_type(&self, hub_anchor_ratio: f64, image_term_ratio: f64) -> BlockType {
        if self.terms == 0 {
            return if self.images > 0 { BlockType::Image } else { BlockType::Empty };
        }
        if self.anchor_terms as f64 / self.terms as f64 > hub_anchor_ratio {
            BlockType::Hub
        } else if self.images as f64 / self.terms as f64 > image_term_ratio {
            BlockType::Image
        } else {
            BlockType::Topic
        }
    }

    /// Terms outside links: the block's running text.
    pub fn text_terms(&self) -> usize {
        self.terms.saturating_sub(self.anchor_terms)
    }

    /// Share of the terms that are anchor text.
    pub fn link_density(&self) -> f64 {
        if self.terms == 0 { 0.0 } else { self.anchor_terms as f64 / self.terms as f64 }
    }
}

/// What a container holds, in document order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Item {
    /// Visible text; `link` is the index of the enclosing link in [`TagTree::links`].
    Text { text: String, link: Option<usize> },
    /// A nested container.
    Child(NodeId),
    /// An image, index into [`TagTree::images`].
    Image(usize),
    /// A line break: `<br>`, or the edge of a block-level element that is not a container
    /// (a heading).
    Break,
}

/// A weighty tag attached to a container (§3.1), with what it encloses, for the
/// pseudo-weighty filter of §3.2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeightyTag {
    pub tag: String,
    /// The enclosed text, kept for headings only (h1–h6): it locates the article by its title.
    pub text: String,
    pub terms: usize,
    pub anchor_terms: usize,
    pub images: usize,
    /// The container's items the tag encloses (a heading's own line: headings break lines).
    pub items: std::ops::Range<usize>,
}

/// A hyperlink with its anchor text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// The `href` as written in the page (resolve it against the page URL to use it).
    pub href: String,
    pub anchor: String,
    pub node: NodeId,
}

/// An image with its alternative text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Image {
    pub src: String,
    pub alt: String,
    pub node: NodeId,
    pub link: Option<usize>,
    /// The declared `width`/`height`, when given as plain numbers.
    pub width: Option<u32>,
    pub height: Option<u32>,
}

/// A node's terms in order, kept in one buffer: a page has thousands of terms, and a `String`
/// each would be an allocation each.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Terms {
    text: String,
    /// Where each term ends in `text`.
    ends: Vec<usize>,
    /// The indexes, ascending, of the terms written inside a machine string
    /// ([`crate::text::machine_strings`]): counted as terms, but no keyword candidates.
    in_machine_strings: Vec<usize>,
}

impl Terms {
    pub fn push(&mut self, term: &str) {
        self.text.push_str(term);
        self.ends.push(self.text.len());
    }

    /// Adds the term of a word [`crate::text::for_each_word`] gives: its
    /// [`fold`](crate::text::fold), what [`crate::text::for_each_token`] gives.
    pub fn push_word(&mut self, word: &str, latin: bool) {
        let start = self.text.len();
        if latin && word.is_ascii() {
            self.text.push_str(word);
            self.text[start..].make_ascii_lowercase();
        } else {
            self.text.push_str(&crate::text::fold(word, latin));
        }
        self.ends.push(self.text.len());
    }

    /// Marks the term pushed last as written inside a machine string.
    pub fn mark_last_in_machine_string(&mut self) {
        if let Some(last) = self.ends.len().checked_sub(1) {
            self.in_machine_strings.push(last);
        }
    }

    /// The terms that may be keywords (§6) and fingerprint terms (§5): all but those written
    /// inside a machine string, in order.
    pub fn keyword_candidates(&self) -> impl Iterator<Item = &str> {
        let mut skipped = self.in_machine_strings.iter().peekable();
        self.iter().enumerate().filter_map(
            move |(i, term)| {
                if skipped.next_if_eq(&&i).is_some() { None } else { Some(term) }
            },
        )
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn iter(&self) -> TermsIter<'_> {
        TermsIter { terms: self, index: 0 }
    }
}

/// The terms of a [`Terms`], in order.
pub struct TermsIter<'a> {
    terms: &'a Terms,
    index: usize,
}

impl<'a> Iterator for TermsIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let end = *self.terms.ends.get(self.index)?;
        let start = if self.index == 0 { 0 } else { self.terms.ends[self.index - 1] };
        self.index += 1;
        Some(&self.terms.text[start..end])
    }
}

impl<'a> IntoIterator for &'a Terms {
    type Item = &'a str;
    type IntoIter = TermsIter<'a>;

    fn into_iter(self) -> TermsIter<'a> {
        self.iter()
    }
}

/// A container node: a content block.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Node {
    /// Lower-case tag name; `#root` for the root.
    pub tag: String,
    /// The `id` and `class` values, lower-cased and space separated (layout hints).
    pub hint: String,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    pub items: Vec<Item>,
    /// The node's own terms (not its children's), anchor text included, in order.
    pub terms: Terms,
    pub own: BlockStats,
    pub subtree: BlockStats,
    pub weighty: Vec<WeightyTag>,
    /// Type of the node's own content.
    pub own_type: BlockType,
    /// Type of the whole block (the node and its descendants).
    pub block_type: BlockType,
    /// Marked `itemprop="articleBody"` (schema.org microdata): the site's own mark of an
    /// article's text.
    pub article_body: bool,
}

/// The words of a layout hint's classes (`wp-caption-text` gives `wp`, `caption`, `text`).
pub(crate) fn hint_words(hint: &str) -> impl Iterator<Item = &str> {
    hint.split(|c: char| !c.is_ascii_alphanumeric()).filter(|word| !word.is_empty())
}

/// The markup tag tree of one page (serializable: a build keeps the trees of its learning
/// pass on disk for the main pass, `pipeline::spill`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TagTree {
    pub nodes: Vec<Node>,
    pub links: Vec<Link>,
    pub images: Vec<Image>,
    /// The text of `<title>`, white space collapsed.
    pub title: String,
    /// `<meta name="description">`, if any.
    pub description: Option<String>,
    /// The declared language (`<html lang>`), if any.
    pub lang: Option<String>,
    /// Containers nested deeper than the cap were flattened.
    pub depth_capped: bool,
}

impl TagTree {
    pub const ROOT: NodeId = 0;

    /// The first node whose class or id hint is `hint` (tests and one-off tools).
    pub fn node_with_hint(&self, hint: &str) -> Option<NodeId> {
        self.nodes.iter().position(|n| n.hint == hint)
    }

    /// The tag tree of `html` under the default configuration (weighty tags included): what
    /// tests and one-off tools want.
    pub fn with_default_config(html: &str) -> TagTree {
        let config = crate::config::Config::default();
        let weighty = config.block_weight.forces.keys().cloned().collect();
        build_tag_tree(html, &config.tag_tree, &weighty)
    }

    /// The same tree read with teaser links as running text: their terms no longer count as
    /// anchor terms, and the block types (§3.1) follow. The structure stays, so node ids
    /// carry over (and with them the cleaner's reading of the layout, `clean::Layout`). A listing's entries (a linked title with its
    /// linked summary) then read as the text they are.
    pub fn with_teasers_as_text(&self, config: &crate::config::TagTreeConfig) -> TagTree {
        let mut tree = self.clone();
        for node in &mut tree.nodes {
            for stats in [&mut node.own, &mut node.subtree] {
                stats.anchor_terms -= stats.teaser_terms;
                stats.teaser_terms = 0;
            }
            node.own_type = node.own.block_type(config.hub_anchor_ratio, config.image_term_ratio);
            node.block_type = node.subtree.block_type(config.hub_anchor_ratio, config.image_term_ratio);
        }
        tree
    }

    /// Whether the node has no container children: the paper's leaf.
    pub fn is_leaf(&self, id: NodeId) -> bool {
        self.nodes[id].children.is_empty()
    }

    /// Ids of `id` and all its descendants, in document order.
    pub fn descendants(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.nodes[n].children.iter().rev());
        }
        out
    }

    /// Ancestors of `id`, nearest first, excluding `id`.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.nodes[id].parent, move |&n| self.nodes[n].parent)
    }

    /// Whether `ancestor` is `id` or one of its ancestors.
    pub fn contains(&self, ancestor: NodeId, id: NodeId) -> bool {
        id == ancestor || self.ancestors(id).any(|a| a == ancestor)
    }

    /// The lowest common ancestor of a non-empty set of nodes.
    pub fn lowest_common_ancestor(&self, ids: &[NodeId]) -> Option<NodeId> {
        let (&first, rest) = ids.split_first()?;
        let mut path: Vec<NodeId> = std::iter::once(first).chain(self.ancestors(first)).collect();
        path.reverse(); // root first
        let mut depth = path.len();
        for &id in rest {
            let mut chain: Vec<NodeId> = std::iter::once(id).chain(self.ancestors(id)).collect();
            chain.reverse();
            let common = path.iter().zip(&chain).take_while(|(a, b)| a == b).count();
            depth = depth.min(common);
        }
        (depth > 0).then(|| path[depth - 1])
    }

    /// All visible text of the page (the full-text baseline).
    pub fn visible_text(&self) -> String {
        self.render_text(|_| true)
    }
}
