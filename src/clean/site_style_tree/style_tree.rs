//! The style tree of §3.2 and how a page's tag tree is merged into it, plus the page-side
//! view (the "page style tree") that both merging and mapping read.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::tagtree::{NodeId, TagTree};

/// Index of an element node in [`SiteStyleTree::elements`].
pub type ElementId = usize;
/// Index of a style node in [`SiteStyleTree::styles`].
pub type StyleId = usize;

/// The virtual root element node (the paper's root "without any attribute" above BODY).
pub const ROOT_ELEMENT: ElementId = 0;

/// Rough sizes for the memory budget: an element node, a style node, one element slot of a
/// style node, one feature entry of a content map (hash-map overhead included).
const ELEMENT_BYTES: usize = 112;
const STYLE_BYTES: usize = 48;
const SLOT_BYTES: usize = 8;
const FEATURE_BYTES: usize = 40;

/// What the pages that reached a text leaf held of one feature: Σ_j c_j and Σ_j c_j ln c_j
/// over the pages j, which is all Formula (5) needs (p_ij = c_j / Σ c).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FeatureCounts {
    pub total: u32,
    pub sum_c_ln_c: f64,
}

impl FeatureCounts {
    /// H(a) of Formula (5): the entropy of the feature's spread over the `pages` pages of its
    /// element node, in base `pages` (0 when it sits in one page, 1 when spread evenly over
    /// all of them).
    pub fn entropy(&self, pages: u32) -> f64 {
        if pages <= 1 || self.total == 0 {
            return 0.0;
        }
        let total = f64::from(self.total);
        let h = (total.ln() - self.sum_c_ln_c / total) / f64::from(pages).ln();
        h.clamp(0.0, 1.0)
    }
}

/// What the noise detection of §3.4 decided about an element node.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Mark {
    /// Not computed yet (before `finish_learning`).
    #[default]
    Unmarked,
    /// It and all its descendants have composite importance ≤ t.
    Noisy,
    /// Not noisy, and no noisy descendant.
    Meaningful,
    /// Neither: noisy and meaningful parts below it.
    Mixed,
}

/// An element node `(TAG, Attr, Ss)` of §3.2. A container of our tag tree becomes one; its
/// own content (text, links, images) becomes a virtual leaf element node `#text` below it,
/// which holds the feature statistics of Formulas (4) and (5).
#[derive(Debug, Clone)]
pub struct ElementNode {
    /// Hash of `(TAG, Attr)`.
    pub key: u64,
    /// A virtual `#text` leaf: the own content of its parent container.
    pub text: bool,
    /// The child style nodes `Ss`.
    pub styles: Vec<StyleId>,
    /// Pages that reached this node: `m` of Formulas (1) and (4).
    pub pages: u32,
    /// For `#text` leaves: each feature's counts over the pages.
    pub content: HashMap<u64, FeatureCounts>,
    /// CompImp of Formulas (2) and (4), set by `finish_learning`.
    pub importance: f64,
    pub mark: Mark,
}

impl ElementNode {
    fn new(key: u64, text: bool) -> ElementNode {
        ElementNode {
            key,
            text,
            styles: Vec::new(),
            pages: 0,
            content: HashMap::new(),
            importance: 0.0,
            mark: Mark::Unmarked,
        }
    }
}

/// A style node `(Es, n)` of §3.2: a sequence of element nodes and the pages using it.
#[derive(Debug, Clone)]
pub struct StyleNode {
    /// Hash of the sequence of element keys.
    pub key: u64,
    pub elements: Vec<ElementId>,
    pub pages: u32,
}

/// The style tree of one site (§3.2), built from its sampled pages.
#[derive(Debug, Clone)]
pub struct SiteStyleTree {
    pub elements: Vec<ElementNode>,
    pub styles: Vec<StyleNode>,
    /// Pages merged.
    pub pages: usize,
    /// Rough memory held, for the budget.
    pub approx_bytes: usize,
}

impl Default for SiteStyleTree {
    fn default() -> Self {
        SiteStyleTree {
            elements: vec![ElementNode::new(0, false)],
            styles: Vec::new(),
            pages: 0,
            approx_bytes: ELEMENT_BYTES,
        }
    }
}

/// A child of a page node in the page style tree: a container, or the node's own content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageChild {
    Container(NodeId),
    OwnContent(NodeId),
}

/// The page side of the merge and of the mapping: each container's presentation key and
/// own content features, computed once per page.
pub struct PageStyle<'a> {
    tree: &'a TagTree,
    /// Feature hashes of each node's own content (terms, link targets, image sources).
    features: Vec<Vec<u64>>,
}

/// The key of the virtual `#text` element node; no tag name starts with `#` but the root.
fn text_key() -> u64 {
    hash_of(&("#text", ""))
}

fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
    // SipHash with fixed keys: the same on every run and thread.
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

