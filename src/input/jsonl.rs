//! JSON Lines input: one `{"url": …, "html": …}` object per line.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::Deserialize;

use super::{ByteCounter, InputError, InputEvent, RawPage, SkipReason, Skipped, open_maybe_gzip};

#[derive(Deserialize)]
struct Line {
    url: String,
    html: String,
}

pub fn visit(
    path: &Path,
    max_page_bytes: u64,
    progress: &ByteCounter,
    sink: &mut dyn FnMut(InputEvent) -> bool,
) -> Result<(), InputError> {
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
                Ok(record) if record.html.len() as u64 > max_page_bytes => InputEvent::Skipped(Skipped {
                    origin,
                    reason: SkipReason::TooLarge,
                    detail: format!("larger than {max_page_bytes} bytes; raise input.max_page_bytes to index it"),
                }),
                Ok(record) => InputEvent::Page(RawPage {
                    url: record.url,
                    origin,
                    bytes: record.html.into_bytes(),
                    http_charset: Some("utf-8".into()),
                    http_language: None,
                }),
                Err(e) => InputEvent::Skipped(Skipped {
                    origin,
                    reason: SkipReason::BadRecord,
                    detail: format!("not a {{\"url\", \"html\"}} JSON object: {e}"),
                }),
            },
        };
        if !sink(event) {
            break;
        }
    }
    Ok(())
}

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

    #[test]
    fn good_bad_and_blank_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pages.jsonl");
        std::fs::write(
            &path,
            "{\"url\":\"https://a.example/\",\"html\":\"<p>a\"}\n\nnot json\n{\"url\":\"https://b.example/\",\"html\":\"<p>b\"}",
        )
        .unwrap();
        let mut events = Vec::new();
        visit(&path, 1000, &ByteCounter::default(), &mut |e| {
            events.push(e);
            true
        })
        .unwrap();
        assert_eq!(events.len(), 3);
        assert!(matches!(&events[0], InputEvent::Page(p) if p.url == "https://a.example/"));
        assert!(
            matches!(&events[1], InputEvent::Skipped(s) if s.reason == SkipReason::BadRecord && s.origin.ends_with(":3"))
        );
        assert!(matches!(&events[2], InputEvent::Page(p) if p.bytes == b"<p>b"));
    }
}
