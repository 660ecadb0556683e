//! A linear pre-pass over the markup before parsing: it caps nesting, drops the bodies of
//! scripts and style sheets, and drops the attributes nothing reads.
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
//!
//! Attributes: html5ever tokenizes every attribute one character at a time and allocates its
//! name and value, yet the tag tree reads a few (ids, classes, links, images, hidden markers,
//! microdata's article body). The others (`data-*`, `srcset`, `aria-*`, inline SVG paths,
//! event handlers) are 40% of wcxb-dev-subset's bytes once scripts are dropped, 23% of
//! scrapinghub-aeb's, 11% of dragnet's. A start tag loses them only when its attributes
//! parse as the HTML tokenizer reads them up to the `>` the scan found (a quoted `>` leaves
//! the tag alone), and the attributes tree construction looks at stay (see
//! [`KEPT_ATTRIBUTES`]), so the parser builds the same tree with the same attributes the
//! tag tree reads.

use std::borrow::Cow;

/// Elements that never have content, so their start tag does not open a level.
const VOID: &[&str] =
    &["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"];

/// Elements whose content is raw text: tags inside them are not tags.
const RAW_TEXT: &[&str] =
    &["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"];

/// The attributes the tag tree reads (`style` only when it may hide: see [`kept`]), and
/// those html5ever's tree construction looks at: an `<input>`'s `type` in a table, MathML's
/// `annotation-xml` `encoding`, a `<font>`'s `color`, `face` and `size` in foreign content;
/// `charset` and `http-equiv` of `<meta>`.
pub(crate) const KEPT_ATTRIBUTES: &[&str] = &[
    "id",
    "class",
    "href",
    "src",
    "data-src",
    "alt",
    "width",
    "height",
    "hidden",
    "style",
    "role",
    "itemprop",
    "lang",
    "name",
    "content",
    "type",
    "encoding",
    "color",
    "face",
    "size",
    "charset",
    "http-equiv",
];

