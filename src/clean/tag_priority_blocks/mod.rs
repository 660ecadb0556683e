//! The `pab` cleaner: HTML tag priority assignment (Kabir, Kabir & Amin, "Isolating
//! Informative Blocks from Large Web Pages Using HTML Tag Priority Assignment Based Approach",
//! §3.1–3.2).
//!
//! The paper's three steps, as implemented here:
//! 1. Block extraction (§3.1.1, Algorithm 3.2.1 step 2a): the contents of `<script>`,
//!    `<style>`, `<iframe>`, `<object>` and `<form>` are removed (the tag tree drops the first
//!    four; `pab.irrelevant_containers` drops forms). Then, scanning from `<body>`, the next
//!    block tag `<T>` opens a block that runs to `</T>`; the tags met on the way are its inner
//!    tags.
//! 2. Block priority (§3.1.2, Eq. 1): the sum of the priorities (Table 3.1, `pab.priorities`)
//!    of all the tags of the block, the opening one included (Table 3.2: a `<p>` with two `<b>`
//!    is 0.1 + 0.4 + 0.4). A block whose links are more than 50 % outer links, links to
//!    another website, gets priority 0.0 (Algorithm 3.2.2 step 3).
//! 3. Isolation (§3.1.3, Algorithm 3.2.2 steps 4–5): blocks of priority greater than 0.0 are
//!    informative; duplicate informative blocks are merged (the first is kept).
//!
//! Approximations, because the tag tree is not the DOM and the topic content is made of
//! whole containers:
//! - Containers whose tag is a block tag (`pab.block_containers`: Paragraph, and the
//!   "medium level" Table and List) are blocks exactly as the paper says: the top-most one
//!   with its whole sub-tree.
//! - Inline block tags (h1–h6, b, strong, a, i, img) are not nodes of the tree: the paper
//!   makes each top-most one a block of its own and leaves the text between them outside any
//!   block. Here the own content of every other container (its text, links and images, its
//!   children excluded) is one block whose tags are the inline tags it holds. Loose text next
//!   to an inline tag is therefore kept with it, and the outer-link share is taken over the
//!   container's own links together. Own content with no tag of the table has priority 0.0
//!   and is noise, as in the paper.
//! - Hyperlink means `<a href>`: an `<a>` without `href` is not a link of the tree and counts
//!   nothing. Italic is `<i>` only (Table 3.1 names no `<em>`).
//! - The title block (priority 1.0 by step 1 of Algorithm 3.2.2) is always informative, but
//!   it is not part of the tag tree: the title is a field of its own in our records.
//! - A page with no block tag at all is, as the paper says, one block; its priority is then
//!   0.0 by Eq. 1, so it has no informative block.
//! - Outer links: "hyperlinks \[that\] belong to other websites". A link is outer when its
//!   `href` is an absolute http(s) URL whose website is not the page's. A website is a host's
//!   registered domain, approximated without a public-suffix list: its last two labels, or
//!   three under a two-letter country code whose second level is generic (`bbc.co.uk`,
//!   `sina.com.cn`), so that `news.example.com` and `auto.example.com` are one website. The
//!   paper does not say what to do when the page's own address is unknown (gold sets without
//!   URLs); then the page's website is the one most of its absolute links lead to, because
//!   sites link to themselves most.

use std::collections::{HashMap, HashSet};

use crate::config::PabConfig;
use crate::tagtree::{Item, NodeId, TagTree};

/// One block of a page, with its priority.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The containers whose own content makes the block, in document order: a block
    /// container's whole sub-tree, or a single container's own content.
    pub nodes: Vec<NodeId>,
    /// Eq. (1), or 0.0 by the outer-link rule.
    pub priority: f64,
    /// Hyperlinks in the block, and how many of them lead to another website.
    pub links: usize,
    pub outer_links: usize,
}

impl Block {
    /// §3.1.3: a block with a priority above 0.0 is informative.
    pub fn is_informative(&self) -> bool {
        self.priority > 0.0
    }
}

