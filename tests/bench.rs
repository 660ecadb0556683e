//! `indexer bench` end to end on the fixture pages: every measurement runs (stages, whole
//! builds and floor runs in child processes, the scaled input) and the report is written.
//! Only that the figures exist and add up is checked: speed targets live in the report.

mod common;

use assert_cmd::Command;
use common::repo_path;

#[test]
fn bench_writes_a_complete_report() {
    let report = tempfile::tempdir().unwrap();
    let output = Command::cargo_bin("indexer")
        .unwrap()
        .arg("bench")
        .arg(repo_path("tests/fixtures/pages"))
        .args(["--threads", "1", "--scale", "2", "--json", "--report"])
        .arg(report.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let pages = json["input"]["pages"].as_u64().unwrap();
    assert!(pages > 0);
    assert_eq!(json["stages"]["stages"].as_array().unwrap().len(), 10);
    let run = &json["runs"][0];
    assert_eq!(run["threads"], 1);
    assert_eq!(run["build"]["pages_read"].as_u64(), Some(pages));
    assert_eq!(run["floor"]["pages_read"].as_u64(), Some(pages));
    assert!(run["build_over_floor"].as_f64().unwrap() > 0.0);
    assert_eq!(run["tokenizer_floor"]["pages_read"].as_u64(), Some(pages));
    assert!(run["build_over_tokenizer_floor"].as_f64().unwrap() > 0.0);
    let scale = json["scale"].as_array().unwrap();
    assert_eq!(scale.len(), 3);
    assert_eq!(scale[1]["input"]["pages"].as_u64(), Some(2 * pages));
    for file in ["report.md", "report.json", "throughput.svg"] {
        assert!(report.path().join(file).is_file(), "{file} missing");
    }
    let markdown = std::fs::read_to_string(report.path().join("report.md")).unwrap();
    assert!(markdown.contains("## Whole build against the floor reference"));
    assert!(markdown.contains("build / tokenizer floor"));
    assert!(markdown.contains("## Memory against corpus size"));
}

#[test]
fn bench_stages_only_runs_no_builds() {
    let report = tempfile::tempdir().unwrap();
    let output = Command::cargo_bin("indexer")
        .unwrap()
        .arg("bench")
        .arg(repo_path("tests/fixtures/pages"))
        .args(["--stages", "--json", "--report"])
        .arg(report.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(json["runs"].as_array().unwrap().is_empty());
    assert!(json["stages"]["total"]["pages_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn bench_without_pages_says_so() {
    let empty = tempfile::tempdir().unwrap();
    let report = tempfile::tempdir().unwrap();
    let output = Command::cargo_bin("indexer")
        .unwrap()
        .arg("bench")
        .arg(empty.path())
        .arg("--report")
        .arg(report.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no HTML page"));
}
