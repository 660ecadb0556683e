//! The crawl reader and a build over the WARC files of `../shared/data/real-warc/`, written by
//! third-party crawlers (Heritrix, wget, Common Crawl). Our record counts are compared with
//! warcio's, kept in `tests/fixtures/input/real-warc/warcio-counts.tsv`
//! (`eval/crawl/warcio_counts.sh` recounts them with warcio and checks the file). Skipped, with
//! the reason printed, when the shared data is absent.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::{repo_path, shared_data};
use indexer::config::Config;
use indexer::input::SkipReason;
use indexer::input::crawl::count_records;
use indexer::pipeline::{Quiet, build};

/// warcio's counts: file name → record type → count.
fn warcio_counts() -> BTreeMap<String, BTreeMap<String, usize>> {
    let text = std::fs::read_to_string(repo_path("tests/fixtures/input/real-warc/warcio-counts.tsv")).unwrap();
    let mut counts: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let cells: Vec<&str> = line.split('\t').collect();
        counts.entry(cells[0].to_string()).or_default().insert(cells[1].to_string(), cells[2].parse().unwrap());
    }
    counts
}

fn crawl_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.contains(".warc") || name.contains(".arc")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_file_has_the_records_warcio_reads() {
    let Some(dir) = shared_data("real-warc") else { return };
    let expected = warcio_counts();
    let files = crawl_files(&dir);
    assert_eq!(files.len(), expected.len(), "files of {}: {files:?}", dir.display());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let ours = count_records(&path).unwrap();
        println!("{name}: ours {ours:?}, warcio {:?}", expected[&name]);
        assert_eq!(&ours, &expected[&name], "{name}: our record counts against warcio's");
    }
}

#[test]
fn a_build_over_every_file_accounts_for_every_capture_and_indexes_only_pages() {
    let Some(dir) = shared_data("real-warc") else { return };
    let captures: usize = warcio_counts()
        .values()
        .flat_map(|by_type| by_type.iter())
        .filter(|(kind, _)| matches!(kind.as_str(), "response" | "resource" | "revisit"))
        .map(|(_, n)| n)
        .sum();
    let out = tempfile::tempdir().unwrap();
    let summary = build(&crawl_files(&dir), out.path(), &Config::default(), &Quiet).unwrap();
    println!("{summary}");
    assert_eq!(summary.pages_read, captures, "every capture is read");
    let replicas = summary.replicas.exact + summary.replicas.near;
    assert_eq!(summary.pages_indexed + summary.skipped_total() + replicas, summary.pages_read, "the counts add up");
    let skipped = |reason| summary.skipped.get(&reason).copied().unwrap_or(0);
    assert_eq!(skipped(SkipReason::Revisit), 17);
    assert!(skipped(SkipReason::NotAPage) >= 20, "dns:, robots.txt, logs: {:?}", summary.skipped);
    assert_eq!(skipped(SkipReason::BadRecord), 0, "{:?}", summary.skipped);
    let docview = std::fs::read_to_string(out.path().join("current/docview.jsonl")).unwrap();
    for line in docview.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let url = record["identifier"].as_str().unwrap().to_ascii_lowercase();
        assert!(url.starts_with("http"), "a record of a capture that is no web page: {url}");
        assert!(!url.split('?').next().unwrap().ends_with("/robots.txt"), "robots.txt indexed: {url}");
    }
    let skipped_tsv = std::fs::read_to_string(out.path().join("current/skipped.tsv")).unwrap();
    assert_eq!(skipped_tsv.lines().count(), summary.skipped_total());
}
