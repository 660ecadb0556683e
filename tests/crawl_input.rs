//! The crawl reader on fixtures we wrote, one quirk of real crawlers' files each
//! (`tests/fixtures/input/<case>/input.*`, made by `make_fixtures.py` there): the events it
//! gives are golden files (`events.txt`). `UPDATE_GOLDEN=1 cargo test --test crawl_input`
//! rewrites them.

mod common;

use common::{check_golden, repo_path};
use indexer::input::{ByteCounter, InputEvent, PageFormat, ReadOptions, Source};

/// One line per event: a page with its URL, size, charset and title, or a skipped record with
/// its reason and detail (file paths made relative).
fn render(case_dir: &std::path::Path, options: &ReadOptions) -> String {
    let input = std::fs::read_dir(case_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("input."))
        .expect("an input file");
    let prefix = format!("{}/", case_dir.display());
    let mut out = String::new();
    Source::from_path(&input)
        .unwrap()
        .visit_with(options, &ByteCounter::default(), &mut |event| {
            let line = match event {
                InputEvent::Page(p) => {
                    let text = String::from_utf8_lossy(&p.bytes);
                    let title = text.split("<title>").nth(1).and_then(|t| t.split("</title>").next()).unwrap_or("");
                    format!(
                        "page\t{}\t{} bytes\tcharset {}\ttitle {title:?}",
                        p.origin.replace(&prefix, ""),
                        p.bytes.len(),
                        p.http_charset.as_deref().unwrap_or("-")
                    )
                }
                InputEvent::Skipped(s) => {
                    format!("skipped\t{}\t{}\t{}", s.origin.replace(&prefix, ""), s.reason, s.detail)
                }
            };
            out.push_str(&line);
            out.push('\n');
            true
        })
        .unwrap();
    out
}

fn cases() -> Vec<std::path::PathBuf> {
    let mut cases: Vec<_> = std::fs::read_dir(repo_path("tests/fixtures/input"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && p.file_name().unwrap() != "real-warc")
        .collect();
    cases.sort();
    cases
}

#[test]
fn every_fixture_gives_its_golden_events() {
    let cases = cases();
    assert!(cases.len() >= 10, "crawl fixtures are missing: {cases:?}");
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let events = render(&case, &ReadOptions::new(1 << 20));
        check_golden(&format!("tests/fixtures/input/{name}/events.txt"), &events);
    }
}

#[test]
fn the_quirks_lose_no_page() {
    let pages = |case: &str| {
        render(&repo_path(&format!("tests/fixtures/input/{case}")), &ReadOptions::new(1 << 20))
            .lines()
            .filter(|l| l.starts_with("page\t"))
            .count()
    };
    assert_eq!(pages("bad-dates"), 2);
    assert_eq!(pages("stale-content-encoding"), 2);
    assert_eq!(pages("bare-lf-http-headers"), 1);
    assert_eq!(pages("single-crlf-separators"), 3);
    assert_eq!(pages("bad-header-resync"), 2);
    assert_eq!(pages("chunked"), 2);
    assert_eq!(pages("clipped-gzip"), 1);
    assert_eq!(pages("arc"), 2);
    assert_eq!(pages("arc-gzip"), 2);
    // The page and the resource record saved by wget; nothing else of the crawl.
    assert_eq!(pages("non-pages"), 2);
}

#[test]
fn the_bare_lf_page_keeps_its_title_and_body() {
    let events = render(&repo_path("tests/fixtures/input/bare-lf-http-headers"), &ReadOptions::new(1 << 20));
    assert!(events.contains("title \"Bare line feeds\""), "{events}");
}

#[test]
fn plain_text_is_indexed_on_request_but_never_robots_txt_or_logs() {
    let mut options = ReadOptions::new(1 << 20);
    options.accept.push(PageFormat::Text);
    let events = render(&repo_path("tests/fixtures/input/non-pages"), &options);
    let pages: Vec<&str> = events.lines().filter(|l| l.starts_with("page\t")).collect();
    assert_eq!(pages.len(), 3, "{events}");
    assert!(pages.iter().any(|l| l.contains("notes.txt")));
    assert!(!events.lines().any(|l| l.starts_with("page\t") && (l.contains("robots.txt") || l.contains("wget.log"))));
}
