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
        // Every record has a confidence, and a code of Table 1 (the built-in model) unless
        // the confidence is below classify.min_confidence (0.55).
        let confidence = record["classification_confidence"].as_f64().unwrap();
        assert!(confidence > 0.0 && confidence <= 1.0);
        match record["classification_code"].as_str() {
            Some(code) => {
                assert!(code.len() == 2 && (1..=12).contains(&code.parse::<u32>().unwrap()), "{record}");
                assert!(confidence >= 0.55, "{record}");
            }
            // Rounded to three decimals in the record: 0.5496 reads 0.55.
            None => assert!(confidence <= 0.55, "{record}"),
        }
    }
}

/// Labelled texts of our own, a model trained on them, a build with it, and a search
/// filtered by category.
#[test]
fn classify_train_then_build_and_search_by_category() {
    let work = tempfile::tempdir().unwrap();
    let labels = work.path().join("labels");
    let texts = [
        ("sport", "match", "The home team won the football match with a late goal; the league title race goes on."),
        ("sport", "tennis", "The tennis champion won the final in three sets after a long rally in the tiebreak."),
        ("sport", "marathon", "Runners finished the city marathon in record time as the crowd cheered the winner."),
        ("food", "bread", "Knead the bread dough, let it rise overnight and bake the loaf in a hot oven."),
        ("food", "soup", "Simmer the onions and lentils, season the soup with cumin and serve it with bread."),
        ("food", "cake", "Whisk the eggs and sugar, fold in the flour and bake the cake until golden."),
    ];
    for (code, name, text) in texts {
        std::fs::create_dir_all(labels.join(code)).unwrap();
        std::fs::write(labels.join(code).join(format!("{name}.txt")), text).unwrap();
    }
    let scheme = work.path().join("scheme.tsv");
    std::fs::write(&scheme, "sport\tSport\nfood\tFood and drink\n").unwrap();
    let model = work.path().join("model.bin");
    indexer()
        .args(["classify", "train", "--labels"])
        .arg(&labels)
        .arg("--scheme")
        .arg(&scheme)
        .arg("--out")
        .arg(&model)
        .assert()
        .success()
        .stdout(predicate::str::contains("6 texts (sport 3, food 3)"));

    let input = work.path().join("pages");
    std::fs::create_dir_all(&input).unwrap();
    let page = |title: &str, body: &str| {
        format!("<html><head><title>{title}</title></head><body><h1>{title}</h1><p>{body}</p></body></html>")
    };
    let match_report = "The home team won the football match with a goal in the last minute, and the league title race goes on for the team.";
    let recipe = "Bake the bread in a hot oven after the dough has risen; the loaf and a bowl of soup make a match for any winter evening.";
    std::fs::write(input.join("match.html"), page("Late goal wins the match", match_report)).unwrap();
    std::fs::write(input.join("recipe.html"), page("Bread and soup", recipe)).unwrap();
    let out = work.path().join("build");
    indexer()
        .args(["build", "--quiet", "--classifier"])
        .arg(&model)
        .arg(&input)
        .arg("--dir")
        .arg(&out)
        .assert()
        .success();
    let records = std::fs::read_to_string(out.join("current/docview.jsonl")).unwrap();
    let codes: Vec<(String, String)> = records
        .lines()
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            (
                record["identifier"].as_str().unwrap().to_string(),
                record["classification_code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(codes.iter().any(|(url, code)| url.ends_with("match.html") && code == "sport"), "{codes:?}");
    assert!(codes.iter().any(|(url, code)| url.ends_with("recipe.html") && code == "food"), "{codes:?}");

    // "match" is in both pages; the category keeps one.
    let search = |category: &str| {
        let output =
            indexer().args(["search", "match", "--json", "--category", category, "--dir"]).arg(&out).output().unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    let sport = search("sport");
    assert_eq!(sport.lines().count(), 1, "{sport}");
    assert!(sport.contains("match.html") && sport.contains("\"category\":\"sport\""), "{sport}");
    let food = search("food");
    assert!(food.lines().count() == 1 && food.contains("recipe.html"), "{food}");
    // A code the model does not have is an error naming the ones it has.
    indexer()
        .args(["search", "match", "--category", "news", "--dir"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--category news: not a category").and(predicate::str::contains("sport")));
    // `classify text` lists every category of the model, best first.
    let output =
        indexer().args(["classify", "text", "a cake baked in the oven", "--classifier"]).arg(&model).output().unwrap();
    let listing = String::from_utf8(output.stdout).unwrap();
    assert_eq!(listing.lines().count(), 2, "{listing}");
    assert!(listing.starts_with("food\t") && listing.contains("\tFood and drink"), "{listing}");
    // Below classify.min_confidence a record keeps its confidence but gets no code: with 1,
    // only a certain prediction is coded.
    let strict = work.path().join("strict.toml");
    std::fs::write(&strict, "[classify]\nmin_confidence = 1.0\n").unwrap();
    indexer()
        .args(["build", "--quiet", "--classifier"])
        .arg(&model)
        .arg("--config")
        .arg(&strict)
        .arg(&input)
        .arg("--dir")
        .arg(&out)
        .assert()
        .success();
    let records = std::fs::read_to_string(out.join("current/docview.jsonl")).unwrap();
    for line in records.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let confidence = record["classification_confidence"].as_f64().unwrap();
        if record["classification_code"].is_string() {
            assert_eq!(confidence, 1.0, "{record}");
        }
    }
    assert!(records.lines().any(|line| !line.contains("classification_code")), "{records}");
    // `classify cv` holds each text out (a text file is its own group) and prints the
    // threshold table.
    indexer()
        .args(["classify", "cv", "--folds", "3", "--labels"])
        .arg(&labels)
        .arg("--scheme")
        .arg(&scheme)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("3-fold cross-validation by group on 6 texts")
                .and(predicate::str::contains("min_confidence  coded  right  wrong"))
                .and(predicate::str::contains("most right minus wrong codes at min_confidence = ")),
        );
    // `--classifier off` leaves the records without a code.
    indexer().args(["build", "--quiet", "--classifier", "off"]).arg(&input).arg("--dir").arg(&out).assert().success();
    let records = std::fs::read_to_string(out.join("current/docview.jsonl")).unwrap();
    assert!(records.lines().all(|line| !line.contains("classification_code")), "{records}");
    // The evaluation names a missing data folder, in one line that says the reason once.
    let output = indexer().args(["classify", "eval", "--data"]).arg(work.path().join("nowhere")).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("nowhere") && stderr.lines().count() == 1, "{stderr}");
    assert_eq!(stderr.matches("os error 2").count(), 1, "{stderr}");
    // A model file that is not one stops the build with a reason.
    indexer()
        .args(["build", "--quiet", "--classifier"])
        .arg(&scheme)
        .arg(&input)
        .arg("--dir")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a classifier model"));
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
fn a_folder_of_crawl_files_is_read_as_those_files_beside_its_pages() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let crawl = input.path().join("crawl/2026");
    std::fs::create_dir_all(&crawl).unwrap();
    std::fs::copy(repo_path("tests/fixtures/input/chunked/input.warc"), crawl.join("a.warc")).unwrap();
    let html = std::fs::read_to_string(repo_path("tests/fixtures/pages/news-article.html")).unwrap();
    let line = serde_json::json!({"url": "https://rail.example/night-trains", "html": html}).to_string();
    std::fs::write(crawl.join("b.jsonl"), line).unwrap();
    std::fs::copy(repo_path("tests/fixtures/pages/table-layout.html"), input.path().join("page.html")).unwrap();
    std::fs::write(input.path().join("settings.json"), "{}").unwrap();
    let alone = indexer().args(["build", "--json"]).arg(crawl.join("a.warc")).arg("--dir").arg(out.path()).output();
    let alone: serde_json::Value = serde_json::from_slice(&alone.unwrap().stdout).unwrap();
    let read_alone = alone["pages_read"].as_u64().unwrap();
    assert!(read_alone >= 1, "{alone}");

    let output = indexer().args(["build", "--json"]).arg(input.path()).arg("--dir").arg(out.path()).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // The page, the WARC file's records and the JSON Lines record; settings.json is no input.
    assert_eq!(summary["pages_read"].as_u64().unwrap(), read_alone + 2, "{summary}");
    let records = records(out.path());
    let ids: Vec<&str> = records.iter().map(|r| r["identifier"].as_str().unwrap()).collect();
    assert!(ids.contains(&"https://rail.example/night-trains"), "{ids:?}");
    assert!(ids.iter().any(|id| id.ends_with("page.html")), "{ids:?}");

    // A crawl file named twice, in its folder and on its own, is read once.
    let twice = indexer()
        .args(["build", "--json"])
        .arg(input.path())
        .arg(crawl.join("a.warc"))
        .arg("--dir")
        .arg(out.path())
        .output()
        .unwrap();
    let twice: serde_json::Value = serde_json::from_slice(&twice.stdout).unwrap();
    assert_eq!(twice["pages_read"], summary["pages_read"], "{twice}");
}

#[test]
fn json_lines_of_text_documents_are_indexed_under_their_ids_with_accept_text() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let lines = [
        serde_json::json!({"id": "d1", "title": "Wing flutter at high speed", "text":
            "A wing in a propeller slipstream flutters when the ratio of speeds < 0.4 holds.\n\n\
             The second paragraph tells how the tunnel models were built & tested."})
        .to_string(),
        serde_json::json!({"id": 2, "contents": "Heat conduction in composite slabs of two metals was solved."})
            .to_string(),
    ];
    let path = input.path().join("corpus.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();

    // Plain text is a page on request only, as in crawls; the message says how.
    let refused = indexer().arg("build").arg(&path).arg("--dir").arg(out.path()).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(stderr.contains("corpus.jsonl:1: skipped (not-a-page)") && stderr.contains("--accept text"), "{stderr}");

    let output = indexer()
        .args(["build", "--json", "--accept", "text"])
        .arg(&path)
        .arg("--dir")
        .arg(out.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(summary["pages_indexed"], 2, "{summary}");
    let all = records(out.path());
    let first = all.iter().find(|r| r["identifier"] == "d1").unwrap();
    assert_eq!(first["title"], "Wing flutter at high speed");
    let topic = first["topic_content"].as_str().unwrap();
    assert!(topic.contains("speeds < 0.4 holds") && topic.contains("built & tested"), "{topic}");
    assert!(all.iter().any(|r| r["identifier"] == "2"));
    indexer()
        .args(["search", "slab conduction", "--json", "-n", "1", "--dir"])
        .arg(out.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("\"2\""));
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
    // A text with no word to read is an error, not a table of the model's priors.
    for text in ["", "the of and", " ,.; "] {
        indexer()
            .args(["classify", "text", text])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("nothing to classify"));
    }
}

#[test]
fn config_prints_a_toml_file_that_build_accepts() {
    let out = indexer().arg("config").output().unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = printed.lines().collect();
    let percentage = lines.iter().position(|line| line.starts_with("percentage = ")).unwrap();
    assert!(lines[percentage - 1].starts_with("# "), "each parameter is explained above it");
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

#[test]
fn extract_writes_each_pages_topic_content_under_its_stem() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    corpus(input.path());
    std::fs::write(input.path().join("garbage.html"), [0u8, 1, 2, 3, 0, 0]).unwrap();
    indexer()
        .args(["extract", "--quiet"])
        .arg(input.path())
        .arg("--out")
        .arg(out.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("9 pages read, 8 files written"))
        .stdout(predicate::str::contains("1 skipped (not-html 1)"));
    // What extract writes is the default cleaner's golden topic content without its headline
    // (the heading matching <title>, the first line of the Chinese page; the table page, an
    // "Untitled Document", has none, and on the news page the block classifier drops the
    // headline's block, which holds a subheading too), which goes to the manifest; with
    // --with-headline, the golden topic content itself.
    let inline = tempfile::tempdir().unwrap();
    indexer()
        .args(["extract", "--quiet", "--with-headline"])
        .arg(input.path())
        .arg("--out")
        .arg(inline.path())
        .assert()
        .success();
    let manifest = std::fs::read_to_string(out.path().join("manifest.tsv")).unwrap();
    for (case, has_headline) in [("news-article", true), ("chinese-gbk", true), ("table-layout", false)] {
        let read = |dir: &std::path::Path| std::fs::read_to_string(dir.join(format!("{case}.txt"))).unwrap();
        let golden =
            std::fs::read_to_string(repo_path(&format!("tests/fixtures/clean/{case}/topic-blocks.txt"))).unwrap();
        let golden_text = golden.split_once("\n\n").unwrap().1.trim_end();
        let (headline, body) = match has_headline {
            true => golden_text.split_once('\n').unwrap(),
            false => ("", golden_text),
        };
        assert_eq!(read(out.path()).trim_end(), body, "{case}");
        assert_eq!(read(inline.path()).trim_end(), golden_text, "{case}");
        let line = manifest.lines().find(|l| l.starts_with(&format!("{case}.txt\t"))).unwrap();
        assert_eq!(line.rsplit('\t').next(), Some(headline), "{manifest}");
    }
    assert_eq!(manifest.lines().next(), Some("file\turl\tpage_type\torigin\theadline"));
    assert_eq!(manifest.lines().count(), 1 + 8, "{manifest}");
    assert!(manifest.lines().any(|l| l.starts_with("hub-page.txt\t") && l.contains("\thub\t")), "{manifest}");
}

#[test]
fn eval_clean_writes_the_configs_report_for_the_full_table_only() {
    let dir = tempfile::tempdir().unwrap();
    let (html, gold) = (dir.path().join("html"), dir.path().join("gold"));
    std::fs::create_dir_all(&html).unwrap();
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::copy(repo_path("tests/fixtures/pages/news-article.html"), html.join("news-article.html")).unwrap();
    // The default cleaner's topic content of the page as gold, without its headline (the
    // first line), as extract writes it by default.
    let golden = std::fs::read_to_string(repo_path("tests/fixtures/clean/news-article/topic-blocks.txt")).unwrap();
    let body = golden.split_once("\n\n").unwrap().1.strip_prefix("Night trains return to the Alps\n").unwrap();
    std::fs::write(gold.join("news-article.txt"), body).unwrap();
    let config = dir.path().join("cleaning.toml");
    std::fs::write(&config, "report = \"table\"\n[[sets]]\nname = \"ours\"\nhtml = \"html\"\ngold = \"gold\"\n")
        .unwrap();
    let table = dir.path().join("table");
    // One cleaner is a part of the table: no report unless asked for.
    indexer()
        .args(["eval", "clean", "--config"])
        .arg(&config)
        .assert()
        .success()
        .stdout(predicate::str::contains("ours").and(predicate::str::contains("F1 1.000")));
    assert!(!table.exists());
    let elsewhere = dir.path().join("elsewhere");
    indexer().args(["eval", "clean", "--config"]).arg(&config).arg("--report").arg(&elsewhere).assert().success();
    assert!(elsewhere.join("report.md").exists() && !table.exists());
    indexer().args(["eval", "clean", "--all", "--config"]).arg(&config).assert().success();
    let report = std::fs::read_to_string(table.join("report.md")).unwrap();
    assert!(["docview", "sst", "mountain", "pab"].iter().all(|c| report.contains(c)), "{report}");
    // The headline's row: docview with it inline scores below 1 on body-only gold.
    let inline = report.lines().find(|l| l.starts_with("| docview, headline inline |")).expect("the headline row");
    assert!(!inline.contains("1.000"), "{report}");
}

/// Short papers of a made-up journal site, each a title and two lines in the site's frame,
/// as JSON Lines records; and one page of another host.
fn journal_site(n: usize) -> Vec<String> {
    let topics = [
        ("Sorting on tapes", "A merge method for four tape units that needs no rewinding between passes."),
        ("A compiler for loops", "Nested loops become a single pass over the index registers of the machine."),
        ("Random numbers", "Tests of the multiplicative generator show no pattern in the low bits."),
        ("Matrix inversion", "Gaussian elimination with pivoting inverts a matrix of order forty in minutes."),
        ("Text editing", "A line editor for teletypes keeps the file on a drum and edits it in place."),
        ("Storage allocation", "Free blocks are kept in lists by size so that a request is met in one step."),
    ];
    let mut lines: Vec<String> = topics[..n]
        .iter()
        .enumerate()
        .map(|(i, (title, text))| {
            let html = format!(
                "<title>{title}</title><body><div class=menu><a href=/>Home</a> <a href=/issues>Issues</a></div>\
                <div class=page><div class=article><h1>{title}</h1><p>{text}</p></div><div class=about><p>The \
                Journal of Computing Practice publishes short papers on programming, numerical methods and the \
                design of computing systems, four times a year since 1958.</p></div><div class=subscribe><p>\
                Subscribe to the journal and get every new issue delivered to your department library on the \
                day it is printed.</p></div></div><div class=footer>Copyright the Society for Computing \
                Practice.</div></body>"
            );
            serde_json::json!({"url": format!("https://journal.example.org/papers/{i}"), "html": html}).to_string()
        })
        .collect();
    let other = std::fs::read_to_string(repo_path("tests/fixtures/pages/news-article.html")).unwrap();
    lines.push(serde_json::json!({"url": "https://rail.example/night-trains", "html": other}).to_string());
    lines
}

fn records(build: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(build.join("current/docview.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn a_build_learns_each_hosts_template_and_shards_share_it() {
    let input = tempfile::tempdir().unwrap();
    let path = input.path().join("pages.jsonl");
    std::fs::write(&path, journal_site(6).join("\n")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let output = indexer().args(["build", "--json"]).arg(&path).arg("--dir").arg(out.path()).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(summary["pages_indexed"], 7, "{summary}");
    let all = records(out.path());
    for record in all.iter().filter(|r| r["identifier"].as_str().unwrap().contains("journal")) {
        let topic = record["topic_content"].as_str().unwrap();
        assert!(topic.contains(record["title"].as_str().unwrap()), "{topic}");
        assert!(!topic.contains("four times a year") && !topic.contains("Subscribe"), "{topic}");
    }
    let templates = std::fs::read_to_string(out.path().join("current/site-templates.tsv")).unwrap();
    assert!(templates.contains("journal.example.org\t") && !templates.contains("rail.example"), "{templates}");

    // `indexer site-templates` learns the same, byte for byte; a shard of the first three
    // pages given them cleans its pages as the whole build did.
    let learned = input.path().join("site-templates.tsv");
    indexer().arg("site-templates").arg(&path).arg("-o").arg(&learned).assert().success();
    assert_eq!(std::fs::read_to_string(&learned).unwrap(), templates);
    let shard_input = input.path().join("shard.jsonl");
    std::fs::write(&shard_input, journal_site(6)[..3].join("\n")).unwrap();
    let shard = tempfile::tempdir().unwrap();
    indexer()
        .args(["build", "--quiet", "--shard", "--site-templates"])
        .arg(&learned)
        .arg(&shard_input)
        .arg("--dir")
        .arg(shard.path())
        .assert()
        .success();
    let topics = |records: &[serde_json::Value]| -> Vec<(String, String)> {
        records.iter().map(|r| (r["identifier"].to_string(), r["topic_content"].to_string())).collect()
    };
    assert_eq!(topics(&records(shard.path())), topics(&all[..3]));
    // With site evidence off, each page is cleaned alone and its template is topic content.
    let alone = tempfile::tempdir().unwrap();
    let off = input.path().join("off.toml");
    std::fs::write(&off, "[cleaning]\nsite_min_pages = 0\n").unwrap();
    indexer()
        .args(["build", "--quiet", "--config"])
        .arg(&off)
        .arg(&shard_input)
        .arg("--dir")
        .arg(alone.path())
        .assert()
        .success();
    assert!(records(alone.path()).iter().any(|r| r["topic_content"].as_str().unwrap().contains("four times a year")));
    // A bad file is a clear error.
    std::fs::write(input.path().join("bad.tsv"), "nothing here\n").unwrap();
    indexer()
        .args(["build", "--quiet", "--site-templates"])
        .arg(input.path().join("bad.tsv"))
        .arg(&shard_input)
        .arg("--dir")
        .arg(alone.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a site-templates file"));
}

/// A build whose hosts come one after another learns their templates in its main pass, each
/// page parsed once (`pipeline::write_build`): small batches split each host's sample, and
/// the records are those of a build given the templates learned in a pass of their own.
#[test]
fn templates_learned_in_the_main_pass_clean_as_a_learning_pass_does() {
    let input = tempfile::tempdir().unwrap();
    let mut lines = journal_site(6);
    let other_site = lines.pop().unwrap();
    let letters: Vec<String> = lines
        .iter()
        .map(|line| {
            line.replace("journal.example.org", "letters.example.org")
                .replace("</p></div><div", " Letters.</p></div><div")
        })
        .collect();
    lines.extend(letters);
    lines.push(other_site);
    let path = input.path().join("pages.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let config = input.path().join("small-batches.toml");
    std::fs::write(&config, "[input]\nbatch_size = 4\n\n[cleaning]\nsite_sample_pages = 5\n").unwrap();
    let build = |dir: &Path, templates: Option<&Path>| {
        let mut command = indexer();
        command.args(["build", "--quiet", "--config"]).arg(&config);
        if let Some(templates) = templates {
            command.arg("--site-templates").arg(templates);
        }
        command.arg(&path).arg("--dir").arg(dir).assert().success();
    };
    let learned_inline = tempfile::tempdir().unwrap();
    build(learned_inline.path(), None);
    let templates = input.path().join("site-templates.tsv");
    indexer().args(["site-templates", "--config"]).arg(&config).arg(&path).arg("-o").arg(&templates).assert().success();
    let given = tempfile::tempdir().unwrap();
    build(given.path(), Some(&templates));
    let read = |dir: &Path, name: &str| std::fs::read_to_string(dir.join("current").join(name)).unwrap();
    let inline_templates = read(learned_inline.path(), "site-templates.tsv");
    assert_eq!(inline_templates, std::fs::read_to_string(&templates).unwrap());
    assert!(inline_templates.contains("journal.example.org\t") && inline_templates.contains("letters.example.org\t"));
    assert_eq!(records(learned_inline.path()).len(), 13);
    assert_eq!(read(learned_inline.path(), "docview.jsonl"), read(given.path(), "docview.jsonl"));
}

/// The paper cuts of issue 21, item 4: each is a clear message, not a silent surprise.
#[test]
fn paper_cuts_get_clear_answers() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    corpus(input.path());
    build(input.path(), out.path()).success();
    let search = |args: &[&str]| indexer().arg("search").args(args).arg("--dir").arg(out.path()).assert();

    // -n 0 is a usage error, not one result or "no results".
    search(&["comet", "-n", "0"]).code(2).stderr(predicate::str::contains("at least 1"));
    // So is eval run's (it wrote an empty run).
    let topics = input.path().join("topics.tsv");
    std::fs::write(&topics, "q1\tcomet\n").unwrap();
    indexer()
        .args(["eval", "run", "-n", "0", "--run"])
        .arg(out.path().join("run.txt"))
        .arg("--topics")
        .arg(&topics)
        .arg("--dir")
        .arg(out.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at least 1"));
    // An empty or stop-word-only query has nothing to search for.
    for query in ["", "the of and", "  ,.;  "] {
        search(&[query]).code(2).stderr(predicate::str::contains("nothing to search for"));
    }
    // A code outside the build's scheme is an error naming the valid codes.
    search(&["comet", "--category", "99"])
        .code(2)
        .stderr(predicate::str::contains("--category 99: not a category").and(predicate::str::contains("05 Computer")));
    // A tiered hit says which index's record it shows.
    search(&["night trains alps", "-n", "1"]).success().stdout(predicate::str::contains("<abstract>"));

    // summary.json names the build folder it is in.
    let current = std::fs::canonicalize(out.path().join("current")).unwrap();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(current.join("summary.json")).unwrap()).unwrap();
    let output = summary["output"].as_str().unwrap();
    assert!(!output.is_empty() && current.ends_with(Path::new(output).file_name().unwrap()), "{output}");

    // --append with another cleaner would make config.toml misstate the build.
    indexer()
        .args(["build", "--quiet", "--append", "--cleaner", "mountain"])
        .arg(input.path())
        .arg("--dir")
        .arg(out.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cleaned by --cleaner blocks, not mountain"));

    // A negative share in a config file is refused with its key.
    let config = input.path().join("bad.toml");
    std::fs::write(&config, "[cleaning]\nmin_root_coverage = -0.5\n").unwrap();
    indexer()
        .args(["build", "--quiet"])
        .arg(input.path())
        .arg("--config")
        .arg(&config)
        .arg("--dir")
        .arg(out.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cleaning.min_root_coverage must be in 0..=1"));

    // A folder without pages says so and leaves no empty build folder behind.
    let empty = tempfile::tempdir().unwrap();
    let fresh = empty.path().join("never-built");
    indexer()
        .args(["build", "--quiet"])
        .arg(empty.path())
        .arg("--dir")
        .arg(&fresh)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the inputs hold no pages"));
    assert!(!fresh.exists());

    // inspect reads a gzipped page as a build reads a folder's .html.gz, and takes --config.
    let page = std::fs::read(input.path().join("news-article.html")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &page).unwrap();
    std::fs::write(input.path().join("news-article.html.gz"), gz.finish().unwrap()).unwrap();
    let plain = indexer()
        .current_dir(input.path())
        .args(["inspect", "news-article.html", "--url", "https://n.example/a"])
        .output()
        .unwrap();
    let zipped = indexer()
        .current_dir(input.path())
        .args(["inspect", "news-article.html.gz", "--url", "https://n.example/a", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    assert!(plain.status.success());
    assert_eq!(zipped.status.code(), Some(2), "the bad --config is read");
    assert!(String::from_utf8_lossy(&zipped.stderr).contains("cleaning.min_root_coverage"));
    let zipped = indexer()
        .current_dir(input.path())
        .args(["inspect", "news-article.html.gz", "--url", "https://n.example/a"])
        .output()
        .unwrap();
    assert!(zipped.status.success(), "{}", String::from_utf8_lossy(&zipped.stderr));
    assert_eq!(plain.stdout, zipped.stdout);

    // inspect of a relative path gives an absolute file:// URL.
    let record = indexer().current_dir(input.path()).args(["inspect", "news-article.html"]).output().unwrap();
    assert!(record.status.success());
    let record: serde_json::Value = serde_json::from_slice(&record.stdout).unwrap();
    let url = record["identifier"].as_str().unwrap();
    assert!(url.starts_with("file:///") && url.ends_with("/news-article.html"), "{url}");

    // bench writes its report under the build folder's name by default, never into eval/.
    let help = indexer().args(["bench", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("[default: indexer-data/bench]"));
    // build --help states the defaults of --cleaner and --replicas.
    let help = String::from_utf8(indexer().args(["build", "--help"]).output().unwrap().stdout).unwrap();
    assert!(help.contains("[default: blocks") && help.contains("[default: minhash"), "{help}");
    // extract --help states --cleaner's default too, and inspect --help teaches (what it prints,
    // --config, an example).
    let help = String::from_utf8(indexer().args(["extract", "--help"]).output().unwrap().stdout).unwrap();
    assert!(help.contains("[default: blocks"), "{help}");
    let help = String::from_utf8(indexer().args(["inspect", "--help"]).output().unwrap().stdout).unwrap();
    assert!(
        help.contains("[default: blocks") && help.contains("--config") && help.contains("Example: indexer inspect"),
        "{help}"
    );
}

/// Issue 21, F14: the folder a build prints (`DIR/builds/<id>`), or `DIR/current`, given as
/// --dir is read as that build by every reader, and refused by `build` (which would write a
/// build inside the published one). `DIR/builds`, which holds the builds, is read as `DIR`
/// (issue 21), and `build` refuses it saying what it is and which --dir to give.
#[test]
fn a_build_given_as_dir_is_read_and_never_built_into() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    corpus(input.path());
    build(input.path(), out.path()).success();
    let current = out.path().join("current");
    let published = std::fs::canonicalize(&current).unwrap();
    // DIR/builds, the folder the printed build sits in, is read as DIR (its published build).
    let builds = out.path().join("builds");
    let search = |dir: &Path| indexer().args(["search", "comet", "--json", "--dir"]).arg(dir).output().unwrap();
    let expected = search(out.path());
    assert!(expected.status.success());
    for dir in [&current, &published, &builds] {
        let found = search(dir);
        assert!(found.status.success(), "{}", String::from_utf8_lossy(&found.stderr));
        assert_eq!(found.stdout, expected.stdout);
        indexer().args(["eval", "stats", "--dir"]).arg(dir).assert().success();
        indexer().args(["export", "--dir"]).arg(dir).assert().success();
    }
    let topics = input.path().join("topics.tsv");
    std::fs::write(&topics, "q1\tcomet\n").unwrap();
    for dir in [&current, &builds] {
        indexer()
            .args(["eval", "run", "--topics"])
            .arg(&topics)
            .arg("--run")
            .arg(input.path().join("run.txt"))
            .arg("--dir")
            .arg(dir)
            .assert()
            .success();
    }
    indexer().args(["eval", "disk", "--queries", "20", "--group", "10", "--dir"]).arg(&builds).assert().success();

    let hint = format!("use --dir {}", out.path().display());
    for dir in [&current, &published] {
        indexer()
            .args(["build", "--quiet"])
            .arg(input.path())
            .arg("--dir")
            .arg(dir)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is a build, not a build folder").and(predicate::str::contains(&hint)));
    }
    indexer()
        .args(["build", "--quiet"])
        .arg(input.path())
        .arg("--dir")
        .arg(out.path().join("builds"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("builds holds the builds of a build folder")
                .and(predicate::str::contains("is a build,").not())
                .and(predicate::str::contains(&hint)),
        );
    assert!(!published.join("builds").exists() && !published.join("current").exists());
    assert!(!out.path().join("builds/builds").exists());
    assert_eq!(std::fs::canonicalize(&current).unwrap(), published);
}

/// Issue 21, F13: a build that indexes nothing still prints its JSON summary with --json (what
/// was read, why each record was skipped, the error), and still fails.
#[test]
fn a_build_that_indexes_nothing_prints_its_json_summary() {
    let bad = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    std::fs::write(bad.path().join("empty.html"), "").unwrap();
    std::fs::write(bad.path().join("binary.html"), [0u8, 159, 146, 150, 0, 1]).unwrap();
    let built =
        indexer().args(["build", "--quiet", "--json"]).arg(bad.path()).arg("--dir").arg(out.path()).output().unwrap();
    assert_eq!(built.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&built.stderr).contains("no page could be indexed"));
    let summary: serde_json::Value = serde_json::from_slice(&built.stdout).expect("one JSON object on stdout");
    assert_eq!(summary["pages_read"], 2);
    assert_eq!(summary["pages_indexed"], 0);
    let skipped: u64 = summary["skipped"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(skipped, 2, "{summary}");
    assert!(summary["error"].as_str().unwrap().starts_with("no page could be indexed (2 read"), "{summary}");
    assert_eq!(summary["output"], "");
    // Without --json stdout stays empty: the error is on stderr.
    let built = indexer().args(["build", "--quiet"]).arg(bad.path()).arg("--dir").arg(out.path()).output().unwrap();
    assert_eq!(built.status.code(), Some(2));
    assert!(built.stdout.is_empty());
}

/// Issue 21, F11: a urls.tsv line naming no page of the folder is a warning naming the line;
/// one whose URL is not an absolute URL is a skipped bad-record and its page keeps its
/// file:// URL.
#[test]
fn manifest_lines_that_name_no_page_or_no_url_are_told() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    std::fs::create_dir(input.path().join("sub")).unwrap();
    let page = "<html><head><title>Birch notes</title></head><body><p>Birch bark peels in thin white sheets.</p></body></html>";
    std::fs::write(input.path().join("a.html"), page).unwrap();
    std::fs::write(input.path().join("sub/b.html"), page.replace("Birch", "Alder")).unwrap();
    std::fs::write(input.path().join("notes.txt"), "not a page").unwrap();
    std::fs::write(
        input.path().join("urls.tsv"),
        "a.html\thttps://trees.example/a\nmissing.html\thttps://trees.example/m\nsub/b.html\tnot a url\nnotes.txt\thttps://trees.example/n\n",
    )
    .unwrap();
    let built = indexer().args(["build", "--json"]).arg(input.path()).arg("--dir").arg(out.path()).output().unwrap();
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    assert!(stderr.contains("urls.tsv:2: no file missing.html in"), "{stderr}");
    assert!(stderr.contains("urls.tsv:4: notes.txt is not read as a page"), "{stderr}");
    assert_eq!(stderr.matches("urls.tsv:2:").count(), 1, "told once: {stderr}");
    assert!(stderr.contains("urls.tsv:3: skipped (bad-record): \"not a url\" is not an absolute URL"), "{stderr}");
    let summary: serde_json::Value = serde_json::from_slice(&built.stdout).unwrap();
    assert_eq!(summary["pages_indexed"], 2);
    assert_eq!(summary["skipped"]["bad-record"], 1, "{summary}");
    // The bad line is no page but a record the build could not use: read counts it, so
    // read = indexed + replicas + skipped.
    assert_eq!(summary["pages_read"], 3, "{summary}");
    let ids: Vec<String> = records(out.path()).iter().map(|r| r["identifier"].as_str().unwrap().to_string()).collect();
    assert!(ids.contains(&"https://trees.example/a".to_string()), "{ids:?}");
    assert!(ids.iter().any(|id| id.starts_with("file:///") && id.ends_with("/sub/b.html")), "{ids:?}");
}

/// Issue 21, F9: a JSON Lines line that is not a record says what is wrong in its own terms.
#[test]
fn json_lines_messages_name_the_wrong_field() {
    let input = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let path = input.path().join("pages.jsonl");
    let lines = [
        r#"{"url": "https://a.example/", "html": "<title>Fine</title><p>A page that is fine and has words.</p>"}"#,
        "[1,2,3]",
        r#"{"url": 123, "html": "<p>a"}"#,
        r#"{"url": "https://b.example/", "html": "<p>cut"#,
    ];
    std::fs::write(&path, lines.join("\n")).unwrap();
    let built = indexer().args(["build"]).arg(&path).arg("--dir").arg(out.path()).output().unwrap();
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    assert!(stderr.contains("pages.jsonl:2: skipped (bad-record): not a JSON object but an array"), "{stderr}");
    assert!(
        stderr.contains("pages.jsonl:3: skipped (bad-record): \"url\" is a number; it must be a string"),
        "{stderr}"
    );
    assert!(stderr.contains("pages.jsonl:4: skipped (bad-record): the line ends inside its JSON value"), "{stderr}");
    assert!(!stderr.contains("line 2 column"), "{stderr}");
}
