//! `indexer export` and the Quickwit index configs of `index-schema/quickwit/`: the exported
//! JSON Lines must fit the configs (every field mapped, with a compatible JSON type, and
//! every mapped field exported), and the configs must mirror our Tantivy schemas
//! (`index-schema/<index>.json`: same names, same stored and indexed choices, same records,
//! the searched fields as default search fields).

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use assert_cmd::Command;
use common::repo_path;
use serde_json::Value;

fn read_json(relative: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(repo_path(relative)).unwrap()).unwrap()
}

/// The field mappings of a Quickwit config, by name.
fn mappings(config: &Value) -> HashMap<String, Value> {
    config["doc_mapping"]["field_mappings"]
        .as_array()
        .expect("doc_mapping.field_mappings is a list")
        .iter()
        .map(|m| (m["name"].as_str().expect("every mapping has a name").to_string(), m.clone()))
        .collect()
}

/// Whether a JSON value can be ingested into a field of Quickwit type `kind`.
fn compatible(kind: &str, value: &Value) -> bool {
    match kind {
        "text" => value.is_string(),
        "u64" => value.is_u64(),
        "i64" => value.is_i64(),
        "f64" => value.is_number(),
        "bool" => value.is_boolean(),
        "datetime" => value.is_string() || value.is_i64(),
        _ => match kind.strip_prefix("array<").and_then(|k| k.strip_suffix('>')) {
            Some(inner) => value.as_array().is_some_and(|items| items.iter().all(|v| compatible(inner, v))),
            None => false,
        },
    }
}

fn export(dir: &Path, index: &str, input: &Path) -> Vec<serde_json::Map<String, Value>> {
    let output = Command::cargo_bin("indexer")
        .unwrap()
        .args(["export", "--format", "jsonl", "--index", index, "--dir"])
        .arg(dir)
        .arg("--input")
        .arg(input)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap().as_object().unwrap().clone())
        .collect()
}

#[test]
fn exported_documents_fit_the_quickwit_configs() {
    let pages = repo_path("tests/fixtures/pages");
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("indexer")
        .unwrap()
        .args(["build", "--quiet"])
        .arg(&pages)
        .arg("--dir")
        .arg(dir.path())
        .assert()
        .success();
    let kept = std::fs::read_to_string(dir.path().join("current/docview.jsonl")).unwrap().lines().count();

    for index in ["abstract", "fulltext"] {
        let config = read_json(&format!("index-schema/quickwit/{index}.json"));
        let mapped = mappings(&config);
        let documents = export(dir.path(), index, &pages);
        assert_eq!(documents.len(), kept, "{index}: one document per kept page");
        let mut exported = BTreeSet::new();
        for doc in &documents {
            for (name, value) in doc {
                let mapping = mapped.get(name).unwrap_or_else(|| panic!("{index}: {name} is not mapped"));
                let kind = mapping["type"].as_str().unwrap();
                assert!(compatible(kind, value), "{index}: {name} = {value} does not fit type {kind}");
                exported.insert(name.clone());
            }
        }
        let mapped_names: BTreeSet<String> = mapped.keys().cloned().collect();
        assert_eq!(exported, mapped_names, "{index}: every mapped field is exported");
        if index == "fulltext" {
            // The body is the title and the raw page's visible text, as indexed.
            for doc in &documents {
                let (title, body) = (doc["title"].as_str().unwrap(), doc["body"].as_str().unwrap());
                assert!(body.starts_with(title) && body.len() > title.len() + 1, "{doc:?}");
            }
        }
    }
}

#[test]
fn quickwit_configs_mirror_the_tantivy_schemas() {
    for index in ["abstract", "fulltext"] {
        let ours = read_json(&format!("index-schema/{index}.json"));
        let config = read_json(&format!("index-schema/quickwit/{index}.json"));
        assert_eq!(config["doc_mapping"]["mode"], "strict", "{index}: unmapped fields are errors, not dropped");
        assert!(config["version"].is_string() && config["index_id"].as_str().is_some_and(|id| id.len() >= 3));
        let mapped = mappings(&config);
        let fields = ours["fields"].as_array().unwrap();
        assert_eq!(mapped.len(), fields.len(), "{index}: the same fields");
        let mut searched = Vec::new();
        for field in fields {
            let name = field["name"].as_str().unwrap();
            let mapping =
                mapped.get(name).unwrap_or_else(|| panic!("{index}: {name} missing from the Quickwit config"));
            let stored = field["stored"].as_bool().unwrap_or(false);
            let indexed = field["indexed"].as_bool().unwrap_or(true);
            // Quickwit's defaults: stored and indexed.
            assert_eq!(mapping["stored"].as_bool().unwrap_or(true), stored, "{index}.{name}: stored");
            assert_eq!(mapping["indexed"].as_bool().unwrap_or(true), indexed, "{index}.{name}: indexed");
            assert_eq!(mapping["type"], "text", "{index}.{name}: our fields are all strings");
            if indexed {
                let tokenizer = mapping["tokenizer"].as_str().unwrap_or("default");
                let record = mapping["record"].as_str().unwrap_or("basic");
                match field["type"].as_str().unwrap() {
                    // Untokenized strings: one term, no frequencies.
                    "string" => assert_eq!((tokenizer, record), ("raw", "basic"), "{index}.{name}"),
                    _ => {
                        assert_ne!(tokenizer, "raw", "{index}.{name}: tokenized");
                        assert_eq!(record, field["record"].as_str().unwrap_or("position"), "{index}.{name}: record");
                        // BM25 normalises by field length: Quickwit keeps no field norms by default.
                        assert_eq!(mapping["fieldnorms"], true, "{index}.{name}: fieldnorms");
                    }
                }
            }
            if field.get("search_boost").is_some() && indexed {
                searched.push(name.to_string());
            }
        }
        let defaults: Vec<String> = config["search_settings"]["default_search_fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert_eq!(defaults, searched, "{index}: the searched fields are the default search fields");
    }
}
