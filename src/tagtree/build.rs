//! Building the tag tree from html5ever's DOM, iteratively.

use std::collections::HashSet;

use html5ever::{LocalName, local_name};

use super::dom::{Dom, DomData, DomId};
use super::{BlockStats, BlockType, Image, Item, Link, Node, NodeId, TagTree, Terms, WeightyTag};
use crate::config::TagTreeConfig;
use crate::text::for_each_word;

/// What the tag tree makes of an element, by its tag name (html5ever's interned names, so
/// that telling them apart is a comparison of integers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The paper's container tags plus today's block elements.
    Container,
    /// Block-level elements that are not containers: their edges break lines.
    Breaking,
    /// Elements whose content is never visible text. `noscript` is *not* one: the page is
    /// parsed with scripting off, so its fallback content (some forums keep their posts
    /// there) is kept.
    Invisible,
    /// Everything else: inline elements, whose content goes to the container they stand in.
    Inline,
}

fn role(tag: &LocalName) -> Role {
    match *tag {
        local_name!("body")
        | local_name!("table")
        | local_name!("tr")
        | local_name!("td")
        | local_name!("th")
        | local_name!("p")
        | local_name!("div")
        | local_name!("section")
        | local_name!("article")
        | local_name!("main")
        | local_name!("aside")
        | local_name!("nav")
        | local_name!("header")
        | local_name!("footer")
        | local_name!("ul")
        | local_name!("ol")
        | local_name!("li")
        | local_name!("dl")
        | local_name!("form")
        | local_name!("blockquote")
        | local_name!("pre")
        | local_name!("figure")
        | local_name!("figcaption")
        | local_name!("center")
        | local_name!("fieldset")
        | local_name!("details")
        | local_name!("caption")
        | local_name!("address")
        | local_name!("menu")
        | local_name!("dialog")
        | local_name!("hgroup")
        | local_name!("search") => Role::Container,
        local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6")
        | local_name!("dt")
        | local_name!("dd")
        | local_name!("hr")
        | local_name!("legend")
        | local_name!("summary")
        | local_name!("tbody")
        | local_name!("thead")
        | local_name!("tfoot") => Role::Breaking,
        local_name!("head")
        | local_name!("script")
        | local_name!("style")
        | local_name!("template")
        | local_name!("svg")
        | local_name!("math")
        | local_name!("iframe")
        | local_name!("object")
        | local_name!("embed")
        | local_name!("select")
        | local_name!("textarea")
        | local_name!("canvas")
        | local_name!("video")
        | local_name!("audio")
        | local_name!("map")
        | local_name!("noembed")
        | local_name!("noframes") => Role::Invisible,
        _ => Role::Inline,
    }
}

/// Parses `html` (already decoded) and builds its tag tree. `weighty_tags` are the tags whose
/// force Algorithm 1 uses (the keys of `block_weight.forces`).
pub fn build_tag_tree(html: &str, config: &TagTreeConfig, weighty_tags: &HashSet<String>) -> TagTree {
    tag_tree_of(&parse_html(html, config), config, weighty_tags)
}

/// A page parsed by html5ever, before it is reduced to a tag tree.
pub struct ParsedHtml {
    pub dom: Dom,
    /// Markup nested deeper than `tag_tree.max_markup_depth` was flattened before parsing.
    pub markup_capped: bool,
}

/// The first half of [`build_tag_tree`]: caps the markup depth, parses with html5ever
/// (scripting off) and puts the segments React streams where its scripts would
/// ([`super::streamed`]). Separate so that benchmarks can time parsing on its own.
pub fn parse_html(html: &str, config: &TagTreeConfig) -> ParsedHtml {
    let (html, markup_capped) = super::prepare_markup(html, config.max_markup_depth);
    let mut dom = Dom::parse(&html);
    super::streamed::place_streamed_segments(&mut dom);
    ParsedHtml { dom, markup_capped }
}

/// The second half of [`build_tag_tree`]: the tag tree of a parsed page.
pub fn tag_tree_of(parsed: &ParsedHtml, config: &TagTreeConfig, weighty_tags: &HashSet<String>) -> TagTree {
    let mut builder = Builder::new(config, weighty_tags);
    builder.walk(&parsed.dom);
    let mut tree = builder.finish();
    tree.depth_capped |= parsed.markup_capped;
    tree
}

enum Frame {
    Enter(DomId),
    PopContainer,
    EndLink(Option<usize>),
    EndWeighty,
    Break,
    EndTitle,
}

