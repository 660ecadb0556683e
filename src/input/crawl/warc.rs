//! WARC record framing (ISO 28500; versions 0.17 to 1.1): a version line, header fields up to
//! an empty line, a block of `Content-Length` bytes, and any number of empty lines.
//!
//! Only what framing needs is checked. A header that cannot be framed (no usable
//! `Content-Length`, or a header block that never ends) costs that record alone: reading
//! resumes at the next line that starts with `WARC/`.

use std::io::Read;

use super::stream::{MAX_LINE, Stream};
use super::{Framed, RecordHead, RecordKind, SkipReason};

/// A header block with more lines than this has lost its framing.
const MAX_HEADER_LINES: usize = 1024;

/// Whether a line is a WARC version line (`WARC/1.0`, `WARC/0.18`, ...).
fn is_version_line(line: &[u8]) -> bool {
    line.len() <= 16 && line.starts_with(b"WARC/") && line.get(5).is_some_and(u8::is_ascii_digit)
}

/// Frames every record of `stream`, handing each to `on_record` with the stream positioned at
/// its block; `on_record` reads or passes over the block and returns `false` to stop.
pub(super) fn records<R: Read>(stream: &mut Stream<R>, on_record: &mut dyn FnMut(Framed, &mut Stream<R>) -> bool) {
    // Bytes passed over since the last record, and where they began.
    let mut lost: Option<(u64, u64)> = None;
    // After a header that could not be framed, the bytes up to the next record are that
    // record's, already reported.
    let mut resyncing = false;
    loop {
        if stream.given_up() {
            return;
        }
        let at = stream.offset;
        let line = match stream.line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            // The rest of a record already reported as bad.
            Err(_) if resyncing => continue,
            Err(e) => {
                resyncing = true;
                lost = None;
                if !on_record(
                    Framed::Lost { offset: at, reason: SkipReason::Unreadable, detail: format!("cannot read: {e}") },
                    stream,
                ) {
                    return;
                }
                continue;
            }
        };
        if line.iter().all(u8::is_ascii_whitespace) && lost.is_none() {
            continue;
        }
        if !is_version_line(&line) {
            if resyncing {
                continue;
            }
            let (start, _) = lost.get_or_insert((at, 0));
            lost = Some((*start, stream.offset - *start));
            continue;
        }
        if let Some((start, bytes)) = lost.take() {
            let detail = format!("{bytes} bytes that are not a WARC record were passed over");
            if !on_record(Framed::Lost { offset: start, reason: SkipReason::BadRecord, detail }, stream) {
                return;
            }
        }
        let framed = match header(stream) {
            Ok(head) => Framed::Record(head),
            Err(HeaderError::Unreadable(detail)) => Framed::Lost { offset: at, reason: SkipReason::Unreadable, detail },
            Err(HeaderError::Bad(detail)) => Framed::Lost {
                offset: at,
                reason: SkipReason::BadRecord,
                detail: format!("{detail}; reading resumes at the next WARC/ line"),
            },
        };
        resyncing = matches!(framed, Framed::Lost { .. });
        if !on_record(framed, stream) {
            return;
        }
    }
    if let Some((start, bytes)) = lost {
        let detail = format!("{bytes} bytes at the end are not a WARC record");
        on_record(Framed::Lost { offset: start, reason: SkipReason::BadRecord, detail }, stream);
    }
}

/// Reads the header fields after a version line, up to the empty line.
/// Why a header could not be framed.
enum HeaderError {
    /// A read error (a damaged gzip member) inside the header.
    Unreadable(String),
    /// A header that frames no record.
    Bad(String),
}

fn header<R: Read>(stream: &mut Stream<R>) -> Result<RecordHead, HeaderError> {
    let bad = |detail: String| Err(HeaderError::Bad(detail));
    let mut kind = None;
    let mut url = String::new();
    let mut content_type = String::new();
    let mut length: Option<Result<u64, String>> = None;
    let mut last_field: Option<String> = None;
    for _ in 0..MAX_HEADER_LINES {
        let line = match stream.line() {
            Ok(Some(line)) => line,
            Ok(None) => return Err(HeaderError::Unreadable("the file ends inside a WARC header".into())),
            Err(e) => return Err(HeaderError::Unreadable(format!("cannot read the WARC header: {e}"))),
        };
        if line.is_empty() {
            let length = match length {
                Some(Ok(length)) => length,
                Some(Err(value)) => return bad(format!("the WARC header's Content-Length {value:?} is not a number")),
                None => return bad("a WARC header without Content-Length".into()),
            };
            let http = content_type.to_ascii_lowercase().starts_with("application/http")
                && !content_type.to_ascii_lowercase().contains("msgtype=request");
            let kind = kind.unwrap_or(RecordKind::Other);
            return Ok(RecordHead { kind, url, content_type, length, http });
        }
        if line.len() >= MAX_LINE {
            return bad("a WARC header line longer than 64 KiB".into());
        }
        let text = String::from_utf8_lossy(&line);
        if line[0] == b' ' || line[0] == b'\t' {
            // A folded continuation of the previous field (WARC 1.0 §4, as in RFC 2616).
            if last_field.as_deref() == Some("warc-target-uri") {
                url.push_str(text.trim());
            }
            continue;
        }
        let Some((name, value)) = text.split_once(':') else {
            // Not a field: tolerated, as warcio does, if the rest of the header frames.
            continue;
        };
        let name = name.trim().to_ascii_lowercase();
        let value = value.trim();
        match name.as_str() {
            "warc-type" => kind = Some(RecordKind::from_warc_type(value)),
            // WARC 1.0 writes the URI bare; 1.1 drafts and some writers in angle brackets.
            "warc-target-uri" => {
                let raw = &line[line.iter().position(|&b| b == b':').map_or(0, |i| i + 1)..];
                let value = super::url_of_bytes(raw.trim_ascii());
                url = value.trim_matches(|c| c == '<' || c == '>').trim().to_string();
            }
            "content-type" => content_type = value.to_string(),
            "content-length" => length = Some(value.parse::<u64>().map_err(|_| value.to_string())),
            _ => {}
        }
        last_field = Some(name);
    }
    bad(format!("a WARC header of more than {MAX_HEADER_LINES} lines"))
}
