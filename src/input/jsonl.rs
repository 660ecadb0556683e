//! JSON Lines input: one JSON object per line, a web page or a text document.
//!
//! A page is `{"url": …, "html": …}`. A text document, as corpora of plain text write them
//! (Pyserini's `{"id", "contents"}`, BEIR's `{"_id", "title", "text"}`, C4's `{"url", "text"}`),
//! has `text` or `contents` instead of `html`, and an optional `title`; it is a page of format
//! `text`, so it is indexed when `--accept` lets text in, like a `text/plain` crawl record
//! ([`super::text_page`]). The identifier is `url`, else `id` (`_id`, `docid`; a string or a
//! number): a text corpus's ids stay the records' identifiers, so its judgments match them.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::Deserialize;

use super::{
    ByteCounter, InputError, InputEvent, PageFormat, RawPage, ReadOptions, SkipReason, Skipped, open_maybe_gzip,
    text_page::text_page,
};

/// One line's fields. The other names of the identifier and the text are fields of their own,
/// not serde aliases: a line may hold two of them (`id` and `docid`), which aliases would
/// reject as a duplicate field. The first present in the order of [`Line::identifier`] and
/// [`Line::text`] is taken.
#[derive(Deserialize)]
struct Line {
    url: Option<String>,
    id: Option<Identifier>,
    #[serde(rename = "_id")]
    underscore_id: Option<Identifier>,
    docid: Option<Identifier>,
    html: Option<String>,
    text: Option<String>,
    contents: Option<String>,
    title: Option<String>,
}

impl Line {
    /// `url`, else `id`, `_id`, `docid`: the first that is not blank.
    fn identifier(&mut self) -> Option<String> {
        let ids = [self.id.take(), self.underscore_id.take(), self.docid.take()];
        self.url
            .take()
            .into_iter()
            .chain(ids.into_iter().flatten().map(Identifier::into_string))
            .find(|id| !id.trim().is_empty())
    }

    /// `text`, else `contents`: the first that is not blank, else the one present (a blank
    /// text is an empty page, skipped as such).
    fn text(&mut self) -> Option<String> {
        match (self.text.take(), self.contents.take()) {
            (Some(text), Some(contents)) if text.trim().is_empty() => Some(contents),
            (text, contents) => text.or(contents),
        }
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Identifier {
    Text(String),
    Number(serde_json::Number),
}

impl Identifier {
    fn into_string(self) -> String {
        match self {
            Identifier::Text(text) => text,
            Identifier::Number(number) => number.to_string(),
        }
    }
}

const SHAPE: &str = "a JSON object with \"url\" (or \"id\") and \"html\" (or \"text\")";

/// The event of one parsed line.
fn event_of(mut line: Line, origin: String, options: &ReadOptions) -> InputEvent {
    let skipped = |reason, detail: String| InputEvent::Skipped(Skipped { origin: origin.clone(), reason, detail });
    let Some(url) = line.identifier() else {
        return skipped(SkipReason::BadRecord, format!("no \"url\" or \"id\": expected {SHAPE}"));
    };
    let text = line.text();
    let (format, body) = match (line.html, text) {
        (Some(html), _) => (PageFormat::Html, html),
        (None, Some(text)) => (PageFormat::Text, text),
        (None, None) => {
            return skipped(SkipReason::BadRecord, format!("no \"html\", \"text\" or \"contents\": expected {SHAPE}"));
        }
    };
    if body.len() as u64 > options.max_page_bytes {
        return skipped(SkipReason::TooLarge, super::too_large(options.max_page_bytes));
    }
    if !options.accept.contains(&format) {
        // As a crawl record of a format --accept leaves out.
        return match format {
            PageFormat::Text => skipped(SkipReason::NotAPage, "plain text (\"text\"); --accept text indexes it".into()),
            PageFormat::Html | PageFormat::Xhtml => {
                skipped(SkipReason::NotHtml, "HTML (\"html\"); --accept html indexes it".into())
            }
        };
    }
    let bytes = match format {
        PageFormat::Text => text_page(body.as_bytes(), line.title.as_deref()),
        PageFormat::Html | PageFormat::Xhtml => body.into_bytes(),
    };
    InputEvent::Page(RawPage { url, origin, bytes, http_charset: Some("utf-8".into()), http_language: None })
}

/// Why a line that is not a record is not: which field is wrong and what it should be, or what
/// the line is instead of an object. serde's own message names neither the field (`invalid
/// type: integer`, met in an array as in a field) nor a place the user can use: its "line 2" of
/// a cut record is the newline after it, in a file whose line number the origin already gives.
fn why_not(line: &[u8], error: &serde_json::Error) -> String {
    use serde_json::Value;
    // Without its newline, a record cut inside a string ends there, not at a control character.
    let value = match serde_json::from_slice::<Value>(line.trim_ascii_end()) {
        Ok(value) => value,
        Err(e) if e.is_eof() => {
            return format!("the line ends inside its JSON value (a cut or unfinished record); expected {SHAPE}");
        }
        Err(e) => return format!("not JSON ({} at column {}); expected {SHAPE}", without_position(&e), e.column()),
    };
    let Value::Object(fields) = value else {
        return format!("not a JSON object but {}; expected {SHAPE}", kind_of(&value));
    };
    const STRINGS: [&str; 5] = ["url", "html", "text", "contents", "title"];
    const IDENTIFIERS: [&str; 3] = ["id", "_id", "docid"];
    for name in STRINGS {
        match fields.get(name) {
            Some(Value::String(_) | Value::Null) | None => {}
            Some(Value::Number(_)) if name == "url" => {
                return "\"url\" is a number; it must be a string (a number is read as the identifier in \"id\", \"_id\" \
                        or \"docid\")"
                    .to_string();
            }
            Some(other) => return format!("\"{name}\" is {}; it must be a string", kind_of(other)),
        }
    }
    for name in IDENTIFIERS {
        match fields.get(name) {
            Some(Value::String(_) | Value::Number(_) | Value::Null) | None => {}
            Some(other) => return format!("\"{name}\" is {}; it must be a string or a number", kind_of(other)),
        }
    }
    format!("not {SHAPE}: {}", without_position(error))
}

/// serde_json's message without its ` at line L column C`.
fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(end) => message[..end].to_string(),
        None => message,
    }
}