struct Builder<'a> {
    config: &'a TagTreeConfig,
    /// The weighty tags (`block_weight.forces`), as html5ever names them.
    weighty_tags: Vec<LocalName>,
    tree: TagTree,
    /// The container stack; the top is where content goes.
    containers: Vec<NodeId>,
    link: Option<usize>,
    /// Open weighty tags: (container, index in its `weighty`).
    weighty: Vec<(NodeId, usize)>,
    in_title: bool,
    /// Terms of each link's anchor text, by link index.
    link_terms: Vec<usize>,
    /// Anchor terms by (container, link index, terms), to count teaser terms once each
    /// link's length is known.
    anchor_runs: Vec<(NodeId, usize, usize)>,
}

impl<'a> Builder<'a> {
    fn new(config: &'a TagTreeConfig, weighty_tags: &'a HashSet<String>) -> Self {
        let root = Node {
            tag: "#root".into(),
            hint: String::new(),
            parent: None,
            children: Vec::new(),
            items: Vec::new(),
            terms: Terms::default(),
            own: BlockStats::default(),
            subtree: BlockStats::default(),
            weighty: Vec::new(),
            own_type: BlockType::Empty,
            block_type: BlockType::Empty,
            article_body: false,
        };
        Builder {
            config,
            weighty_tags: weighty_tags.iter().map(|tag| LocalName::from(tag.as_str())).collect(),
            tree: TagTree {
                nodes: vec![root],
                links: Vec::new(),
                images: Vec::new(),
                title: String::new(),
                description: None,
                lang: None,
                depth_capped: false,
            },
            containers: vec![TagTree::ROOT],
            link: None,
            weighty: Vec::new(),
            in_title: false,
            link_terms: Vec::new(),
            anchor_runs: Vec::new(),
        }
    }

    fn current(&self) -> NodeId {
        *self.containers.last().expect("the root is never popped")
    }

    fn walk(&mut self, dom: &Dom) {
        let mut stack: Vec<Frame> = dom.children_reversed(Dom::DOCUMENT).map(Frame::Enter).collect();
        while let Some(frame) = stack.pop() {
            match frame {
                Frame::Enter(id) => self.enter(dom, id, &mut stack),
                Frame::PopContainer => {
                    self.containers.pop();
                }
                Frame::EndLink(previous) => self.link = previous,
                Frame::EndWeighty => {
                    if let Some((node, index)) = self.weighty.pop() {
                        let end = self.tree.nodes[node].items.len();
                        self.tree.nodes[node].weighty[index].items.end = end;
                    }
                }
                Frame::Break => self.push_break(),
                Frame::EndTitle => self.in_title = false,
            }
        }
    }

