//! The DOM html5ever builds for a page, held in an arena: the nodes are entries of one vector
//! and link to each other by index.
//!
//! html5ever builds its tree through the `TreeSink` trait. markup5ever_rcdom's sink makes every
//! node an `Rc` allocation with a `RefCell`'d vector of children and a weak parent pointer,
//! and tears them down one by one; parsing into it was half of a build's time (issue #23).
//! Here creating a node is a push onto one vector, and the whole DOM is freed at once. The
//! tree is the one RcDom holds: every operation of the sink does what markup5ever_rcdom
//! 0.40.1's does, merging adjacent text the same way (tests compare the two trees on the
//! fixtures and on random markup). RcDom stays where a DOM is compared or serialised.

use std::borrow::Cow;
use std::cell::RefCell;

use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{Attribute, ExpandedName, LocalName, Namespace, ParseOpts, QualName, parse_document};

/// Index of a node in a [`Dom`].
pub type DomId = usize;

/// A parsed page: its nodes, the document first.
#[derive(Debug)]
pub struct Dom {
    nodes: Vec<DomNode>,
}

/// One node of a [`Dom`] with its links to its neighbours (indices, [`NONE`] for none: four
/// bytes a link keeps a node small).
#[derive(Debug)]
pub struct DomNode {
    parent: u32,
    first_child: u32,
    last_child: u32,
    previous_sibling: u32,
    next_sibling: u32,
    pub data: DomData,
}

/// No node: the link's end.
const NONE: u32 = u32::MAX;

fn link(id: u32) -> Option<DomId> {
    (id != NONE).then_some(id as DomId)
}

/// The link to `id`. A page is capped at `input.max_page_bytes`, and each node takes bytes of
/// markup, so ids stay far below `u32::MAX`.
fn to(id: Option<DomId>) -> u32 {
    id.map_or(NONE, |id| id as u32)
}

impl DomNode {
    pub fn parent(&self) -> Option<DomId> {
        link(self.parent)
    }

    pub fn first_child(&self) -> Option<DomId> {
        link(self.first_child)
    }

    pub fn last_child(&self) -> Option<DomId> {
        link(self.last_child)
    }

    pub fn previous_sibling(&self) -> Option<DomId> {
        link(self.previous_sibling)
    }

    pub fn next_sibling(&self) -> Option<DomId> {
        link(self.next_sibling)
    }
}

/// What a node is, as in markup5ever_rcdom's `NodeData`.
#[derive(Debug)]
pub enum DomData {
    /// The document, and the content of each `<template>` (html5ever parses it apart).
    Document,
    Doctype {
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    },
    Text(StrTendril),
    Comment(StrTendril),
    Element(Element),
    ProcessingInstruction {
        target: StrTendril,
        contents: StrTendril,
    },
}

/// An element: its name, its attributes in source order, and for a `<template>` the
/// document fragment holding its content.
#[derive(Debug)]
pub struct Element {
    pub name: QualName,
    pub attrs: Vec<Attribute>,
    pub template_contents: Option<DomId>,
    pub mathml_annotation_xml_integration_point: bool,
}

impl Dom {
    /// The document node.
    pub const DOCUMENT: DomId = 0;

    /// Parses `html` as a document, with scripting off (as the tag tree reads `<noscript>`).
    pub fn parse(html: &str) -> Dom {
        let opts = ParseOpts {
            tree_builder: TreeBuilderOpts { scripting_enabled: false, ..Default::default() },
            ..Default::default()
        };
        parse_document(DomSink::default(), opts).one(html)
    }

    pub fn node(&self, id: DomId) -> &DomNode {
        &self.nodes[id]
    }

