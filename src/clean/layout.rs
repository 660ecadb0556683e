//! The cleaner's reading of a page's layout: which blocks lie outside the central area
//! (§4.1: headers, footers, navigation, sidebars, and readers' comments), which heading is
//! the article's headline (the title heading), and which images are content.
//!
//! The tag tree describes a page (tags, classes and ids, counts, in document order); these
//! are judgements on it, made here so that a change in cleaning never touches the parser
//! stage. Node ids are the tree's: a [`Layout`] read from a tree holds for every tree with its
//! structure ([`TagTree::with_teasers_as_text`]), and the site evidence marks more margins on
//! a copy of it ([`Layout::with_template`]). The word lists and bounds are in `[layout]`.

use std::collections::HashSet;

use crate::config::LayoutConfig;
use crate::tagtree::{NodeId, TagTree, WeightyTag, hint_words};

/// Where the title heading is: its container, and its index among the container's weighty
/// tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TitleHeading {
    pub node: NodeId,
    pub tag: usize,
}

/// The layout of one page as the cleaner reads it (see the module's documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// `margin[id]`: node `id` is outside the central area of the page (§4.1).
    margin: Vec<bool>,
    /// The heading (h1–h3) that matches the page `<title>`: the article's headline.
    title_heading: Option<TitleHeading>,
    /// Content images per node, by node id (see [`Layout::content_images`]).
    content_images: Vec<usize>,
}

impl Layout {
    /// Reads the layout of `tree`.
    ///
    /// The title heading first: navigation is never the headline's place, and a `<header>`
    /// outside an article may be (the article's own header, headline and byline, in a layout
    /// without `<article>`). Then the margins, top-down: navigation, and the page's `<header>`
    /// and `<footer>` (not an article's, nor the one holding the headline) by their tags, the
    /// blocks below them, and blocks whose id or class holds a margin word. Tags are strong
    /// evidence; class words are weak: a margin word never marks a block holding most of the
    /// page's running text (`margin_word_max_text_share`, terms outside links: with link text
    /// counted, a footer of link lists outweighs the column), unless it names comments
    /// (readers' comments often outweigh the post) and a post stands outside it
    /// (`comment_min_post_terms`: on a forum's thread page the "comments" are the posts), nor
    /// the headline and its ancestors.
    pub fn of(tree: &TagTree, config: &LayoutConfig) -> Layout {
        let n = tree.nodes.len();
        let mut in_navigation = vec![false; n];
        for id in 1..n {
            let tagged = matches!(tree.nodes[id].tag.as_str(), "nav" | "aside" | "menu");
            in_navigation[id] = tagged || tree.nodes[id].parent.is_some_and(|p| in_navigation[p]);
        }
        let title_heading = find_title_heading(tree, |id| !in_navigation[id], config);
        let mut protected = vec![false; n];
        for id in title_heading.map(|h| h.node).into_iter().flat_map(|h| std::iter::once(h).chain(tree.ancestors(h))) {
            protected[id] = true;
        }
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
        let page_text = tree.nodes[TagTree::ROOT].subtree.text_terms().max(1) as f64;
        let has_word = |hint: &str, words: &[String]| hint_words(hint).any(|word| words.iter().any(|w| w == word));
        // A thread page: the central area (as the tags draw it) holds almost no running text
        // outside the blocks named for comments, so there is no post for them to follow and
        // the "comments" are the page's content (forum software names its posts so).
        let mut in_comments = vec![false; n];
        let mut text_outside_comments = 0;
        for id in 1..n {
            let node = &tree.nodes[id];
            in_comments[id] =
                has_word(&node.hint, &config.comment_words) || node.parent.is_some_and(|p| in_comments[p]);
            if !by_tag[id] && !in_comments[id] {
                text_outside_comments += node.own.text_terms();
            }
        }
        let thread = text_outside_comments < config.comment_min_post_terms;
        let margin_word = |word: &str| {
            config.margin_words.iter().any(|w| w == word) && !(thread && config.comment_words.iter().any(|w| w == word))
        };
        let mut margin = vec![false; n];
        for id in 1..n {
            let node = &tree.nodes[id];
            let parent_margin = node.parent.is_some_and(|p| margin[p]);
            let by_hint = !protected[id]
                && hint_words(&node.hint).any(margin_word)
                && ((node.subtree.text_terms() as f64) < config.margin_word_max_text_share * page_text
                    || (!thread && has_word(&node.hint, &config.comment_words)));
            margin[id] = parent_margin || by_tag[id] || by_hint;
        }
        let mut content_images = vec![0usize; n];
        for image in tree.images.iter().filter(|image| is_content_image(tree, image, config)) {
            content_images[image.node] += 1;
        }
        Layout { margin, title_heading, content_images }
    }