    fn enter(&mut self, dom: &Dom, id: DomId, stack: &mut Vec<Frame>) {
        match &dom.node(id).data {
            DomData::Text(text) => {
                if self.in_title {
                    self.tree.title.push_str(text);
                } else {
                    self.push_text(text);
                }
            }
            DomData::Element(element) => {
                let name = &element.name.local;
                let attrs = &element.attrs;
                let attr = |key: &str| attribute(attrs, key);
                match *name {
                    local_name!("html") => {
                        self.tree.lang = attr("lang").filter(|l| !l.trim().is_empty()).map(str::to_string);
                    }
                    local_name!("head") => {
                        // Only the title and the description are taken from the head.
                        for child in dom.children_reversed(id) {
                            if let DomData::Element(element) = &dom.node(child).data
                                && matches!(element.name.local, local_name!("title") | local_name!("meta"))
                            {
                                stack.push(Frame::Enter(child));
                            }
                        }
                        return;
                    }
                    local_name!("title") => {
                        if self.tree.title.is_empty() {
                            self.in_title = true;
                            stack.push(Frame::EndTitle);
                            push_children(dom, id, stack);
                        }
                        return;
                    }
                    local_name!("meta") => {
                        if attr("name").is_some_and(|n| n.eq_ignore_ascii_case("description")) {
                            self.tree.description = attr("content").map(collapse_whitespace);
                        }
                        return;
                    }
                    _ => {}
                }
                let role = role(name);
                if role == Role::Invisible || is_hidden(attr("hidden"), attr("style")) {
                    return;
                }
                match *name {
                    local_name!("img") => {
                        let src = attr("src").or_else(|| attr("data-src")).unwrap_or_default().to_string();
                        let size =
                            |key: &str| attr(key).and_then(|v| v.trim().trim_end_matches("px").parse::<u32>().ok());
                        let (width, height) = (size("width"), size("height"));
                        self.push_image(src, attr("alt").unwrap_or_default(), width, height);
                        return;
                    }
                    local_name!("br") => {
                        self.push_break();
                        return;
                    }
                    _ => {}
                }
                if role == Role::Container && self.containers.len() <= self.config.max_depth {
                    let hint = match (attr("id"), attr("class")) {
                        (Some(id), Some(class)) => format!("{id} {class}"),
                        (Some(one), None) | (None, Some(one)) => one.to_string(),
                        (None, None) => String::new(),
                    };
                    // Lower case; most hints already are.
                    let hint = if hint.bytes().any(|b| b.is_ascii_uppercase() || !b.is_ascii()) {
                        hint.to_lowercase()
                    } else {
                        hint
                    };
                    let article_body = attr("itemprop")
                        .is_some_and(|v| v.split_whitespace().any(|w| w.eq_ignore_ascii_case("articlebody")));
                    self.open_container(name, hint, article_body);
                    stack.push(Frame::PopContainer);
                } else if role == Role::Container {
                    self.tree.depth_capped = true;
                    self.push_break();
                    stack.push(Frame::Break);
                }
                if role == Role::Breaking {
                    self.push_break();
                    stack.push(Frame::Break);
                }
                if *name == local_name!("a")
                    && let Some(href) = attr("href")
                {
                    let node = self.current();
                    self.tree.links.push(Link { href: href.trim().to_string(), anchor: String::new(), node });
                    self.link_terms.push(0);
                    let index = self.tree.links.len() - 1;
                    self.count(|s| s.links += 1);
                    stack.push(Frame::EndLink(self.link.replace(index)));
                }
                if self.weighty_tags.contains(name) {
                    let node = self.current();
                    let start = self.tree.nodes[node].items.len();
                    self.tree.nodes[node].weighty.push(WeightyTag {
                        tag: String::from(&**name),
                        text: String::new(),
                        terms: 0,
                        anchor_terms: 0,
                        images: 0,
                        items: start..start,
                    });
                    self.weighty.push((node, self.tree.nodes[node].weighty.len() - 1));
                    stack.push(Frame::EndWeighty);
                }
                push_children(dom, id, stack);
            }
            DomData::Document => push_children(dom, id, stack),
            _ => {}
        }
    }

    fn open_container(&mut self, tag: &LocalName, hint: String, article_body: bool) {
        let parent = self.current();
        let id = self.tree.nodes.len();
        self.tree.nodes.push(Node {
            tag: String::from(&**tag),
            hint,
            parent: Some(parent),
            children: Vec::new(),
            items: Vec::new(),
            terms: Terms::default(),
            own: BlockStats::default(),
            subtree: BlockStats::default(),
            weighty: Vec::new(),
            own_type: BlockType::Empty,
            block_type: BlockType::Empty,
            article_body,
        });
        let parent_node = &mut self.tree.nodes[parent];
        parent_node.children.push(id);
        parent_node.items.push(Item::Child(id));
        self.containers.push(id);
    }

    /// Adds to the current container's own stats.
    fn count(&mut self, f: impl Fn(&mut BlockStats)) {
        let node = self.current();
        f(&mut self.tree.nodes[node].own);
    }

    fn push_text(&mut self, raw: &str) {
        let text = collapse_whitespace_keep_edges(raw);
        if text.is_empty() {
            return;
        }
        let node_id = self.current();
        let link = self.link;
        let node = &mut self.tree.nodes[node_id];
        // Merged with the previous text item of the same link, so items stay few.
        let merge = matches!(node.items.last(), Some(Item::Text { link: l, .. }) if *l == link);
        if !merge && text == " " && !matches!(node.items.last(), Some(Item::Text { .. })) {
            return;
        }
        let machine_strings = crate::text::machine_strings(&text);
        let mut count = 0usize;
        for_each_word(&text, |word, start, latin| {
            node.terms.push_word(word, latin);
            if machine_strings.iter().any(|span| span.contains(&start)) {
                node.terms.mark_last_in_machine_string();
            }
            count += 1;
        });
        node.own.terms += count;
        if let Some(index) = link {
            node.own.anchor_terms += count;
            self.link_terms[index] += count;
            self.anchor_runs.push((node_id, index, count));
            let anchor = &mut self.tree.links[index].anchor;
            anchor.push_str(&text);
        }
        for &(container, index) in &self.weighty {
            let w = &mut self.tree.nodes[container].weighty[index];
            if w.tag.starts_with('h') && w.text.len() < self.config.max_heading_text_bytes {
                w.text.push_str(&text);
            }
            w.terms += count;
            if link.is_some() {
                w.anchor_terms += count;
            }
        }
        let items = &mut self.tree.nodes[node_id].items;
        match items.last_mut() {
            Some(Item::Text { text: previous, .. }) if merge => {
                if !(previous.ends_with(' ') && text.starts_with(' ')) {
                    previous.push_str(&text);
                } else {
                    previous.push_str(&text[1..]);
                }
            }
            _ => {
                // The buffer was sized for the raw text; the tree keeps only the collapsed.
                let mut text = text;
                text.shrink_to_fit();
                items.push(Item::Text { text, link })
            }
        }
    }