    /// Number of nodes, detached ones (template contents, removed nodes) included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The children of `id`, in document order.
    pub fn children(&self, id: DomId) -> impl Iterator<Item = DomId> + '_ {
        std::iter::successors(self.nodes[id].first_child(), move |&c| self.nodes[c].next_sibling())
    }

    /// The children of `id`, last first.
    pub fn children_reversed(&self, id: DomId) -> impl Iterator<Item = DomId> + '_ {
        std::iter::successors(self.nodes[id].last_child(), move |&c| self.nodes[c].previous_sibling())
    }

    /// Unlinks `id` from its parent and siblings; it stays in the arena, unreachable.
    pub(super) fn detach(&mut self, id: DomId) {
        detach(&mut self.nodes, id);
    }

    /// Moves `child` (detached first) to right before `sibling`, which must have a parent.
    pub(super) fn move_before(&mut self, sibling: DomId, child: DomId) {
        let Some(parent) = self.nodes[sibling].parent() else { return };
        detach(&mut self.nodes, child);
        insert_before(&mut self.nodes, parent, sibling, child);
    }

    /// Removes the attribute `key` of the element `id`.
    pub(super) fn remove_attribute(&mut self, id: DomId, key: &str) {
        if let DomData::Element(element) = &mut self.nodes[id].data {
            element.attrs.retain(|a| &*a.name.local != key);
        }
    }
}

/// The handle html5ever's tree builder holds for a node: its index, and for an element its
/// name, so that the builder's many name checks read the handle and never the arena.
#[derive(Clone, Debug)]
pub struct DomHandle {
    id: DomId,
    name: QualName,
}

fn no_name() -> QualName {
    QualName::new(None, Namespace::from(""), LocalName::from(""))
}

/// The `TreeSink` that builds a [`Dom`].
pub struct DomSink {
    nodes: RefCell<Vec<DomNode>>,
}

impl Default for DomSink {
    fn default() -> Self {
        DomSink { nodes: RefCell::new(vec![new_node(DomData::Document)]) }
    }
}

fn new_node(data: DomData) -> DomNode {
    DomNode { parent: NONE, first_child: NONE, last_child: NONE, previous_sibling: NONE, next_sibling: NONE, data }
}

fn push(nodes: &mut Vec<DomNode>, data: DomData) -> DomId {
    nodes.push(new_node(data));
    nodes.len() - 1
}

/// Unlinks `id` from its parent and siblings (RcDom's `remove_from_parent`).
fn detach(nodes: &mut [DomNode], id: DomId) {
    let Some(parent) = nodes[id].parent() else {
        return;
    };
    let (previous, next) = (nodes[id].previous_sibling(), nodes[id].next_sibling());
    nodes[id].parent = NONE;
    nodes[id].previous_sibling = NONE;
    nodes[id].next_sibling = NONE;
    match previous {
        Some(p) => nodes[p].next_sibling = to(next),
        None => nodes[parent].first_child = to(next),
    }
    match next {
        Some(n) => nodes[n].previous_sibling = to(previous),
        None => nodes[parent].last_child = to(previous),
    }
}

/// Makes the unattached `child` the last child of `parent`.
fn append_child(nodes: &mut [DomNode], parent: DomId, child: DomId) {
    let last = nodes[parent].last_child();
    nodes[child].parent = to(Some(parent));
    nodes[child].previous_sibling = to(last);
    match last {
        Some(l) => nodes[l].next_sibling = to(Some(child)),
        None => nodes[parent].first_child = to(Some(child)),
    }
    nodes[parent].last_child = to(Some(child));
}

/// Puts the unattached `child` right before `sibling`, a child of `parent`.
fn insert_before(nodes: &mut [DomNode], parent: DomId, sibling: DomId, child: DomId) {
    let previous = nodes[sibling].previous_sibling();
    nodes[child].parent = to(Some(parent));
    nodes[child].previous_sibling = to(previous);
    nodes[child].next_sibling = to(Some(sibling));
    nodes[sibling].previous_sibling = to(Some(child));
    match previous {
        Some(p) => nodes[p].next_sibling = to(Some(child)),
        None => nodes[parent].first_child = to(Some(child)),
    }
}

