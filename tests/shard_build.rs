//! The verbs a distributed job builds on (`spark/`): `indexer stop-words`, `indexer build
//! --shard --stop-words`, and `indexer replicas apply`.
//!
//! A shard build removes no replica and lists every page's signatures; removing from it the
//! pages a build of the same inputs removed must give that build back: the same records and
//! the same search results and scores.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::repo_path;
use serde_json::Value;

fn indexer() -> Command {
    Command::cargo_bin("indexer").unwrap()
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

fn docview_urls(dir: &Path) -> Vec<String> {
    lines(&dir.join("current/docview.jsonl"))
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["identifier"].as_str().unwrap().to_string())
        .collect()
}

/// (URL, score rounded to 1e-4) of the top 10 for `query`.
fn top10(dir: &Path, query: &str, index: &str) -> Vec<(String, String)> {
    let out = indexer().args(["search", query, "--json", "--index", index, "--dir"]).arg(dir).output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let hit: Value = serde_json::from_str(l).unwrap();
            (hit["url"].as_str().unwrap().to_string(), format!("{:.4}", hit["score"].as_f64().unwrap()))
        })
        .collect()
}

#[test]
fn a_shard_build_less_a_builds_replicas_is_that_build() {
    let pages = repo_path("eval/sample-corpus/pages");
    let tmp = tempfile::tempdir().unwrap();
    let (full, shard, words) = (tmp.path().join("full"), tmp.path().join("shard"), tmp.path().join("stop-words.txt"));

    indexer().arg("build").arg(&pages).arg("--dir").arg(&full).arg("--quiet").assert().success();
    indexer().arg("stop-words").arg(&pages).arg("-o").arg(&words).assert().success();
    assert_eq!(lines(&words), lines(&full.join("current/stopwords-learned.txt")));
    assert!(!lines(&words).is_empty(), "the sample corpus teaches some stop words");

    indexer()
        .args(["build", "--shard", "--quiet", "--stop-words"])
        .arg(&words)
        .arg(&pages)
        .arg("--dir")
        .arg(&shard)
        .assert()
        .success();
    let replicas = lines(&full.join("current/replicas.tsv"));
    assert!(!replicas.is_empty(), "the sample corpus has replicas");
    let kept = docview_urls(&full);
    let held = docview_urls(&shard);
    assert_eq!(held.len(), kept.len() + replicas.len(), "a shard build keeps its replicas");

    // Every page has a row; the records of the manifest count every record read.
    let rows: Vec<Value> =
        lines(&shard.join("current/signatures.jsonl")).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), held.len());
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(shard.join("current/shard.json")).unwrap()).unwrap();
    assert_eq!(manifest["sources"][0]["records"].as_u64().unwrap() as usize, rows.len());
    assert_eq!(manifest["detector"], "minhash");
    let records: Vec<u64> = rows.iter().map(|r| r["record"].as_u64().unwrap()).collect();
    assert_eq!(records, (0..rows.len() as u64).collect::<Vec<_>>());
    // An exact replica's row carries its kept page's exact-copy fingerprint.
    let exact_of = |url: &str| rows.iter().find(|r| r["url"] == url).and_then(|r| r["exact"].as_str()).unwrap();
    let exact = replicas.iter().map(|l| l.split('\t').collect::<Vec<_>>()).find(|f| f[2] == "exact").unwrap();
    assert_eq!(exact_of(exact[0]), exact_of(exact[1]));

    // Removing the build's replicas from the shard gives the build.
    let list = tmp.path().join("removals.tsv");
    let text: String = replicas
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            format!("{}\t{}\t{}\tshard\n", f[0], f[1], f[2])
        })
        .collect();
    std::fs::write(&list, text).unwrap();
    let applied =
        indexer().args(["replicas", "apply", "--json", "--dir"]).arg(&shard).arg("--list").arg(&list).output();
    let report: Value = serde_json::from_slice(&applied.unwrap().stdout).unwrap();
    assert_eq!(report["removed"].as_u64().unwrap() as usize, replicas.len());
    assert!(report["published"].is_string());
    assert_eq!(docview_urls(&shard), kept);
    for query in ["birch first snow", "sodium battery", "水稻 盐碱地"] {
        for index in ["abstract", "fulltext"] {
            let expected = top10(&full, query, index);
            assert!(!expected.is_empty(), "{query}");
            assert_eq!(top10(&shard, query, index), expected, "{query} ({index})");
        }
    }

    // Applying the same list again (a retried task) changes nothing.
    let again = indexer().args(["replicas", "apply", "--json", "--dir"]).arg(&shard).arg("--list").arg(&list).output();
    let report: Value = serde_json::from_slice(&again.unwrap().stdout).unwrap();
    assert_eq!(
        (report["removed"].as_u64(), report["already_removed"].as_u64()),
        (Some(0), Some(replicas.len() as u64))
    );
    assert!(report.get("published").is_none());
    assert_eq!(docview_urls(&shard), kept);
}

#[test]
fn shard_builds_refuse_what_they_cannot_hand_over() {
    let pages = repo_path("eval/sample-corpus/pages");
    let tmp = tempfile::tempdir().unwrap();
    let out = indexer()
        .args(["build", "--shard", "--replicas", "simhash", "--quiet"])
        .arg(&pages)
        .arg("--dir")
        .arg(tmp.path().join("s"))
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("not simhash"), "{stderr}");
    let out = indexer()
        .args(["build", "--quiet", "--stop-words"])
        .arg(tmp.path().join("missing.txt"))
        .arg(&pages)
        .arg("--dir")
        .arg(tmp.path().join("s"))
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("indexer stop-words"), "{stderr}");
    let list = tmp.path().join("bad.tsv");
    std::fs::write(&list, "only-one-field\n").unwrap();
    let out =
        indexer().args(["replicas", "apply", "--dir"]).arg(tmp.path().join("s")).arg("--list").arg(&list).assert();
    // No build in the folder: the error says so before the list is read.
    assert!(!String::from_utf8_lossy(&out.failure().get_output().stderr).is_empty());
}