    fn push_image(&mut self, src: String, alt: &str, width: Option<u32>, height: Option<u32>) {
        let node = self.current();
        self.tree.images.push(Image { src, alt: collapse_whitespace(alt), node, link: self.link, width, height });
        let index = self.tree.images.len() - 1;
        self.tree.nodes[node].items.push(Item::Image(index));
        self.count(|s| s.images += 1);
        for &(container, w) in &self.weighty {
            self.tree.nodes[container].weighty[w].images += 1;
        }
    }

    fn push_break(&mut self) {
        let node = self.current();
        let items = &mut self.tree.nodes[node].items;
        if !matches!(items.last(), None | Some(Item::Break) | Some(Item::Child(_))) {
            items.push(Item::Break);
        }
    }

    fn finish(mut self) -> TagTree {
        let tree = &mut self.tree;
        tree.title = collapse_whitespace(&tree.title);
        for link in &mut tree.links {
            link.anchor = collapse_whitespace(&link.anchor);
        }
        for &(node, index, count) in &self.anchor_runs {
            if self.link_terms[index] >= self.config.teaser_anchor_terms {
                tree.nodes[node].own.teaser_terms += count;
            }
        }
        // Bottom-up: children have larger ids than their parent.
        for id in (0..tree.nodes.len()).rev() {
            let node = &mut tree.nodes[id];
            let mut subtree = node.own;
            subtree.add(&node.subtree);
            node.subtree = subtree;
            node.own_type = node.own.block_type(self.config.hub_anchor_ratio, self.config.image_term_ratio);
            node.block_type = subtree.block_type(self.config.hub_anchor_ratio, self.config.image_term_ratio);
            if let Some(parent) = node.parent {
                let s = subtree;
                tree.nodes[parent].subtree.add(&s);
            }
        }
        self.tree
    }
}

/// The value of the attribute `key` among `attrs`. The pre-pass drops every attribute it
/// does not list as read: one read here must be listed there.
pub(super) fn attribute<'d>(attrs: &'d [html5ever::Attribute], key: &str) -> Option<&'d str> {
    debug_assert!(super::prepass::KEPT_ATTRIBUTES.contains(&key), "the pre-pass drops attribute {key}");
    attrs.iter().find(|a| &*a.name.local == key).map(|a| &*a.value)
}

fn push_children(dom: &Dom, id: DomId, stack: &mut Vec<Frame>) {
    stack.extend(dom.children_reversed(id).map(Frame::Enter));
}

fn is_hidden(hidden: Option<&str>, style: Option<&str>) -> bool {
    if hidden.is_some() {
        return true;
    }
    style.is_some_and(|s| {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        s.contains("display:none") || s.contains("visibility:hidden")
    })
}