/// Appends `text` to `id` if it is a text node (RcDom merges adjacent text so).
fn merge_text(nodes: &mut [DomNode], id: Option<DomId>, text: &str) -> bool {
    match id.map(|id| &mut nodes[id].data) {
        Some(DomData::Text(existing)) => {
            existing.push_slice(text);
            true
        }
        _ => false,
    }
}

impl DomSink {
    fn append_node(&self, parent: DomId, child: NodeOrText<DomHandle>) {
        let nodes = &mut *self.nodes.borrow_mut();
        let child = match child {
            NodeOrText::AppendText(text) => {
                let last = nodes[parent].last_child();
                if merge_text(nodes, last, &text) {
                    return;
                }
                push(nodes, DomData::Text(text))
            }
            NodeOrText::AppendNode(node) => {
                detach(nodes, node.id);
                node.id
            }
        };
        append_child(nodes, parent, child);
    }
}

impl TreeSink for DomSink {
    type Handle = DomHandle;
    type Output = Dom;
    type ElemName<'a> = ExpandedName<'a>;

    fn finish(self) -> Dom {
        Dom { nodes: self.nodes.into_inner() }
    }

    /// Parse errors are not kept: nothing reads them.
    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> DomHandle {
        DomHandle { id: Dom::DOCUMENT, name: no_name() }
    }

