//! Rendering a tag tree, or the part of it a cleaner kept, as text, as HTML, and as an outline
//! (the golden-fixture form of the tree).

use std::fmt::Write;

use super::{Item, NodeId, TagTree};

impl TagTree {
    /// The text of the nodes for which `include` holds, one line per block or line break.
    /// Structure is walked whole, so the text of included nodes keeps document order.
    pub fn render_text(&self, include: impl Fn(NodeId) -> bool) -> String {
        self.render_subtree_text(Self::ROOT, include)
    }

    /// [`TagTree::render_text`] restricted to the subtree of `start`.
    pub fn render_subtree_text(&self, start: NodeId, include: impl Fn(NodeId) -> bool) -> String {
        self.render_lines(start, include, None)
    }

    /// [`TagTree::render_text`] without the items `items` of node `node` (a heading's line,
    /// see [`super::WeightyTag::items`]), nested containers among them included.
    pub fn render_text_without(
        &self,
        include: impl Fn(NodeId) -> bool,
        node: NodeId,
        items: std::ops::Range<usize>,
    ) -> String {
        self.render_lines(Self::ROOT, include, Some((node, items)))
    }

    fn render_lines(
        &self,
        start: NodeId,
        include: impl Fn(NodeId) -> bool,
        skip: Option<(NodeId, std::ops::Range<usize>)>,
    ) -> String {
        let skipped =
            |id: NodeId, i: usize| skip.as_ref().is_some_and(|(node, items)| *node == id && items.contains(&i));
        let mut out = String::new();
        let mut stack = vec![(start, 0usize)];
        while let Some((id, i)) = stack.pop() {
            let node = &self.nodes[id];
            let Some(item) = node.items.get(i) else {
                end_line(&mut out);
                continue;
            };
            stack.push((id, i + 1));
            if skipped(id, i) {
                continue;
            }
            match item {
                Item::Text { text, .. } if include(id) => {
                    let text = if out.is_empty() || out.ends_with('\n') { text.trim_start() } else { text };
                    out.push_str(text);
                }
                Item::Child(child) => {
                    end_line(&mut out);
                    stack.push((*child, 0));
                }
                Item::Break if include(id) => end_line(&mut out),
                _ => {}
            }
        }
        out.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
    }

