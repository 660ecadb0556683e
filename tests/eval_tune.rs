//! `indexer eval tune` end to end on the sample corpus: later stages chosen again from an
//! earlier tuning's per-fold settings (`--from-report`, `--stages`), and known-item
//! collections bounding the choice (`--keep-answers`).

mod common;

use assert_cmd::Command;
use common::repo_path;

fn indexer() -> Command {
    Command::cargo_bin("indexer").unwrap()
}

/// An evaluation config of the sample corpus under another name (leave-one-collection-out
/// needs two collections; both are the sample corpus here, which tests the mechanics only).
fn config(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!(
        "name = \"{name}\"\ninput = {:?}\ntopics = {:?}\nqrels = {:?}\nreport = \"reports/{name}\"\n",
        repo_path("eval/sample-corpus/pages"),
        repo_path("queries/sample.tsv"),
        repo_path("eval/sample.qrels"),
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn report(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap()
}

#[test]
fn later_stages_start_from_each_folds_earlier_choice() {
    let dir = tempfile::tempdir().unwrap();
    let configs = [config(dir.path(), "one"), config(dir.path(), "two")];
    let tune = |args: &[&str], out: &str| {
        let mut command = indexer();
        command.current_dir(dir.path()).args(["eval", "tune", "--report", out]).args(args);
        for c in &configs {
            command.arg("--config").arg(c);
        }
        command.assert().success();
    };
    tune(&["--stages", "tiered"], "first");
    let first = report(&dir.path().join("first"));
    assert_eq!(first["stages"], serde_json::json!(["tiered"]));
    let first_report = dir.path().join("first/report.json");
    tune(&["--from-report", first_report.to_str().unwrap(), "--stages", "tiered+feedback"], "second");
    let second = report(&dir.path().join("second"));
    assert_eq!(second["stages"], serde_json::json!(["tiered+feedback"]));
    assert!(second["start"].as_str().unwrap().contains("first/report.json"), "{}", second["start"]);
    for (a, b) in first["folds"].as_array().unwrap().iter().zip(second["folds"].as_array().unwrap()) {
        // Each fold starts where the first tuning left it: its "before" is the first
        // tuning's held-out figure, and the fusion it chose is kept.
        assert_eq!(a["held_out"]["tiered"], b["before"]["tiered"], "{}", b["collection"]);
        assert_eq!(a["settings"]["tiered"], b["settings"]["tiered"], "{}", b["collection"]);
    }
    assert!(std::fs::read_to_string(dir.path().join("second/report.md")).unwrap().contains("--from-report"));

    // No stage: the earlier tuning's held-out figures measured again.
    tune(&["--from-report", first_report.to_str().unwrap(), "--stages", "none"], "again");
    let again = report(&dir.path().join("again"));
    assert_eq!(again["stages"], serde_json::json!([]));
    for (a, b) in first["folds"].as_array().unwrap().iter().zip(again["folds"].as_array().unwrap()) {
        assert_eq!(a["held_out"], b["held_out"], "{}", b["collection"]);
    }

    // Known items bound the choice: every fold's settings and the chosen ones keep the most
    // answers first a candidate keeps; the start (the shipped settings) keeps all 25 queries'
    // on the four searches (the three indexes, the tiered with feedback), and it is in the
    // abstract stage's grid.
    let known_config = config(dir.path(), "known");
    tune(&["--stages", "abstract", "--keep-answers", known_config.to_str().unwrap()], "known");
    let known = report(&dir.path().join("known"));
    assert_eq!(known["known_items"], serde_json::json!(["known"]));
    assert_eq!(known["answers_total"], 100);
    assert_eq!(known["answers_kept"], 100);
    for fold in known["folds"].as_array().unwrap() {
        assert_eq!(fold["answers_kept"], 100, "{}", fold["collection"]);
    }
    let chosen_by = known["chosen"]["chosen_by"].as_str().unwrap();
    assert!(
        chosen_by.contains("stages this run chose, abstract") && chosen_by.contains("queries of known"),
        "{chosen_by}"
    );
    let md = std::fs::read_to_string(dir.path().join("known/report.md")).unwrap();
    assert!(md.contains("--keep-answers") && md.contains("Known items (known)"), "{md}");

    // A bound that is also tuned on would reach the fold that holds it out: refused.
    let mut both = indexer();
    both.current_dir(dir.path()).args(["eval", "tune", "--stages", "abstract", "--report", "both"]);
    for c in &configs {
        both.arg("--config").arg(c);
    }
    let both = both.arg("--keep-answers").arg(&configs[0]).output().unwrap();
    assert!(!both.status.success());
    let stderr = String::from_utf8_lossy(&both.stderr);
    assert!(stderr.contains("one is both tuned on (--config) and a known-item bound"), "{stderr}");

    let unknown = indexer().args(["eval", "tune", "--stages", "everything", "--config", "x.toml"]).output().unwrap();
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown stage \"everything\""));
}
