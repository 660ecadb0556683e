//! Golden fixtures per stage for the pages in `tests/fixtures/pages/`:
//! - `tagtree/<case>/outline.txt`: the markup tag tree (§3.1);
//! - `clean/<case>/topic.txt`, `topic-paper.txt`, `topic.html`: the topic content of the
//!   `docview` and the paper-faithful cleaner (§4), and the purified page;
//! - `clean/<case>/topic-blocks.txt`: the topic content of the default cleaner, the learned
//!   block classifier over `docview`'s result;
//! - `clean/<case>/topic-satisfiable.txt`, `topic-pab.txt`: the topic content of the other
//!   papers' per-page cleaners;
//! - `clean/<case>/topic-sst.txt`: the `sst` cleaner on the lone page (a site of one page:
//!   the `docview` fallback), and `sites/<site>/topic-sst/<page>.txt`: the `sst` cleaner on
//!   each page of a small site after learning its style tree from all of them;
//! - `clean/<case>/topic-mountain.txt`: the topic content of the Mountain Model cleaner;
//! - `docview/<case>/docview.json`: the DocView record (§6).
//!
//! `UPDATE_GOLDEN=1 cargo test --test golden` rewrites them.

mod common;

use common::{check_golden, repo_path};
use indexer::clean::{Cleaner, CleanerKind, Layout, block_weights, clean_page, site_of};
use indexer::config::Config;
use indexer::input::RawPage;
use indexer::page::{PageContext, process_page};
use indexer::text::StopWords;

fn cases() -> Vec<(String, Vec<u8>)> {
    let mut cases: Vec<(String, Vec<u8>)> = std::fs::read_dir(repo_path("tests/fixtures/pages"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    cases.sort();
    assert!(cases.len() >= 6, "fixture pages are missing");
    cases
}

fn raw(case: &str, bytes: &[u8]) -> RawPage {
    RawPage {
        url: format!("https://fixtures.example/{case}.html"),
        origin: case.to_string(),
        bytes: bytes.to_vec(),
        http_charset: None,
        http_language: None,
    }
}

#[test]
fn tag_trees_match_their_golden_outlines() {
    let config = Config::default();
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words).unwrap();
    for (case, bytes) in cases() {
        let (tree, _) = ctx.tag_tree(&raw(&case, &bytes));
        let outline = Layout::of(&tree, &config.layout).outline(&tree);
        check_golden(&format!("tests/fixtures/tagtree/{case}/outline.txt"), &outline);
    }
}

#[test]
fn topic_content_matches_its_golden_files() {
    let config = Config::default();
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words).unwrap();
    for (case, bytes) in cases() {
        let page = raw(&case, &bytes);
        let (tree, _) = ctx.tag_tree(&page);
        let weights = block_weights(&tree, &config.block_weight);
        let layout = Layout::of(&tree, &config.layout);
        for (kind, file) in [(CleanerKind::DocView, "topic.txt"), (CleanerKind::DocViewPaper, "topic-paper.txt")] {
            let content = clean_page(&tree, &layout, &weights, kind, &config);
            let text = format!("type: {}\n\n{}\n", content.page_type.as_str(), content.text(&tree));
            check_golden(&format!("tests/fixtures/clean/{case}/{file}"), &text);
            if kind == CleanerKind::DocView {
                let base = url::Url::parse(&page.url).ok();
                check_golden(
                    &format!("tests/fixtures/clean/{case}/topic.html"),
                    &content.html(&tree, &tree.title, base.as_ref()),
                );
            }
        }
        for (kind, file) in [
            (CleanerKind::Satisfiable, "topic-satisfiable.txt"),
            (CleanerKind::Pab, "topic-pab.txt"),
            (CleanerKind::Mountain, "topic-mountain.txt"),
            (CleanerKind::Blocks, "topic-blocks.txt"),
        ] {
            let cleaner = Cleaner::new(kind, &config).unwrap();
            let content = cleaner.clean(&site_of(&page.url), &tree, &weights, &config);
            let text = format!("type: {}\n\n{}\n", content.page_type.as_str(), content.text(&tree));
            check_golden(&format!("tests/fixtures/clean/{case}/{file}"), &text);
        }
    }
}

#[test]
fn sst_on_lone_pages_matches_its_golden_files() {
    let config = Config::default();
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words).unwrap();
    let mut cleaner = Cleaner::new(CleanerKind::SiteStyleTree, &config).unwrap();
    let pages: Vec<_> = cases().into_iter().map(|(case, bytes)| (case.clone(), raw(&case, &bytes))).collect();
    // All fixture pages share one host; each is learned as a site of its own.
    for (case, page) in &pages {
        cleaner.observe(case, &ctx.tag_tree(page).0);
    }
    cleaner.finish_learning();
    for (case, page) in &pages {
        let (tree, _) = ctx.tag_tree(page);
        let weights = block_weights(&tree, &config.block_weight);
        let content = cleaner.clean(case, &tree, &weights, &config);
        let text = format!("type: {}\n\n{}\n", content.page_type.as_str(), content.text(&tree));
        check_golden(&format!("tests/fixtures/clean/{case}/topic-sst.txt"), &text);
    }
}

#[test]
fn sst_on_a_small_site_matches_its_golden_files() {
    let config = Config::default();
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words).unwrap();
    let dir = repo_path("tests/fixtures/sites/garden-blog");
    let mut pages: Vec<(String, RawPage)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            let page = RawPage {
                url: format!("https://garden.example/{stem}.html"),
                origin: stem.clone(),
                bytes: std::fs::read(&p).unwrap(),
                http_charset: None,
                http_language: None,
            };
            (stem, page)
        })
        .collect();
    pages.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(pages.len() >= config.sst.min_site_pages, "the site fixture needs enough pages to be learned");
    let mut cleaner = Cleaner::new(CleanerKind::SiteStyleTree, &config).unwrap();
    for (_, page) in &pages {
        cleaner.observe(&site_of(&page.url), &ctx.tag_tree(page).0);
    }
    cleaner.finish_learning();
    assert_eq!(cleaner.site_style_trees().learned(), (1, pages.len()));
    for (stem, page) in &pages {
        let (tree, _) = ctx.tag_tree(page);
        let weights = block_weights(&tree, &config.block_weight);
        let content = cleaner.clean(&site_of(&page.url), &tree, &weights, &config);
        let text = content.text(&tree);
        for template in ["Vegetables", "windy allotment", "Archives", "Please ask before"] {
            assert!(!text.contains(template), "{stem}: template text {template:?} kept: {text}");
        }
        let golden = format!("type: {}\n\n{}\n", content.page_type.as_str(), text);
        check_golden(&format!("tests/fixtures/sites/garden-blog/topic-sst/{stem}.txt"), &golden);
    }
}

#[test]
fn docview_records_match_their_golden_files() {
    let config = Config::default();
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words).unwrap();
    for (case, bytes) in cases() {
        let page = process_page(raw(&case, &bytes), &ctx).unwrap_or_else(|s| panic!("{s}"));
        let json = serde_json::to_string_pretty(&page.record).unwrap() + "\n";
        check_golden(&format!("tests/fixtures/docview/{case}/docview.json"), &json);
    }
}
