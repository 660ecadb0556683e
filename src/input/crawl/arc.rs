//! ARC record framing (the Internet Archive's format before WARC, versions 1 and 2): a file
//! header record `filedesc://…`, then records of one header line
//! `<url> <ip> <date> <content-type> [<v2 fields>…] <length>` and `length` bytes (the HTTP
//! response, headers included, for web captures), separated by a line feed.
//!
//! A line that is not a record header is passed over up to the next one that is, and
//! reported once.

use std::io::Read;

use super::stream::Stream;
use super::{Framed, RecordHead, RecordKind, SkipReason};

/// The fields of an ARC record header line, or `None` when the line is not one.
fn record_head(line: &[u8]) -> Option<RecordHead> {
    let text = std::str::from_utf8(line).ok()?;
    let fields: Vec<&str> = text.split(' ').filter(|f| !f.is_empty()).collect();
    // Version 1 has five fields, version 2 ten; a URL with spaces adds more.
    if fields.len() < 5 {
        return None;
    }
    let length: u64 = fields.last()?.parse().ok()?;
    let url = fields[0];
    if !url.contains(':') {
        return None;
    }
    let kind = if url.starts_with("filedesc:") { RecordKind::ArcHeader } else { RecordKind::Response };
    // The content type is the fourth field in both versions.
    let content_type = fields[3].to_string();
    let http = kind == RecordKind::Response && url.to_ascii_lowercase().starts_with("http");
    Some(RecordHead { kind, url: url.to_string(), content_type, length, http })
}

/// Frames every record of `stream`, as [`super::warc::records`] does.
pub(super) fn records<R: Read>(stream: &mut Stream<R>, on_record: &mut dyn FnMut(Framed, &mut Stream<R>) -> bool) {
    let mut lost: Option<(u64, u64)> = None;
    loop {
        if stream.given_up() {
            return;
        }
        let at = stream.offset;
        let line = match stream.line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
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
        let Some(head) = record_head(&line) else {
            let (start, _) = lost.get_or_insert((at, 0));
            lost = Some((*start, stream.offset - *start));
            continue;
        };
        if let Some((start, bytes)) = lost.take() {
            let detail = format!("{bytes} bytes that are not an ARC record were passed over");
            if !on_record(Framed::Lost { offset: start, reason: SkipReason::BadRecord, detail }, stream) {
                return;
            }
        }
        if !on_record(Framed::Record(head), stream) {
            return;
        }
    }
    if let Some((start, bytes)) = lost {
        let detail = format!("{bytes} bytes at the end are not an ARC record");
        on_record(Framed::Lost { offset: start, reason: SkipReason::BadRecord, detail }, stream);
    }
}