/// The blocks of a page in document order, with their priorities (steps 1 and 2).
/// `site` is the page's host as [`crate::clean::site_of`] gives it.
pub fn page_blocks(tree: &TagTree, site: &str, config: &PabConfig) -> Vec<Block> {
    let n = tree.nodes.len();
    let removed = removed_nodes(tree, config);
    let priority = |tag: &str| config.priorities.get(tag).copied().unwrap_or(0.0);

    // Each container's own tags: itself, its inline (weighty) tags, links and images with
    // alternative text.
    let mut own_priority: Vec<f64> = tree
        .nodes
        .iter()
        .map(|node| priority(&node.tag) + node.weighty.iter().map(|w| priority(&w.tag)).sum::<f64>())
        .collect();
    let mut own_links = vec![0usize; n];
    let mut own_outer = vec![0usize; n];
    let website = website_of(tree, site);
    for link in &tree.links {
        if let Some(slot) = own_priority.get_mut(link.node) {
            *slot += priority("a");
            own_links[link.node] += 1;
            if is_outer(&link.href, website.as_deref()) {
                own_outer[link.node] += 1;
            }
        }
    }
    for image in tree.images.iter().filter(|i| !i.alt.trim().is_empty()) {
        if let Some(slot) = own_priority.get_mut(image.node) {
            *slot += priority("img");
        }
    }

    let mut blocks: Vec<Block> = Vec::new();
    let mut block_of: Vec<Option<usize>> = vec![None; n];
    for id in 0..n {
        if removed[id] {
            continue;
        }
        let node = &tree.nodes[id];
        let inside = node.parent.and_then(|p| block_of[p]);
        let index = match inside {
            Some(index) => index,
            None if config.block_containers.contains(&node.tag) => {
                blocks.push(Block { nodes: Vec::new(), priority: 0.0, links: 0, outer_links: 0 });
                blocks.len() - 1
            }
            None if has_own_content(tree, id) => {
                blocks.push(Block { nodes: Vec::new(), priority: 0.0, links: 0, outer_links: 0 });
                let index = blocks.len() - 1;
                let block = &mut blocks[index];
                block.nodes.push(id);
                block.priority = own_priority[id];
                block.links = own_links[id];
                block.outer_links = own_outer[id];
                continue;
            }
            None => continue,
        };
        block_of[id] = Some(index);
        if let Some(block) = blocks.get_mut(index) {
            block.nodes.push(id);
            block.priority += own_priority[id];
            block.links += own_links[id];
            block.outer_links += own_outer[id];
        }
    }
    for block in &mut blocks {
        if block.links > 0 && block.outer_links as f64 > config.max_outer_link_share * block.links as f64 {
            block.priority = 0.0;
        }
    }
    blocks
}

/// The informative blocks, duplicates merged (step 3): the kept nodes of the page.
pub fn informative_nodes(tree: &TagTree, site: &str, config: &PabConfig) -> Vec<NodeId> {
    let removed = removed_nodes(tree, config);
    let mut seen: HashSet<String> = HashSet::new();
    let mut nodes = Vec::new();
    for block in page_blocks(tree, site, config).into_iter().filter(Block::is_informative) {
        let text = block_text(tree, &block, &removed);
        if !text.is_empty() && !seen.insert(text) {
            continue;
        }
        nodes.extend(block.nodes);
    }
    nodes
}

/// Nodes inside an irrelevant container (forms), whose content the paper removes first.
fn removed_nodes(tree: &TagTree, config: &PabConfig) -> Vec<bool> {
    let mut removed = vec![false; tree.nodes.len()];
    for id in 0..tree.nodes.len() {
        let node = &tree.nodes[id];
        removed[id] = node.parent.is_some_and(|p| removed.get(p).copied().unwrap_or(false))
            || config.irrelevant_containers.contains(&node.tag);
    }
    removed
}

fn has_own_content(tree: &TagTree, id: NodeId) -> bool {
    tree.nodes[id].items.iter().any(|item| match item {
        Item::Text { text, .. } => !text.trim().is_empty(),
        Item::Image(_) => true,
        _ => false,
    })
}

