//! The reader on records written here; the quirks of real crawlers have file fixtures under
//! `tests/fixtures/input/` (tests/crawl_input.rs).

use std::io::Write;
use std::path::Path;

use super::*;

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

fn events_with(path: &Path, options: &ReadOptions) -> Vec<InputEvent> {
    let mut out = Vec::new();
    visit(path, options, &ByteCounter::default(), &mut |e| {
        out.push(e);
        true
    })
    .unwrap();
    out
}

fn events(path: &Path) -> Vec<InputEvent> {
    events_with(path, &ReadOptions::new(1_000_000))
}

fn reasons(events: &[InputEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            InputEvent::Page(p) => format!("page {}", p.url),
            InputEvent::Skipped(s) => s.reason.to_string(),
        })
        .collect()
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
    bytes.extend(gzip_member(&record("https://a.example/3", "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\nx")));
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
fn a_file_gzipped_in_members_of_one_byte_reads_as_gzipped_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut plain = record("https://a.example/1", "HTTP/1.1 200 OK\r\n\r\n<p>one");
    plain.extend(record("https://a.example/2", "HTTP/1.1 404 Not Found\r\n\r\nx"));
    let whole = dir.path().join("whole.warc.gz");
    std::fs::write(&whole, gzip_member(&plain)).unwrap();
    let bytewise = dir.path().join("bytewise.warc.gz");
    std::fs::write(&bytewise, plain.iter().flat_map(|b| gzip_member(&[*b])).collect::<Vec<u8>>()).unwrap();
    let expected = reasons(&events(&whole));
    assert_eq!(expected, ["page https://a.example/1", "http-status"]);
    assert_eq!(reasons(&events(&bytewise)), expected);
}

#[test]
fn a_damaged_member_costs_its_record_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.warc.gz");
    let long = format!("HTTP/1.1 200 OK\r\n\r\n<p>two, {}", "a longer body ".repeat(200));
    let mut second = gzip_member(&record("https://a.example/2", &long));
    let middle = second.len() / 2;
    second[middle..middle + 6].copy_from_slice(&[0xff; 6]);
    let bytes = [
        gzip_member(&record("https://a.example/1", "HTTP/1.1 200 OK\r\n\r\n<p>one")),
        second,
        gzip_member(&record("https://a.example/3", "HTTP/1.1 200 OK\r\n\r\n<p>three")),
    ]
    .concat();
    std::fs::write(&path, bytes).unwrap();
    let events = events(&path);
    // Damage shows either as a read error or as garbage that frames no record.
    let reasons = reasons(&events);
    assert_eq!(
        (reasons.len(), reasons[0].as_str(), reasons[2].as_str()),
        (3, "page https://a.example/1", "page https://a.example/3")
    );
    assert!(reasons[1] == "unreadable" || reasons[1] == "bad-record", "{events:?}");
}

#[test]
fn a_truncated_warc_keeps_the_records_before_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.warc.gz");
    let mut bytes = gzip_member(&record("https://a.example/1", "HTTP/1.1 200 OK\r\n\r\n<p>one"));
    let second = gzip_member(&record("https://a.example/2", "HTTP/1.1 200 OK\r\n\r\n<p>two, a longer body"));
    bytes.extend_from_slice(&second[..second.len() / 2]);
    std::fs::write(&path, bytes).unwrap();
    let events = events(&path);
    assert!(matches!(&events[0], InputEvent::Page(p) if p.url == "https://a.example/1"));
    assert!(matches!(events.last(), Some(InputEvent::Skipped(s)) if s.reason == SkipReason::Unreadable), "{events:?}");
}

#[test]
fn a_file_that_is_not_a_crawl_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.warc");
    std::fs::write(&path, b"\x00\x01binary").unwrap();
    assert!(visit(&path, &ReadOptions::new(100), &ByteCounter::default(), &mut |_| true).is_err());
}

#[test]
fn plain_text_is_a_page_only_when_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.warc");
    let bytes = [
        record("https://a.example/notes.txt", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nplain notes"),
        record("https://a.example/robots.txt", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *"),
    ]
    .concat();
    std::fs::write(&path, bytes).unwrap();
    assert_eq!(reasons(&events(&path)), ["not-a-page", "not-a-page"]);
    let mut options = ReadOptions::new(1_000_000);
    options.accept.push(PageFormat::Text);
    assert_eq!(reasons(&events_with(&path, &options)), ["page https://a.example/notes.txt", "not-a-page"]);
}

#[test]
fn bodies_without_a_content_type_are_sniffed() {
    assert_eq!(body_format("", b"\n  <!DOCTYPE html><html>"), BodyFormat::Page(PageFormat::Html));
    assert_eq!(body_format("application/octet-stream", b"just words"), BodyFormat::Page(PageFormat::Text));
    assert_eq!(body_format("", b"%PDF-1.4\n\x00\x01"), BodyFormat::Other);
    assert_eq!(body_format("application/rss+xml", b"<rss>"), BodyFormat::NotAPage);
    assert_eq!(body_format("image/png", b"\x89PNG"), BodyFormat::Other);
    assert_eq!(body_format("", b"<?xml version=\"1.0\"?><feed>"), BodyFormat::NotAPage);
}

#[test]
fn markup_served_as_plain_text_is_read_as_what_it_is() {
    assert_eq!(body_format("text/plain", b"Minutes of the meeting, 3 < 4"), BodyFormat::Page(PageFormat::Text));
    assert_eq!(body_format("text/plain", b"  <html><title>t</title>"), BodyFormat::Page(PageFormat::Html));
    assert_eq!(body_format("text/plain", b"<?xml version=\"1.0\"?><playlist>"), BodyFormat::NotAPage);
    assert_eq!(body_format("text/plain", b"<playlist version=\"1\">"), BodyFormat::NotAPage);
    assert_eq!(body_format("text/plain", b"notes\x00"), BodyFormat::Page(PageFormat::Text));
    let xhtml = b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE  html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\">";
    assert_eq!(body_format("", xhtml), BodyFormat::Page(PageFormat::Xhtml));
    assert_eq!(body_format("text/plain", b"<?xml version=\"1.0\"?><html>"), BodyFormat::Page(PageFormat::Xhtml));
    assert_eq!(body_format("", b"<!DOCTYPE\thtml><p>a"), BodyFormat::Page(PageFormat::Html));
    assert_eq!(body_format("", b"<strong>a</strong>"), BodyFormat::Page(PageFormat::Html));
}

#[test]
fn records_are_counted_by_kind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.warc");
    let request = b"WARC/1.0\r\nWARC-Type: request\r\nWARC-Target-URI: https://a.example/1\r\nContent-Length: 4\r\n\r\nGET \r\n\r\n";
    let bytes = [record("https://a.example/1", "HTTP/1.1 200 OK\r\n\r\n<p>one"), request.to_vec()].concat();
    std::fs::write(&path, bytes).unwrap();
    let counts = count_records(&path).unwrap();
    assert_eq!(counts.get("response"), Some(&1));
    assert_eq!(counts.get("request"), Some(&1));
    assert_eq!(counts.len(), 2, "{counts:?}");
}

