//! Hostile input: no input may panic or stop a build. Each bad record gets a one-line
//! message naming it and the reason, the summary counts the reasons, and the build goes on.

mod common;

use std::io::Write;
use std::path::Path;

use assert_cmd::Command;
use proptest::prelude::*;

use indexer::clean::CleanerKind;
use indexer::config::Config;
use indexer::input::{ByteCounter, RawPage, Source};
use indexer::page::{PageContext, process_page};
use indexer::text::StopWords;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn warc_record(url: &str, html: &str) -> Vec<u8> {
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}");
    let mut out = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{:012}>\r\nContent-Length: {}\r\n\r\n",
        url.len(),
        http.len()
    )
    .into_bytes();
    out.extend_from_slice(http.as_bytes());
    out.extend_from_slice(b"\r\n\r\n");
    out
}

const ARTICLE: &str = "<html><head><title>Harbour fog | Port News</title></head><body><h1>Harbour fog</h1>\
    <p>Thick fog closed the harbour for most of the morning and ferries waited at the quay until noon.</p></body></html>";

fn write_hostile_folder(dir: &Path) {
    std::fs::write(dir.join("a-good.html"), ARTICLE).unwrap();
    let mut huge = String::from("<html><body><p>");
    huge.push_str(&"word ".repeat(50 * 1024 * 1024 / 5));
    std::fs::write(dir.join("b-huge.html"), huge).unwrap();
    let depth = 100_000;
    std::fs::write(
        dir.join("c-deep.html"),
        format!("<body>{}deep text here{}</body>", "<div>".repeat(depth), "</div>".repeat(depth)),
    )
    .unwrap();
    std::fs::write(dir.join("d-zero.html"), b"").unwrap();
    std::fs::write(dir.join("e-binary.html"), (0..4096u32).map(|i| (i * 7919 % 256) as u8).collect::<Vec<u8>>())
        .unwrap();
    let mut invalid =
        b"<html><body><p>caf\xe9 cr\xe8me br\xfbl\xe9e and more words in Latin-1 \xff\xfe</p></body></html>".to_vec();
    invalid.extend_from_slice(&[0xc3, 0x28, 0xa0, 0xa1]);
    std::fs::write(dir.join("f-invalid-utf8.html"), invalid).unwrap();
    let links: String = (0..500).map(|i| format!("<a href='/p{i}'>link number {i}</a> ")).collect();
    std::fs::write(dir.join("g-links-only.html"), format!("<body>{links}</body>")).unwrap();
    let gz = gzip(ARTICLE.as_bytes());
    std::fs::write(dir.join("h-truncated.html.gz"), &gz[..gz.len() / 2]).unwrap();
}

