//! Decode: bytes to text, choosing the charset as browsers do.
//!
//! Order (the HTML standard's encoding sniffing, in short): a byte-order mark; the charset of
//! the HTTP `Content-Type` header; a `<meta charset>` or `<meta http-equiv="Content-Type">` in
//! the first bytes; then, with nothing declared, UTF-8 if the bytes are valid UTF-8, else
//! chardetng's guess (with the URL's top-level domain as a hint), which is how undeclared
//! GBK/GB2312 pages come out right. UTF-8 is checked before running the detector because the
//! detector is slow (~6 MB/s on Chinese) and most of the web is UTF-8.
//!
//! Unlike a browser, a declaration the bytes contradict is not obeyed (as trafilatura and
//! jusText do not): bytes that are valid UTF-8 and hold non-ASCII text are UTF-8 whatever
//! was declared, since text in another encoding is all but never valid UTF-8 (servers and
//! archives that re-encode pages keep the old label: clean-train's page-signal README says
//! some of its pages are UTF-8 declaring ISO-8859-1); and a page declared UTF-8 whose
//! non-ASCII bytes are mostly not UTF-8 (a Latin-1 or GBK page under a site-wide UTF-8 label)
//! goes to the detector. A stray bad byte in a UTF-8 page leaves the declaration standing.

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};
use serde::Serialize;

/// How far into the page the `<meta>` prescan looks. The standard says 1024 bytes; real pages
/// put long scripts and styles first, so we look further.
const PRESCAN_BYTES: usize = 8192;

/// The charset detector reads an undeclared, non-UTF-8 page until it has seen this many
/// non-ASCII bytes (or the end), with their context only ([`telling_bytes`]). Its cost is
/// linear in what it is fed, and only the non-ASCII bytes tell encodings apart: 4,096 of
/// them (some 2,000 Chinese characters) are far more than it needs to tell GBK from Big5 or
/// windows-1252. Reading less also keeps a damaged tail from overturning a clear start: one
/// zh-wced forum page, GBK throughout but with titles cut mid-character, was guessed
/// windows-1252 when fed whole.
const DETECT_NON_ASCII: usize = 4096;

/// Where the charset came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CharsetSource {
    ByteOrderMark,
    HttpHeader,
    MetaTag,
    /// Valid UTF-8 (but for a last character cut by the end of the bytes): nothing was
    /// declared, or the bytes contradict what was.
    ValidUtf8,
    /// chardetng's guess: nothing was declared, or the bytes contradict a declared UTF-8.
    Detected,
}

/// A decoded page.
#[derive(Debug, Clone)]
pub struct DecodedPage {
    pub text: String,
    pub encoding: &'static Encoding,
    pub source: CharsetSource,
    /// Bytes that were not valid in the chosen encoding (replaced by U+FFFD).
    pub had_errors: bool,
}

/// Decodes `bytes`; `http_charset` is the header's charset label, `url` gives the TLD hint.
pub fn decode(bytes: &[u8], http_charset: Option<&str>, url: &str) -> DecodedPage {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return finish(&bytes[bom_len..], encoding, CharsetSource::ByteOrderMark);
    }
    let declared = http_charset
        .and_then(|label| Encoding::for_label(label.trim().as_bytes()))
        .map(|encoding| (encoding, CharsetSource::HttpHeader))
        .or_else(|| {
            prescan_meta(&bytes[..bytes.len().min(PRESCAN_BYTES)]).map(|encoding| (encoding, CharsetSource::MetaTag))
        });
    let utf8 = Utf8Evidence::of(bytes);
    match declared.map(|(encoding, source)| (for_html(encoding), source)) {
        Some((encoding, _)) if encoding != UTF_8 && utf8.is_utf8_text() => {
            finish(bytes, UTF_8, CharsetSource::ValidUtf8)
        }
        Some((encoding, _)) if encoding == UTF_8 && utf8.contradicts_utf8() => detect(bytes, url),
        Some((encoding, source)) => finish(bytes, encoding, source),
        None if utf8.invalid == 0 => finish(bytes, UTF_8, CharsetSource::ValidUtf8),
        None => detect(bytes, url),
    }
}

/// What a page's bytes say about UTF-8: how many non-ASCII characters they hold as valid
/// UTF-8, and how many byte sequences are not UTF-8 (a last character the end of the bytes
/// cuts is not counted as one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Utf8Evidence {
    characters: usize,
    invalid: usize,
}

