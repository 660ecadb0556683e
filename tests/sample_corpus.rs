//! The embedded sample corpus (`eval/sample-corpus/`), built with the `indexer` binary and
//! checked against its construction: `expected.tsv` (page types, encodings, replicas) and
//! the judgments of `queries/sample.tsv` (`eval/sample.qrels`).

mod common;

use std::collections::{HashMap, HashSet};

use assert_cmd::Command;
use common::repo_path;

struct Expected {
    page_type: String,
    encoding: String,
    replica_of: String,
    replica_kind: String,
    title: String,
}

fn expected() -> HashMap<String, Expected> {
    let text = std::fs::read_to_string(repo_path("eval/sample-corpus/expected.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let cell = |name: &str| cells.get(column(name)).copied().unwrap_or("").to_string();
            (
                cell("url"),
                Expected {
                    page_type: cell("type"),
                    encoding: cell("encoding"),
                    replica_of: cell("replica_of"),
                    replica_kind: cell("replica_kind"),
                    title: cell("title"),
                },
            )
        })
        .collect()
}

#[test]
fn sample_corpus_builds_and_answers_its_queries() {
    let out = tempfile::tempdir().unwrap();
    Command::cargo_bin("indexer")
        .unwrap()
        .args(["build", "--quiet"])
        .arg(repo_path("eval/sample-corpus/pages"))
        .arg("--dir")
        .arg(out.path())
        .assert()
        .success();
    let current = out.path().join("current");
    let expected = expected();
    let records: HashMap<String, serde_json::Value> = std::fs::read_to_string(current.join("docview.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|r| (r["identifier"].as_str().unwrap().to_string(), r))
        .collect();

    // Every page is read and identified by its manifest URL.
    assert_eq!(records.len() + std::fs::read_to_string(current.join("replicas.tsv")).unwrap().lines().count(), 193);
    assert!(records.keys().all(|url| expected.contains_key(url)));

    // Exact copies are all found, each pointing at its original.
    let replicas: HashSet<(String, String, String)> = std::fs::read_to_string(current.join("replicas.tsv"))
        .unwrap()
        .lines()
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            (cells[0].to_string(), cells[1].to_string(), cells[2].to_string())
        })
        .collect();
    for (url, e) in expected.iter().filter(|(_, e)| e.replica_kind == "exact") {
        assert!(replicas.contains(&(url.clone(), e.replica_of.clone(), "exact".into())), "exact copy {url} not found");
    }
    // Near replicas (the same article on another site with a credit box, another headline,
    // trimmed paragraphs...) are all found too.
    for (url, e) in expected.iter().filter(|(_, e)| e.replica_kind == "near") {
        assert!(replicas.contains(&(url.clone(), e.replica_of.clone(), "near".into())), "near replica {url} not found");
    }
    // No page is removed as a replica of a page it does not copy.
    for (removed, kept, _) in &replicas {
        let e = &expected[removed];
        assert_eq!(&e.replica_of, kept, "{removed} removed as a replica of {kept}");
    }

    // Legacy charsets: the undeclared GBK site and the declared GB2312 one decode to the titles
    // the generator wrote.
    let mut chinese = 0;
    for (url, record) in &records {
        let e = &expected[url];
        if e.encoding == "gbk" || e.encoding == "gb2312" {
            chinese += 1;
            assert_eq!(record["charset"], "GBK", "{url}");
            let title = record["title"].as_str().unwrap();
            assert!(
                title.contains(&e.title) || e.title.contains(title) || title.chars().count() < 12,
                "{url}: {title} vs {}",
                e.title
            );
            assert!(!record["topic_content"].as_str().unwrap().contains('\u{FFFD}'), "{url}: replacement characters");
        }
    }
    assert!(chinese >= 30, "only {chinese} GBK/GB2312 pages");

    // Page types by construction: articles and galleries are recognised.
    let typed = |kind: &str| {
        let pages: Vec<&String> = records.keys().filter(|u| expected[*u].page_type == kind).collect();
        let right = pages.iter().filter(|u| records[**u]["type"] == kind).count();
        (right, pages.len())
    };
    let (topic_right, topics) = typed("topic");
    assert_eq!(topic_right, topics, "topic pages typed otherwise");
    let (image_right, images) = typed("image");
    assert!(image_right * 10 >= images * 9, "image pages: {image_right}/{images}");

    // Abstracts summarize (§6, bounded relative to the page): together they hold at most half
    // of the topic pages' terms, and few repeat nearly all of their page (with δ alone most
    // records were nearly their whole page, issue 21).
    let coverage = indexer::eval::stats::abstract_coverage(&current).unwrap();
    assert!(coverage.topic_pages >= topics, "{coverage:?}");
    assert!(coverage.terms_ratio <= 0.5, "{coverage:?}");
    assert!(coverage.pages_at_least_90_percent * 10 <= coverage.topic_pages, "{coverage:?}");

    // Every query's best answer comes first, on every index.
    let qrels = std::fs::read_to_string(repo_path("eval/sample.qrels")).unwrap();
    let best: HashMap<&str, HashSet<&str>> = qrels.lines().fold(HashMap::new(), |mut map, line| {
        let cells: Vec<&str> = line.split_whitespace().collect();
        if cells[3] == "2" {
            map.entry(cells[0]).or_default().insert(cells[2]);
        }
        map
    });
    let queries = std::fs::read_to_string(repo_path("queries/sample.tsv")).unwrap();
    // The tiered search expands the query by feedback unless --no-feedback.
    let searches: [&[&str]; 4] =
        [&["--index", "abstract"], &["--index", "fulltext"], &["--index", "tiered"], &["--no-feedback"]];
    for index in searches {
        for line in queries.lines() {
            let (qid, query) = line.split_once('\t').unwrap();
            let output = Command::cargo_bin("indexer")
                .unwrap()
                .args(["search", query, "--json", "-n", "1"])
                .args(index)
                .arg("--dir")
                .arg(out.path())
                .output()
                .unwrap();
            let stdout = String::from_utf8(output.stdout).unwrap();
            let top: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap_or("{}")).unwrap();
            let url = top["url"].as_str().unwrap_or("<no result>");
            assert!(best[qid].contains(url), "{index:?}: query {qid} {query:?} answered {url}");
        }
    }
}
