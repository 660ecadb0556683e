//! Beyond one machine: the sample corpus split into two shard builds, replicas merged across
//! them, and searched together, must answer as one build of the whole corpus does.
//!
//! The split falls between the two copies of an exact replica pair (lumenframe's
//! `gallery/birch-first-snow` and `series/winter/birch-first-snow`), so the merge has a
//! cross-shard replica to remove. Both builds learn no stop words from a sample (a shard's
//! sample differs from the whole corpus's, which would change the records) and detect near
//! replicas with the keyword fingerprint, the signature `replicas merge` joins on.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use common::repo_path;
use serde_json::Value;

const CONFIG: &str =
    "[stop_words]\nsample_pages = 0\n\n[cleaning]\nsite_min_pages = 0\n\n[replicas]\ndetector = \"docview\"\n";
/// The first page of the second shard, in the input's sorted path order.
const SPLIT_AT: &str = "lumenframe/series";

fn indexer() -> Command {
    Command::cargo_bin("indexer").unwrap()
}

/// Copies the sample corpus into two folders split at [`SPLIT_AT`], each with the lines of
/// `urls.tsv` for its pages. Returns the two folders.
fn split_corpus(root: &Path) -> (PathBuf, PathBuf) {
    let pages = repo_path("eval/sample-corpus/pages");
    let manifest: HashMap<String, String> = std::fs::read_to_string(pages.join("urls.tsv"))
        .unwrap()
        .lines()
        .filter_map(|line| line.split_once('\t').map(|(path, _)| (path.to_string(), line.to_string())))
        .collect();
    let (a, b) = (root.join("a"), root.join("b"));
    let mut lines: HashMap<PathBuf, String> = HashMap::new();
    let mut second = false;
    // Walked as the folder input walks: sorted by file name at every level.
    for entry in walkdir::WalkDir::new(&pages).sort_by_file_name() {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() || entry.file_name() == "urls.tsv" {
            continue;
        }
        let relative = entry.path().strip_prefix(&pages).unwrap().to_string_lossy().replace('\\', "/");
        second |= relative.starts_with(SPLIT_AT);
        let shard = if second { &b } else { &a };
        let target = shard.join(&relative);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(entry.path(), &target).unwrap();
        if let Some(line) = manifest.get(&relative) {
            lines.entry(shard.clone()).or_default().push_str(&format!("{line}\n"));
        }
    }
    assert!(second, "the sample corpus has no {SPLIT_AT} pages to split at");
    for (shard, text) in lines {
        std::fs::write(shard.join("urls.tsv"), text).unwrap();
    }
    (a, b)
}

fn build(input: &Path, dir: &Path, config: &Path) {
    indexer().args(["build", "--quiet", "--config"]).arg(config).arg(input).arg("--dir").arg(dir).assert().success();
}

fn urls_of(input: &Path) -> HashSet<String> {
    std::fs::read_to_string(input.join("urls.tsv"))
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t').map(|(_, url)| url.to_string()))
        .collect()
}

fn docview_urls(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("current/docview.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["identifier"].as_str().unwrap().to_string())
        .collect()
}

/// (url, score) of the results of a search with `options`, as its JSON Lines give them.
fn search_with(query: &str, index: &str, dirs: &[&Path], options: &[&str]) -> Vec<(String, f64)> {
    let mut command = indexer();
    command.args(["search", query, "--json", "--index", index]).args(options);
    for dir in dirs {
        command.arg("--dir").arg(dir);
    }
    let output = command.output().unwrap();
    assert!(output.status.code().is_some_and(|c| c <= 1), "search failed: {output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let hit: Value = serde_json::from_str(l).unwrap();
            (hit["url"].as_str().unwrap().to_string(), hit["score"].as_f64().unwrap())
        })
        .collect()
}

