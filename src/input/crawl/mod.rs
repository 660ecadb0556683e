//! Crawl files: WARC (0.17 to 1.1) and ARC, plain or gzipped member by member.
//!
//! Records are read as leniently as the best archive readers do, so that every record
//! warcio reads, this reads too:
//! - a damaged gzip member spoils the records in it, never the rest of the file
//!   ([`gzip::Members`] resumes at the next member);
//! - a record whose header cannot be framed (no `Content-Length`, a line that is not a
//!   header) is reported and reading resumes at the next `WARC/` line;
//! - header values are not validated beyond what reading needs: a bad date, an odd record ID
//!   or a value that is not UTF-8 spoils nothing;
//! - records may be separated by two CRLFs, one, or none, and lines may end in LF.
//!
//! Every capture (a `response`, `resource`, `revisit`, `conversion` or `continuation` record,
//! or an ARC record) becomes one event: a page, or a skipped record with its reason. The
//! records that describe captures (`request`, `metadata`, `warcinfo`, the ARC file header)
//! are not captures and are not counted. [`count_records`] tells every record by type.

mod arc;
pub(crate) mod gzip;
mod http;
pub mod inflated;
mod stream;
mod warc;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use super::{ByteCounter, CountingReader, InputError, InputEvent, RawPage, SkipReason, Skipped};
use inflated::{SlotState, SlotUse};
use stream::Stream;

pub use http::charset_of_content_type;
/// The HTTP response parser of WARC and ARC records, public so the `http_body` fuzz target
/// drives the body decoders directly.
pub use http::{HttpResponse, parse_response};

/// Room for the HTTP headers on top of the page cap.
const HTTP_HEADER_ALLOWANCE: u64 = 64 * 1024;

pub use crate::config::PageFormat;

/// How records become pages.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    pub max_page_bytes: u64,
    pub accept: Vec<PageFormat>,
}

impl crate::config::InputConfig {
    /// How the readers turn records into pages.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions { max_page_bytes: self.max_page_bytes, accept: self.accept.clone() }
    }
}

impl ReadOptions {
    pub fn new(max_page_bytes: u64) -> ReadOptions {
        ReadOptions { max_page_bytes, accept: PageFormat::DEFAULT.to_vec() }
    }
}

/// The kind of a crawl record, as WARC names them (an ARC record is a `response`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RecordKind {
    Response,
    Resource,
    Revisit,
    Conversion,
    Continuation,
    Request,
    Metadata,
    Warcinfo,
    /// An ARC file's version block (`filedesc://`).
    ArcHeader,
    /// A WARC-Type this reader does not know.
    Other,
}

impl RecordKind {
    fn from_warc_type(value: &str) -> RecordKind {
        match value.trim().to_ascii_lowercase().as_str() {
            "response" => RecordKind::Response,
            "resource" => RecordKind::Resource,
            "revisit" => RecordKind::Revisit,
            "conversion" => RecordKind::Conversion,
            "continuation" => RecordKind::Continuation,
            "request" => RecordKind::Request,
            "metadata" => RecordKind::Metadata,
            "warcinfo" => RecordKind::Warcinfo,
            _ => RecordKind::Other,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Response => "response",
            RecordKind::Resource => "resource",
            RecordKind::Revisit => "revisit",
            RecordKind::Conversion => "conversion",
            RecordKind::Continuation => "continuation",
            RecordKind::Request => "request",
            RecordKind::Metadata => "metadata",
            RecordKind::Warcinfo => "warcinfo",
            // warcio reads an ARC file's header as the warcinfo record it stands for.
            RecordKind::ArcHeader => "warcinfo",
            RecordKind::Other => "other",
        }
    }

    /// Whether the record holds a captured document (and so is a record read of the build).
    fn is_capture(self) -> bool {
        matches!(
            self,
            RecordKind::Response
                | RecordKind::Resource
                | RecordKind::Revisit
                | RecordKind::Conversion
                | RecordKind::Continuation
                | RecordKind::Other
        )
    }
}

/// One record as framed by the WARC or ARC parser, before its body is looked at.
struct RecordHead {
    kind: RecordKind,
    url: String,
    /// The record's own Content-Type (WARC) or the ARC header's content type.
    content_type: String,
    length: u64,
    /// Whether the block starts with an HTTP status line and headers.
    http: bool,
}

