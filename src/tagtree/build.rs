//! Building the tag tree from html5ever's DOM, iteratively.

use std::collections::HashSet;

use super::dom::{Dom, DomData, DomId};
use super::{
    BlockStats, BlockType, Image, Item, Link, Node, NodeId, TagTree, Terms, TitleHeading, WeightyTag, hint_words,
};
use crate::config::TagTreeConfig;
use crate::text::for_each_token;

/// The paper's container tags plus today's block elements.
const CONTAINERS: &[&str] = &[
    "body",
    "table",
    "tr",
    "td",
    "th",
    "p",
    "div",
    "section",
    "article",
    "main",
    "aside",
    "nav",
    "header",
    "footer",
    "ul",
    "ol",
    "li",
    "dl",
    "form",
    "blockquote",
    "pre",
    "figure",
    "figcaption",
    "center",
    "fieldset",
    "details",
    "caption",
    "address",
    "menu",
    "dialog",
    "hgroup",
    "search",
];

/// Block-level elements that are not containers: their edges break lines.
const BREAKING: &[&str] =
    &["h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "hr", "legend", "summary", "tbody", "thead", "tfoot"];

/// Elements whose content is never visible text. `noscript` is *not* here: the page is parsed
/// with scripting off, so its fallback content (some forums keep their posts there) is kept.
const INVISIBLE: &[&str] = &[
    "head", "script", "style", "template", "svg", "math", "iframe", "object", "embed", "select", "textarea", "canvas",
    "video", "audio", "map", "noembed", "noframes",
];

/// Words of an id/class that mark a block as outside the central area.
const MARGIN_HINTS: &[&str] = &[
    "nav",
    "navbar",
    "navigation",
    "menu",
    "header",
    "footer",
    "sidebar",
    "aside",
    "banner",
    "breadcrumb",
    "breadcrumbs",
    "copyright",
    "cookie",
    "cookies",
    "social",
    "share",
    "sharing",
    "ad",
    "ads",
    "advert",
    "advertisement",
    "sponsor",
    "sponsored",
    "promo",
    "related",
    "masthead",
    "toolbar",
    "topbar",
    "subscribe",
    "newsletter",
    "login",
    "comments",
    "comment",
    "popular",
    "trending",
    "tags",
    "pagination",
];

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

/// The first half of [`build_tag_tree`]: caps the markup depth and parses with html5ever
/// (scripting off). Separate so that benchmarks can time parsing on its own.
pub fn parse_html(html: &str, config: &TagTreeConfig) -> ParsedHtml {
    let (html, markup_capped) = super::prepare_markup(html, config.max_markup_depth);
    ParsedHtml { dom: Dom::parse(&html), markup_capped }
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
    weighty_tags: &'a HashSet<String>,
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
            margin: false,
            article_body: false,
        };
        Builder {
            config,
            weighty_tags,
            tree: TagTree {
                nodes: vec![root],
                links: Vec::new(),
                images: Vec::new(),
                title: String::new(),
                description: None,
                lang: None,
                depth_capped: false,
                title_heading: None,
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
                let tag: &str = &element.name.local;
                let attrs = &element.attrs;
                let attr = |key: &str| attribute(attrs, key);
                match tag {
                    "html" => {
                        self.tree.lang = attr("lang").filter(|l| !l.trim().is_empty());
                    }
                    "head" => {
                        // Only the title and the description are taken from the head.
                        for child in dom.children_reversed(id) {
                            if let DomData::Element(element) = &dom.node(child).data
                                && matches!(&*element.name.local, "title" | "meta")
                            {
                                stack.push(Frame::Enter(child));
                            }
                        }
                        return;
                    }
                    "title" => {
                        if self.tree.title.is_empty() {
                            self.in_title = true;
                            stack.push(Frame::EndTitle);
                            push_children(dom, id, stack);
                        }
                        return;
                    }
                    "meta" => {
                        if attr("name").is_some_and(|n| n.eq_ignore_ascii_case("description")) {
                            self.tree.description = attr("content").map(|c| collapse_whitespace(&c));
                        }
                        return;
                    }
                    _ => {}
                }
                if INVISIBLE.contains(&tag) || is_hidden(&attr("hidden"), &attr("style")) {
                    return;
                }
                match tag {
                    "img" => {
                        let src = attr("src").or_else(|| attr("data-src")).unwrap_or_default();
                        let size =
                            |key: &str| attr(key).and_then(|v| v.trim().trim_end_matches("px").parse::<u32>().ok());
                        let (width, height) = (size("width"), size("height"));
                        self.push_image(src, attr("alt").unwrap_or_default(), width, height);
                        return;
                    }
                    "br" => {
                        self.push_break();
                        return;
                    }
                    _ => {}
                }
                if CONTAINERS.contains(&tag) && self.containers.len() <= self.config.max_depth {
                    let hint =
                        [attr("id"), attr("class")].into_iter().flatten().collect::<Vec<_>>().join(" ").to_lowercase();
                    let article_body = attr("itemprop")
                        .is_some_and(|v| v.split_whitespace().any(|w| w.eq_ignore_ascii_case("articlebody")));
                    self.open_container(tag, hint, article_body);
                    stack.push(Frame::PopContainer);
                } else if CONTAINERS.contains(&tag) {
                    self.tree.depth_capped = true;
                    self.push_break();
                    stack.push(Frame::Break);
                }
                if BREAKING.contains(&tag) {
                    self.push_break();
                    stack.push(Frame::Break);
                }
                if tag == "a"
                    && let Some(href) = attr("href")
                {
                    let node = self.current();
                    self.tree.links.push(Link { href: href.trim().to_string(), anchor: String::new(), node });
                    self.link_terms.push(0);
                    let index = self.tree.links.len() - 1;
                    self.count(|s| s.links += 1);
                    stack.push(Frame::EndLink(self.link.replace(index)));
                }
                if self.weighty_tags.contains(tag) {
                    let node = self.current();
                    let start = self.tree.nodes[node].items.len();
                    self.tree.nodes[node].weighty.push(WeightyTag {
                        tag: tag.to_string(),
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

    fn open_container(&mut self, tag: &str, hint: String, article_body: bool) {
        let parent = self.current();
        let id = self.tree.nodes.len();
        self.tree.nodes.push(Node {
            tag: tag.to_string(),
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
            margin: false,
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
        // Merge with the previous text item of the same link, so items stay few.
        match node.items.last_mut() {
            Some(Item::Text { text: previous, link: l }) if *l == link => {
                if !(previous.ends_with(' ') && text.starts_with(' ')) {
                    previous.push_str(&text);
                } else {
                    previous.push_str(&text[1..]);
                }
            }
            _ => {
                if text == " " && !matches!(node.items.last(), Some(Item::Text { .. })) {
                    return;
                }
                node.items.push(Item::Text { text: text.clone(), link });
            }
        }
        let mut count = 0usize;
        for_each_token(&text, |token| {
            node.terms.push(&token.text);
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
            if w.tag.starts_with('h') && w.text.len() < 1024 {
                w.text.push_str(&text);
            }
            w.terms += count;
            if link.is_some() {
                w.anchor_terms += count;
            }
        }
    }

    fn push_image(&mut self, src: String, alt: String, width: Option<u32>, height: Option<u32>) {
        let node = self.current();
        self.tree.images.push(Image { src, alt: collapse_whitespace(&alt), node, link: self.link, width, height });
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
        let n = tree.nodes.len();
        // Navigation is never the headline's place; a <header> outside an article may be:
        // the article's own header (headline, byline) in a layout without <article>.
        let mut in_navigation = vec![false; n];
        for id in 1..n {
            let tagged = matches!(tree.nodes[id].tag.as_str(), "nav" | "aside" | "menu");
            in_navigation[id] = tagged || tree.nodes[id].parent.is_some_and(|p| in_navigation[p]);
        }
        tree.title_heading = find_title_heading(tree, |id| !in_navigation[id]);
        let mut protected = vec![false; n];
        for id in
            tree.title_heading.map(|h| h.node).into_iter().flat_map(|h| std::iter::once(h).chain(tree.ancestors(h)))
        {
            protected[id] = true;
        }
        // Margin by tag: navigation, and the page's <header> and <footer> (not an article's,
        // nor the one holding the headline).
        let mut in_article = vec![false; n];
        let mut by_tag = vec![false; n];
        for id in 1..n {
            let parent = tree.nodes[id].parent;
            in_article[id] =
                parent.is_some_and(|p| in_article[p] || matches!(tree.nodes[p].tag.as_str(), "article" | "main"));
            let page_frame =
                matches!(tree.nodes[id].tag.as_str(), "header" | "footer") && !in_article[id] && !protected[id];
            by_tag[id] = in_navigation[id] || page_frame || parent.is_some_and(|p| by_tag[p]);
        }
        // Top-down: the margin flag (outside the central area, §4.1). Tags are strong
        // evidence; class words are weak: a hint never marks a block holding most of the
        // page's running text, its terms outside links (`<div class="page has-sidebar">`; with
        // link text counted, a footer of link lists outweighs the column), unless it names
        // comments (readers' comments often outweigh the post), nor the headline and its
        // ancestors.
        let page_text = tree.nodes[TagTree::ROOT].subtree.text_terms().max(1);
        for id in 1..n {
            let node = &tree.nodes[id];
            let parent_margin = node.parent.is_some_and(|p| tree.nodes[p].margin);
            let by_hint = !protected[id]
                && has_margin_hint(&node.hint)
                && (node.subtree.text_terms() * 2 < page_text || has_comment_hint(&node.hint));
            tree.nodes[id].margin = parent_margin || by_tag[id] || by_hint;
        }
        self.tree
    }
}

/// Separators between a title's headline and its site name ("Headline | Site").
const TITLE_SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", " :: ", " » ", " · ", "｜", "_"];

/// The heading (h1–h3, in a node `eligible` allows) that best matches the page title: at
/// least two terms, and at least 80% of them in the title. Titles read "Headline | Site", and
/// the site's name is often a heading too, so headings are matched against the title without
/// its last segment first, and against the whole title only if none matches that. Among
/// headings matching alike, the one matching more of the title wins ("Site: Headline"
/// titles), then the higher level.
fn find_title_heading(tree: &TagTree, eligible: impl Fn(NodeId) -> bool) -> Option<TitleHeading> {
    let full: HashSet<String> = crate::text::terms(&tree.title).into_iter().collect();
    if full.is_empty() {
        return None;
    }
    let cut = TITLE_SEPARATORS.iter().filter_map(|sep| tree.title.rfind(sep)).max();
    let headline: Option<HashSet<String>> = cut
        .map(|i| crate::text::terms(&tree.title[..i]).into_iter().collect())
        .filter(|t: &HashSet<String>| !t.is_empty());
    // (container, index among its weighty tags), terms, level.
    type Heading = ((NodeId, usize), Vec<String>, u8);
    let headings: Vec<Heading> = tree
        .nodes
        .iter()
        .enumerate()
        .filter(|(id, _)| eligible(*id))
        .flat_map(|(id, node)| {
            node.weighty
                .iter()
                .enumerate()
                .filter(|(_, w)| matches!(w.tag.as_str(), "h1" | "h2" | "h3"))
                .map(move |(tag, w)| ((id, tag), crate::text::terms(&w.text), w.tag.as_bytes()[1]))
        })
        .filter(|(_, terms, _)| terms.len() >= 2)
        .collect();
    let best_against = |title: &HashSet<String>| {
        let mut best: Option<((NodeId, usize), f64, usize, u8)> = None;
        for (at, terms, level) in &headings {
            let matched = terms.iter().filter(|t| title.contains(*t)).count();
            let overlap = matched as f64 / terms.len() as f64;
            let better = best.is_none_or(|(_, o, m, l)| {
                overlap > o + 1e-9 || (overlap >= o - 1e-9 && (matched > m || (matched == m && *level < l)))
            });
            if overlap >= 0.8 && better {
                best = Some((*at, overlap, matched, *level));
            }
        }
        best.map(|(at, _, _, _)| at)
    };
    headline
        .as_ref()
        .and_then(&best_against)
        .or_else(|| best_against(&full))
        .map(|(node, tag)| TitleHeading { node, tag })
}

/// The value of the attribute `key` among `attrs`. The pre-pass drops every attribute it
/// does not list as read: one read here must be listed there.
fn attribute(attrs: &[html5ever::Attribute], key: &str) -> Option<String> {
    debug_assert!(super::prepass::KEPT_ATTRIBUTES.contains(&key), "the pre-pass drops attribute {key}");
    attrs.iter().find(|a| &*a.name.local == key).map(|a| a.value.to_string())
}

fn push_children(dom: &Dom, id: DomId, stack: &mut Vec<Frame>) {
    stack.extend(dom.children_reversed(id).map(Frame::Enter));
}

fn is_hidden(hidden: &Option<String>, style: &Option<String>) -> bool {
    if hidden.is_some() {
        return true;
    }
    style.as_deref().is_some_and(|s| {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        s.contains("display:none") || s.contains("visibility:hidden")
    })
}

fn has_comment_hint(hint: &str) -> bool {
    hint_words(hint).any(|word| matches!(word, "comment" | "comments"))
}

fn has_margin_hint(hint: &str) -> bool {
    hint_words(hint).any(|word| MARGIN_HINTS.contains(&word))
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
    fn margin_blocks_by_tag_and_hint() {
        let t = tree(
            "<body><header><a href=/>Logo</a></header><article><header><h1>Title</h1></header><p>Text of the article body.</p></article>\
             <div class='widget popular'><a href=/x>x</a></div><footer>(c) 2024</footer></body>",
        );
        let margin: Vec<(&str, bool)> = t.nodes[1..].iter().map(|n| (n.tag.as_str(), n.margin)).collect();
        assert_eq!(
            margin,
            [
                ("body", false),
                ("header", true),
                ("article", false),
                ("header", false),
                ("p", false),
                ("div", true),
                ("footer", true)
            ]
        );
    }

    #[test]
    fn a_layout_class_does_not_hide_the_article_holding_the_headline() {
        let t = tree(
            "<title>Tern colonies grow | Birds</title><body><div class='l-sidebar-fixed l-article'><h1>Tern colonies grow</h1><p>Text about terns.</p></div>\
             <div class=sidebar><a href=/>Other</a></div><p>More page text to make the page larger than the article alone.</p></body>",
        );
        let article = find(&t, "l-sidebar-fixed l-article");
        assert!(!t.nodes[article].margin);
        assert!(t.nodes[find(&t, "sidebar")].margin);
    }

    #[test]
    fn a_layout_class_does_not_hide_the_column_holding_most_running_text() {
        // No headline to protect it: the main column's class names the layout's sidebar, and
        // the footer's link lists make the column less than half of the page's terms, but it
        // holds most of the page's text outside links.
        let links: String = (0..12).map(|i| format!("<li><a href=/f{i}>Footer link {i}</a></li>")).collect();
        let t = tree(&format!(
            "<body><section class='col-sm-9 sidebar-first-only'><p>Earn two certifications by mastering \
             the digital marketing skills that employers want, in a course you take at your own pace.</p></section>\
             <footer><ul>{links}</ul></footer></body>"
        ));
        let column = find(&t, "col-sm-9 sidebar-first-only");
        assert!(t.nodes[column].subtree.terms * 2 < t.nodes[TagTree::ROOT].subtree.terms);
        assert!(!t.nodes[column].margin);
    }

    #[test]
    fn a_comment_section_is_margin_however_long() {
        // Readers' comments outweigh a short post; a class word marks them all the same.
        let comment = "<dd><p>I disagree with most of this post, and here is the long reason why I think so.</p></dd>";
        let t = tree(&format!(
            "<title>Notes on winter pruning | Blog</title><body><div class=post><h1>Notes on winter pruning</h1>\
             <p>Pruning fruit trees in a deep frost is rarely wise, and often not needed at all.</p></div>\
             <dl class=comment_list>{}</dl></body>",
            comment.repeat(10)
        ));
        assert!(t.nodes[find(&t, "comment_list")].margin);
        assert!(!t.nodes[find(&t, "post")].margin);
    }

    #[test]
    fn the_headline_is_the_matching_heading_with_the_items_it_spans() {
        let t = tree(
            "<title>Rivers run dry | News</title><body><div class=story><h2>Latest news today</h2><b>Live</b> \
            <h1>Rivers <i>run</i> dry</h1>Updated at noon<p>The river has not been this low in a century.</p></div></body>",
        );
        let (node, tag) = t.headline().expect("the h1 matches the title");
        assert_eq!((node, tag.tag.as_str()), (find(&t, "story"), "h1"));
        let texts: Vec<&str> = t.nodes[node].items[tag.items.clone()]
            .iter()
            .filter_map(|item| match item {
                Item::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(texts.concat(), "Rivers run dry");
    }

    #[test]
    fn a_headline_in_a_header_outside_any_article_is_the_title_heading() {
        // No <article>: the story's own <header> holds its headline, inside a content block
        // whose class names the sidebar layout; the site's <header> holds the navigation.
        let t = tree(
            "<title>Sixth fatality linked to the virus – CBS</title><body>\
             <header class=page-header><nav><a href=/>News</a> <a href=/s>Sport</a></nav></header>\
             <div class='page-content and-w-sidebar'><header><div class=title-wrapper><h1>Sixth fatality linked to the \
             virus</h1></div></header><div class=story><p>Health authorities report a sixth death.</p></div></div></body>",
        );
        let heading = t.title_heading.expect("the headline in the story's header").node;
        assert_eq!(t.nodes[heading].hint, "title-wrapper");
        assert!(!t.nodes[find(&t, "page-content and-w-sidebar")].margin);
        assert!(!t.nodes[find(&t, "story")].margin && !t.nodes[heading].margin);
        assert!(t.nodes[find(&t, "page-header")].margin);
    }

    #[test]
    fn the_headline_beats_the_site_name_when_both_match_the_title() {
        // "Site: Headline" has no separator the title is cut at; both headings match all
        // their terms. The one matching more of the title is the headline, h1 or not.
        let t = tree(
            "<title>Night Sky Notes: Comet visible after sunset</title><body>\
             <div class=banner><h1><a href=/>Night Sky Notes</a></h1></div>\
             <div class=entry><h3>Comet visible after sunset</h3><p>Look low in the west.</p></div></body>",
        );
        assert_eq!(t.title_heading.map(|h| h.node), Some(find(&t, "entry")));
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

    #[test]
    fn the_heading_matching_the_title_is_found() {
        let t = tree(
            "<head><title>Sodium cells reach 160 Wh/kg | TechWire</title></head><body><div id=top><h2>Latest news</h2></div>\
             <div id=story><h1>Sodium cells reach 160 Wh/kg</h1><p>Text.</p></div></body>",
        );
        assert_eq!(t.title_heading.map(|h| h.node), Some(find(&t, "story")));
        assert_eq!(tree("<title>Home</title><h1>Welcome to our shop</h1>").title_heading, None);
        // The site's name as a heading does not pass for the headline.
        let t = tree(
            "<title>Symmetric list processor | Global Trend Analysis</title><div id=head><h1>Global Trend Analysis</h1></div>\
             <div id=post><h3>Symmetric list processor</h3><p>Text.</p></div>",
        );
        assert_eq!(t.title_heading.map(|h| h.node), Some(find(&t, "post")));
    }

    #[test]
    fn linked_thumbnails_are_not_content_images() {
        let t = tree(
            "<body><img src=a.jpg><a href=/post><img src=t.jpg></a><a href=big.jpg><img src=s.jpg></a>\
             <a href='/photos/big.PNG?size=2'><img src=p.jpg></a></body>",
        );
        let content: Vec<bool> = t.images.iter().map(|i| i.is_content(&t.links)).collect();
        // A thumbnail linking to a post is not; one linking to its full-size picture is.
        assert_eq!(content, [true, false, true, true]);
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
