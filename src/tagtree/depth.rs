//! A linear pre-pass that caps markup nesting before parsing.
//!
//! html5ever's tree builder scans its stack of open elements for many start and end tags
//! (e.g. "close a p element in button scope" on every `<div>`), so markup nested n levels
//! deep costs O(n²): 100,000 nested `<div>`s take minutes. Browsers cap the depth of the DOM
//! too (Blink at 512). Pages nested deeper than the cap have the tags beyond it removed here,
//! so the parser never sees that depth; their text is kept. Normal pages are returned as they
//! are, without a copy.

use std::borrow::Cow;

/// Elements that never have content, so their start tag does not open a level.
const VOID: &[&str] =
    &["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"];

/// Elements whose content is raw text: tags inside them are not tags.
const RAW_TEXT: &[&str] =
    &["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"];

/// Removes the start and end tags nested deeper than `max_depth`. Returns the input itself
/// when it never gets that deep (the usual case), and whether anything was removed.
pub fn cap_markup_depth(html: &str, max_depth: usize) -> (Cow<'_, str>, bool) {
    if deepest(html, max_depth).is_none() {
        return (Cow::Borrowed(html), false);
    }
    let mut out = String::with_capacity(html.len());
    let mut depth = 0usize;
    let mut last = 0;
    for tag in Tags::new(html) {
        let drop = match tag.kind {
            TagKind::Start => {
                depth += 1;
                depth > max_depth
            }
            TagKind::End => {
                let drop = depth > max_depth;
                depth = depth.saturating_sub(1);
                drop
            }
            TagKind::Other => false,
        };
        if drop {
            out.push_str(&html[last..tag.start]);
            out.push(' ');
            last = tag.end;
        }
    }
    out.push_str(&html[last..]);
    (Cow::Owned(out), true)
}

/// The first position where nesting exceeds `max_depth`, if any.
fn deepest(html: &str, max_depth: usize) -> Option<usize> {
    let mut depth = 0usize;
    for tag in Tags::new(html) {
        match tag.kind {
            TagKind::Start => {
                depth += 1;
                if depth > max_depth {
                    return Some(tag.start);
                }
            }
            TagKind::End => depth = depth.saturating_sub(1),
            TagKind::Other => {}
        }
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TagKind {
    /// A start tag that opens a level.
    Start,
    End,
    /// Void and self-closing tags, comments, doctypes.
    Other,
}

struct Tag {
    kind: TagKind,
    start: usize,
    end: usize,
}

/// A lexical scan of tags: enough to count nesting, not a parser.
struct Tags<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Tags<'a> {
    fn new(html: &'a str) -> Self {
        Tags { bytes: html.as_bytes(), pos: 0 }
    }

    /// The first `</name` at or after `from`, the name in any case. memchr keeps this
    /// pre-pass a small part of parsing (it runs on every page).
    fn find_close_tag(&self, from: usize, name: &[u8]) -> Option<usize> {
        let mut at = from;
        loop {
            let found = at + memchr::memmem::find(self.bytes.get(at..)?, b"</")?;
            let candidate = self.bytes.get(found + 2..found + 2 + name.len());
            if candidate.is_some_and(|c| c.eq_ignore_ascii_case(name)) {
                return Some(found);
            }
            at = found + 2;
        }
    }
}

impl Iterator for Tags<'_> {
    type Item = Tag;

    fn next(&mut self) -> Option<Tag> {
        let bytes = self.bytes;
        loop {
            let start = self.pos + memchr::memchr(b'<', bytes.get(self.pos..)?)?;
            let next = *bytes.get(start + 1)?;
            if bytes[start..].starts_with(b"<!--") {
                let after = bytes.get(start + 4..).unwrap_or_default();
                self.pos = memchr::memmem::find(after, b"-->").map_or(bytes.len(), |i| start + 4 + i + 3);
                return Some(Tag { kind: TagKind::Other, start, end: self.pos });
            }
            let (closing, name_start) = match next {
                b'/' => (true, start + 2),
                b if b.is_ascii_alphabetic() => (false, start + 1),
                b'!' | b'?' => {
                    self.pos = memchr::memchr(b'>', &bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
                    return Some(Tag { kind: TagKind::Other, start, end: self.pos });
                }
                _ => {
                    self.pos = start + 1;
                    continue;
                }
            };
            let name_len = bytes[name_start..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
            let name = &bytes[name_start..name_start + name_len];
            let is = |list: &[&str]| list.iter().any(|n| n.as_bytes().eq_ignore_ascii_case(name));
            let end = memchr::memchr(b'>', &bytes[name_start..]).map_or(bytes.len(), |i| name_start + i + 1);
            self.pos = end;
            if closing {
                return Some(Tag { kind: TagKind::End, start, end });
            }
            if is(RAW_TEXT) {
                // Skip the raw text: the element opens and closes within it.
                self.pos = self.find_close_tag(end, name).unwrap_or(bytes.len());
                return Some(Tag { kind: TagKind::Other, start, end });
            }
            let self_closing = end >= 2 && bytes[end - 2] == b'/';
            let kind = if is(VOID) || self_closing { TagKind::Other } else { TagKind::Start };
            return Some(Tag { kind, start, end });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_markup_is_untouched_and_not_copied() {
        let html = "<!DOCTYPE html><html><head><script>if (a<b) { x = '<div>'; }</script></head><body><div><p>x<br>y</p><img src=a></div><!-- <div> --></body></html>";
        let (out, capped) = cap_markup_depth(html, 4);
        assert!(!capped && matches!(out, Cow::Borrowed(_)));
    }

    #[test]
    fn tags_beyond_the_cap_are_removed_and_text_kept() {
        let html = format!("{}deep text{}", "<div>".repeat(10), "</div>".repeat(10));
        let (out, capped) = cap_markup_depth(&html, 3);
        assert!(capped);
        assert_eq!(out.matches("<div>").count(), 3);
        assert_eq!(out.matches("</div>").count(), 3);
        assert!(out.contains("deep text"));
    }

    #[test]
    fn garbage_does_not_panic() {
        for input in ["<", "</", "<<<>>>", "<div", "<!--", "<script>never closed", "<a/b/c/>", "\u{0}<é>"] {
            let _ = cap_markup_depth(input, 1);
        }
    }
}