/// What a parser hands to its caller for each record.
enum Framed {
    /// A record whose block comes next in the stream.
    Record(RecordHead),
    /// A stretch of the file that is not a record (`BadRecord`), or that could not be read
    /// (`Unreadable`); reading resumes after it.
    Lost { offset: u64, reason: SkipReason, detail: String },
}

/// The file's bytes, decompressed when they start with the gzip magic.
fn open(path: &Path, progress: &ByteCounter) -> std::io::Result<Box<dyn Read + Send>> {
    let (counted, gzipped) = open_counted(path, progress)?;
    if gzipped { Ok(Box::new(gzip::Members::new(counted))) } else { Ok(Box::new(counted)) }
}

/// The file, counting what is read from it, and whether it starts with the gzip magic.
fn open_counted(path: &Path, progress: &ByteCounter) -> std::io::Result<(CountingReader<std::fs::File>, bool)> {
    let mut file = std::fs::File::open(path)?;
    let mut magic = [0u8; 2];
    let n = super::read_up_to(&mut file, &mut magic)?;
    use std::io::Seek;
    file.seek(std::io::SeekFrom::Start(0))?;
    Ok((CountingReader { inner: file, counter: progress.clone() }, n == 2 && magic == [0x1f, 0x8b]))
}

/// Which format a file is, from its first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Warc,
    Arc,
}

fn sniff<R: Read>(stream: &mut Stream<R>, display: &str) -> Result<Option<Format>, InputError> {
    let format_error = |message: String| InputError::Format { path: display.to_string(), message };
    loop {
        match stream.starts_with(b"") {
            Ok(_) => {}
            Err(e) => return Err(format_error(format!("cannot read (corrupt gzip?): {e}"))),
        }
        let starts = |s: &mut Stream<R>, p: &[u8]| s.starts_with(p).unwrap_or(false);
        if starts(stream, b"WARC/") {
            return Ok(Some(Format::Warc));
        }
        if starts(stream, b"filedesc://") {
            return Ok(Some(Format::Arc));
        }
        if starts(stream, b"\r\n") || starts(stream, b"\n") {
            let _ = stream.line();
            continue;
        }
        return match stream.block(1, false).read {
            0 => Ok(None),
            _ => Err(format_error(
                "not a WARC or ARC file (it starts with neither \"WARC/\" nor \"filedesc://\")".into(),
            )),
        };
    }
}

/// Reads every capture of a WARC or ARC file, handing each page or skipped record to `sink`
/// until it returns `false`.
pub fn visit(
    path: &Path,
    options: &ReadOptions,
    progress: &ByteCounter,
    sink: &mut dyn FnMut(InputEvent) -> bool,
) -> Result<(), InputError> {
    let display = path.display().to_string();
    let reader = open(path, progress).map_err(|source| InputError::Io { path: display.clone(), source })?;
    visit_reader(&display, reader, options, sink).map(|_| ())
}

/// [`visit`] through the input's slot of inflated copies ([`inflated`]): a gzipped file
/// whose copy is ready is read from it; otherwise, when the read may make it, it is made.
pub fn visit_inflated(
    path: &Path,
    options: &ReadOptions,
    progress: &ByteCounter,
    sink: &mut dyn FnMut(InputEvent) -> bool,
    slot_use: SlotUse<'_>,
) -> Result<(), InputError> {
    let Some(slot) = slot_use.inflation.slot(slot_use.index) else { return visit(path, options, progress, sink) };
    let display = path.display().to_string();
    let io_error = |source| InputError::Io { path: display.clone(), source };
    let mut state = slot.lock();
    match &*state {
        SlotState::Ready(copy) => {
            let reader = copy.reader(progress).map_err(io_error)?;
            visit_reader(&display, reader, options, sink).map(|_| ())
        }
        SlotState::Unavailable => visit(path, options, progress, sink),
        SlotState::Untried if !slot_use.make => visit(path, options, progress, sink),
        SlotState::Untried => {
            let compressed = ByteCounter::default();
            let (counted, gzipped) = open_counted(path, progress).map_err(io_error)?;
            if !gzipped {
                *state = SlotState::Unavailable;
                return visit_reader(&display, counted, options, sink).map(|_| ());
            }
            let counted = CountingReader { inner: counted, counter: compressed.clone() };
            let recording = inflated::Recording::new(gzip::Members::new(counted), slot_use.inflation.room());
            let recording = visit_reader(&display, recording, options, sink);
            let (copy, result) = match recording {
                Ok(recording) => (recording.finish(compressed.get()), Ok(())),
                Err(e) => (None, Err(e)),
            };
            *state = copy.map_or(SlotState::Unavailable, SlotState::Ready);
            result
        }
    }
}