/// Removes the start and end tags nested deeper than `max_depth`, the bodies of `<script>`
/// and `<style>` elements, and the attributes nothing reads (see the module doc). Returns
/// the input itself when there is nothing to remove, and whether tags were removed for depth.
pub fn prepare_markup(html: &str, max_depth: usize) -> (Cow<'_, str>, bool) {
    let mut out: Option<String> = None;
    let mut depth = 0usize;
    let mut capped = false;
    // The end of the input copied so far.
    let mut last = 0;
    let mut filter = AttributeFilter::default();
    for tag in Tags::new(html) {
        let is_start_tag = html.as_bytes().get(tag.start + 1).is_some_and(u8::is_ascii_alphabetic);
        let (cut, too_deep, filtered) = match tag.kind {
            TagKind::Start => {
                depth += 1;
                if depth > max_depth {
                    (tag.start..tag.end, true, false)
                } else if filter.drops_unread(&html[tag.start..tag.end]) {
                    (tag.start..tag.end, false, true)
                } else {
                    continue;
                }
            }
            TagKind::End => {
                let too_deep = depth > max_depth;
                depth = depth.saturating_sub(1);
                if !too_deep {
                    continue;
                }
                (tag.start..tag.end, true, false)
            }
            TagKind::Other if is_start_tag => {
                if !filter.drops_unread(&html[tag.start..tag.end]) {
                    continue;
                }
                (tag.start..tag.end, false, true)
            }
            TagKind::Other => continue,
            TagKind::RawText { body_end, droppable } => {
                let body = &html.as_bytes()[tag.end..body_end];
                if !droppable || body.is_empty() || memchr::memmem::find(body, b"<!--").is_some() {
                    continue;
                }
                (tag.end..body_end, false, false)
            }
        };
        let out = out.get_or_insert_with(|| String::with_capacity(html.len()));
        out.push_str(&html[last..cut.start]);
        if too_deep {
            out.push(' ');
            capped = true;
        }
        if filtered {
            filter.write(&html[tag.start..tag.end], out);
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

/// The name of an attribute given as its whole text (`name`, `name=value`, `name="value"`):
/// it runs to `=` or white space; a leading `=` is part of it.
fn attribute_name(attribute: &str) -> &str {
    let end = attribute.bytes().skip(1).position(|b| b == b'=' || is_space(b)).map_or(attribute.len(), |i| i + 1);
    &attribute[..end]
}

/// Whether an attribute, given as its whole text, is kept. `style` matters only to hide an
/// element (`display: none`, `visibility: hidden`).
fn kept(attribute: &str) -> bool {
    let name = attribute_name(attribute);
    if name.eq_ignore_ascii_case("style") {
        let holds = |word: &[u8]| attribute.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word));
        return holds(b"none") || holds(b"hidden");
    }
    KEPT_ATTRIBUTES.iter().any(|k| k.eq_ignore_ascii_case(name))
}

/// The HTML tokenizer's white space (U+000C included, U+000B not).
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// What [`AttributeFilter::drops_unread`] found in the last start tag it read, kept from tag
/// to tag so that a page's thousands of tags need no allocation each.
#[derive(Default)]
struct AttributeFilter {
    /// The spans of the tag's attribute names so far, and of the attributes kept.
    names: Vec<(usize, usize)>,
    kept: Vec<(usize, usize)>,
    name_end: usize,
    self_closing: bool,
}

impl AttributeFilter {
    /// Whether the start tag `tag` (from `<` to the `>` the scan found) has attributes nothing
    /// reads, to be dropped by [`AttributeFilter::write`]; `false` when it keeps them all or its
    /// attributes do not end at that `>` (a `>` inside a quoted value). The attributes are read
    /// by the HTML tokenizer's states (before and after a name, the three kinds of value, the
    /// self-closing slash).
    fn drops_unread(&mut self, tag: &str) -> bool {
        let b = tag.as_bytes();
        if b.last() != Some(&b'>') {
            return false;
        }
        let end = b.len() - 1;
        let mut i = 1;
        while i < end && !is_space(b[i]) && b[i] != b'/' {
            i += 1;
        }
        self.name_end = i;
        self.names.clear();
        self.kept.clear();
        self.self_closing = false;
        let mut dropped = false;
        loop {
            while i < end && is_space(b[i]) {
                i += 1;
            }
            if i == end {
                break;
            }
            if b[i] == b'/' {
                // The self-closing slash, or a stray one the tokenizer skips.
                if i + 1 == end {
                    self.self_closing = true;
                    break;
                }
                i += 1;
                continue;
            }
            // An attribute name runs to white space, `/`, `>` or `=` (a leading `=` is part of it).
            let start = i;
            i += 1;
            while i < end && !is_space(b[i]) && !matches!(b[i], b'/' | b'=') {
                i += 1;
            }
            let mut after_name = i;
            while after_name < end && is_space(b[after_name]) {
                after_name += 1;
            }
            if after_name < end && b[after_name] == b'=' {
                let mut value = after_name + 1;
                while value < end && is_space(b[value]) {
                    value += 1;
                }
                i = match b[value] {
                    // `name=>`: an empty value, and the tag ends.
                    b'>' => value,
                    quote @ (b'"' | b'\'') => match memchr::memchr(quote, &b[value + 1..end]) {
                        Some(k) => value + 1 + k + 1,
                        None => return false,
                    },
                    _ => {
                        let mut k = value;
                        while k < end && !is_space(b[k]) {
                            k += 1;
                        }
                        k
                    }
                };
            }
            // The tokenizer keeps the first of two attributes of one name: a later one is
            // dropped whatever its name (a kept `style` must not stand in for a dropped one).
            let name = attribute_name(&tag[start..i]);
            let repeated = self.names.iter().any(|&(a, z)| tag[a..z].eq_ignore_ascii_case(name));
            self.names.push((start, start + name.len()));
            if !repeated && kept(&tag[start..i]) {
                self.kept.push((start, i));
            } else {
                dropped = true;
            }
        }
        dropped
    }

    /// Writes `tag`, which [`AttributeFilter::drops_unread`] just read, with the attributes it
    /// keeps written back as they were, one space apart, so they tokenize to the same names
    /// and values in the same order.
    fn write(&self, tag: &str, out: &mut String) {
        out.push_str(&tag[..self.name_end]);
        for &(start, stop) in &self.kept {
            out.push(' ');
            out.push_str(&tag[start..stop]);
        }
        // A space before the slash: after an unquoted value, `/` would be part of the value.
        out.push_str(if self.self_closing { " />" } else { ">" });
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
    fn unread_attributes_are_dropped_and_read_ones_kept_as_written() {
        let html = "<body><div data-x=1 class=\"a b\" aria-label='x' id=main srcset=a.jpg\thidden>\
            <img src=/a.png data-lazy=\"1\" alt=\"A cat\"/><a href=/x/ onclick=f()>x</a>\
            <p style=\"color: red\" style=\"display:none\">y</p><span style=\"DISPLAY: None\">z</span></div></body>";
        let (out, capped) = prepare_markup(html, 100);
        assert!(!capped);
        assert_eq!(
            out,
            "<body><div class=\"a b\" id=main hidden><img src=/a.png alt=\"A cat\" /><a href=/x/>x</a>\
            <p>y</p><span style=\"DISPLAY: None\">z</span></div></body>"
        );
        // A `>` inside a quoted value: the tag is left alone.
        let quoted = "<div title=\"a > b\" data-x=1>text</div>";
        assert_eq!(prepare_markup(quoted, 100).0, quoted);
        // A custom element's name is not an attribute.
        assert_eq!(prepare_markup("<my-card data-x=1>t</my-card>", 100).0, "<my-card>t</my-card>");
    }

    /// The element the tag of `html` opens in `<body>`: its name, attributes and text.
    fn first_element(html: &str) -> (String, Vec<(String, String)>, String) {
        use html5ever::tendril::TendrilSink;
        use markup5ever_rcdom::{NodeData, RcDom};
        let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(html);
        let mut stack = vec![dom.document.clone()];
        while let Some(node) = stack.pop() {
            if let NodeData::Element { name, attrs, .. } = &node.data
                && !matches!(&*name.local, "html" | "head" | "body")
            {
                let attrs = attrs.borrow().iter().map(|a| (a.name.local.to_string(), a.value.to_string())).collect();
                let text = node
                    .children
                    .borrow()
                    .iter()
                    .filter_map(|c| match &c.data {
                        NodeData::Text { contents } => Some(contents.borrow().to_string()),
                        _ => None,
                    })
                    .collect();
                return (name.local.to_string(), attrs, text);
            }
            stack.extend(node.children.borrow().iter().rev().cloned());
        }
        Default::default()
    }

    proptest::proptest! {
        /// html5ever reads the filtered tag as the original: the same element and text, and
        /// exactly the original's kept attributes.
        #[test]
        fn a_filtered_tag_parses_to_the_original_element_with_its_read_attributes(
            name in "(div|p|a|img|br|input|font|my-el|DIV)",
            attributes in proptest::collection::vec(
                ("(class|id|style|hidden|href|data-x|srcset|onclick|STYLE|Class|=x|x\"y|a<b)",
                 "(|=|=x|=a/b|= \"q r\"|='s t'|=\"display:none\"|='HIDDEN'|=\"\"|=x/)",
                 "( |\t|\n| / |/|)"),
                0..6),
            close in "(>|/>| />| >)",
        ) {
            let mut tag = format!("<{name}");
            for (attribute, value, separator) in &attributes {
                tag.push_str(&format!(" {attribute}{value}{separator}"));
            }
            tag.push_str(&close);
            let html = format!("<body>{tag}text</body>");
            let (filtered, _) = prepare_markup(&html, 100);
            let (name_before, attrs_before, text_before) = first_element(&html);
            let (name_after, attrs_after, text_after) = first_element(&filtered);
            let read: Vec<(String, String)> = attrs_before
                .into_iter()
                .filter(|(n, v)| {
                    KEPT_ATTRIBUTES.contains(&n.as_str())
                        && (n != "style" || v.to_ascii_lowercase().contains("none") || v.to_ascii_lowercase().contains("hidden"))
                })
                .collect();
            proptest::prop_assert_eq!(name_before, name_after, "{} -> {}", html, filtered);
            proptest::prop_assert_eq!(read, attrs_after, "{} -> {}", html, filtered);
            proptest::prop_assert_eq!(text_before, text_after, "{} -> {}", html, filtered);
        }
    }

    proptest::proptest! {
        #[test]
        fn any_markup_is_prepared_without_panic(html in "[<>/=\"' \tab-é中!\\-]{0,60}") {
            let _ = prepare_markup(&html, 3);
        }
    }

    #[test]
    fn garbage_does_not_panic() {
        for input in ["<", "</", "<<<>>>", "<div", "<!--", "<script>never closed", "<a/b/c/>", "\u{0}<é>"] {
            let _ = prepare_markup(input, 1);
        }
    }
}