#[test]
fn a_build_over_hostile_pages_finishes_and_counts_every_reason() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    write_hostile_folder(input.path());
    // A WARC cut in the middle of its second record.
    let mut warc = gzip(&warc_record("https://port.example/fog", ARTICLE));
    let second = gzip(&warc_record("https://port.example/other", &ARTICLE.replace("fog", "rain")));
    warc.extend_from_slice(&second[..second.len() - 20]);
    let warc_path = input.path().join("crawl.warc.gz");
    std::fs::write(&warc_path, warc).unwrap();

    let output = Command::cargo_bin("indexer")
        .unwrap()
        .args(["build", "--json"])
        .arg(input.path())
        .arg(&warc_path)
        .arg("--dir")
        .arg(out.path())
        .timeout(std::time::Duration::from_secs(240))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let skipped = &summary["skipped"];
    assert_eq!(skipped["too-large"], 1, "{summary}");
    assert_eq!(skipped["empty"], 1, "{summary}");
    assert_eq!(skipped["not-html"], 1, "{summary}");
    // The truncated gzip page, and the WARC's cut record (a gzip read error).
    assert_eq!(skipped["unreadable"], 2, "{summary}");
    assert_eq!(summary["warnings"]["depth_capped"], 1, "{summary}");
    // The good page, the deep page, the Latin-1 page, the link page and the WARC's first
    // record are indexed (the WARC's article is an exact copy of the folder's good page).
    assert_eq!(
        summary["pages_indexed"].as_u64().unwrap() + summary["replicas"]["exact"].as_u64().unwrap(),
        5,
        "{summary}"
    );
    for name in ["b-huge.html", "d-zero.html", "e-binary.html", "h-truncated.html.gz", "crawl.warc.gz#record-2"] {
        assert!(stderr.lines().any(|l| l.contains(name) && l.contains("skipped")), "no message for {name}:\n{stderr}");
    }
    assert!(stderr.contains("c-deep.html: markup nested deeper"), "{stderr}");
    let records = std::fs::read_to_string(out.path().join("current/docview.jsonl")).unwrap();
    assert!(records.contains("deep text here"));
    // Invalid UTF-8 is decoded by a detected legacy charset (which one is chardetng's guess
    // for such mixed bytes) and indexed.
    assert!(records.contains("and more words in Latin-1"), "the invalid UTF-8 page is indexed");
    assert!(records.contains("\"type\":\"hub\""), "the links-only page is a hub page");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Any bytes give a page or a typed reason to skip it.
    #[test]
    fn any_bytes_make_a_page_or_a_reason(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let config = Config::default();
        let stop_words = StopWords::generic();
        let ctx = PageContext::new(&config, &stop_words).unwrap();
        let raw = RawPage { url: "https://x.example/".into(), origin: "prop".into(), bytes, http_charset: None, http_language: None };
        let _ = process_page(raw, &ctx);
    }

    /// Any markup-like text too (tags, entities, scripts, CJK).
    #[test]
    fn any_markup_makes_a_page_or_a_reason(parts in proptest::collection::vec(
        prop_oneof![
            Just("<div>".to_string()), Just("</div>".to_string()), Just("<p>".to_string()), Just("<table><tr><td>".to_string()),
            Just("<a href='/x'>".to_string()), Just("</a>".to_string()), Just("<b>".to_string()), Just("<h1>".to_string()),
            Just("<img src=a.png>".to_string()), Just("<script>".to_string()), Just("<!--".to_string()), Just("&amp;".to_string()),
            Just("<title>".to_string()), Just("<noscript>".to_string()), "[a-z ]{0,12}", "[\u{4e00}-\u{4e80}]{0,6}",
        ], 0..200)) {
        let config = Config::default();
        let stop_words = StopWords::generic();
        let ctx = PageContext::new(&config, &stop_words).unwrap();
        let raw = RawPage { url: "https://x.example/".into(), origin: "prop".into(), bytes: parts.concat().into_bytes(), http_charset: None, http_language: None };
        let _ = process_page(raw, &ctx);
    }

    /// Any markup through every cleaner (the per-page cleaners of the other papers too).
    #[test]
    fn every_cleaner_takes_any_markup(parts in proptest::collection::vec(
        prop_oneof![
            Just("<div>".to_string()), Just("</div>".to_string()), Just("<p>".to_string()), Just("<table><tr><td>".to_string()),
            Just("<a href='https://elsewhere.example/'>".to_string()), Just("<a href='/x'>".to_string()), Just("</a>".to_string()),
            Just("<b>".to_string()), Just("<h1>".to_string()), Just("<form>".to_string()), Just("<ul><li>".to_string()),
            Just("<img src=a.png alt=x>".to_string()), "[a-z ]{0,60}", "[\u{4e00}-\u{4e80}]{0,50}",
        ], 0..200)) {
        let mut config = Config::default();
        let stop_words = StopWords::generic();
        for name in CleanerKind::NAMES {
            config.cleaning.cleaner = CleanerKind::from_name(name).unwrap();
            let ctx = PageContext::new(&config, &stop_words).unwrap();
            let raw = RawPage { url: "https://x.example/".into(), origin: "prop".into(), bytes: parts.concat().into_bytes(), http_charset: None, http_language: None };
            let _ = process_page(raw, &ctx);
        }
    }

    /// Any bytes in a file named .warc give records, skipped records or an error.
    #[test]
    fn any_bytes_as_a_warc_are_read_or_refused(prefix in prop_oneof![Just(b"WARC/1.0\r\n".to_vec()), Just(Vec::new())],
                                              bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.warc");
        std::fs::write(&path, [prefix, bytes].concat()).unwrap();
        let source = Source::from_path(&path).unwrap();
        let _ = source.visit(1 << 20, &ByteCounter::default(), &mut |_| true);
    }
}

/// Found by fuzzing (fuzz/fuzz_targets/warc_reader.rs): the warc crate panicked on a header
/// value that is not UTF-8. The record is read, its URL's stray bytes percent-encoded as a
/// browser would, and so is the next one.
#[test]
fn a_warc_header_that_is_not_utf8_spoils_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad-header.warc");
    let mut bytes = warc_record("https://port.example/fog", ARTICLE);
    let in_the_uri = bytes.windows(4).position(|w| w == b"port").unwrap() + 1;
    bytes[in_the_uri] = 0x86;
    bytes.extend(warc_record("https://port.example/next", ARTICLE));
    std::fs::write(&path, &bytes).unwrap();
    let mut events = Vec::new();
    Source::from_path(&path)
        .unwrap()
        .visit(1 << 20, &ByteCounter::default(), &mut |event| {
            events.push(event);
            true
        })
        .unwrap();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(
        matches!(&events[0], indexer::input::InputEvent::Page(p) if p.url == "https://p%86rt.example/fog"),
        "{events:?}"
    );
    assert!(matches!(&events[1], indexer::input::InputEvent::Page(p) if p.url == "https://port.example/next"));
}