/// [`visit`] of the decompressed bytes `reader` gives; returns the reader.
fn visit_reader<R: Read>(
    display: &str,
    reader: R,
    options: &ReadOptions,
    sink: &mut dyn FnMut(InputEvent) -> bool,
) -> Result<R, InputError> {
    let mut stream = Stream::new(reader);
    let Some(format) = sniff(&mut stream, display)? else { return Ok(stream.into_inner()) };
    let mut number = 0usize;
    let mut on_record = |framed: Framed, stream: &mut Stream<R>| -> bool {
        number += 1;
        let event = match framed {
            Framed::Lost { offset, reason, detail } => InputEvent::Skipped(Skipped {
                origin: format!("{display}#record-{number}"),
                reason,
                detail: format!("at byte {offset} of the decompressed file: {detail}"),
            }),
            Framed::Record(head) => match capture_event(head, stream, options, &format!("{display}#record-{number}")) {
                Some(event) => event,
                None => return true,
            },
        };
        sink(event)
    };
    match format {
        Format::Warc => warc::records(&mut stream, &mut on_record),
        Format::Arc => arc::records(&mut stream, &mut on_record),
    }
    Ok(stream.into_inner())
}

/// Every record of a crawl file by kind (as `warcio` counts them: a `dns:` response is a
/// response), with the framing failures under `lost`.
pub fn count_records(path: &Path) -> Result<BTreeMap<String, usize>, InputError> {
    let display = path.display().to_string();
    let reader =
        open(path, &ByteCounter::default()).map_err(|source| InputError::Io { path: display.clone(), source })?;
    let mut stream = Stream::new(reader);
    let mut counts = BTreeMap::new();
    let Some(format) = sniff(&mut stream, &display)? else { return Ok(counts) };
    let mut on_record = |framed: Framed, stream: &mut Stream<Box<dyn Read + Send>>| -> bool {
        let name = match framed {
            Framed::Lost { .. } => "lost",
            Framed::Record(head) => {
                stream.block(head.length, false);
                head.kind.as_str()
            }
        };
        *counts.entry(name.to_string()).or_insert(0) += 1;
        true
    };
    match format {
        Format::Warc => warc::records(&mut stream, &mut on_record),
        Format::Arc => arc::records(&mut stream, &mut on_record),
    }
    Ok(counts)
}