/// Every event of a read through `inflation`'s slot 0, in a form that compares, and the
/// compressed bytes the read counted.
fn inflated_events(path: &Path, inflation: &inflated::Inflation, make: bool) -> (Vec<String>, u64) {
    let counter = ByteCounter::default();
    let mut out = Vec::new();
    visit_inflated(
        path,
        &ReadOptions::new(1_000_000),
        &counter,
        &mut |e| {
            out.push(match e {
                InputEvent::Page(p) => format!("page {} {} {:?}", p.origin, p.url, p.bytes),
                InputEvent::Skipped(s) => format!("skipped {} {} {}", s.origin, s.reason, s.detail),
            });
            true
        },
        inflated::SlotUse::new(inflation, 0, make),
    )
    .unwrap();
    (out, counter.get())
}

#[test]
fn an_inflated_copy_gives_the_same_records_and_counts_the_compressed_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.warc.gz");
    let mut bytes = Vec::new();
    for i in 0..40 {
        let body = format!("HTTP/1.1 200 OK\r\n\r\n<p>page {i} {}", gzip::tests::varied_text(i * 50));
        bytes.extend(gzip_member(&record(&format!("https://a.example/{i}"), &body)));
    }
    bytes.extend(gzip_member(&record("https://a.example/gone", "HTTP/1.1 404 Not Found\r\n\r\nx")));
    std::fs::write(&path, &bytes).unwrap();
    let plain = inflated_events(&path, &inflated::Inflation::new(1), false);
    assert_eq!(plain.0.len(), 41);
    assert_eq!(plain.1, bytes.len() as u64);

    let inflation = inflated::Inflation::new(1);
    // A read that may not make the copy does not.
    assert_eq!(inflated_events(&path, &inflation, false), plain);
    assert!(!inflation.is_ready(0));
    assert_eq!(inflated_events(&path, &inflation, true), plain);
    assert!(inflation.is_ready(0));
    // Read back from the copy (twice: each read starts at its beginning).
    assert_eq!(inflated_events(&path, &inflation, false), plain);
    assert_eq!(inflated_events(&path, &inflation, false), plain);

    // A read stopped early keeps no copy.
    let stopped = inflated::Inflation::new(1);
    let mut seen = 0;
    let sink = &mut |_| {
        seen += 1;
        seen < 3
    };
    visit_inflated(
        &path,
        &ReadOptions::new(1_000_000),
        &ByteCounter::default(),
        sink,
        inflated::SlotUse::new(&stopped, 0, true),
    )
    .unwrap();
    assert!(!stopped.is_ready(0));
}

#[test]
fn a_damaged_file_is_inflated_again_by_every_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.warc.gz");
    let first = gzip_member(&record(
        "https://a.example/1",
        &format!("HTTP/1.1 200 OK\r\n\r\n<p>{}", gzip::tests::varied_text(300)),
    ));
    let mut damaged = gzip_member(&record(
        "https://a.example/2",
        &format!("HTTP/1.1 200 OK\r\n\r\n<p>{}", gzip::tests::varied_text(300)),
    ));
    let middle = damaged.len() / 2;
    damaged[middle..middle + 8].copy_from_slice(b"\xff\xff\xff\xff\xff\xff\xff\xff");
    let last = gzip_member(&record("https://a.example/3", "HTTP/1.1 200 OK\r\n\r\n<p>three"));
    std::fs::write(&path, [first, damaged, last].concat()).unwrap();
    let plain = inflated_events(&path, &inflated::Inflation::new(1), false);
    let inflation = inflated::Inflation::new(1);
    assert_eq!(inflated_events(&path, &inflation, true), plain);
    assert!(!inflation.is_ready(0));
    assert_eq!(inflated_events(&path, &inflation, true), plain);
    assert!(plain.0.iter().any(|e| e.contains("page") && e.contains("a.example/3")), "{plain:?}");
}