    /// Whether node `id` is outside the central area of the page (§4.1).
    pub fn is_margin(&self, id: NodeId) -> bool {
        self.margin[id]
    }

    /// The heading (h1–h3) that matches the page `<title>`, if any: the article's headline.
    pub fn title_heading(&self) -> Option<TitleHeading> {
        self.title_heading
    }

    /// The headline: the title heading's container and the heading itself.
    pub fn headline<'t>(&self, tree: &'t TagTree) -> Option<(NodeId, &'t WeightyTag)> {
        self.title_heading.map(|h| (h.node, &tree.nodes[h.node].weighty[h.tag]))
    }

    /// Content images per node, by node id: images not inside a link, or linked to their
    /// full-size file (`full_size_image_extensions`). A linked thumbnail leads to another page.
    pub fn content_images(&self) -> &[usize] {
        &self.content_images
    }

    /// The same layout with the blocks `template` marks (by node id) as margin, and no title
    /// heading if the template holds it: the site's template is noise (`site_template`).
    pub fn with_template(&self, template: &[bool]) -> Layout {
        let mut layout = self.clone();
        for id in super::site_template::marked_ids(template) {
            layout.margin[id] = true;
        }
        if layout.title_heading.is_some_and(|h| template[h.node]) {
            layout.title_heading = None;
        }
        layout
    }

    /// The tag tree's outline ([`TagTree::outline_with`]) with the margin flag: what the
    /// golden fixtures and `indexer inspect --tree` show.
    pub fn outline(&self, tree: &TagTree) -> String {
        tree.outline_with(|id| if self.margin[id] { " margin" } else { "" })
    }
}

/// Whether `image` is content: not inside a link, unless the link leads to an image file
/// (galleries link their pictures to the full-size versions).
fn is_content_image(tree: &TagTree, image: &crate::tagtree::Image, config: &LayoutConfig) -> bool {
    let linked_elsewhere = image.link.is_some_and(|l| {
        let href = tree.links[l].href.to_ascii_lowercase();
        let path = href.split(['?', '#']).next().unwrap_or("");
        !config.full_size_image_extensions.iter().any(|ext| path.ends_with(ext.as_str()))
    });
    !linked_elsewhere
}