/// The event of a record whose block comes next in `stream`, the block read or passed
/// over; `None` for a record that is not a capture.
fn capture_event<R: Read>(
    head: RecordHead,
    stream: &mut Stream<R>,
    options: &ReadOptions,
    origin: &str,
) -> Option<InputEvent> {
    if !head.kind.is_capture() {
        stream.block(head.length, false);
        return None;
    }
    let origin = if head.url.is_empty() { origin.to_string() } else { format!("{origin} ({})", head.url) };
    let skipped =
        |reason, detail: String| Some(InputEvent::Skipped(Skipped { origin: origin.clone(), reason, detail }));
    let not_page = not_a_page(&head);
    let too_large = head.length > options.max_page_bytes + HTTP_HEADER_ALLOWANCE;
    let wanted = not_page.is_none()
        && !too_large
        && matches!(head.kind, RecordKind::Response | RecordKind::Resource | RecordKind::Conversion);
    let block = stream.block(head.length, wanted);
    if let Some(error) = block.error {
        return skipped(
            SkipReason::Unreadable,
            format!("the record is cut after {} of its {} bytes: {error}", block.read, head.length),
        );
    }
    if block.read < head.length {
        return skipped(
            SkipReason::Unreadable,
            format!("the file ends after {} of the record's {} bytes (is it truncated?)", block.read, head.length),
        );
    }
    match head.kind {
        RecordKind::Revisit => {
            return skipped(
                SkipReason::Revisit,
                "a revisit record: the crawler did not store the payload again".into(),
            );
        }
        RecordKind::Continuation => {
            return skipped(
                SkipReason::BadRecord,
                "a continuation of a segmented record; segments are not joined".into(),
            );
        }
        RecordKind::Other => return skipped(SkipReason::BadRecord, "an unknown WARC-Type".into()),
        _ => {}
    }
    if head.url.is_empty() {
        return skipped(SkipReason::BadRecord, "no target URI".into());
    }
    if let Some(detail) = not_page {
        return skipped(SkipReason::NotAPage, detail);
    }
    if too_large {
        return skipped(
            SkipReason::TooLarge,
            format!(
                "record of {} bytes is larger than {}; raise input.max_page_bytes to index it",
                head.length, options.max_page_bytes
            ),
        );
    }
    // Writers that leave out the record's Content-Type, or give the payload's, still store
    // the HTTP response of a response record: its status line says so.
    let http = head.http || (head.kind == RecordKind::Response && block.bytes.starts_with(b"HTTP/"));
    let (body, content_type, http_language) = if http {
        match http::parse_response(&block.bytes, options.max_page_bytes) {
            Err(e) => return skipped(SkipReason::BadRecord, format!("bad HTTP response: {e}")),
            Ok(r) if !(200..300).contains(&r.status) => {
                return skipped(SkipReason::HttpStatus, format!("HTTP status {}", r.status));
            }
            Ok(r) => (r.body, r.content_type, r.content_language),
        }
    } else {
        (block.bytes, Some(head.content_type.clone()).filter(|c| !c.trim().is_empty()), None)
    };
    if body.len() as u64 > options.max_page_bytes {
        return skipped(SkipReason::TooLarge, super::too_large(options.max_page_bytes));
    }
    let declared = content_type.as_deref().map(http::media_type).unwrap_or_default();
    match body_format(&declared, &body) {
        BodyFormat::Page(format) if options.accept.contains(&format) => {
            let http_charset = content_type.as_deref().and_then(charset_of_content_type);
            let bytes = if format == PageFormat::Text { super::text_page::text_page(&body, None) } else { body };
            Some(InputEvent::Page(RawPage { url: head.url, origin, bytes, http_charset, http_language }))
        }
        BodyFormat::Page(format) => skipped(
            if format == PageFormat::Text { SkipReason::NotAPage } else { SkipReason::NotHtml },
            format!("{} ({}); --accept {} indexes it", describe_type(&declared), format.as_str(), format.as_str()),
        ),
        BodyFormat::NotAPage => skipped(SkipReason::NotAPage, format!("{}, not a page", describe_type(&declared))),
        BodyFormat::Other => skipped(SkipReason::NotHtml, describe_type(&declared)),
    }
}

/// A URL from raw header bytes: bytes that are not UTF-8 are percent-encoded, as browsers
/// send them, so the page keeps an identifier that is a valid URL.
fn url_of_bytes(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => {
            bytes
                .iter()
                .map(|&b| {
                    if b.is_ascii() && !b.is_ascii_control() { char::from(b).to_string() } else { format!("%{b:02X}") }
                })
                .collect()
        }
    }
}

fn describe_type(media_type: &str) -> String {
    if media_type.is_empty() { "no content type".into() } else { format!("content type {media_type}") }
}

/// Why a capture is not a page whatever its body: a DNS lookup, a crawler's log or other
/// record of a scheme that names no document, a robots.txt file.
fn not_a_page(head: &RecordHead) -> Option<String> {
    let url = head.url.trim();
    let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase()).unwrap_or_default();
    // Documents have locations on the web or a disk (warcit and bench copies write file:
    // URIs); dns:, metadata:, whois:, urn: and the like name crawler data.
    if !url.is_empty() && !matches!(scheme.as_str(), "http" | "https" | "ftp" | "file") {
        return Some(format!("a {scheme}: record, not a web page"));
    }
    let path = url.split(['?', '#']).next().unwrap_or("");
    if path.to_ascii_lowercase().ends_with("/robots.txt") {
        return Some("robots.txt, a crawler's instructions, not a page".into());
    }
    None
}