/// A block's text with white space collapsed, to find duplicates.
fn block_text(tree: &TagTree, block: &Block, removed: &[bool]) -> String {
    let Some(&first) = block.nodes.first() else { return String::new() };
    let text = if block.nodes.len() == 1 {
        tree.nodes[first]
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        tree.render_subtree_text(first, |id| !removed.get(id).copied().unwrap_or(true))
    };
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The page's website: the one of the host in `site`, or when `site` is not a host (a local
/// file), the website most of the page's absolute links lead to (the earliest on a tie).
fn website_of(tree: &TagTree, site: &str) -> Option<String> {
    let is_host = !site.contains('/') && site.split('.').any(|label| label.chars().any(char::is_alphanumeric));
    if is_host {
        return Some(website_of_host(site));
    }
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    for (order, website) in tree.links.iter().filter_map(|l| link_website(&l.href)).enumerate() {
        let entry = counts.entry(website).or_insert((0, order));
        entry.0 += 1;
    }
    counts.into_iter().max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.1.1.cmp(&a.1.1))).map(|(website, _)| website)
}

/// The website of an absolute http(s) link (protocol-relative `//host/…` included).
fn link_website(href: &str) -> Option<String> {
    let href = href.trim();
    let parsed = if href.starts_with("//") { url::Url::parse(&format!("http:{href}")) } else { url::Url::parse(href) };
    let parsed = parsed.ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    parsed.host_str().filter(|h| !h.is_empty()).map(website_of_host)
}

/// Second-level labels under which country codes register domains (`co.uk`, `com.cn`).
const GENERIC_SECOND_LEVEL: &[&str] = &["com", "net", "org", "gov", "edu", "ac", "co", "or", "ne", "go", "mil"];

/// A host's registered domain, approximately (see the module documentation); an IP address
/// is its own website.
fn website_of_host(host: &str) -> String {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.parse::<std::net::IpAddr>().is_ok() || host.starts_with('[') {
        return host;
    }
    let labels: Vec<&str> = host.split('.').collect();
    let keep = match labels.as_slice() {
        [.., second, tld] if labels.len() >= 3 && tld.len() == 2 && GENERIC_SECOND_LEVEL.contains(second) => 3,
        _ => 2,
    };
    labels[labels.len().saturating_sub(keep)..].join(".")
}