#[test]
fn shards_merged_and_searched_together_rank_as_one_build() {
    let root = tempfile::tempdir().unwrap();
    let config = root.path().join("shard.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let (a, b) = split_corpus(root.path());
    let (whole, shard_a, shard_b) = (root.path().join("whole"), root.path().join("A"), root.path().join("B"));
    build(&repo_path("eval/sample-corpus/pages"), &whole, &config);
    build(&a, &shard_a, &config);
    build(&b, &shard_b, &config);

    // The replicas one build removes across the split are what the merge must remove.
    let (urls_a, urls_b) = (urls_of(&a), urls_of(&b));
    let expected: HashSet<(String, String)> = std::fs::read_to_string(whole.join("current/replicas.tsv"))
        .unwrap()
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c.len() >= 2 && urls_b.contains(c[0]) && urls_a.contains(c[1]))
        .map(|c| (c[0].to_string(), c[1].to_string()))
        .collect();
    assert!(!expected.is_empty(), "no replica pair falls across the split");

    let merge = indexer()
        .args(["replicas", "merge", "--json", "--dir"])
        .arg(&shard_a)
        .arg("--dir")
        .arg(&shard_b)
        .output()
        .unwrap();
    assert!(merge.status.success(), "{merge:?}");
    let lines: Vec<Value> =
        String::from_utf8(merge.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let removed: HashSet<(String, String)> = lines
        .iter()
        .filter(|v| v["removed"].is_string())
        .map(|v| (v["removed"].as_str().unwrap().to_string(), v["kept"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(removed, expected);
    let listed = std::fs::read_to_string(shard_b.join("current/replicas-global.tsv")).unwrap();
    for (copy, kept) in &expected {
        assert!(listed.contains(&format!("{copy}\t{kept}\t")), "{listed}");
    }

    // Same pages, and a second merge finds nothing left to remove.
    let mut merged_pages = docview_urls(&shard_a);
    merged_pages.extend(docview_urls(&shard_b));
    let mut whole_pages = docview_urls(&whole);
    merged_pages.sort();
    whole_pages.sort();
    assert_eq!(merged_pages, whole_pages);
    let again = indexer()
        .args(["replicas", "merge", "--json", "--dir"])
        .arg(&shard_a)
        .arg("--dir")
        .arg(&shard_b)
        .output()
        .unwrap();
    assert!(!String::from_utf8(again.stdout).unwrap().contains("\"removed\":\""));

    let queries = std::fs::read_to_string(repo_path("queries/sample.tsv")).unwrap();
    let mut compared = 0;
    let cases = queries
        .lines()
        .filter_map(|l| l.split_once('\t').map(|(_, q)| (q, None)))
        .take(8)
        .chain([("birch snow", None), ("the first winter travel health", Some("11"))]);
    for (query, category) in cases {
        for index in ["abstract", "fulltext", "tiered"] {
            let options: Vec<&str> = category.map(|c| vec!["--category", c, "-n", "20"]).unwrap_or_default();
            let one = search_with(query, index, &[&whole], &options);
            let sharded = search_with(query, index, &[&shard_a, &shard_b], &options);
            assert_eq!(one.len(), sharded.len(), "{query:?} {index}: {one:?}\n{sharded:?}");
            for ((url, score), (sharded_url, sharded_score)) in one.iter().zip(&sharded) {
                assert!((score - sharded_score).abs() < 1e-4, "{query:?} {index}: {one:?}\n{sharded:?}");
                // Pages with equal scores may come in either order; a different page with a
                // different score is a ranking difference.
                if url != sharded_url {
                    let tied = one.iter().any(|(u, s)| u == sharded_url && (s - score).abs() < 1e-4);
                    assert!(tied, "{query:?} {index}: {one:?}\n{sharded:?}");
                }
            }
            compared += usize::from(!one.is_empty());
        }
    }
    assert!(compared >= 23, "only {compared} searches had results");

    let twice = indexer().args(["search", "birch", "--dir"]).arg(&shard_a).arg("--dir").arg(&shard_a).output().unwrap();
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8(twice.stderr).unwrap().contains("given twice"));

    // A shard of another term analysis (here: made before builds recorded theirs) has
    // fingerprints that do not compare: the merge refuses it, a search warns about it.
    let b_build = std::fs::canonicalize(shard_b.join("current")).unwrap();
    std::fs::remove_file(b_build.join(indexer::index::TERM_ANALYSIS_FILE)).unwrap();
    let mixed =
        indexer().args(["replicas", "merge", "--dir"]).arg(&shard_a).arg("--dir").arg(&shard_b).output().unwrap();
    assert_eq!(mixed.status.code(), Some(2));
    let stderr = String::from_utf8(mixed.stderr).unwrap();
    assert!(stderr.contains("term analysis") && stderr.contains("rebuild the shards"), "{stderr}");
    let searched =
        indexer().args(["search", "birch", "--dir"]).arg(&shard_a).arg("--dir").arg(&shard_b).output().unwrap();
    assert!(searched.status.success());
    let warning = String::from_utf8(searched.stderr).unwrap();
    assert!(warning.contains(&*shard_b.to_string_lossy()) && warning.contains("rebuild it"), "{warning}");
    assert!(!warning.contains(&format!("{} was", shard_a.display())), "{warning}");
}

#[test]
fn merge_needs_two_shards_and_names_a_missing_build() {
    let root = tempfile::tempdir().unwrap();
    indexer().args(["replicas", "merge", "--dir"]).arg(root.path()).assert().code(2);
    let missing = root.path().join("nothing");
    let output =
        indexer().args(["replicas", "merge", "--dir"]).arg(&missing).arg("--dir").arg(root.path()).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("no build in") && stderr.contains("nothing"), "{stderr}");
}

/// Issue 21: a shard given as the build a build prints (`DIR/current`, `DIR/builds/<id>`) or
/// as `DIR/builds` is refused before anything is staged, and a refused merge leaves no
/// staging folder in any shard (before, the shards staged ahead of the refused one kept their
/// `.tmp-` folders).
#[test]
fn a_refused_merge_stages_nothing_and_names_the_build_folder_to_give() {
    let root = tempfile::tempdir().unwrap();
    let config = root.path().join("shard.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let article = "<html><head><title>Harbour ferries</title></head><body><article><h1>Harbour ferries</h1>\
        <p>The harbour ferries leave the north pier every twenty minutes from dawn until late evening, \
        and the crossing to the island takes a little under a quarter of an hour in calm weather.</p>\
        <p>Tickets are sold at the pier kiosk and on board; a day pass covers every crossing and the \
        bus that meets the ferry on the island side.</p></article></body></html>";
    let mut shards = Vec::new();
    for name in ["a", "b", "c"] {
        let input = root.path().join(format!("input-{name}"));
        std::fs::create_dir_all(&input).unwrap();
        std::fs::write(input.join(format!("ferries-{name}.html")), article).unwrap();
        let shard = root.path().join(name.to_uppercase());
        build(&input, &shard, &config);
        shards.push(shard);
    }
    let listing = |shard: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(shard.join("builds"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        names.sort();
        names
    };
    let before: Vec<Vec<String>> = shards.iter().map(|s| listing(s)).collect();
    let published = std::fs::canonicalize(shards[2].join("current")).unwrap();
    let refused = [
        (shards[2].join("current"), "is a build, not a build folder"),
        (published, "is a build, not a build folder"),
        (shards[2].join("builds"), "holds the builds of a build folder"),
    ];
    for (last, message) in refused {
        let output = indexer()
            .args(["replicas", "merge", "--dir"])
            .arg(&shards[0])
            .arg("--dir")
            .arg(&shards[1])
            .arg("--dir")
            .arg(&last)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(message), "{stderr}");
        assert!(stderr.contains(&format!("use --dir {}", shards[2].display())), "{stderr}");
        let after: Vec<Vec<String>> = shards.iter().map(|s| listing(s)).collect();
        assert_eq!(after, before, "{last:?}");
    }
    let apply = root.path().join("removals.tsv");
    std::fs::write(&apply, "https://nowhere/\thttps://nowhere/a\turl\tA\n").unwrap();
    let output = indexer()
        .args(["replicas", "apply", "--list"])
        .arg(&apply)
        .arg("--dir")
        .arg(shards[1].join("current"))
        .output();
    let stderr = String::from_utf8(output.unwrap().stderr).unwrap();
    assert!(stderr.contains("is a build, not a build folder"), "{stderr}");
}
