//! A linear pre-pass over the markup before parsing: it caps nesting and drops the bodies
//! of scripts and style sheets.
//!
//! Depth: html5ever's tree builder scans its stack of open elements for many start and end
//! tags (e.g. "close a p element in button scope" on every `<div>`), so markup nested n
//! levels deep costs O(n²): 100,000 nested `<div>`s take minutes. Browsers cap the depth of
//! the DOM too (Blink at 512). Pages nested deeper than the cap have the tags beyond it
//! removed here, so the parser never sees that depth; their text is kept.
//!
//! Scripts and styles: nothing of them is read (the tag tree skips them), yet they are half
//! the bytes of many pages (54% of scrapinghub-aeb, 34% of wcxb-dev-subset), and html5ever
//! tokenizes their text one character at a time. Their elements stay, empty. A script body
//! holding `<!--` is left alone: there the HTML tokenizer's escape states decide where the
//! script ends, which this scan does not follow.

use std::borrow::Cow;

/// Elements that never have content, so their start tag does not open a level.
const VOID: &[&str] =
    &["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"];

/// Elements whose content is raw text: tags inside them are not tags.
const RAW_TEXT: &[&str] =
    &["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"];

/// Removes the start and end tags nested deeper than `max_depth` and the bodies of
/// `<script>` and `<style>` elements. Returns the input itself when there is nothing to
/// remove, and whether tags were removed for depth.
pub fn prepare_markup(html: &str, max_depth: usize) -> (Cow<'_, str>, bool) {
    let mut out: Option<String> = None;
    let mut depth = 0usize;
    let mut capped = false;
    // The end of the input copied so far.
    let mut last = 0;
    for tag in Tags::new(html) {
        let (cut, too_deep) = match tag.kind {
            TagKind::Start => {
                depth += 1;
                if depth <= max_depth {
                    continue;
                }
                (tag.start..tag.end, true)
            }
            TagKind::End => {
                let too_deep = depth > max_depth;
                depth = depth.saturating_sub(1);
                if !too_deep {
                    continue;
                }
                (tag.start..tag.end, true)
            }
            TagKind::Other => continue,
            TagKind::RawText { body_end, droppable } => {
                let body = &html.as_bytes()[tag.end..body_end];
                if !droppable || body.is_empty() || memchr::memmem::find(body, b"<!--").is_some() {
                    continue;
                }
                (tag.end..body_end, false)
            }
        };
        let out = out.get_or_insert_with(|| String::with_capacity(html.len()));
        out.push_str(&html[last..cut.start]);
        if too_deep {
            out.push(' ');
            capped = true;
        }
        last = cut.end;
    }
    match out {
        None => (Cow::Borrowed(html), false),
        Some(mut out) => {
            out.push_str(&html[last..]);
            (Cow::Owned(out), capped)
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TagKind {
    /// A start tag that opens a level.
    Start,
    End,
    /// Void and self-closing tags, comments, doctypes.
    Other,
    /// The start tag of an element whose content is raw text, which runs to `body_end`;
    /// `droppable` for scripts and styles.
    RawText {
        body_end: usize,
        droppable: bool,
    },
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
            // The name ends the tag's name (`</scripts` does not close a script).
            let ends = self.bytes.get(found + 2 + name.len()).is_none_or(|b| b"\t\n\x0c\r />".contains(b));
            if candidate.is_some_and(|c| c.eq_ignore_ascii_case(name)) && ends {
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
                let droppable = is(&["script", "style"]);
                return Some(Tag { kind: TagKind::RawText { body_end: self.pos, droppable }, start, end });
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
        let html = "<!DOCTYPE html><html><head><title>a<b</title><script src=a.js></script></head><body><div><p>x<br>y</p><img src=a></div><!-- <div> --></body></html>";
        let (out, capped) = prepare_markup(html, 4);
        assert!(!capped && matches!(out, Cow::Borrowed(_)));
    }

    #[test]
    fn script_and_style_bodies_are_dropped_and_their_elements_kept() {
        let html = "<head><style>p { color: red }</style><script>if (a<b) { x = '<div></scripts>'; }</script></head>\
            <body><textarea><script>kept</script></textarea><p>text</p><SCRIPT type=x>y</SCRIPT ></body>";
        let (out, capped) = prepare_markup(html, 10);
        assert!(!capped);
        assert_eq!(
            out,
            "<head><style></style><script></script></head><body><textarea><script>kept</script></textarea><p>text</p><SCRIPT type=x></SCRIPT ></body>"
        );
        // Where `<!--` may start the tokenizer's escape states, the script is left to html5ever.
        let escaped = "<script><!-- document.write('<script>x</script>') --></script><p>text</p>";
        assert!(matches!(prepare_markup(escaped, 10).0, Cow::Borrowed(_)));
    }

    #[test]
    fn tags_beyond_the_cap_are_removed_and_text_kept() {
        let html = format!("{}deep text{}", "<div>".repeat(10), "</div>".repeat(10));
        let (out, capped) = prepare_markup(&html, 3);
        assert!(capped);
        assert_eq!(out.matches("<div>").count(), 3);
        assert_eq!(out.matches("</div>").count(), 3);
        assert!(out.contains("deep text"));
    }

    #[test]
    fn garbage_does_not_panic() {
        for input in ["<", "</", "<<<>>>", "<div", "<!--", "<script>never closed", "<a/b/c/>", "\u{0}<é>"] {
            let _ = prepare_markup(input, 1);
        }
    }
}