/// Whether a link leads to another website than `website`; with no website known, no link
/// can be judged outer.
fn is_outer(href: &str, website: Option<&str>) -> bool {
    match (link_website(href), website) {
        (Some(link), Some(website)) => link != website,
        _ => false,
    }
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

    fn blocks(html: &str) -> (TagTree, Vec<Block>) {
        let t = tree(html);
        let b = page_blocks(&t, "site.example", &Config::default().pab);
        (t, b)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn priorities_add_up_as_in_table_3_2() {
        // Block-3 of Table 3.2: a paragraph with two bold tags is 0.1 + 0.4 + 0.4; Block-6, a
        // bare paragraph, is 0.1; a heading in a div is its own block of 1.0.
        let (t, b) = blocks(
            "<body><div id=head><h1>Headline</h1></div><p id=three>One <b>two</b> three <b>four</b>.</p><p id=six>Plain.</p></body>",
        );
        let priority_of = |hint: &str| b.iter().find(|bl| bl.nodes.contains(&find(&t, hint))).unwrap().priority;
        assert!(close(priority_of("head"), 1.0));
        assert!(close(priority_of("three"), 0.9));
        assert!(close(priority_of("six"), 0.1));
    }

    #[test]
    fn a_block_container_takes_its_whole_subtree_with_its_inner_tags() {
        // Block-7 of Table 3.2: a paragraph, an italic and four inner links: 0.1 + 0.2 + 4 × 0.2.
        let (t, b) = blocks(
            "<body><table id=t><tr><td id=c>Read <i>this</i> <a href=/1>a</a> <a href=/2>b</a> <a href=/3>c</a> \
             <a href='http://www.site.example/4'>d</a><p>inner</p></td></tr></table></body>",
        );
        let table = b.iter().find(|bl| bl.nodes.contains(&find(&t, "t"))).unwrap();
        assert!(table.nodes.contains(&find(&t, "c")), "the cell is inside the table's block");
        assert_eq!((table.links, table.outer_links), (4, 0), "same-site absolute links are inner");
        assert!(close(table.priority, 0.1 + 0.2 + 4.0 * 0.2), "{}", table.priority);
        assert_eq!(b.len(), 1);
    }

    #[test]
    fn mostly_outer_links_make_a_block_noise() {
        // Block-2 of Table 3.2: bold, but all its links lead elsewhere: priority 0.0.
        let (t, b) = blocks(
            "<body><div id=ads><b>Sponsors</b> <a href='https://a.example/'>A</a> <a href='https://b.example/'>B</a></div>\
             <div id=half><a href='https://a.example/'>A</a> <a href='/own'>Own</a></div></body>",
        );
        let block = |hint: &str| b.iter().find(|bl| bl.nodes.contains(&find(&t, hint))).unwrap();
        assert_eq!((block("ads").links, block("ads").outer_links), (2, 2));
        assert!(!block("ads").is_informative());
        // Exactly half outer is not "more than 50%".
        assert!(block("half").is_informative());
        assert!(close(block("half").priority, 0.4));
    }

    #[test]
    fn content_without_any_priority_tag_is_noise() {
        let (t, b) = blocks(
            "<body><div id=loose>Copyright 2024 Company</div><ul id=list><li>plain</li><li>items</li></ul>\
             <div id=img><img src=a.png alt='A cat'></div><div id=noalt><img src=b.png></div></body>",
        );
        let block = |hint: &str| b.iter().find(|bl| bl.nodes.contains(&find(&t, hint))).unwrap();
        assert!(!block("loose").is_informative());
        assert!(!block("list").is_informative(), "a list is a block, but ul and li have no priority");
        assert!(close(block("img").priority, 0.3), "an image with alternative text");
        assert!(!block("noalt").is_informative());
    }

    #[test]
    fn forms_are_removed_and_duplicates_merged() {
        let t = tree(
            "<body><form><p id=f>Search <b>here</b></p></form><p id=a>Same <b>text</b></p><div><p id=b>Same <b>text</b></p></div>\
             <p id=c>Other <i>text</i></p></body>",
        );
        let nodes = informative_nodes(&t, "site.example", &Config::default().pab);
        assert_eq!(nodes, [find(&t, "a"), find(&t, "c")]);
    }

    #[test]
    fn the_website_of_a_page_without_address_is_its_most_linked_one() {
        let t = tree(
            "<body><div id=nav><a href='https://news.example/a'>A</a> <a href='https://www.news.example/b'>B</a></div>\
             <div id=ads><a href='https://ads.example/x'>X</a></div></body>",
        );
        assert_eq!(website_of(&t, "file:///tmp/page.html").as_deref(), Some("news.example"));
        assert_eq!(website_of(&t, "sport.news.example").as_deref(), Some("news.example"));
        assert_eq!(website_of(&t, "..").as_deref(), Some("news.example"), "not a host");
        let b = page_blocks(&t, "file:///tmp/page.html", &Config::default().pab);
        let informative: Vec<bool> = b.iter().map(Block::is_informative).collect();
        assert_eq!(informative, [true, false]);
    }

    #[test]
    fn outer_links_are_absolute_links_to_other_websites() {
        let site = Some("news.example");
        assert!(!is_outer("/relative", site));
        assert!(!is_outer("https://www.news.example/x", site));
        assert!(!is_outer("//cdn.news.example/x", site));
        assert!(!is_outer("mailto:someone@elsewhere.example", site));
        assert!(is_outer("https://elsewhere.example/x", site));
        assert!(is_outer("//elsewhere.example/x", site));
        assert!(!is_outer("https://elsewhere.example/x", None));
        assert!(is_outer("https://fakenews.example/", site), "a suffix that is not a sub-domain");
        assert!(!is_outer("https://auto.news.example/", site), "sibling sub-domains are one website");
        assert!(is_outer("https://sina.com.cn/", Some("sohu.com.cn")));
        assert!(!is_outer("https://news.bbc.co.uk/", Some("bbc.co.uk")));
        assert!(is_outer("https://news.bbc.co.uk/", Some("itv.co.uk")));
        assert!(is_outer("http://10.0.0.1/", Some("news.example")));
    }

    #[test]
    fn a_page_without_block_tags_is_one_block_of_priority_zero() {
        let (_, b) = blocks("<body>Just some text.</body>");
        assert_eq!(b.len(), 1);
        assert!(!b[0].is_informative());
        assert!(blocks("").1.is_empty());
    }
}
