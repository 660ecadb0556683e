//! Safe output: a build killed part-way leaves the published build searchable, and
//! `indexer build --append` adds pages to the published build, checking them for replicas
//! against the pages already indexed.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::repo_path;

fn indexer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_indexer"))
}

fn sample_corpus() -> PathBuf {
    repo_path("eval/sample-corpus/pages")
}

/// Runs `indexer` to completion; panics with its stderr unless it exits with `code`.
fn run(args: &[&str], code: i32) -> String {
    let output = indexer().args(args).output().unwrap();
    assert_eq!(output.status.code(), Some(code), "indexer {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Staging folders (`builds/.tmp-*`) in a build folder.
fn staging_folders(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir.join("builds"))
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-"))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

fn search(query: &str, dir: &Path) -> String {
    run(&["search", query, "--json", "-n", "5", "--index", "tiered", "--dir", path_str(dir)], 0)
}

const QUERIES: [&str; 3] = ["qubit chip error correction", "night train vienna rome", "盐碱地 水稻"];

#[test]
fn a_build_killed_part_way_leaves_the_previous_build_searchable() {
    let dir = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    // The stop-word sample is the first 193 pages, all of the corpus, in both builds: so the
    // second build, should it finish before the kill lands, indexes exactly what the first
    // did, and the search answers below are the first build's whichever way the race goes.
    let config = work.path().join("config.toml");
    std::fs::write(&config, "[stop_words]\nsample_pages = 193\n").unwrap();
    let corpus = sample_corpus();
    run(&["build", "--quiet", path_str(&corpus), "--dir", path_str(dir.path()), "--config", path_str(&config)], 0);
    let first = std::fs::canonicalize(dir.path().join("current")).unwrap();
    let answers: Vec<String> = QUERIES.iter().map(|q| search(q, dir.path())).collect();
    assert!(answers.iter().all(|a| !a.is_empty()));

    // The second build reads the corpus eight times over (the copies are duplicate URLs):
    // long enough to be killed while it writes its staging folder.
    let list = work.path().join("inputs.txt");
    std::fs::write(&list, format!("# the sample corpus, eight times\n{}\n", path_str(&corpus)).repeat(8)).unwrap();
    let mut child = indexer()
        .args(["build", "--quiet", "--input-list", path_str(&list), "--dir", path_str(dir.path())])
        .args(["--config", path_str(&config)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut saw_staging = false;
    while started.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if staging_folders(dir.path()).iter().any(|s| s.join("docview.jsonl").exists()) {
            saw_staging = true;
            // Into the main pass: pages are being processed and written.
            std::thread::sleep(Duration::from_millis(300));
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // SIGKILL; a no-op error if the build already finished.
    let _ = child.kill();
    let status = child.wait().unwrap();
    let now = std::fs::canonicalize(dir.path().join("current")).unwrap();
    eprintln!(
        "second build: staging seen {saw_staging}, exit {status:?}, published {}",
        if now == first { "nothing (the first build is current)" } else { "a new build (the kill came late)" }
    );

    // Either the kill landed before the switch and the first build is still current, or after
    // it and the second build is; never a half-written build.
    assert!(now.join("summary.json").is_file(), "the published build is incomplete: {}", now.display());
    for (query, answer) in QUERIES.iter().zip(&answers) {
        assert_eq!(&search(query, dir.path()), answer, "{query}");
    }

    // A leftover staging folder does not get in the way of the next build, which removes it.
    let leftovers = staging_folders(dir.path());
    if saw_staging && now == first {
        assert!(!leftovers.is_empty(), "a killed build leaves its staging folder");
    }
    run(&["build", "--quiet", path_str(&corpus), "--dir", path_str(dir.path()), "--config", path_str(&config)], 0);
    assert!(staging_folders(dir.path()).is_empty());
    for (query, answer) in QUERIES.iter().zip(&answers) {
        assert_eq!(&search(query, dir.path()), answer, "{query}");
    }
}

/// The second batch: an exact copy and a near replica of pages of the sample corpus under new
/// URLs, a page at a URL the first build read, and a new page.
fn second_batch(dir: &Path) {
    let pages = sample_corpus();
    std::fs::copy(pages.join("techwire/news/quantum-chip.html"), dir.join("copy.html")).unwrap();
    let film = std::fs::read_to_string(pages.join("techwire/news/film-revival.html")).unwrap();
    let edited = film.replace("a roll holds only 36 frames", "a roll holds just 36 frames");
    assert_ne!(film, edited);
    std::fs::write(dir.join("near.html"), edited).unwrap();
    let repair = std::fs::read_to_string(pages.join("techwire/news/right-to-repair.html")).unwrap();
    std::fs::write(dir.join("same-url.html"), repair.replace("Phone makers", "Tablet makers")).unwrap();
    std::fs::copy(repo_path("tests/fixtures/pages/news-article.html"), dir.join("new.html")).unwrap();
    std::fs::write(
        dir.join("urls.tsv"),
        "copy.html\thttps://mirror.example/quantum-chip.html\n\
         near.html\thttps://mirror.example/film-revival.html\n\
         same-url.html\thttps://www.techwire.example/news/right-to-repair.html\n\
         new.html\thttps://news.example/night-trains.html\n",
    )
    .unwrap();
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).unwrap()
}

fn urls_of(search_output: &str) -> Vec<String> {
    search_output.lines().map(|l| json(l)["url"].as_str().unwrap().to_string()).collect()
}

#[test]
fn append_adds_pages_and_drops_replicas_of_pages_already_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let batch = tempfile::tempdir().unwrap();
    second_batch(batch.path());
    let d = path_str(dir.path());
    let first = json(&run(&["build", "--quiet", "--json", path_str(&sample_corpus()), "--dir", d], 0));
    let first_build = std::fs::canonicalize(dir.path().join("current")).unwrap();
    let first_docview = std::fs::read_to_string(first_build.join("docview.jsonl")).unwrap();
    let first_stop_words = std::fs::read_to_string(first_build.join("stopwords-learned.txt")).unwrap();
    assert!(urls_of(&search("night trains alps", dir.path())).iter().all(|u| !u.contains("news.example")));

    let summary = json(&run(&["build", "--quiet", "--json", "--append", path_str(batch.path()), "--dir", d], 0));
    let current = std::fs::canonicalize(dir.path().join("current")).unwrap();
    assert_ne!(current, first_build);
    assert!(!first_build.exists(), "the build appended to is replaced, like any older build");

    // The copies are replicas of the first build's pages (the techwire film story is itself a
    // near replica of lumenframe's, which the first build kept); the URL read before is skipped.
    // The byte-identical copy is an exact replica: on its own host, without the site evidence
    // that removes the techwire template blocks from the original, the cleaner drops them too.
    let replicas = std::fs::read_to_string(current.join("replicas.tsv")).unwrap();
    assert!(
        replicas.contains(
            "https://mirror.example/quantum-chip.html\thttps://www.techwire.example/news/quantum-chip.html\texact\n"
        ),
        "{replicas}"
    );
    assert!(
        replicas.contains(
            "https://mirror.example/film-revival.html\thttps://lumenframe.example/journal/film-revival\tnear\n"
        ),
        "{replicas}"
    );
    let skipped = std::fs::read_to_string(current.join("skipped.tsv")).unwrap();
    assert!(skipped.contains("same-url.html\tduplicate-url\thttps://www.techwire.example/news/right-to-repair.html"));

    // The counts add up: the first build's plus what the append added.
    let appended = &summary["appended"];
    assert_eq!(appended["pages_read"], 4);
    assert_eq!(appended["pages_indexed"], 1);
    assert_eq!(appended["skipped"], 1);
    assert_eq!(appended["replicas"]["exact"], 1);
    assert_eq!(appended["replicas"]["near"], 1);
    let count = |v: &serde_json::Value, key: &str| v[key].as_u64().unwrap();
    assert_eq!(count(&summary, "pages_read"), count(&first, "pages_read") + 4);
    assert_eq!(count(&summary, "pages_indexed"), count(&first, "pages_indexed") + 1);
    assert_eq!(count(&summary["replicas"], "exact"), count(&first["replicas"], "exact") + 1);
    assert_eq!(count(&summary["replicas"], "near"), count(&first["replicas"], "near") + 1);
    assert_eq!(summary["skipped"]["duplicate-url"], 1);
    let saved = json(&std::fs::read_to_string(current.join("summary.json")).unwrap());
    assert_eq!(saved["pages_indexed"], summary["pages_indexed"]);
    let docview = std::fs::read_to_string(current.join("docview.jsonl")).unwrap();
    assert_eq!(docview.lines().count() as u64, count(&summary, "pages_indexed"));
    let added = docview.strip_prefix(first_docview.as_str()).expect("the first build's records come first, unchanged");
    assert_eq!(
        added.lines().map(|l| json(l)["identifier"].clone()).collect::<Vec<_>>(),
        ["https://news.example/night-trains.html"]
    );
    assert_eq!(std::fs::read_to_string(current.join("stopwords-learned.txt")).unwrap(), first_stop_words);
    let stats = json(&run(&["eval", "stats", "--json", "--dir", d], 0));
    assert_eq!(stats["abstract"]["documents"].as_u64(), Some(count(&summary, "pages_indexed")));
    assert_eq!(stats["fulltext"]["documents"].as_u64(), Some(count(&summary, "pages_indexed")));

    // The new page is searchable, and the old pages still are.
    assert_eq!(urls_of(&search("night trains alps", dir.path()))[0], "https://news.example/night-trains.html");
    assert_eq!(
        urls_of(&search("qubit chip error correction", dir.path()))[0],
        "https://www.techwire.example/news/quantum-chip.html"
    );
    let film = urls_of(&search("film photography revival", dir.path()));
    assert!(film.contains(&"https://lumenframe.example/journal/film-revival".to_string()), "{film:?}");
    assert!(film.iter().all(|u| !u.contains("mirror.example")), "{film:?}");
    assert!(!search("qubit chip", dir.path()).contains("mirror.example"));

    // Appending the same batch again: every page is now a URL read before.
    let again = json(&run(&["build", "--quiet", "--json", "--append", path_str(batch.path()), "--dir", d], 0));
    assert_eq!(again["appended"]["skipped"], 4);
    assert_eq!(again["pages_indexed"], summary["pages_indexed"]);
}

#[test]
fn append_without_a_build_is_a_plain_build_and_other_replica_settings_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let batch = tempfile::tempdir().unwrap();
    second_batch(batch.path());
    let d = path_str(dir.path());
    let summary = json(&run(&["build", "--quiet", "--json", "--append", path_str(batch.path()), "--dir", d], 0));
    assert_eq!(summary["pages_indexed"], 4);
    assert!(summary.get("appended").is_none());
    let published = std::fs::canonicalize(dir.path().join("current")).unwrap();

    let output = indexer()
        .args(["build", "--quiet", "--append", "--replicas", "simhash", path_str(batch.path()), "--dir", d])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("other replica settings") && stderr.contains("signatures.bin"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(std::fs::canonicalize(dir.path().join("current")).unwrap(), published);
    assert!(staging_folders(dir.path()).is_empty(), "a refused append removes its staging folder");
}

#[test]
fn a_build_of_another_term_analysis_is_not_appended_to_and_searching_it_warns() {
    let dir = tempfile::tempdir().unwrap();
    let batch = tempfile::tempdir().unwrap();
    second_batch(batch.path());
    let d = path_str(dir.path());
    run(&["build", "--quiet", path_str(batch.path()), "--dir", d], 0);
    let published = std::fs::canonicalize(dir.path().join("current")).unwrap();
    let stamp = published.join(indexer::index::TERM_ANALYSIS_FILE);
    assert_eq!(std::fs::read_to_string(&stamp).unwrap().trim(), indexer::index::TERM_ANALYSIS.to_string());
    let searched = indexer().args(["search", "night train", "--dir", d]).output().unwrap();
    assert!(searched.status.success());
    assert!(String::from_utf8(searched.stderr).unwrap().is_empty(), "a build of this release is searched quietly");

    // A build made before builds recorded their term analysis.
    std::fs::remove_file(&stamp).unwrap();
    let searched = indexer().args(["search", "night train", "--dir", d]).output().unwrap();
    assert!(searched.status.success(), "an older build is still searched");
    let warning = String::from_utf8(searched.stderr).unwrap();
    assert!(warning.contains("warning") && warning.contains("rebuild it"), "{warning}");
    let appended =
        indexer().args(["build", "--quiet", "--append", path_str(batch.path()), "--dir", d]).output().unwrap();
    assert_eq!(appended.status.code(), Some(2));
    let stderr = String::from_utf8(appended.stderr).unwrap();
    assert!(stderr.contains("term analysis") && stderr.contains("rebuild without --append"), "{stderr}");
    assert_eq!(std::fs::canonicalize(dir.path().join("current")).unwrap(), published, "the build is kept");
    assert!(staging_folders(dir.path()).is_empty());
}
