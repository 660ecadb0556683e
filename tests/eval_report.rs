//! `indexer eval` end to end on the sample corpus: runs, scores, index statistics, disk access
//! and the report files.

mod common;

use assert_cmd::Command;
use common::repo_path;

fn indexer() -> Command {
    Command::cargo_bin("indexer").unwrap()
}

#[test]
fn report_on_the_sample_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    indexer()
        .args(["build", "--quiet"])
        .arg(repo_path("eval/sample-corpus/pages"))
        .arg("--dir")
        .arg(dir.path())
        .assert()
        .success();
    let make_report = |report: &std::path::Path| {
        indexer()
            .args(["eval", "report", "--name", "sample", "--queries", "300", "--group", "50", "--dir"])
            .arg(dir.path())
            .arg("--topics")
            .arg(repo_path("queries/sample.tsv"))
            .arg("--qrels")
            .arg(repo_path("eval/sample.qrels"))
            .arg("--report")
            .arg(report)
            .assert()
            .success();
    };
    make_report(&report);
    // The same build and topics give the same bytes, charts included (their bars once came
    // out in a hash map's order).
    let again = dir.path().join("report-again");
    make_report(&again);
    for file in ["report.md", "report.json", "effectiveness.svg", "disk-access.svg"] {
        let first = std::fs::read(report.join(file)).unwrap_or_else(|_| panic!("{file} missing"));
        assert!(first == std::fs::read(again.join(file)).unwrap(), "{file} differs between two runs");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("report.json")).unwrap()).unwrap();
    let effectiveness = json["effectiveness"].as_array().unwrap();
    let searches: Vec<&str> = effectiveness.iter().map(|e| e["index"].as_str().unwrap()).collect();
    assert_eq!(searches, ["abstract", "fulltext", "tiered", "tiered+feedback"]);
    // The figures say which cleaning they were measured on: the build's, the default here.
    assert_eq!(json["cleaner"], "blocks");
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("pages indexed (cleaner: blocks)"));
    // The settings line names every feedback setting of the default search, the shipped ones.
    let shipped = indexer::search::SearchSettings::shipped().feedback;
    let feedback = format!(
        "feedback: RM3, {} documents, {} terms, original weight {}, max page share {}, selection {}, documents from {}, \
         expanding {}, expanded weight {}.",
        shipped.docs,
        shipped.terms,
        shipped.original_weight,
        shipped.max_page_share,
        shipped.selective.name(),
        shipped.documents_from.name(),
        shipped.expands.name(),
        shipped.expanded_weight
    );
    assert!(md.contains(&feedback), "{feedback} not in the report");
    // The default search's disk access is measured beside the tiered search's.
    assert!(md.contains("The tiered search with feedback, the same 25 topic queries"), "{md}");
    assert!(json["disk"]["tiered_feedback_topics"]["fulltext"]["postings"]["bytes"].as_u64().unwrap() > 0);
    for e in effectiveness {
        // Every sample query has its answer first (tests/sample_corpus.rs checks each one).
        assert_eq!(e["summary"]["recip_rank"], 1.0, "{e}");
        assert_eq!(e["summary"]["num_q"], 25);
    }
    let stats = &json["statistics"];
    assert!(stats["abstract"]["sum_of_terms"].as_u64().unwrap() < stats["fulltext"]["sum_of_terms"].as_u64().unwrap());
    assert!(stats["size_ratio"].as_f64().unwrap() > 0.0 && stats["size_ratio"].as_f64().unwrap() < 1.0);
    let disk = &json["disk"];
    assert_eq!(disk["groups"].as_array().unwrap().len(), 6);
    let ratio = disk["mean_ratio"]["bytes"].as_f64().unwrap();
    assert!(ratio > 0.0 && ratio < 1.0, "abstract postings should be smaller than full-text postings: {ratio}");
    for group in disk["groups"].as_array().unwrap() {
        assert!(group["fulltext"]["postings"]["bytes"].as_u64().unwrap() > 0, "{group}");
        assert!(group["fulltext"]["postings"]["pages"].as_u64().unwrap() > 0, "{group}");
    }
    assert!(std::fs::read_to_string(report.join("disk-access.svg")).unwrap().starts_with("<svg"));

    // The same figures from the separate commands.
    let stats_out = indexer().args(["eval", "stats", "--json", "--dir"]).arg(dir.path()).output().unwrap();
    let separate: serde_json::Value = serde_json::from_slice(&stats_out.stdout).unwrap();
    assert_eq!(&separate, stats);
    let disk_out = indexer()
        .args(["eval", "disk", "--json", "--queries", "300", "--group", "50", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    let separate: serde_json::Value = serde_json::from_slice(&disk_out.stdout).unwrap();
    assert_eq!(separate["mean_ratio"], disk["mean_ratio"], "the term sample is seeded");
}
