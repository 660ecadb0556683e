//! The parts of a page React streams after its first bytes, put where the page shows them.
//!
//! React's streamed server rendering (React 18 and later; Next.js's app router, Remix and
//! others render so) sends what was not ready when the page's first bytes left as hidden
//! segments at the end of the body, `<div hidden id="S:n">…</div>`, each followed by a script
//! that moves the segment's content to the place held for it and removes the segment: the
//! `<template id="B:n">` that opens a Suspense boundary, whose fallback (up to the boundary's
//! closing `<!--/$-->` comment) the content replaces (`$RC`), or a `<template id="P:n">`
//! placeholder (`$RS`). The tag tree is built with scripting off, so nothing moves them and
//! `hidden` hides them: a page whose article is streamed had no article in its tag tree. This
//! does what those scripts do, before the tag tree is built. React names a segment and the
//! place it fills by the same id, so no script needs reading (the pre-pass drops script
//! bodies); a segment with no place to fill is shown where it stands, as its content is the
//! page's.

use std::collections::{HashMap, HashSet};

use super::build::attribute;
use super::dom::{Dom, DomData, DomId};

/// Moves every streamed segment's content to its place; returns how many segments were found.
pub fn place_streamed_segments(dom: &mut Dom) -> usize {
    let mut segments: Vec<(String, DomId)> = Vec::new();
    // Each place's template by its id's number; those opening a Suspense boundary (`B:`,
    // whose fallback the content replaces) rather than a placeholder (`P:`) in `boundaries`.
    let mut places: HashMap<String, DomId> = HashMap::new();
    let mut boundaries: HashSet<DomId> = HashSet::new();
    for id in 0..dom.len() {
        let DomData::Element(element) = &dom.node(id).data else { continue };
        let Some(name) = attribute(&element.attrs, "id") else { continue };
        match &*element.name.local {
            "div" if attribute(&element.attrs, "hidden").is_some() => {
                if let Some(n) = name.strip_prefix("S:") {
                    segments.push((n.to_string(), id));
                }
            }
            "template" => {
                if let Some(n) = name.strip_prefix("B:") {
                    places.entry(n.to_string()).or_insert(id);
                    boundaries.insert(id);
                } else if let Some(n) = name.strip_prefix("P:") {
                    places.entry(n.to_string()).or_insert(id);
                }
            }
            _ => {}
        }
    }
    let fallback_ends = fallback_ends(dom, &boundaries);
    for (n, segment) in &segments {
        match places.get(n) {
            Some(&place) if can_fill(dom, place, *segment) => {
                let children: Vec<DomId> = dom.children(*segment).collect();
                for child in children {
                    dom.move_before(place, child);
                }
                // Only a boundary's template has a fallback end.
                if let Some(&end) = fallback_ends.get(&place) {
                    remove_fallback(dom, place, end);
                }
                dom.detach(place);
                dom.detach(*segment);
            }
            _ => dom.remove_attribute(*segment, "hidden"),
        }
    }
    segments.len()
}

/// Whether React's script would move `segment` into `place`: it finds both by id in the
/// document, so neither may lie in a template's inert content or in a fallback already
/// replaced (content moved there would be lost with it), and a place inside the segment itself
/// (markup that is not React's) would make a cycle.
fn can_fill(dom: &Dom, place: DomId, segment: DomId) -> bool {
    is_inside(dom, place, Dom::DOCUMENT) && is_inside(dom, segment, Dom::DOCUMENT) && !is_inside(dom, place, segment)
}

/// Whether `node` lies in the subtree of `ancestor`.
fn is_inside(dom: &Dom, node: DomId, ancestor: DomId) -> bool {
    std::iter::successors(Some(node), |&n| dom.node(n).parent()).any(|n| n == ancestor)
}

/// The comment closing the boundary each template of `boundaries` opens (`/$`): the first
/// after it that does not close a boundary opened after it, nested in its fallback (`$`, `$?`
/// or `$!`). Found in one pass over the children of the templates' parents, where a walk from
/// each template would be quadratic in a page of many boundaries missing their closing
/// comments. A template whose boundary is not closed has no fallback to remove.
fn fallback_ends(dom: &Dom, boundaries: &HashSet<DomId>) -> HashMap<DomId, DomId> {
    let mut parents: Vec<DomId> = boundaries.iter().filter_map(|&id| dom.node(id).parent()).collect();
    parents.sort_unstable();
    parents.dedup();
    let mut ends = HashMap::new();
    for parent in parents {
        // The templates waiting for their closing comment, by how many boundaries opened after
        // them are still open.
        let mut waiting: Vec<Vec<DomId>> = vec![Vec::new()];
        for id in dom.children(parent) {
            match &dom.node(id).data {
                DomData::Comment(text) if &**text == "/$" => {
                    let closed =
                        if waiting.len() > 1 { waiting.pop() } else { waiting.first_mut().map(std::mem::take) };
                    ends.extend(closed.into_iter().flatten().map(|template| (template, id)));
                }
                DomData::Comment(text) if matches!(&**text, "$" | "$?" | "$!") => waiting.push(Vec::new()),
                _ if boundaries.contains(&id) => waiting.last_mut().into_iter().for_each(|level| level.push(id)),
                _ => {}
            }
        }
    }
    ends
}

