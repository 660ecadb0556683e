//! WARC input (plain or multi-member gzip), read with the `warc` crate's streaming reader so
//! that a record's declared length is checked against the page cap before its body is read.

use std::io::BufReader;
use std::path::Path;

use warc::{RawRecordHeader, RecordType, WarcHeader, WarcReader};

use super::http::parse_response;
use super::{ByteCounter, InputError, InputEvent, RawPage, SkipReason, Skipped, open_maybe_gzip};

/// Room for the HTTP headers on top of the page cap.
const HTTP_HEADER_ALLOWANCE: u64 = 64 * 1024;

pub fn visit(
    path: &Path,
    max_page_bytes: u64,
    progress: &ByteCounter,
    sink: &mut dyn FnMut(InputEvent) -> bool,
) -> Result<(), InputError> {
    let display = path.display().to_string();
    let io_error = |source| InputError::Io { path: display.clone(), source };
    let mut reader = BufReader::with_capacity(256 * 1024, open_maybe_gzip(path, progress).map_err(io_error)?);
    // The warc reader reads header lines unbounded; refuse a file that is not a WARC at all
    // (a binary blob without line breaks would otherwise be read whole).
    let mut magic = [0u8; 5];
    let n = {
        use std::io::BufRead;
        let buf = reader.fill_buf().map_err(|e| InputError::Format {
            path: display.clone(),
            message: format!("cannot read (corrupt gzip?): {e}"),
        })?;
        let n = buf.len().min(5);
        magic[..n].copy_from_slice(&buf[..n]);
        n
    };
    if n == 0 {
        return Ok(());
    }
    if n < 5 || magic != *b"WARC/" {
        return Err(InputError::Format {
            path: display,
            message: "not a WARC file (it does not start with \"WARC/\")".into(),
        });
    }
    let mut warc = WarcReader::new(reader);
    let mut records = warc.stream_records();
    let mut number = 0usize;
    while let Some(next) = records.next_item() {
        number += 1;
        let origin = format!("{display}#record-{number}");
        let record = match next {
            Ok(record) => record,
            Err(e) => {
                // The stream position is unknown after a bad record: the rest of the file is lost.
                sink(InputEvent::Skipped(Skipped {
                    origin,
                    reason: SkipReason::BadRecord,
                    detail: format!("{}; the rest of this WARC file is not read (is it truncated?)", describe(&e)),
                }));
                break;
            }
        };
        if !matches!(record.warc_type(), RecordType::Response | RecordType::Resource) {
            continue;
        }
        let is_response = matches!(record.warc_type(), RecordType::Response);
        let event = if record.content_length() > max_page_bytes + HTTP_HEADER_ALLOWANCE {
            InputEvent::Skipped(Skipped {
                origin,
                reason: SkipReason::TooLarge,
                detail: format!(
                    "record of {} bytes is larger than {max_page_bytes}; raise input.max_page_bytes to index it",
                    record.content_length()
                ),
            })
        } else {
            // The warc crate's `Record::header` panics on a header value that is not UTF-8
            // (found by fuzzing), so the headers are read from the raw record instead.
            let (headers, block) = match record.into_buffered() {
                Ok(buffered) => buffered.into_raw_parts(),
                Err(e) => {
                    sink(InputEvent::Skipped(Skipped {
                        origin,
                        reason: SkipReason::Unreadable,
                        detail: format!("cannot read the record: {e}; the rest of this WARC file is not read"),
                    }));
                    break;
                }
            };
            record_event(&headers, block, is_response, origin, max_page_bytes)
        };
        if !sink(event) {
            break;
        }
    }
    Ok(())
}

/// The page of a response or resource record whose body fits the cap.
fn record_event(
    headers: &RawRecordHeader,
    block: Vec<u8>,
    is_response: bool,
    origin: String,
    max_page_bytes: u64,
) -> InputEvent {
    let url = match headers.headers.get(&WarcHeader::TargetURI).map(|v| std::str::from_utf8(v)) {
        None => String::new(),
        Some(Ok(url)) => url.trim().trim_matches(|c| c == '<' || c == '>').to_string(),
        Some(Err(_)) => {
            return InputEvent::Skipped(Skipped {
                origin,
                reason: SkipReason::BadRecord,
                detail: "the WARC-Target-URI header is not UTF-8".into(),
            });
        }
    };
    if url.is_empty() {
        return InputEvent::Skipped(Skipped {
            origin,
            reason: SkipReason::BadRecord,
            detail: "no WARC-Target-URI header".into(),
        });
    }
    let origin = format!("{origin} ({url})");
    if is_response {
        return response_event(url, origin, &block, max_page_bytes);
    }
    let charset = headers
        .headers
        .get(&WarcHeader::ContentType)
        .and_then(|ct| super::http::charset_of_content_type(&String::from_utf8_lossy(ct)));
    InputEvent::Page(RawPage { url, origin, bytes: block, http_charset: charset })
}