/// A JSON value's kind, as the messages name it.
fn kind_of(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub fn visit(
    path: &Path,
    options: &ReadOptions,
    progress: &ByteCounter,
    sink: &mut dyn FnMut(InputEvent) -> bool,
) -> Result<(), InputError> {
    let max_page_bytes = options.max_page_bytes;
    let display = path.display().to_string();
    let reader = open_maybe_gzip(path, progress).map_err(|source| InputError::Io { path: display.clone(), source })?;
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    let mut number = 0usize;
    loop {
        line.clear();
        number += 1;
        let origin = format!("{display}:{number}");
        // Read at most one byte past the page cap (plus JSON overhead), so one huge line
        // cannot take the memory; the rest of that line is then discarded.
        let limit = max_page_bytes.saturating_mul(2).saturating_add(4096);
        let read = Read::take(&mut reader, limit).read_until(b'\n', &mut line);
        // Windows tools (PowerShell's Out-File, Notepad) start a UTF-8 file with a byte-order
        // mark, which JSON does not allow: it is no part of the first record.
        if number == 1 && line.starts_with(BYTE_ORDER_MARK) {
            line.drain(..BYTE_ORDER_MARK.len());
        }
        let event = match read {
            Ok(0) => break,
            Err(e) => {
                sink(InputEvent::Skipped(Skipped {
                    origin,
                    reason: SkipReason::Unreadable,
                    detail: format!("cannot read the rest of the file: {e}"),
                }));
                break;
            }
            Ok(_) if !line.ends_with(b"\n") && line.len() as u64 >= limit => {
                if let Err(e) = skip_line(&mut reader) {
                    sink(InputEvent::Skipped(Skipped {
                        origin,
                        reason: SkipReason::Unreadable,
                        detail: format!("cannot read the rest of the file: {e}"),
                    }));
                    break;
                }
                InputEvent::Skipped(Skipped {
                    origin,
                    reason: SkipReason::TooLarge,
                    detail: format!("line longer than {limit} bytes; raise input.max_page_bytes to index it"),
                })
            }
            Ok(_) if line.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(_) => match serde_json::from_slice::<Line>(&line) {
                // serde reads a struct from an array too, by position: a record is an object.
                Ok(record) if line.trim_ascii_start().starts_with(b"{") => event_of(record, origin, options),
                Ok(_) => InputEvent::Skipped(Skipped {
                    origin,
                    reason: SkipReason::BadRecord,
                    detail: format!("not a JSON object but an array; expected {SHAPE}"),
                }),
                Err(e) => {
                    InputEvent::Skipped(Skipped { origin, reason: SkipReason::BadRecord, detail: why_not(&line, &e) })
                }
            },
        };
        if !sink(event) {
            break;
        }
    }
    Ok(())
}

/// UTF-8's byte-order mark.
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

fn skip_line(reader: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            reader.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        reader.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(text: &str, options: &ReadOptions) -> Vec<InputEvent> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pages.jsonl");
        std::fs::write(&path, text).unwrap();
        let mut events = Vec::new();
        visit(&path, options, &ByteCounter::default(), &mut |e| {
            events.push(e);
            true
        })
        .unwrap();
        events
    }

    fn skip_reason(event: &InputEvent) -> Option<SkipReason> {
        match event {
            InputEvent::Skipped(s) => Some(s.reason),
            InputEvent::Page(_) => None,
        }
    }

    #[test]
    fn good_bad_and_blank_lines() {
        let events = events(
            "{\"url\":\"https://a.example/\",\"html\":\"<p>a\"}\n\nnot json\n{\"url\":\"https://b.example/\",\"html\":\"<p>b\"}",
            &ReadOptions::new(1000),
        );
        assert_eq!(events.len(), 3);
        assert!(matches!(&events[0], InputEvent::Page(p) if p.url == "https://a.example/"));
        assert!(
            matches!(&events[1], InputEvent::Skipped(s) if s.reason == SkipReason::BadRecord && s.origin.ends_with(":3"))
        );
        assert!(matches!(&events[2], InputEvent::Page(p) if p.bytes == b"<p>b"));
    }

    #[test]
    fn a_byte_order_mark_is_no_part_of_the_first_record() {
        let lines = "\u{feff}{\"url\": \"https://a.example/\", \"html\": \"<p>a\"}\r\n\u{feff}{\"url\": \"https://b.example/\"}\n";
        let events = events(lines, &ReadOptions::new(1000));
        assert!(matches!(&events[0], InputEvent::Page(p) if p.url == "https://a.example/" && p.bytes == b"<p>a"));
        // Only a file starts with one: inside, it is a bad line as any other stray character.
        assert_eq!(skip_reason(&events[1]), Some(SkipReason::BadRecord));
        assert_eq!(events.len(), 2);
    }

    #[test]
    fn a_bad_line_says_which_field_is_wrong_or_what_the_line_is() {
        let lines = [
            "[1,2,3]",
            r#"["https://a.example/", null, null, null, "<p>a"]"#,
            r#"{"url": "https://a.example/", "html": "<p>cut"#,
            r#"{"url": 123, "html": "<p>a"}"#,
            r#"{"url": "https://a.example/", "html": ["<p>a"]}"#,
            r#"{"id": true, "text": "a"}"#,
            r#"{"url": "https://a.example/", "html": "<p>a"} trailing"#,
        ]
        .join("\n");
        let details: Vec<String> = events(&lines, &ReadOptions::new(1000))
            .into_iter()
            .map(|e| match e {
                InputEvent::Skipped(s) if s.reason == SkipReason::BadRecord => s.detail,
                other => panic!("not a bad record: {:?}", skip_reason(&other)),
            })
            .collect();
        assert!(details[0].starts_with("not a JSON object but an array;"), "{}", details[0]);
        assert!(details[1].starts_with("not a JSON object but an array;"), "{}", details[1]);
        assert!(details[2].starts_with("the line ends inside its JSON value"), "{}", details[2]);
        assert!(details[3].starts_with("\"url\" is a number; it must be a string") && details[3].contains("\"id\""));
        assert!(details[4].starts_with("\"html\" is an array; it must be a string"), "{}", details[4]);
        assert!(details[5].starts_with("\"id\" is a boolean; it must be a string or a number"), "{}", details[5]);
        assert!(details[6].starts_with("not JSON (trailing characters at column"), "{}", details[6]);
        assert!(details.iter().all(|d| !d.contains("line 2") && !d.contains(" at line ")), "{details:?}");
    }

    #[test]
    fn text_documents_of_text_corpora_are_text_pages_named_by_their_ids() {
        let lines = [
            r#"{"id": "7", "title": "Wings", "text": "Lift < drag & more."}"#,
            r#"{"id": 12, "contents": "Pyserini's shape."}"#,
            r#"{"_id": "doc-3", "title": "", "text": "BEIR's shape."}"#,
            r#"{"url": "https://c4.example/a", "text": "C4's shape.", "timestamp": "2019"}"#,
            r#"{"title": "No identifier", "text": "lost"}"#,
            r#"{"id": "9", "title": "No body"}"#,
        ]
        .join("\n");
        let mut options = ReadOptions::new(1000);
        let html_only = events(&lines, &options);
        assert_eq!(
            html_only.iter().map(skip_reason).collect::<Vec<_>>(),
            [
                Some(SkipReason::NotAPage),
                Some(SkipReason::NotAPage),
                Some(SkipReason::NotAPage),
                Some(SkipReason::NotAPage),
                Some(SkipReason::BadRecord),
                Some(SkipReason::BadRecord)
            ]
        );
        assert!(matches!(&html_only[0], InputEvent::Skipped(s) if s.detail.contains("--accept text")));
        // A page line when --accept leaves HTML out: skipped, and the message names html.
        let text_only = ReadOptions { accept: vec![PageFormat::Text], ..ReadOptions::new(1000) };
        let page = events(r#"{"url": "https://a.example/", "html": "<p>a"}"#, &text_only);
        assert!(
            matches!(&page[..], [InputEvent::Skipped(s)] if s.reason == SkipReason::NotHtml && s.detail.contains("--accept html")),
            "{:?}",
            page.iter().map(skip_reason).collect::<Vec<_>>()
        );
        options.accept.push(PageFormat::Text);
        let pages: Vec<(String, String)> = events(&lines, &options)
            .into_iter()
            .filter_map(|e| match e {
                InputEvent::Page(p) => Some((p.url, String::from_utf8(p.bytes).unwrap())),
                InputEvent::Skipped(_) => None,
            })
            .collect();
        assert_eq!(
            pages,
            [
                ("7".to_string(), "<title>Wings</title>\n<p>Lift &lt; drag &amp; more.</p>\n".to_string()),
                ("12".to_string(), "<p>Pyserini's shape.</p>\n".to_string()),
                ("doc-3".to_string(), "<p>BEIR's shape.</p>\n".to_string()),
                ("https://c4.example/a".to_string(), "<p>C4's shape.</p>\n".to_string()),
            ]
        );
    }

    #[test]
    fn a_line_with_two_names_of_its_identifier_or_text_is_a_page() {
        let options = ReadOptions { accept: vec![PageFormat::Text], ..ReadOptions::new(1000) };
        let lines = [
            r#"{"id": "a-1", "docid": 17, "text": "Both.", "contents": "Other."}"#,
            r#"{"id": " ", "_id": "b-2", "contents": "Blank id."}"#,
            r#"{"id": "c-3", "text": " ", "contents": "Blank text."}"#,
        ]
        .join("\n");
        let pages: Vec<(String, String)> = events(&lines, &options)
            .into_iter()
            .map(|e| match e {
                InputEvent::Page(p) => (p.url, String::from_utf8(p.bytes).unwrap()),
                InputEvent::Skipped(s) => panic!("skipped {s:?}"),
            })
            .collect();
        assert_eq!(
            pages,
            [
                ("a-1".to_string(), "<p>Both.</p>\n".to_string()),
                ("b-2".to_string(), "<p>Blank id.</p>\n".to_string()),
                ("c-3".to_string(), "<p>Blank text.</p>\n".to_string())
            ]
        );
    }
}