/// Removes the siblings between a boundary's template and the comment closing the boundary,
/// as `$RC` does. Content is only moved in before a place, and all of a segment's children
/// together, so `end` found before any move still follows the template; should it not,
/// nothing is removed.
fn remove_fallback(dom: &mut Dom, template: DomId, end: DomId) {
    let siblings = std::iter::successors(dom.node(template).next_sibling(), |&id| dom.node(id).next_sibling());
    let fallback: Vec<DomId> = siblings.take_while(|&id| id != end).collect();
    let after = fallback.last().map_or(dom.node(template).next_sibling(), |&id| dom.node(id).next_sibling());
    if after == Some(end) {
        for id in fallback {
            dom.detach(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TagTreeConfig;
    use crate::tagtree::build_tag_tree;

    fn visible_text(html: &str) -> String {
        build_tag_tree(html, &TagTreeConfig::default(), &Default::default()).visible_text()
    }

    // Pages written for these tests, in the shape React's streamed rendering gives.
    const STREAMED: &str = "<html><body><header>Site menu</header><main><h1>Tide tables</h1>\
        <!--$?--><template id=\"B:0\"></template><p>Loading the story</p><!--/$-->\
        <p>Share this page</p></main><footer>Footer links</footer>\
        <div hidden id=\"S:0\"><p>The tide rises twice a day.</p><template id=\"P:1\"></template></div>\
        <script>$RC(\"B:0\",\"S:0\")</script>\
        <div hidden id=\"S:1\"><p>Spring tides follow the new moon.</p></div>\
        <script>$RS(\"S:1\",\"P:1\")</script></body></html>";

    #[test]
    fn streamed_segments_are_shown_where_the_page_puts_them() {
        let text = visible_text(STREAMED);
        let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("{needle:?} not in {text:?}"));
        assert!(at("Tide tables") < at("The tide rises") && at("The tide rises") < at("Spring tides"));
        assert!(at("Spring tides") < at("Share this page") && at("Share this page") < at("Footer links"));
        // The fallback the content replaces is gone.
        assert!(!text.contains("Loading the story"), "{text:?}");
    }

    #[test]
    fn a_segment_without_a_place_is_shown_where_it_stands_and_other_hidden_blocks_stay_hidden() {
        let html = "<html><body><p>Lead</p><div hidden id=\"S:4\"><p>Streamed part</p></div>\
            <div hidden id=\"menu\"><p>Mobile menu</p></div>\
            <div hidden id=\"S:5\"><template id=\"B:5\"></template><p>Its own place</p></div></body></html>";
        let text = visible_text(html);
        assert!(text.contains("Streamed part") && text.contains("Its own place"), "{text:?}");
        assert!(!text.contains("Mobile menu"), "{text:?}");
    }

    #[test]
    fn a_place_the_document_does_not_hold_leaves_its_segment_where_it_stands() {
        // A placeholder in a template's inert content, one in a fallback the boundary's
        // content has replaced by the time its segment comes, and a segment in inert content.
        let html = "<html><body><p>Lead</p><template><p>Inert</p><template id=\"P:1\"></template></template>\
            <template><div hidden id=\"S:4\"><p>Inert segment</p></div></template><template id=\"P:4\"></template>\
            <!--$?--><template id=\"B:2\"></template><div><p>Spinner</p><template id=\"P:3\"></template></div><!--/$-->\
            <div hidden id=\"S:1\"><p>Streamed into a template</p></div>\
            <div hidden id=\"S:2\"><p>The boundary's content</p></div>\
            <div hidden id=\"S:3\"><p>Streamed into a replaced fallback</p></div></body></html>";
        let text = visible_text(html);
        for kept in ["Lead", "Streamed into a template", "The boundary's content", "Streamed into a replaced fallback"]
        {
            assert!(text.contains(kept), "{kept:?} not in {text:?}");
        }
        assert!(!text.contains("Inert") && !text.contains("Spinner"), "{text:?}");
    }

    #[test]
    fn a_fallback_ends_at_its_own_closing_comment() {
        // Boundaries nested in a fallback close before it; a boundary opened after the
        // template and left open keeps the fallback; two templates may share a closing comment.
        let html = "<html><body><!--$?--><template id=\"B:0\"></template><p>Spinner</p>\
            <!--$--><p>Nested fallback</p><!--/$--><p>Spinner tail</p><!--/$--><p>After the boundary</p>\
            <!--$?--><template id=\"B:1\"></template><p>Open fallback</p><!--$--><p>Never closed</p>\
            <!--$?--><template id=\"B:2\"></template><template id=\"B:3\"></template><p>Shared fallback</p><!--/$-->\
            <p>Tail</p>\
            <div hidden id=\"S:0\"><p>Zero</p></div><div hidden id=\"S:1\"><p>One</p></div>\
            <div hidden id=\"S:2\"><p>Two</p></div><div hidden id=\"S:3\"><p>Three</p></div></body></html>";
        let text = visible_text(html);
        for kept in ["Zero", "After the boundary", "One", "Open fallback", "Never closed", "Two", "Three", "Tail"] {
            assert!(text.contains(kept), "{kept:?} not in {text:?}");
        }
        for gone in ["Spinner", "Nested fallback", "Shared fallback"] {
            assert!(!text.contains(gone), "{gone:?} in {text:?}");
        }
    }

    #[test]
    fn a_fallback_without_its_closing_comment_is_kept() {
        let html = "<html><body><template id=\"B:0\"></template><p>Fallback</p>\
            <div hidden id=\"S:0\"><p>Content</p></div></body></html>";
        let text = visible_text(html);
        assert!(text.contains("Content") && text.contains("Fallback"), "{text:?}");
    }

    #[test]
    fn pages_without_segments_are_left_alone() {
        let mut dom = Dom::parse("<p>a</p><template id=\"B:0\"></template>");
        let before = dom.len();
        assert_eq!(place_streamed_segments(&mut dom), 0);
        assert_eq!(dom.len(), before);
    }
}