    fn elem_name<'a>(&'a self, target: &'a DomHandle) -> ExpandedName<'a> {
        target.name.expanded()
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> DomHandle {
        let nodes = &mut *self.nodes.borrow_mut();
        let template_contents = flags.template.then(|| push(nodes, DomData::Document));
        let element = Element {
            name: name.clone(),
            attrs,
            template_contents,
            mathml_annotation_xml_integration_point: flags.mathml_annotation_xml_integration_point,
        };
        DomHandle { id: push(nodes, DomData::Element(element)), name }
    }

    fn create_comment(&self, text: StrTendril) -> DomHandle {
        DomHandle { id: push(&mut self.nodes.borrow_mut(), DomData::Comment(text)), name: no_name() }
    }

    fn create_pi(&self, target: StrTendril, data: StrTendril) -> DomHandle {
        let data = DomData::ProcessingInstruction { target, contents: data };
        DomHandle { id: push(&mut self.nodes.borrow_mut(), data), name: no_name() }
    }

    fn append(&self, parent: &DomHandle, child: NodeOrText<DomHandle>) {
        self.append_node(parent.id, child);
    }

    fn append_based_on_parent_node(&self, element: &DomHandle, prev_element: &DomHandle, child: NodeOrText<DomHandle>) {
        if self.nodes.borrow()[element.id].parent().is_some() {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, name: StrTendril, public_id: StrTendril, system_id: StrTendril) {
        let nodes = &mut *self.nodes.borrow_mut();
        let id = push(nodes, DomData::Doctype { name, public_id, system_id });
        append_child(nodes, Dom::DOCUMENT, id);
    }

    /// A template's content, made on the spot should html5ever ask it of an element created
    /// without one (it asks only of templates, which get theirs when created).
    fn get_template_contents(&self, target: &DomHandle) -> DomHandle {
        let nodes = &mut *self.nodes.borrow_mut();
        let existing = match &nodes[target.id].data {
            DomData::Element(element) => element.template_contents,
            _ => None,
        };
        let id = existing.unwrap_or_else(|| {
            let id = push(nodes, DomData::Document);
            if let DomData::Element(element) = &mut nodes[target.id].data {
                element.template_contents = Some(id);
            }
            id
        });
        DomHandle { id, name: no_name() }
    }

    fn same_node(&self, x: &DomHandle, y: &DomHandle) -> bool {
        x.id == y.id
    }

    /// The quirks mode changes nothing the tag tree reads.
    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    /// As RcDom: the position of `sibling` is taken before `new_node` leaves its parent, so a
    /// node moved from earlier in the same parent lands where RcDom puts it (after
    /// `sibling`). html5ever detaches nodes before moving them, so this does not arise.
    fn append_before_sibling(&self, sibling: &DomHandle, new_node: NodeOrText<DomHandle>) {
        let nodes = &mut *self.nodes.borrow_mut();
        // html5ever only inserts before a node that has a parent (RcDom panics otherwise).
        let Some(parent) = nodes[sibling.id].parent() else {
            return;
        };
        let child = match new_node {
            NodeOrText::AppendText(text) => {
                let previous = nodes[sibling.id].previous_sibling();
                if merge_text(nodes, previous, &text) {
                    return;
                }
                push(nodes, DomData::Text(text))
            }
            NodeOrText::AppendNode(node) => node.id,
        };
        if child == sibling.id {
            return;
        }
        let moved_forward = nodes[child].parent() == Some(parent) && {
            let mut at = nodes[child].next_sibling();
            while let Some(n) = at.filter(|&n| n != sibling.id) {
                at = nodes[n].next_sibling();
            }
            at.is_some()
        };
        detach(nodes, child);
        match (moved_forward, nodes[sibling.id].next_sibling()) {
            (true, Some(next)) => insert_before(nodes, parent, next, child),
            (true, None) => append_child(nodes, parent, child),
            (false, _) => insert_before(nodes, parent, sibling.id, child),
        }
    }

    fn add_attrs_if_missing(&self, target: &DomHandle, attrs: Vec<Attribute>) {
        if let DomData::Element(element) = &mut self.nodes.borrow_mut()[target.id].data {
            let existing = element.attrs.len();
            for attr in attrs {
                if !element.attrs[..existing].iter().any(|e| e.name == attr.name) {
                    element.attrs.push(attr);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &DomHandle) {
        detach(&mut self.nodes.borrow_mut(), target.id);
    }

    fn reparent_children(&self, node: &DomHandle, new_parent: &DomHandle) {
        if node.id == new_parent.id {
            return;
        }
        let nodes = &mut *self.nodes.borrow_mut();
        while let Some(child) = nodes[node.id].first_child() {
            detach(nodes, child);
            append_child(nodes, new_parent.id, child);
        }
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &DomHandle) -> bool {
        match &self.nodes.borrow()[handle.id].data {
            DomData::Element(element) => element.mathml_annotation_xml_integration_point,
            _ => false,
        }
    }

    // `maybe_clone_an_option_into_selectedcontent` keeps the trait's default (nothing): in
    // markup5ever_rcdom 0.40.1 the search for the `<selectedcontent>` never matches (it tests
    // the `<select>`'s own name), so RcDom never clones an option either; and a `<select>`'s
    // content is invisible to the tag tree.
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use html5ever::tendril::TendrilSink;
    use markup5ever_rcdom::{Handle, NodeData, RcDom};
    use proptest::prelude::*;

    use super::*;

    fn rcdom_of(html: &str) -> RcDom {
        let opts = ParseOpts {
            tree_builder: TreeBuilderOpts { scripting_enabled: false, ..Default::default() },
            ..Default::default()
        };
        parse_document(RcDom::default(), opts).one(html)
    }

    fn element_line(name: &QualName, attrs: &[Attribute]) -> String {
        let mut line = format!("<{{{}}}{}", &*name.ns, &*name.local);
        for attr in attrs {
            write!(line, " {{{}}}{}={:?}", &*attr.name.ns, &*attr.name.local, &*attr.value).unwrap();
        }
        line + ">"
    }

    /// One line a node, indented by depth, template contents under their element.
    fn dump_dom(dom: &Dom) -> String {
        let mut out = String::new();
        let mut stack = vec![(Dom::DOCUMENT, 0usize)];
        while let Some((id, depth)) = stack.pop() {
            let line = match &dom.node(id).data {
                DomData::Document => "#document".to_string(),
                DomData::Doctype { name, public_id, system_id } => format!("<!DOCTYPE {name} {public_id} {system_id}>"),
                DomData::Text(text) => format!("{:?}", &**text),
                DomData::Comment(text) => format!("<!--{text}-->"),
                DomData::ProcessingInstruction { target, contents } => format!("<?{target} {contents}>"),
                DomData::Element(element) => {
                    if let Some(contents) = element.template_contents {
                        stack.push((contents, depth + 1));
                    }
                    element_line(&element.name, &element.attrs)
                }
            };
            writeln!(out, "{}{line}", "  ".repeat(depth)).unwrap();
            let children: Vec<DomId> = dom.children(id).collect();
            stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
        }
        out
    }

    /// The same lines for an RcDom, checking that parent links match the children lists.
    fn dump_rcdom(dom: &RcDom) -> String {
        let mut out = String::new();
        let mut stack: Vec<(Handle, usize)> = vec![(dom.document.clone(), 0)];
        while let Some((node, depth)) = stack.pop() {
            let line = match &node.data {
                NodeData::Document => "#document".to_string(),
                NodeData::Doctype { name, public_id, system_id } => {
                    format!("<!DOCTYPE {name} {public_id} {system_id}>")
                }
                NodeData::Text { contents } => format!("{:?}", &**contents.borrow()),
                NodeData::Comment { contents } => format!("<!--{contents}-->"),
                NodeData::ProcessingInstruction { target, contents } => format!("<?{target} {contents}>"),
                NodeData::Element { name, attrs, template_contents, .. } => {
                    if let Some(contents) = template_contents.borrow().as_ref() {
                        stack.push((contents.clone(), depth + 1));
                    }
                    element_line(name, &attrs.borrow())
                }
            };
            writeln!(out, "{}{line}", "  ".repeat(depth)).unwrap();
            stack.extend(node.children.borrow().iter().rev().map(|c| (c.clone(), depth + 1)));
        }
        out
    }

    /// Every node's links agree with each other: parent, children and siblings.
    fn check_links(dom: &Dom) {
        for id in 0..dom.len() {
            let children: Vec<DomId> = dom.children(id).collect();
            let mut reversed: Vec<DomId> = dom.children_reversed(id).collect();
            reversed.reverse();
            assert_eq!(children, reversed, "node {id}: siblings disagree");
            for child in children {
                assert_eq!(dom.node(child).parent(), Some(id), "node {child}: parent");
            }
        }
    }

    fn assert_same_tree(html: &str) {
        let dom = Dom::parse(html);
        check_links(&dom);
        assert_eq!(dump_dom(&dom), dump_rcdom(&rcdom_of(html)), "markup: {html:?}");
    }

    #[test]
    fn the_tree_builders_tricky_operations_build_rcdoms_tree() {
        for html in [
            // Doctype, comments before and after the document, a processing-instruction-like
            // bogus comment.
            "<!DOCTYPE html><!-- a --><?xml version='1.0'?><html><body>x</body></html><!-- b -->",
            // Template contents go to their own fragment, nested too.
            "<template><p>in <b>template</b></p><template>inner</template></template><body>out",
            "<table><template><tr><td>t</td></tr></template></table>",
            // Foster parenting: text and elements before a table's cells land before the table;
            // adjacent text merges there.
            "<table>one<b>two</b>three<tr>four<td>cell</td></tr>five</table>",
            "<div><table><tr>a</tr>b<td>c</td></table>d</div>",
            "<table><tr><td>x</td></tr><span>y</span>z</table>",
            // Attributes added to html and body later (add_attrs_if_missing).
            "<html lang=en><body class=a><p>x</p><html lang=fr data-x=1><body id=b class=c>",
            // The adoption agency: misnested formatting (reparent_children,
            // append_before_sibling, remove_from_parent).
            "<b>1<p>2</b>3</p>",
            "<a href=x>1<div>2<a href=y>3</div>4</a>",
            "<p><b><i><u>x</p>y",
            "<b><b><b><b><p>x</b></b></b></b>",
            "<table><a>1<p>2</a>3</table>",
            // Foreign content: SVG and MathML, integration points.
            "<svg><foreignObject><p>html in svg</p></foreignObject><desc><b>d</b></desc></svg>",
            "<math><annotation-xml encoding='text/html'><div>x</div></annotation-xml><mi>y</mi></math>",
            "<svg><font color=red>z</font></svg>",
            // Select, options, forms, frames, head content after the body.
            "<select><option>a<option selected>b<optgroup><option>c</select><selectedcontent></selectedcontent>",
            "<select><button><selectedcontent></selectedcontent></button><option selected>a</option></select>",
            "<form><form><input></form>",
            "<frameset><frame></frameset>",
            "<body><title>late</title><meta name=description content=d><p>x</p></body><style>s</style>",
            // Text merging across removed and inserted nodes; character references.
            "a&amp;b<br>c&lt;d<!--x-->e",
            "<pre>\nline</pre><textarea>\nt</textarea><listing>\nl</listing>",
            "<h1><h2>x</h1>y</h2>",
            "<ul><li>1<li>2<ul><li>3</ul></ul><dl><dt>a<dd>b</dl>",
            "<plaintext><b>not a tag",
            "",
        ] {
            assert_same_tree(html);
        }
    }

    #[test]
    fn the_fixtures_parse_to_rcdoms_tree() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut pages = 0;
        for folder in ["tests/fixtures", "eval/sample-corpus/pages"] {
            for entry in walkdir::WalkDir::new(root.join(folder)) {
                let entry = entry.unwrap();
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "html" || e == "htm") {
                    let html = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
                    assert_same_tree(&html);
                    pages += 1;
                }
            }
        }
        assert!(pages >= 20, "fixture pages found: {pages}");
    }

    /// Tags whose tree construction is unusual (tables, formatting, foreign content, forms,
    /// templates), so that random markup exercises the tree builder's rare paths.
    const TAGS: &[&str] = &[
        "html",
        "head",
        "body",
        "title",
        "meta",
        "p",
        "div",
        "span",
        "b",
        "i",
        "a",
        "nobr",
        "table",
        "caption",
        "colgroup",
        "col",
        "tbody",
        "tr",
        "td",
        "th",
        "template",
        "select",
        "option",
        "optgroup",
        "form",
        "button",
        "input",
        "ul",
        "li",
        "dl",
        "dd",
        "h1",
        "h2",
        "pre",
        "svg",
        "math",
        "mi",
        "annotation-xml",
        "foreignObject",
        "desc",
        "font",
        "frameset",
        "frame",
        "textarea",
        "style",
        "script",
        "noscript",
        "br",
        "img",
        "hr",
        "marquee",
        "applet",
        "object",
        "selectedcontent",
        "custom-el",
    ];

    fn markup_piece() -> impl Strategy<Value = String> {
        let tag = proptest::sample::select(TAGS);
        let attr =
            (proptest::sample::select(&["id", "class", "href", "lang", "color", "encoding"][..]), "[a-z/ ]{0,6}")
                .prop_map(|(name, value)| format!(" {name}=\"{value}\""));
        prop_oneof![
            4 => (tag.clone(), proptest::collection::vec(attr, 0..3)).prop_map(|(t, a)| format!("<{t}{}>", a.concat())),
            3 => tag.prop_map(|t| format!("</{t}>")),
            3 => "[a-z &;<]{1,8}",
            1 => Just("<!-- c -->".to_string()),
            1 => Just("<!DOCTYPE html>".to_string()),
            1 => Just("\n \t".to_string()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
        #[test]
        fn random_markup_parses_to_rcdoms_tree(pieces in proptest::collection::vec(markup_piece(), 0..40)) {
            let html = pieces.concat();
            let dom = Dom::parse(&html);
            check_links(&dom);
            prop_assert_eq!(dump_dom(&dom), dump_rcdom(&rcdom_of(&html)), "markup: {:?}", html);
        }
    }
}