impl Utf8Evidence {
    fn of(bytes: &[u8]) -> Self {
        let mut evidence = Utf8Evidence { characters: 0, invalid: 0 };
        let mut rest = bytes;
        loop {
            let (valid, next) = match std::str::from_utf8(rest) {
                Ok(_) => (rest, None),
                Err(e) => {
                    let after = &rest[e.valid_up_to()..];
                    // A character cut by the end of the bytes is a page cut short (a crawler's
                    // truncated record), which says nothing against UTF-8: only a bad sequence
                    // followed by more bytes counts.
                    let next = e.error_len().map(|bad| &after[bad..]);
                    (&rest[..e.valid_up_to()], next)
                }
            };
            // A non-ASCII character starts with a byte of the form 11xxxxxx.
            evidence.characters += valid.iter().filter(|&&b| b >= 0xc0).count();
            match next {
                Some(after) => {
                    evidence.invalid += 1;
                    rest = after;
                }
                None => return evidence,
            }
        }
    }

    /// Valid UTF-8 holding non-ASCII text: UTF-8 whatever a declaration says.
    fn is_utf8_text(self) -> bool {
        self.invalid == 0 && self.characters > 0
    }

    /// More sequences that are not UTF-8 than characters that are: a page in another encoding.
    fn contradicts_utf8(self) -> bool {
        self.invalid > self.characters
    }
}

/// chardetng's guess for a page that is not UTF-8.
fn detect(bytes: &[u8], url: &str) -> DecodedPage {
    let (telling, whole) = telling_bytes(bytes, DETECT_NON_ASCII);
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(&telling, whole);
    let encoding = detector.guess(top_level_domain(url).as_deref().map(str::as_bytes), true);
    finish(bytes, encoding, CharsetSource::Detected)
}

/// How many ASCII bytes on each side of a telling byte the detector is shown.
const DETECT_CONTEXT: usize = 16;

/// The bytes that tell encodings apart, in order, up to the `max_non_ascii`th non-ASCII
/// byte: every non-ASCII byte (and escape, which starts the ISO-2022 shifts) with
/// `DETECT_CONTEXT` bytes around it; the ASCII runs between them become one space. And
/// whether they run to the end of the page. chardetng scores each byte with the one
/// before it, so a byte's neighbours are all it needs, and its cost is linear in what it is
/// fed: on a mostly ASCII windows-1252 page it read every byte of markup for a few accented
/// letters.
fn telling_bytes(bytes: &[u8], max_non_ascii: usize) -> (Vec<u8>, bool) {
    let telling = |b: &u8| !b.is_ascii() || *b == 0x1b;
    let mut out = Vec::new();
    let mut non_ascii = 0;
    // The end of the last window copied.
    let mut copied = 0;
    while let Some(offset) = bytes[copied..].iter().position(telling) {
        let hit = copied + offset;
        let start = hit.saturating_sub(DETECT_CONTEXT).max(copied);
        if start > copied && !out.is_empty() {
            out.push(b' ');
        }
        // The window runs on while telling bytes keep coming within the context, up to the
        // budget of non-ASCII bytes.
        let mut end = hit;
        while non_ascii < max_non_ascii {
            match bytes[end..].iter().take(DETECT_CONTEXT + 1).position(telling) {
                Some(next) => {
                    end += next;
                    non_ascii += usize::from(!bytes[end].is_ascii());
                    end += 1;
                }
                None => break,
            }
        }
        let end = (end + DETECT_CONTEXT).min(bytes.len());
        out.extend_from_slice(&bytes[start..end]);
        copied = end;
        if non_ascii >= max_non_ascii {
            return (out, end == bytes.len());
        }
    }
    (out, true)
}

/// A page cannot be UTF-16 once it reached us as bytes we prescanned as ASCII; the standard
/// maps such declarations to UTF-8, and `x-user-defined` to windows-1252.
fn for_html(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
        UTF_8
    } else if encoding == encoding_rs::X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding
    }
}

fn finish(bytes: &[u8], encoding: &'static Encoding, source: CharsetSource) -> DecodedPage {
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    DecodedPage { text: text.into_owned(), encoding, source, had_errors }
}

fn top_level_domain(url: &str) -> Option<String> {
    let host = url::Url::parse(url).ok()?.host_str()?.to_ascii_lowercase();
    host.rsplit('.').next().map(str::to_string)
}

/// Finds a charset declared by a `<meta>` tag: `<meta charset=…>` or
/// `<meta http-equiv="Content-Type" content="…; charset=…">`.
fn prescan_meta(head: &[u8]) -> Option<&'static Encoding> {
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let mut from = 0;
    while let Some(pos) = find(&lower[from..], b"<meta") {
        let start = from + pos + 5;
        let end = lower[start..].iter().position(|&b| b == b'>').map_or(lower.len(), |e| start + e);
        if let Some(label) = charset_in_tag(&lower[start..end])
            && let Some(encoding) = Encoding::for_label(label)
        {
            return Some(encoding);
        }
        from = end;
    }
    None
}

