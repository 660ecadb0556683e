//! Many inputs read at once: a build over a gzipped WARC file, a JSON Lines file and a folder
//! gives the same records in the same order however many reader threads read them, and
//! `--input-list` names the same inputs as arguments do.

mod common;

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::repo_path;

fn indexer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_indexer"))
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn warc_record(url: &str, html: &[u8]) -> Vec<u8> {
    let mut http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n".to_vec();
    http.extend_from_slice(html);
    let mut out = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:{:036}>\r\nContent-Length: {}\r\n\r\n",
        url.len(),
        http.len()
    )
    .into_bytes();
    out.extend_from_slice(&http);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// Half the sample corpus split three ways by site: a gzipped WARC file, a JSON Lines file and a
/// folder with its own manifest. Returns the inputs, and the input each URL is in.
fn three_inputs(dir: &Path) -> (Vec<PathBuf>, HashMap<String, usize>) {
    let pages = repo_path("eval/sample-corpus/pages");
    let manifest = std::fs::read_to_string(pages.join("urls.tsv")).unwrap();
    let (warc, jsonl, folder) = (dir.join("part1.warc.gz"), dir.join("part2.jsonl"), dir.join("part3"));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut lines = String::new();
    let mut folder_manifest = String::new();
    let mut part_of = HashMap::new();
    // Every other page: enough for many batches, half the time.
    for line in manifest.lines().step_by(2) {
        let Some((path, url)) = line.split_once('\t') else { continue };
        let html = std::fs::read(pages.join(path)).unwrap();
        let part = match path.split('/').next().unwrap() {
            "chenbao" | "crumbandcrust" | "healthcircle" => 0,
            "kepu" | "lumenframe" | "marlow" => 1,
            _ => 2,
        };
        part_of.insert(url.to_string(), part);
        match part {
            0 => gz.write_all(&warc_record(url, &html)).unwrap(),
            1 => {
                let record = serde_json::json!({"url": url, "html": String::from_utf8_lossy(&html)});
                lines.push_str(&format!("{record}\n"));
            }
            _ => {
                let target = folder.join(path);
                std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                std::fs::write(&target, &html).unwrap();
                folder_manifest.push_str(&format!("{line}\n"));
            }
        }
    }
    std::fs::write(&warc, gz.finish().unwrap()).unwrap();
    std::fs::write(&jsonl, lines).unwrap();
    std::fs::write(folder.join("urls.tsv"), folder_manifest).unwrap();
    (vec![warc, jsonl, folder], part_of)
}

/// Builds `inputs` with the `[input]` settings `input_toml`; returns docview.jsonl and
/// replicas.tsv of the build.
fn build(inputs: &[&str], input_toml: &str, work: &Path) -> (String, String) {
    let config = work.join("config.toml");
    std::fs::write(&config, format!("[input]\n{input_toml}\n")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let output = indexer()
        .args(["build", "--quiet", "--config", path_str(&config), "--dir", path_str(out.path())])
        .args(inputs)
        .output()
        .unwrap();
    assert!(output.status.success(), "{inputs:?} {input_toml}: {}", String::from_utf8_lossy(&output.stderr));
    let current = out.path().join("current");
    (
        std::fs::read_to_string(current.join("docview.jsonl")).unwrap(),
        std::fs::read_to_string(current.join("replicas.tsv")).unwrap(),
    )
}

fn identifiers(docview: &str) -> Vec<String> {
    docview
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["identifier"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_records_do_not_depend_on_the_number_of_reader_threads() {
    let work = tempfile::tempdir().unwrap();
    let (inputs, part_of) = three_inputs(work.path());
    let args: Vec<&str> = inputs.iter().map(|p| path_str(p)).collect();

    let (one, one_replicas) = build(&args, "batch_size = 8\nparallel_files = 3\nreader_threads = 1", work.path());
    assert!(identifiers(&one).len() > 80, "the three parts hold 97 pages of the sample corpus");
    // The three inputs take turns, a batch of 8 pages each: the first records come from all three.
    let firsts: Vec<usize> = identifiers(&one)[..20].iter().map(|u| part_of[u]).collect();
    for part in 0..3 {
        assert!(firsts.contains(&part), "input {part} is not among the first records: {firsts:?}");
    }
    let (three, three_replicas) = build(&args, "batch_size = 8\nparallel_files = 3\nreader_threads = 3", work.path());
    assert!(three == one, "reader_threads 3 changed docview.jsonl");
    assert_eq!(three_replicas, one_replicas);

    // One file at a time: the inputs one after the other, and the same pages in all.
    let (sequential, sequential_replicas) =
        build(&args, "batch_size = 8\nparallel_files = 1\nreader_threads = 1", work.path());
    let order = identifiers(&sequential);
    let part = |url: &String| part_of[url];
    assert!(order.windows(2).all(|w| part(&w[0]) <= part(&w[1])), "not in input order");
    let every_url = |docview: &str, replicas: &str| {
        let mut urls = identifiers(docview);
        urls.extend(replicas.lines().filter_map(|l| l.split('\t').next()).map(str::to_string));
        urls.sort();
        urls
    };
    assert_eq!(every_url(&sequential, &sequential_replicas), every_url(&one, &one_replicas));

    // An input list names the same inputs.
    let list = work.path().join("inputs.txt");
    std::fs::write(&list, "# three parts\npart1.warc.gz\npart2.jsonl\n\npart3\n").unwrap();
    let (listed, _) = build(&["--input-list", path_str(&list)], "batch_size = 8\nparallel_files = 3", work.path());
    assert!(listed == one, "--input-list changed docview.jsonl");
}