/// Collapses runs of white space to one space and trims.
pub(crate) fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Collapses runs of white space to one space, keeping one space at either edge (inline
/// elements are separated from their neighbours by such spaces).
fn collapse_whitespace_keep_edges(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
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

    #[test]
    fn teaser_links_are_counted_apart_from_navigation_links() {
        // A card whose whole summary is one link (26 terms, over two containers), next to a
        // navigation link and a linked headline (under `teaser_anchor_terms`).
        let summary = "Learn the methods and habits you need to work in a team where numbers and \
            models shape every choice your group makes each year";
        let t = tree(&format!(
            "<body><div class=nav><a href=/>Home</a></div><div class=card><a href=/c>\
            <h3>Data science</h3><p class=summary>{summary}</p></a>\
            <p class=title><a href=/h>Ten things we learned from the data this year</a></p></div></body>"
        ));
        let (nav, card, summary_node, title) =
            (find(&t, "nav"), find(&t, "card"), find(&t, "summary"), find(&t, "title"));
        assert_eq!(t.nodes[nav].own.teaser_terms, 0);
        assert_eq!(t.nodes[title].own.anchor_terms, 9);
        assert_eq!(t.nodes[title].own.teaser_terms, 0);
        // The heading's terms lie in the card, the summary's in its paragraph: one link.
        assert_eq!(t.nodes[card].own.teaser_terms, 2);
        assert_eq!(t.nodes[summary_node].own.teaser_terms, 24);
        assert_eq!(t.nodes[card].subtree.teaser_terms, 26);
        let reread = t.with_teasers_as_text(&Config::default().tag_tree);
        assert_eq!(t.nodes[summary_node].own_type, BlockType::Hub);
        assert_eq!(reread.nodes[summary_node].own_type, BlockType::Topic);
        assert_eq!(reread.nodes[summary_node].own.anchor_terms, 0);
        assert_eq!(reread.nodes[title].own.anchor_terms, 9);
    }

    #[test]
    fn containers_carry_text_links_images_and_weighty_tags() {
        let t = tree(
            "<html lang=en><head><title> A  page </title><meta name=description content='About it'><script>var x='hidden';</script></head>\
             <body><div id=nav><a href='/a'>Home page</a> <a href='/b'>News</a></div>\
             <div id=main><h1>Big <b>news</b></h1><p>Some <strong>strong</strong> words here.</p><img src='x.png' alt='a cat'></div></body></html>",
        );
        assert_eq!(t.title, "A page");
        assert_eq!(t.description.as_deref(), Some("About it"));
        assert_eq!(t.lang.as_deref(), Some("en"));
        let nav = find(&t, "nav");
        assert_eq!(t.nodes[nav].own, BlockStats { terms: 3, anchor_terms: 3, teaser_terms: 0, links: 2, images: 0 });
        assert_eq!(t.nodes[nav].block_type, BlockType::Hub);
        let main = find(&t, "main");
        assert_eq!(t.nodes[main].own.images, 1);
        assert_eq!(t.nodes[main].weighty.iter().map(|w| w.tag.as_str()).collect::<Vec<_>>(), ["h1", "b"]);
        assert_eq!(t.nodes[main].weighty[0].terms, 2);
        assert_eq!(t.nodes[main].subtree.terms, 6);
        let p = t.nodes[main].children[0];
        assert_eq!(t.nodes[p].terms.iter().collect::<Vec<_>>(), ["some", "strong", "words", "here"]);
        assert_eq!(t.links[0].anchor, "Home page");
        assert_eq!(t.images[0].alt, "a cat");
        assert!(!t.visible_text().contains("hidden"));
    }

    #[test]
    fn noscript_content_is_kept_and_hidden_blocks_dropped() {
        let t = tree(
            "<body><noscript><div class=post>Real forum post text</div></noscript><div hidden>secret</div><p style='display: none'>gone</p></body>",
        );
        let text = t.visible_text();
        assert!(text.contains("Real forum post text"), "{text}");
        assert!(!text.contains("secret") && !text.contains("gone"));
    }

    #[test]
    fn the_article_body_mark_is_read_from_microdata() {
        let t = tree(
            "<body><div class=a itemprop='articleBody'><p>Text</p></div><div class=b itemprop='name ArticleBody'>\
             <p>Text</p></div><div class=c itemprop=headline>Title</div></body>",
        );
        let marked: Vec<bool> = ["a", "b", "c"].iter().map(|h| t.nodes[find(&t, h)].article_body).collect();
        assert_eq!(marked, [true, true, false]);
    }

    #[test]
    fn deep_nesting_is_capped_not_recursed() {
        let depth = 20_000;
        let html = format!("{}deep text{}", "<div>".repeat(depth), "</div>".repeat(depth));
        let t = tree(&html);
        assert!(t.depth_capped);
        assert!(t.nodes.len() <= Config::default().tag_tree.max_depth + 2);
        assert!(t.visible_text().contains("deep text"));
    }

    proptest::proptest! {
        #[test]
        fn terms_pushed_as_words_are_the_tokenizers_terms(text in "[a-zA-Z0-9 .,'ÉéÜüßΣσς İ\u{301}北京大学东京コンピューター]{0,40}") {
            let mut terms = Terms::default();
            crate::text::for_each_word(&text, |word, _, latin| terms.push_word(word, latin));
            proptest::prop_assert_eq!(terms.iter().collect::<Vec<_>>(), crate::text::terms(&text));
        }
    }

    #[test]
    fn lca_and_descendants() {
        let t = tree("<body><div id=a><p id=b>one</p><p id=c>two</p></div></body>");
        let (a, b, c) = (find(&t, "a"), find(&t, "b"), find(&t, "c"));
        assert_eq!(t.lowest_common_ancestor(&[b, c]), Some(a));
        assert_eq!(t.lowest_common_ancestor(&[b]), Some(b));
        assert_eq!(t.descendants(a), [a, b, c]);
        assert!(t.contains(a, c) && !t.contains(b, c));
    }
}