fn charset_in_tag(tag: &[u8]) -> Option<&[u8]> {
    let at = find(tag, b"charset")?;
    let mut rest = &tag[at + 7..];
    rest = trim_start(rest);
    rest = rest.strip_prefix(b"=")?;
    rest = trim_start(rest);
    let (quote, body) = match rest.first() {
        Some(&q @ (b'"' | b'\'')) => (Some(q), &rest[1..]),
        _ => (None, rest),
    };
    let len = body
        .iter()
        .position(|&b| {
            Some(b) == quote || b == b';' || b.is_ascii_whitespace() || (quote.is_none() && b == b'"') || b == b'/'
        })
        .unwrap_or(body.len());
    (len > 0).then(|| &body[..len])
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &bytes[n..]
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZH: &str = "<html><head><title>新闻</title></head><body><p>北京大学今天举行了开学典礼，来自全国各地的新生参加了仪式。校长在讲话中鼓励同学们努力学习，积极探索科学的奥秘。</p></body></html>";

    #[test]
    fn undeclared_gbk_is_detected() {
        let (bytes, _, _) = encoding_rs::GBK.encode(ZH);
        assert!(std::str::from_utf8(&bytes).is_err());
        let page = decode(&bytes, None, "https://news.example.cn/a.html");
        assert_eq!(page.source, CharsetSource::Detected);
        assert_eq!(page.encoding, encoding_rs::GBK);
        assert_eq!(page.text, ZH);
    }

    #[test]
    fn the_detector_is_shown_the_telling_bytes_with_their_context() {
        let markup = "<div class=\"x\">".repeat(20);
        let page = format!("{markup}caf\u{e9} cr\u{e8}me{markup}na\u{ef}ve{markup}");
        let bytes = encoding_rs::WINDOWS_1252.encode(&page).0.into_owned();
        let (telling, whole) = telling_bytes(&bytes, DETECT_NON_ASCII);
        assert!(whole);
        // Two windows of 16 bytes around each accented run, the markup between them one space.
        let at = |b: u8| bytes.iter().position(|&x| x == b).unwrap();
        let (e_acute, e_grave, i_diaeresis) = (at(0xe9), at(0xe8), at(0xef));
        let expected = [&bytes[e_acute - 16..e_grave + 17], b" ", &bytes[i_diaeresis - 16..i_diaeresis + 17]].concat();
        assert_eq!(telling, expected);
        // The budget of non-ASCII bytes cuts the stream short.
        let (first, whole) = telling_bytes(&bytes, 1);
        assert_eq!((first.as_slice(), whole), (&bytes[e_acute - 16..e_acute + 17], false));
    }

    #[test]
    fn a_long_gbk_page_with_a_character_cut_short_is_still_gbk() {
        // Thousands of Chinese characters, then a title cut in the middle of a character (a
        // lead byte, then "..."), as forum listings do; the detector stops reading after
        // DETECT_NON_ASCII non-ASCII bytes.
        let mut bytes = encoding_rs::GBK.encode(&ZH.repeat(40)).0.into_owned();
        bytes.extend_from_slice(b"<p>[\xbb\xa8\xbc\xbe/\xbc\xa4\xc7...</p>");
        let page = decode(&bytes, None, "https://news.example.cn/a.html");
        assert_eq!((page.encoding, page.source), (encoding_rs::GBK, CharsetSource::Detected));
        assert!(page.had_errors && page.text.starts_with(ZH));
    }

    #[test]
    fn meta_http_equiv_gb2312_is_honoured() {
        let html =
            ZH.replace("<head>", "<head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">");
        let (bytes, _, _) = encoding_rs::GBK.encode(&html);
        let page = decode(&bytes, None, "https://x.example/");
        assert_eq!(page.source, CharsetSource::MetaTag);
        assert_eq!(page.text, html);
    }

    #[test]
    fn meta_charset_and_header_and_bom_precedence() {
        let (latin, _, _) = WINDOWS_1252.encode("<meta charset='windows-1252'><p>caf\u{e9}");
        assert_eq!(decode(&latin, None, "").source, CharsetSource::MetaTag);
        assert!(decode(&latin, None, "").text.contains("café"));
        // The HTTP header wins over the meta tag.
        let page = decode(b"<meta charset=gbk><p>x", Some("utf-8"), "");
        assert_eq!((page.encoding, page.source), (UTF_8, CharsetSource::HttpHeader));
        // The BOM wins over everything.
        let page = decode(b"\xEF\xBB\xBF<p>x", Some("gbk"), "");
        assert_eq!((page.encoding, page.source, page.text.as_str()), (UTF_8, CharsetSource::ByteOrderMark, "<p>x"));
    }

    #[test]
    fn valid_utf8_without_declaration_is_utf8() {
        let page = decode(ZH.as_bytes(), None, "");
        assert_eq!((page.encoding, page.source), (UTF_8, CharsetSource::ValidUtf8));
    }

    #[test]
    fn a_declaration_the_bytes_contradict_is_not_obeyed() {
        // Latin-1 bytes under a UTF-8 label (a site-wide label over an old page).
        let html = "<meta charset=utf-8><title>Biblioth\u{e8}que</title><p>Les biblioth\u{e8}ques de la ville \
                    ouvrent le dimanche. Entr\u{e9}e libre, \u{e0} partir de dix heures.";
        let (latin, _, _) = WINDOWS_1252.encode(html);
        let page = decode(&latin, None, "https://ville.example.fr/");
        assert_eq!((page.encoding, page.source), (WINDOWS_1252, CharsetSource::Detected));
        assert_eq!(page.text, html);
        let page = decode(&latin, Some("UTF-8"), "https://ville.example.fr/");
        assert_eq!((page.encoding, page.text.as_str()), (WINDOWS_1252, html));
        // GBK bytes under a UTF-8 label.
        let html = ZH.replace("<head>", "<head><meta charset=\"utf-8\">");
        let (gbk, _, _) = encoding_rs::GBK.encode(&html);
        let page = decode(&gbk, None, "https://news.example.cn/");
        assert_eq!((page.encoding, page.text.as_str()), (encoding_rs::GBK, html.as_str()));
        // UTF-8 bytes under a Latin-1 label, in the meta tag or the HTTP header.
        let html = "<meta http-equiv=Content-Type content='text/html; charset=ISO-8859-1'><p>R\u{fc}cker sagt \u{201e}ja\u{201c}";
        let page = decode(html.as_bytes(), None, "");
        assert_eq!((page.encoding, page.source, page.text.as_str()), (UTF_8, CharsetSource::ValidUtf8, html));
        let page = decode(ZH.as_bytes(), Some("gb2312"), "");
        assert_eq!((page.encoding, page.text.as_str()), (UTF_8, ZH));
    }

    #[test]
    fn a_declaration_the_bytes_do_not_contradict_stands() {
        // A stray byte in a UTF-8 page does not overturn its label.
        let mut bytes = ZH.replace("<head>", "<head><meta charset=utf-8>").into_bytes();
        bytes.insert(bytes.len() - 20, 0xff);
        let page = decode(&bytes, None, "");
        assert_eq!((page.encoding, page.source), (UTF_8, CharsetSource::MetaTag));
        assert!(page.text.contains("北京大学今天举行了开学典礼") && page.had_errors);
        // ASCII bytes are valid in both: the label stands.
        let page = decode(b"<meta charset=windows-1252><p>plain", None, "");
        assert_eq!((page.encoding, page.source), (WINDOWS_1252, CharsetSource::MetaTag));
        // Latin-1 bytes under their own label.
        let (latin, _, _) = WINDOWS_1252.encode("<p>caf\u{e9} cr\u{e8}me");
        let page = decode(&latin, Some("iso-8859-1"), "");
        assert_eq!(
            (page.encoding, page.source, page.text.as_str()),
            (WINDOWS_1252, CharsetSource::HttpHeader, "<p>café crème")
        );
    }

    #[test]
    fn a_page_cut_inside_its_last_character_is_still_utf8() {
        // A crawler's truncated record ends wherever its byte limit fell, here in a Han
        // character: the rest of the page is UTF-8, not another encoding.
        let cut = &ZH.as_bytes()[..ZH.find("奥秘").unwrap() + 2];
        let page = decode(cut, None, "https://news.example.cn/a.html");
        assert_eq!((page.encoding, page.source), (UTF_8, CharsetSource::ValidUtf8));
        assert!(page.text.ends_with("科学的\u{fffd}") && page.had_errors, "{}", page.text);
        // Under a declaration, the cut character counts neither for nor against it.
        let page = decode(cut, Some("iso-8859-1"), "");
        assert_eq!(page.encoding, UTF_8);
        let ascii = "<meta charset=utf-8><p>An English page that ends in a cut dash \u{2014}";
        let page = decode(&ascii.as_bytes()[..ascii.len() - 1], None, "https://news.example.com/");
        assert_eq!((page.encoding, page.source), (UTF_8, CharsetSource::MetaTag));
    }

    #[test]
    fn unknown_labels_and_garbage_do_not_panic() {
        let page = decode(b"<meta charset=\"no-such-charset\"><p>x\xff\xfe", Some("bogus"), "not a url");
        assert!(!page.text.is_empty());
        assert!(decode(b"", None, "").text.is_empty());
    }
}