    /// A purified HTML page holding the text, links and images of the nodes for which `keep`
    /// holds, inside their original container structure (§4.2, "topic content page").
    pub fn render_html(&self, title: &str, base_url: Option<&url::Url>, keep: impl Fn(NodeId) -> bool) -> String {
        // A node is written when it, or a descendant, is kept.
        let mut written = vec![false; self.nodes.len()];
        for id in (0..self.nodes.len()).rev() {
            if keep(id) {
                written[id] = true;
            }
            if written[id]
                && let Some(parent) = self.nodes[id].parent
            {
                written[parent] = true;
            }
        }
        let mut out = String::new();
        out.push_str("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
        escape_into(&mut out, title);
        out.push_str("</title></head>\n");
        if !written[Self::ROOT] {
            out.push_str("<body></body></html>\n");
            return out;
        }
        let resolve = |href: &str| -> String {
            base_url.and_then(|base| base.join(href).ok()).map_or_else(|| href.to_string(), |u| u.to_string())
        };
        let mut stack = vec![(Self::ROOT, 0usize)];
        let mut open_link: Option<usize> = None;
        while let Some((id, i)) = stack.pop() {
            let node = &self.nodes[id];
            let Some(item) = node.items.get(i) else {
                if open_link.take().is_some() {
                    out.push_str("</a>");
                }
                if id != Self::ROOT {
                    let _ = writeln!(out, "</{}>", node.tag);
                }
                continue;
            };
            stack.push((id, i + 1));
            let kept = keep(id);
            let item_link = match item {
                Item::Text { link, .. } => *link,
                Item::Image(image) => self.images[*image].link,
                _ => None,
            };
            if open_link.is_some() && (open_link != item_link || !kept) {
                out.push_str("</a>");
                open_link = None;
            }
            match item {
                Item::Text { text, .. } if kept => {
                    if let (Some(link), None) = (item_link, open_link) {
                        out.push_str("<a href=\"");
                        escape_into(&mut out, &resolve(&self.links[link].href));
                        out.push_str("\">");
                        open_link = Some(link);
                    }
                    escape_into(&mut out, text);
                }
                Item::Image(image) if kept => {
                    let image = &self.images[*image];
                    out.push_str("<img src=\"");
                    escape_into(&mut out, &resolve(&image.src));
                    out.push_str("\" alt=\"");
                    escape_into(&mut out, &image.alt);
                    out.push_str("\">");
                }
                Item::Break if kept => out.push_str("<br>"),
                Item::Child(child) if written[*child] => {
                    if open_link.take().is_some() {
                        out.push_str("</a>");
                    }
                    let _ = write!(out, "\n<{}>", self.nodes[*child].tag);
                    stack.push((*child, 0));
                }
                _ => {}
            }
        }
        if !out.contains("<body>") {
            // Pages always have a body container; this keeps the output a page if not.
            out.push_str("<body></body>");
        }
        out.push_str("</html>\n");
        out
    }

    /// One line per container: tag, id/class, types, counts and weighty tags.
    pub fn outline(&self) -> String {
        self.outline_with(|_| "")
    }

    /// The [`TagTree::outline`] with `note(id)` at the end of each node's line: what a later
    /// stage read in it (the cleaner's margins, for the golden fixtures and `indexer inspect`).
    pub fn outline_with<'n>(&self, note: impl Fn(NodeId) -> &'n str) -> String {
        let mut out = String::new();
        let mut stack = vec![(Self::ROOT, 0usize)];
        while let Some((id, depth)) = stack.pop() {
            let node = &self.nodes[id];
            let _ = write!(out, "{}{}", "  ".repeat(depth), node.tag);
            if !node.hint.is_empty() {
                let _ = write!(out, " \"{}\"", node.hint);
            }
            let _ = write!(
                out,
                " [{}/{}] terms={}/{} anchor={}/{} links={} images={}",
                node.own_type.as_str(),
                node.block_type.as_str(),
                node.own.terms,
                node.subtree.terms,
                node.own.anchor_terms,
                node.subtree.anchor_terms,
                node.subtree.links,
                node.subtree.images,
            );
            if !node.weighty.is_empty() {
                let tags: Vec<&str> = node.weighty.iter().map(|w| w.tag.as_str()).collect();
                let _ = write!(out, " weighty={}", tags.join(","));
            }
            out.push_str(note(id));
            out.push('\n');
            stack.extend(node.children.iter().rev().map(|&c| (c, depth + 1)));
        }
        out
    }
}

fn end_line(out: &mut String) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}

/// Escapes text for HTML element content and double-quoted attributes.
pub(crate) fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::tagtree::build_tag_tree;

    fn tree(html: &str) -> crate::tagtree::TagTree {
        let config = Config::default();
        let weighty = config.block_weight.forces.keys().cloned().collect();
        build_tag_tree(html, &config.tag_tree, &weighty)
    }

    #[test]
    fn text_keeps_blocks_on_their_own_lines() {
        let t = tree("<body><div>One <b>two</b><br>three<p>four</p>five</div><h2>Six</h2>seven</body>");
        assert_eq!(t.visible_text(), "One two\nthree\nfour\nfive\nSix\nseven");
    }

    #[test]
    fn html_keeps_only_the_chosen_nodes_in_their_structure() {
        let t = tree(
            "<body><div id=nav><a href='/x'>Nav</a></div><div id=main><p>Keep <a href='/y'>this & that</a></p><img src=a.png alt='A \"cat\"'></div></body>",
        );
        let main = t.node_with_hint("main").unwrap();
        let base = url::Url::parse("https://s.example/dir/page.html").unwrap();
        let html = t.render_html("T<1>", Some(&base), |id| t.contains(main, id));
        assert!(html.contains("<title>T&lt;1&gt;</title>"));
        assert!(html.contains("<a href=\"https://s.example/y\">this &amp; that</a>"), "{html}");
        assert!(html.contains("<img src=\"https://s.example/dir/a.png\" alt=\"A &quot;cat&quot;\">"));
        assert!(!html.contains("Nav"));
        assert!(html.contains("<body>") && html.trim_end().ends_with("</html>"));
    }
}