fn response_event(url: String, origin: String, block: &[u8], max_page_bytes: u64) -> InputEvent {
    let skipped = |reason, detail| InputEvent::Skipped(Skipped { origin: origin.clone(), reason, detail });
    match parse_response(block, max_page_bytes) {
        Err(e) => skipped(SkipReason::BadRecord, format!("bad HTTP response: {e}")),
        Ok(r) if !(200..300).contains(&r.status) => {
            skipped(SkipReason::HttpStatus, format!("HTTP status {}", r.status))
        }
        Ok(r) if !r.is_html() => {
            skipped(SkipReason::NotHtml, format!("content type {}", r.content_type.as_deref().unwrap_or("?")))
        }
        Ok(r) if r.body.len() as u64 > max_page_bytes => skipped(
            SkipReason::TooLarge,
            format!("larger than {max_page_bytes} bytes; raise input.max_page_bytes to index it"),
        ),
        Ok(r) => {
            let http_charset = r.charset();
            InputEvent::Page(RawPage { url, origin, bytes: r.body, http_charset })
        }
    }
}

fn describe(e: &warc::Error) -> String {
    match e {
        warc::Error::ReadData(io) => format!("cannot read: {io}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn record(url: &str, http: &str) -> Vec<u8> {
        let mut out = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:{}>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            uuid_for(url),
            http.len()
        )
        .into_bytes();
        out.extend_from_slice(http.as_bytes());
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    fn uuid_for(url: &str) -> String {
        format!("00000000-0000-0000-0000-{:012x}", url.len())
    }

    fn gzip_member(bytes: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    fn events(path: &Path) -> Vec<InputEvent> {
        let mut out = Vec::new();
        visit(path, 1_000_000, &ByteCounter::default(), &mut |e| {
            out.push(e);
            true
        })
        .unwrap();
        out
    }

    #[test]
    fn multi_member_gzip_warc_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc.gz");
        let mut bytes = gzip_member(&record(
            "https://a.example/1",
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=gbk\r\n\r\n<p>one",
        ));
        bytes.extend(gzip_member(&record("https://a.example/2", "HTTP/1.1 404 Not Found\r\n\r\nx")));
        bytes
            .extend(gzip_member(&record("https://a.example/3", "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\nx")));
        bytes.extend(gzip_member(&record("https://a.example/4", "HTTP/1.1 200 OK\r\n\r\n<p>four")));
        std::fs::write(&path, bytes).unwrap();
        let events = events(&path);
        assert_eq!(events.len(), 4);
        assert!(
            matches!(&events[0], InputEvent::Page(p) if p.url == "https://a.example/1" && p.http_charset.as_deref() == Some("gbk") && p.bytes == b"<p>one")
        );
        assert!(matches!(&events[1], InputEvent::Skipped(s) if s.reason == SkipReason::HttpStatus));
        assert!(matches!(&events[2], InputEvent::Skipped(s) if s.reason == SkipReason::NotHtml));
        assert!(matches!(&events[3], InputEvent::Page(p) if p.bytes == b"<p>four"));
    }

    #[test]
    fn truncated_warc_keeps_the_records_before_the_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.warc.gz");
        let mut bytes = gzip_member(&record("https://a.example/1", "HTTP/1.1 200 OK\r\n\r\n<p>one"));
        let second = gzip_member(&record("https://a.example/2", "HTTP/1.1 200 OK\r\n\r\n<p>two, a longer body"));
        bytes.extend_from_slice(&second[..second.len() / 2]);
        std::fs::write(&path, bytes).unwrap();
        let events = events(&path);
        assert!(matches!(&events[0], InputEvent::Page(p) if p.url == "https://a.example/1"));
        assert!(matches!(events.last(), Some(InputEvent::Skipped(_))), "{events:?}");
    }

    #[test]
    fn a_file_that_is_not_a_warc_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.warc");
        std::fs::write(&path, b"\x00\x01binary").unwrap();
        assert!(visit(&path, 100, &ByteCounter::default(), &mut |_| true).is_err());
    }
}