impl<'a> PageStyle<'a> {
    pub fn new(tree: &'a TagTree) -> PageStyle<'a> {
        let mut features: Vec<Vec<u64>> =
            tree.nodes.iter().map(|node| node.terms.iter().map(|t| hash_of(&("w", t))).collect()).collect();
        for link in &tree.links {
            if let Some(own) = features.get_mut(link.node) {
                own.push(hash_of(&("a", link.href.as_str())));
            }
        }
        for image in &tree.images {
            if let Some(own) = features.get_mut(image.node) {
                own.push(hash_of(&("img", image.src.as_str())));
            }
        }
        PageStyle { tree, features }
    }

    /// The own content features of `id` (empty: the node holds no content of its own).
    pub fn features(&self, id: NodeId) -> &[u64] {
        self.features.get(id).map(Vec::as_slice).unwrap_or(&[])
    }

    /// `(TAG, Attr)` of a container: the tag and its id/class hint with digits removed
    /// (generated ids like `post-4711` would make every page a style of its own).
    fn element_key(&self, id: NodeId) -> u64 {
        let Some(node) = self.tree.nodes.get(id) else { return 0 };
        let hint: String = node.hint.chars().filter(|c| !c.is_ascii_digit()).collect();
        hash_of(&(node.tag.as_str(), hint.as_str()))
    }

    /// The children of `id` in the page style tree, with their element keys: the own content
    /// first (if any), then the containers that hold any content, in document order. Empty
    /// containers (spacers, script hosts) carry no presentation the reader sees.
    pub fn children(&self, id: NodeId) -> Vec<(u64, PageChild)> {
        let mut out = Vec::new();
        if !self.features(id).is_empty() {
            out.push((text_key(), PageChild::OwnContent(id)));
        }
        if let Some(node) = self.tree.nodes.get(id) {
            for &child in &node.children {
                let Some(c) = self.tree.nodes.get(child) else { continue };
                if c.subtree.terms > 0 || c.subtree.images > 0 || c.subtree.links > 0 {
                    out.push((self.element_key(child), PageChild::Container(child)));
                }
            }
        }
        out
    }

    /// The nodes of `id`'s subtree that hold content of their own.
    pub fn content_nodes(&self, id: NodeId) -> Vec<NodeId> {
        if id >= self.tree.nodes.len() {
            return Vec::new();
        }
        self.tree.descendants(id).into_iter().filter(|&d| !self.features(d).is_empty()).collect()
    }
}

/// The key of a style node: its element keys in order.
pub fn sequence_key(children: &[(u64, PageChild)]) -> u64 {
    let keys: Vec<u64> = children.iter().map(|(k, _)| *k).collect();
    hash_of(&keys)
}

impl SiteStyleTree {
    /// The style node below `element` whose element keys are those of `children`.
    pub fn matching_style(&self, element: ElementId, children: &[(u64, PageChild)]) -> Option<StyleId> {
        let key = sequence_key(children);
        let parent = self.elements.get(element)?;
        parent.styles.iter().copied().find(|&s| {
            self.styles.get(s).is_some_and(|style| {
                style.key == key
                    && style.elements.len() == children.len()
                    && style
                        .elements
                        .iter()
                        .zip(children)
                        .all(|(&e, (k, _))| self.elements.get(e).map(|x| x.key) == Some(*k))
            })
        })
    }

    /// Merges one page into the tree top-down (§3.2, BuildSST): at each element node, the
    /// page's child sequence either matches a style node (its count goes up) or becomes a
    /// new style node with new element nodes; then the pairs below are merged. Returns the
    /// bytes the tree grew by (roughly).
    pub fn merge(&mut self, page: &PageStyle<'_>) -> usize {
        let before = self.approx_bytes;
        self.pages += 1;
        let mut stack = vec![(ROOT_ELEMENT, PageChild::Container(TagTree::ROOT))];
        while let Some((element, child)) = stack.pop() {
            let Some(node) = self.elements.get_mut(element) else { continue };
            node.pages += 1;
            let id = match child {
                PageChild::OwnContent(id) => {
                    let mut counts: HashMap<u64, u32> = HashMap::new();
                    for &f in page.features(id) {
                        *counts.entry(f).or_insert(0) += 1;
                    }
                    for (f, c) in counts {
                        let entry = node.content.entry(f).or_insert_with(|| {
                            self.approx_bytes += FEATURE_BYTES;
                            FeatureCounts::default()
                        });
                        entry.total += c;
                        entry.sum_c_ln_c += f64::from(c) * f64::from(c).ln();
                    }
                    continue;
                }
                PageChild::Container(id) => id,
            };
            let children = page.children(id);
            let style = match self.matching_style(element, &children) {
                Some(style) => style,
                None => self.new_style(element, &children),
            };
            let Some(style_node) = self.styles.get_mut(style) else { continue };
            style_node.pages += 1;
            for (&e, &(_, c)) in style_node.elements.iter().zip(&children) {
                stack.push((e, c));
            }
        }
        self.approx_bytes - before
    }

    fn new_style(&mut self, parent: ElementId, children: &[(u64, PageChild)]) -> StyleId {
        let mut elements = Vec::with_capacity(children.len());
        for &(key, child) in children {
            elements.push(self.elements.len());
            self.elements.push(ElementNode::new(key, matches!(child, PageChild::OwnContent(_))));
        }
        let id = self.styles.len();
        self.approx_bytes += STYLE_BYTES + children.len() * (SLOT_BYTES + ELEMENT_BYTES);
        self.styles.push(StyleNode { key: sequence_key(children), elements, pages: 0 });
        if let Some(p) = self.elements.get_mut(parent) {
            p.styles.push(id);
        }
        id
    }
}
