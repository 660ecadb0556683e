//! The `indexer` command end to end on pages we write ourselves: build, search, replicas,
//! JSON output, errors, and atomic publication.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::repo_path;
use predicates::prelude::*;

fn indexer() -> Command {
    Command::cargo_bin("indexer").unwrap()
}

/// A folder with the fixture pages, an exact copy of one, and a near copy of another.
fn corpus(dir: &Path) {
    let pages = repo_path("tests/fixtures/pages");
    for entry in std::fs::read_dir(&pages).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    std::fs::copy(pages.join("news-article.html"), dir.join("print-news-article.html")).unwrap();
    let near = std::fs::read_to_string(pages.join("table-layout.html"))
        .unwrap()
        .replace("<TITLE>Untitled Document</TITLE>", "<TITLE>Comet night | Campus News</TITLE>")
        .replace("Department of Physics, Old College.", "Campus News, the student paper.");
    std::fs::write(dir.join("zz-syndicated-comet.html"), near).unwrap();
}

fn build(input: &Path, out: &Path) -> assert_cmd::assert::Assert {
    indexer().args(["build", "--quiet"]).arg(input).arg("--dir").arg(out).assert()
}

#[test]
fn build_then_search_both_indexes() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    corpus(input.path());
    build(input.path(), out.path())
        .success()
        .stdout(predicate::str::contains("pages read      8"))
        .stdout(predicate::str::contains("replicas        2 removed (1 exact, 1 near)"));

    for index in ["abstract", "fulltext", "tiered"] {
        let output = indexer()
            .args(["search", "night trains alps", "--json", "-n", "3", "--index", index])
            .arg("--dir")
            .arg(out.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{index}: {}", String::from_utf8_lossy(&output.stderr));
        let first: serde_json::Value =
            serde_json::from_str(String::from_utf8(output.stdout).unwrap().lines().next().unwrap()).unwrap();
        assert!(first["url"].as_str().unwrap().ends_with("/news-article.html"), "{index}: {first}");
        assert_eq!(first["rank"], 1);
    }
    // Chinese, from the GBK page without a declared charset.
    indexer()
        .args(["search", "屋顶绿化", "--dir"])
        .arg(out.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("chinese-gbk.html").and(predicate::str::contains("城市屋顶绿化降温效果明显")));
    // Nothing found: exit code 1.
    indexer().args(["search", "zyzzyva", "--dir"]).arg(out.path()).assert().code(1);

    let current = out.path().join("current");
    let replicas = std::fs::read_to_string(current.join("replicas.tsv")).unwrap();
    assert!(replicas.contains("print-news-article.html\t") && replicas.contains("\texact"), "{replicas}");
    assert!(
        replicas.contains("zz-syndicated-comet.html\t") && replicas.contains("table-layout.html\tnear"),
        "{replicas}"
    );
    let records = std::fs::read_to_string(current.join("docview.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 6);
    for line in records.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(record["identifier"].as_str().unwrap().starts_with("file://"));
        assert!(record.get("classification_code").is_none());
    }
}

#[test]
fn json_lines_input_and_json_summary() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let html = std::fs::read_to_string(repo_path("tests/fixtures/pages/news-article.html")).unwrap();
    let lines = [
        serde_json::json!({"url": "https://rail.example/night-trains", "html": html}).to_string(),
        "{not json".to_string(),
        serde_json::json!({"url": "https://rail.example/empty", "html": "<html><body></body></html>"}).to_string(),
    ];
    let path = input.path().join("pages.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let output = indexer().args(["build", "--json"]).arg(&path).arg("--dir").arg(out.path()).output().unwrap();
    assert!(output.status.success());
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(summary["pages_read"], 3);
    assert_eq!(summary["pages_indexed"], 1);
    assert_eq!(summary["skipped"]["bad-record"], 1);
    assert_eq!(summary["skipped"]["empty"], 1);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("pages.jsonl:2: skipped (bad-record)"), "{stderr}");
}

#[test]
fn a_failed_build_keeps_the_previous_one_searchable() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    corpus(input.path());
    build(input.path(), out.path()).success();
    let before = std::fs::read_link(out.path().join("current")).unwrap();

    // Only unusable pages: the build fails, nothing is published.
    let bad = tempfile::tempdir().unwrap();
    std::fs::write(bad.path().join("empty.html"), "").unwrap();
    std::fs::write(bad.path().join("binary.html"), [0u8, 159, 146, 150, 0, 1]).unwrap();
    build(bad.path(), out.path()).code(2).stderr(predicate::str::contains("no page could be indexed"));
    assert_eq!(std::fs::read_link(out.path().join("current")).unwrap(), before);
    indexer().args(["search", "comet", "--dir"]).arg(out.path()).assert().success();
}

#[test]
fn clear_errors_for_bad_arguments() {
    let out = tempfile::tempdir().unwrap();
    indexer()
        .args(["build", "/no/such/folder", "--dir"])
        .arg(out.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/no/such/folder: no such file or folder"));
    indexer()
        .args(["search", "anything", "--dir"])
        .arg(out.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no build in"));
    indexer().args(["search", "x", "--index", "bogus"]).assert().code(2);
}

#[test]
fn config_prints_a_toml_file_that_build_accepts() {
    let out = indexer().arg("config").output().unwrap();
    assert!(out.status.success());
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    let text = String::from_utf8(out.stdout).unwrap().replace("percentage = 0.4", "percentage = 0.5");
    std::fs::write(&config, text).unwrap();
    let built = tempfile::tempdir().unwrap();
    indexer()
        .args(["build", "--quiet", "--config"])
        .arg(&config)
        .arg(repo_path("tests/fixtures/pages"))
        .arg("--dir")
        .arg(built.path())
        .assert()
        .success();
    let effective = std::fs::read_to_string(built.path().join("current/config.toml")).unwrap();
    assert!(effective.contains("percentage = 0.5"));
    std::fs::write(&config, "[replicas]\npercentag = 1\n").unwrap();
    indexer()
        .args(["build", "--config"])
        .arg(&config)
        .arg(repo_path("tests/fixtures/pages"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("percentag"));
}

#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::{Command as Process, Stdio};
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("indexer"))
        .args(["inspect", "--tree"])
        .arg(repo_path("tests/fixtures/pages/news-article.html"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one byte, then close the pipe, as `| head -c 1` does.
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    stdout.read_exact(&mut byte).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(status.success(), "{status:?} {stderr}");
}