/// What a body is, from its declared media type, or from its first bytes when none is
/// declared (or only a generic one).
#[derive(Debug, PartialEq, Eq)]
enum BodyFormat {
    Page(PageFormat),
    /// Text that is no page: feeds, XML, JSON, text of other kinds.
    NotAPage,
    /// Media, documents, scripts, style sheets.
    Other,
}

fn body_format(media_type: &str, body: &[u8]) -> BodyFormat {
    match media_type {
        "text/html" => BodyFormat::Page(PageFormat::Html),
        "application/xhtml+xml" => BodyFormat::Page(PageFormat::Xhtml),
        // Servers label markup text/plain too (playlists, feeds, pages); read as text, it
        // would be its tags.
        "text/plain" => match sniff_body(body) {
            BodyFormat::Other => BodyFormat::Page(PageFormat::Text),
            sniffed => sniffed,
        },
        "" | "application/octet-stream" | "unknown/unknown" | "no-type" | "unk" | "binary/octet-stream" => {
            sniff_body(body)
        }
        "text/css" | "text/javascript" | "application/javascript" | "application/x-javascript" => BodyFormat::Other,
        t if t.ends_with("+xml") || t.ends_with("/xml") || t.contains("json") || t.starts_with("text/") => {
            BodyFormat::NotAPage
        }
        _ => BodyFormat::Other,
    }
}

/// Elements an HTML document (or a fragment served as one) opens with.
const HTML_OPENERS: &[&[u8]] = &[
    b"html",
    b"head",
    b"body",
    b"title",
    b"meta",
    b"link",
    b"base",
    b"script",
    b"style",
    b"noscript",
    b"div",
    b"p",
    b"pre",
    b"table",
    b"center",
    b"font",
    b"span",
    b"a",
    b"br",
    b"hr",
    b"form",
    b"ul",
    b"ol",
    b"li",
    b"dl",
    b"header",
    b"nav",
    b"main",
    b"section",
    b"article",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"img",
    b"b",
    b"i",
    b"iframe",
    b"frameset",
    b"footer",
    b"aside",
    b"figure",
    b"blockquote",
    b"strong",
    b"em",
    b"tr",
    b"td",
    b"small",
    b"label",
    b"input",
];

/// Whether lower-cased markup opens with an HTML document type (`<!doctype html`, any blanks
/// between the two words).
fn opens_html_document(lower: &[u8]) -> bool {
    lower.strip_prefix(b"<!doctype").is_some_and(|rest| {
        let blanks = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        blanks > 0 && rest[blanks..].starts_with(b"html")
    })
}

/// The format of a body without a useful media type: markup that opens like HTML is HTML;
/// other markup (`<?xml`, `<rss`, `<playlist`) is no page; text is plain text; anything else
/// is not a page.
fn sniff_body(body: &[u8]) -> BodyFormat {
    let head = &body[..body.len().min(1024)];
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let start = head.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(head.len());
    let lower = head[start..].to_ascii_lowercase();
    // XHTML opens with an XML declaration; what follows it tells an XHTML page from a feed.
    if let Some(end) = lower.strip_prefix(b"<?xml").and_then(|rest| rest.windows(2).position(|w| w == b"?>")) {
        let rest = &lower[5 + end + 2..];
        let rest = &rest[rest.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(rest.len())..];
        if opens_html_document(rest) || rest.starts_with(b"<html") {
            return BodyFormat::Page(PageFormat::Xhtml);
        }
        return BodyFormat::NotAPage;
    }
    if opens_html_document(&lower) || lower.starts_with(b"<!--") {
        return BodyFormat::Page(PageFormat::Html);
    }
    if let [b'<', next, ..] = lower[..] {
        let name: Vec<u8> = lower[1..].iter().copied().take_while(u8::is_ascii_alphanumeric).collect();
        if HTML_OPENERS.contains(&name.as_slice()) {
            return BodyFormat::Page(PageFormat::Html);
        }
        if next.is_ascii_alphabetic() || next == b'?' || next == b'!' {
            return BodyFormat::NotAPage;
        }
    }
    let text = !head.is_empty() && head.iter().all(|&b| b >= 0x20 || matches!(b, b'\t' | b'\n' | b'\r' | 0x0c));
    if text { BodyFormat::Page(PageFormat::Text) } else { BodyFormat::Other }
}
