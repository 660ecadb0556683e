//! `indexer replicas apply`: removes the pages a global replica join chose from one shard.
//!
//! The join (the Spark job in `spark/`) writes, per shard, the pages one build over all the
//! inputs would not have indexed, as `removed<TAB>kept<TAB>url|exact|near<TAB>kept shard`
//! lines. Applying the list stages a new build of the shard without those pages (deleted from
//! both indexes, segments merged so the statistics forget them, token totals recounted,
//! `docview.jsonl` rewritten) and publishes it atomically, as `replicas merge` does.
//!
//! Applying is idempotent, so a retried or speculative task is harmless: pages of the list the
//! shard no longer holds are counted as already removed, and a list with nothing left to remove
//! publishes nothing.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use serde::Serialize;

use super::{DOCVIEW_FILE, GlobalReplica, GlobalReplicaKind, MergeError, io_error, stage_without};
use crate::index::{check_build_folder, current_build, publish_build};

/// What applying a list did to a shard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApplyReport {
    pub shard: String,
    /// Pages the shard held before.
    pub pages: usize,
    /// Pages removed now.
    pub removed: usize,
    /// Pages of the list the shard did not hold (removed by an earlier run of the same list).
    pub already_removed: usize,
    /// The new build, when pages were removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<String>,
}

/// Reads a removal list: `removed<TAB>kept<TAB>kind<TAB>kept shard` lines.
fn read_list(path: &Path, shard: &str) -> Result<Vec<GlobalReplica>, MergeError> {
    let file = File::open(path).map_err(io_error(path))?;
    let mut removals = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io_error(path))?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |message: &str| MergeError::List {
            path: path.display().to_string(),
            line: n + 1,
            message: message.to_string(),
        };
        let fields: Vec<&str> = line.split('\t').collect();
        let [removed, kept, kind, kept_shard] = fields[..] else {
            return Err(bad("expected 4 tab-separated fields: removed, kept, url|exact|near, kept shard"));
        };
        let kind = match kind {
            "url" => GlobalReplicaKind::Url,
            "exact" => GlobalReplicaKind::Exact,
            "near" => GlobalReplicaKind::Near,
            _ => return Err(bad("the third field must be url, exact or near")),
        };
        if removed.is_empty() {
            return Err(bad("the removed page's URL is empty"));
        }
        removals.push(GlobalReplica {
            removed: removed.to_string(),
            removed_shard: shard.to_string(),
            kept: kept.to_string(),
            kept_shard: kept_shard.to_string(),
            kind,
        });
    }
    Ok(removals)
}

/// The URLs of the records of a build's `docview.jsonl`.
fn record_urls(build: &Path) -> Result<HashSet<String>, MergeError> {
    #[derive(serde::Deserialize)]
    struct Identifier {
        identifier: String,
    }
    let path = build.join(DOCVIEW_FILE);
    let file = File::open(&path).map_err(io_error(&path))?;
    let mut urls = HashSet::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io_error(&path))?;
        if line.trim().is_empty() {
            continue;
        }
        let record: Identifier = serde_json::from_str(&line).map_err(|e| MergeError::Record {
            path: path.display().to_string(),
            line: n + 1,
            message: e.to_string(),
        })?;
        urls.insert(record.identifier);
    }
    Ok(urls)
}

/// Removes the pages listed in `list` from the shard build folder `dir`.
pub fn apply_removals(dir: &Path, list: &Path) -> Result<ApplyReport, MergeError> {
    check_build_folder(dir)?;
    let build = current_build(dir)?;
    let shard = dir.display().to_string();
    let removals = read_list(list, &shard)?;
    let held = record_urls(&build)?;
    let mut seen = HashSet::new();
    let (present, absent): (Vec<GlobalReplica>, Vec<GlobalReplica>) =
        removals.into_iter().filter(|r| seen.insert(r.removed.clone())).partition(|r| held.contains(&r.removed));
    let mut report = ApplyReport {
        shard,
        pages: held.len(),
        removed: present.len(),
        already_removed: absent.len(),
        published: None,
    };
    if !present.is_empty() {
        let staged = stage_without(dir, &build, &present)?;
        report.published = Some(publish_build(staged)?.display().to_string());
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_read_and_bad_lines_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("removals.tsv");
        std::fs::write(&path, "https://b/\thttps://a/\tnear\tshard-0\n\nhttps://c/\thttps://a/\turl\tshard-1\n")
            .unwrap();
        let list = read_list(&path, "shard-1").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!((list[0].kind, list[1].kind), (GlobalReplicaKind::Near, GlobalReplicaKind::Url));
        assert_eq!((list[0].removed_shard.as_str(), list[0].kept_shard.as_str()), ("shard-1", "shard-0"));

        std::fs::write(&path, "https://b/\thttps://a/\tnear\tshard-0\nhttps://c/\thttps://a/\tsimilar\tshard-0\n")
            .unwrap();
        let error = read_list(&path, "s").unwrap_err().to_string();
        assert!(error.contains("line 2") && error.contains("url, exact or near"), "{error}");
        std::fs::write(&path, "https://b/ https://a/\n").unwrap();
        assert!(read_list(&path, "s").unwrap_err().to_string().contains("4 tab-separated fields"));
    }
}