/// The heading (h1–h3, in a node `eligible` allows) that best matches the page title: at
/// least `title_heading_min_terms` terms, and at least `title_heading_min_overlap` of them
/// in the title. Titles read "Headline | Site", and the site's name is often a heading too,
/// so headings are matched against the title without its last segment first, and against
/// the whole title only if none matches that. Among headings matching alike, the one
/// matching more of the title wins ("Site: Headline" titles), then the higher level.
fn find_title_heading(
    tree: &TagTree,
    eligible: impl Fn(NodeId) -> bool,
    config: &LayoutConfig,
) -> Option<TitleHeading> {
    let full: HashSet<String> = crate::text::terms(&tree.title).into_iter().collect();
    if full.is_empty() {
        return None;
    }
    let cut = config.title_separators.iter().filter_map(|sep| tree.title.rfind(sep.as_str())).max();
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
        .filter(|(_, terms, _)| terms.len() >= config.title_heading_min_terms)
        .collect();
    let best_against = |title: &HashSet<String>| {
        let mut best: Option<((NodeId, usize), f64, usize, u8)> = None;
        for (at, terms, level) in &headings {
            let matched = terms.iter().filter(|t| title.contains(*t)).count();
            let overlap = matched as f64 / terms.len() as f64;
            let better = best.is_none_or(|(_, o, m, l)| {
                overlap > o + 1e-9 || (overlap >= o - 1e-9 && (matched > m || (matched == m && *level < l)))
            });
            if overlap >= config.title_heading_min_overlap && better {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::tagtree::Item;

    fn read(html: &str) -> (TagTree, Layout) {
        let tree = TagTree::with_default_config(html);
        let layout = Layout::of(&tree, &Config::default().layout);
        (tree, layout)
    }

    fn find(tree: &TagTree, hint: &str) -> NodeId {
        tree.node_with_hint(hint).unwrap()
    }

    #[test]
    fn margin_blocks_by_tag_and_hint() {
        let (t, layout) = read(
            "<body><header><a href=/>Logo</a></header><article><header><h1>Title</h1></header><p>Text of the article body.</p></article>\
             <div class='widget popular'><a href=/x>x</a></div><footer>(c) 2024</footer></body>",
        );
        let margin: Vec<(&str, bool)> =
            t.nodes.iter().enumerate().skip(1).map(|(id, n)| (n.tag.as_str(), layout.is_margin(id))).collect();
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
        let (t, layout) = read(
            "<title>Tern colonies grow | Birds</title><body><div class='l-sidebar-fixed l-article'><h1>Tern colonies grow</h1><p>Text about terns.</p></div>\
             <div class=sidebar><a href=/>Other</a></div><p>More page text to make the page larger than the article alone.</p></body>",
        );
        let article = find(&t, "l-sidebar-fixed l-article");
        assert!(!layout.is_margin(article));
        assert!(layout.is_margin(find(&t, "sidebar")));
    }

    #[test]
    fn a_layout_class_does_not_hide_the_column_holding_most_running_text() {
        // No headline to protect it: the main column's class names the layout's sidebar, and
        // the footer's link lists make the column less than half of the page's terms, but it
        // holds most of the page's text outside links.
        let links: String = (0..12).map(|i| format!("<li><a href=/f{i}>Footer link {i}</a></li>")).collect();
        let (t, layout) = read(&format!(
            "<body><section class='col-sm-9 sidebar-first-only'><p>Earn two certifications by mastering \
             the digital marketing skills that employers want, in a course you take at your own pace.</p></section>\
             <footer><ul>{links}</ul></footer></body>"
        ));
        let column = find(&t, "col-sm-9 sidebar-first-only");
        assert!(t.nodes[column].subtree.terms * 2 < t.nodes[TagTree::ROOT].subtree.terms);
        assert!(!layout.is_margin(column));
    }

    #[test]
    fn a_comment_section_is_margin_however_long() {
        // Readers' comments outweigh a short post; a class word marks them all the same.
        let comment = "<dd><p>I disagree with most of this post, and here is the long reason why I think so.</p></dd>";
        let (t, layout) = read(&format!(
            "<title>Notes on winter pruning | Blog</title><body><div class=post><h1>Notes on winter pruning</h1>\
             <p>Pruning fruit trees in a deep frost is rarely wise, and often not needed at all. Wait for a \
             dry day in late winter, cut the crossing branches first, and leave the young shoots that will \
             carry this year's fruit alone.</p></div>\
             <dl class=comment_list>{}</dl></body>",
            comment.repeat(10)
        ));
        assert!(layout.is_margin(find(&t, "comment_list")));
        assert!(!layout.is_margin(find(&t, "post")));
    }

    #[test]
    fn on_a_thread_page_the_comments_are_the_content() {
        // Forum software puts every post of a thread, the first one too, in blocks named for
        // comments: with no post outside them, they are what the page is about.
        let post = |n: usize| {
            format!(
                "<article class='comment-{n} post'><div class=author>member{n}</div><div class=comment_body><p>\
                 Reply number {n}: I changed the fan curve and the temperatures dropped by ten degrees under \
                 load, which is what I was hoping for.</p></div></article>"
            )
        };
        let posts: String = (1..=6).map(post).collect();
        let (t, layout) = read(&format!(
            "<title>Fan curve advice | Forum</title><body><nav><a href=/>Forum</a> <a href=/hw>Hardware</a></nav>\
             <main><h1>Fan curve advice</h1><div class='comments topic-feed'>{posts}</div></main></body>"
        ));
        assert!(!layout.is_margin(find(&t, "comments topic-feed")));
        assert!(!layout.is_margin(find(&t, "comment_body")));
        assert!(layout.is_margin(t.nodes.iter().position(|n| n.tag == "nav").unwrap()));
    }

    #[test]
    fn the_headline_is_the_matching_heading_with_the_items_it_spans() {
        let (t, layout) = read(
            "<title>Rivers run dry | News</title><body><div class=story><h2>Latest news today</h2><b>Live</b> \
            <h1>Rivers <i>run</i> dry</h1>Updated at noon<p>The river has not been this low in a century.</p></div></body>",
        );
        let (node, tag) = layout.headline(&t).expect("the h1 matches the title");
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
        let (t, layout) = read(
            "<title>Sixth fatality linked to the virus – CBS</title><body>\
             <header class=page-header><nav><a href=/>News</a> <a href=/s>Sport</a></nav></header>\
             <div class='page-content and-w-sidebar'><header><div class=title-wrapper><h1>Sixth fatality linked to the \
             virus</h1></div></header><div class=story><p>Health authorities report a sixth death.</p></div></div></body>",
        );
        let heading = layout.title_heading().expect("the headline in the story's header").node;
        assert_eq!(t.nodes[heading].hint, "title-wrapper");
        assert!(!layout.is_margin(find(&t, "page-content and-w-sidebar")));
        assert!(!layout.is_margin(find(&t, "story")) && !layout.is_margin(heading));
        assert!(layout.is_margin(find(&t, "page-header")));
    }

    #[test]
    fn the_headline_beats_the_site_name_when_both_match_the_title() {
        // "Site: Headline" has no separator the title is cut at; both headings match all
        // their terms. The one matching more of the title is the headline, h1 or not.
        let (t, layout) = read(
            "<title>Night Sky Notes: Comet visible after sunset</title><body>\
             <div class=banner><h1><a href=/>Night Sky Notes</a></h1></div>\
             <div class=entry><h3>Comet visible after sunset</h3><p>Look low in the west.</p></div></body>",
        );
        assert_eq!(layout.title_heading().map(|h| h.node), Some(find(&t, "entry")));
    }

    #[test]
    fn the_heading_matching_the_title_is_found() {
        let (t, layout) = read(
            "<head><title>Sodium cells reach 160 Wh/kg | TechWire</title></head><body><div id=top><h2>Latest news</h2></div>\
             <div id=story><h1>Sodium cells reach 160 Wh/kg</h1><p>Text.</p></div></body>",
        );
        assert_eq!(layout.title_heading().map(|h| h.node), Some(find(&t, "story")));
        assert_eq!(read("<title>Home</title><h1>Welcome to our shop</h1>").1.title_heading(), None);
        // The site's name as a heading does not pass for the headline.
        let (t, layout) = read(
            "<title>Symmetric list processor | Global Trend Analysis</title><div id=head><h1>Global Trend Analysis</h1></div>\
             <div id=post><h3>Symmetric list processor</h3><p>Text.</p></div>",
        );
        assert_eq!(layout.title_heading().map(|h| h.node), Some(find(&t, "post")));
    }

    #[test]
    fn linked_thumbnails_are_not_content_images() {
        let (t, layout) = read(
            "<body><img src=a.jpg><a href=/post><img src=t.jpg></a><a href=big.jpg><img src=s.jpg></a>\
             <a href='/photos/big.PNG?size=2'><img src=p.jpg></a></body>",
        );
        let content: Vec<bool> = t.images.iter().map(|i| is_content_image(&t, i, &Config::default().layout)).collect();
        // A thumbnail linking to a post is not; one linking to its full-size picture is.
        assert_eq!(content, [true, false, true, true]);
        let body = t.images[0].node;
        assert_eq!(layout.content_images()[body], 3);
    }
}
