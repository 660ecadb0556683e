//! Shard builds beyond one machine: replicas joined across shards (`indexer replicas merge`).
//!
//! Each shard build removed the replicas among its own pages. [`merge_replicas`] finds the
//! replicas between shards from their DocView records, joining on the same keys a build
//! uses: the page URL, the exact-copy MD5 of the title and topic content, and the 16-byte
//! keyword fingerprint (§5) of topic pages. Shards are read in the order given and each
//! record is looked up among the pages kept so far, so the first shard keeps a page and later
//! copies are removed, as one build over the shards' inputs in that order would do. The
//! lookups are hash joins: memory holds two fingerprints and one URL per kept page.
//!
//! A shard with removals gets a new build, published atomically like `indexer build`: the
//! current build is linked (or copied) into a staging folder, the copies are deleted from
//! both indexes by their URL term, the segments are merged so that the deleted pages leave
//! the collection statistics too (with exact token totals beside them, see
//! [`crate::index::TOKEN_TOTALS_FILE`]), and `docview.jsonl` is rewritten without them. Every
//! changed shard is staged before any is published: a merge that fails while staging leaves
//! every shard's previous build published.
//!
//! At crawl scale the join runs as a Spark job (`spark/`): shard builds made with `indexer
//! build --shard` hand every page's signatures over ([`signatures`]), the job joins them as
//! one build would have, and `indexer replicas apply` removes its choices from each shard
//! ([`apply`]).

mod apply;
mod signatures;

pub use apply::{ApplyReport, apply_removals};
pub use signatures::{
    SHARD_FORMAT, SHARD_MANIFEST_FILE, SHARD_SIGNATURES_FILE, ShardManifest, ShardRow, ShardSource, ShardWriter,
    UnsupportedDetector, check_shard_config,
};

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use md5::{Digest, Md5};
use serde::{Deserialize, Serialize};
use tantivy::{Index, IndexWriter, Term};

use crate::config::{Config, ConfigError};
use crate::index::{
    BuildOutput, IndexError, IndexKind, IndexSchema, TokenTotals, abandon_build, check_build_folder,
    count_token_totals, current_build, describe_term_analysis, publish_build, read_term_analysis, register_tokenizers,
    start_build, write_token_totals,
};
use crate::replicas::{Fingerprint, exact_fingerprint};
use crate::tagtree::BlockType;
use crate::text::for_each_token;

/// The file each shard build changed by a merge lists its removed pages in.
pub const GLOBAL_REPLICAS_FILE: &str = "replicas-global.tsv";
pub(crate) const DOCVIEW_FILE: &str = "docview.jsonl";
/// Tantivy's smallest writer budget; deleting and merging need no more.
const WRITER_MEMORY: usize = 15_000_000;

/// Why a page was removed as a copy of a page of an earlier shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GlobalReplicaKind {
    /// The same URL.
    Url,
    /// The same title and topic content.
    Exact,
    /// The same keyword fingerprint.
    Near,
}

impl GlobalReplicaKind {
    pub fn as_str(self) -> &'static str {
        match self {
            GlobalReplicaKind::Url => "url",
            GlobalReplicaKind::Exact => "exact",
            GlobalReplicaKind::Near => "near",
        }
    }
}

/// A page removed from a later shard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GlobalReplica {
    pub removed: String,
    /// The build folder the page was removed from.
    pub removed_shard: String,
    pub kept: String,
    pub kept_shard: String,
    pub kind: GlobalReplicaKind,
}

/// What a merge did to one shard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShardOutcome {
    pub shard: String,
    /// Pages read from its DocView records.
    pub pages: usize,
    pub removed: usize,
    /// The new build, when pages were removed and the merge was not a dry run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<String>,
}

/// The result of a merge.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MergeReport {
    pub replicas: Vec<GlobalReplica>,
    pub shards: Vec<ShardOutcome>,
}

/// A merge that could not complete; every shard keeps its published build.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}, line {line}: not a DocView record ({message}); rebuild that shard")]
    Record { path: String, line: usize, message: String },
    #[error("{path}: {message}")]
    Tantivy { path: String, message: String },
    #[error("{dir} is given twice: each shard once, in the order their pages take precedence")]
    SameShardTwice { dir: String },
    #[error("{path}, line {line}: {message}")]
    List { path: String, line: usize, message: String },
    #[error(
        "{dir} was built with {its}, {first} with {first_analysis}: their fingerprints do not compare; rebuild the \
         shards with one indexer"
    )]
    MixedTermAnalysis { dir: String, its: String, first: String, first_analysis: String },
}

/// The fields of a DocView record the merge joins on.
#[derive(Debug, Deserialize)]
struct RecordKeys {
    identifier: String,
    #[serde(rename = "type")]
    page_type: BlockType,
    #[serde(default)]
    title: String,
    #[serde(default)]
    topic_content: String,
    #[serde(default)]
    fingerprint: Option<String>,
}

/// The exact-copy fingerprint of a record, as the build computes it: MD5 of the title and
/// the topic content, for topic content with at least one letter or digit.
pub fn record_exact_fingerprint(title: &str, topic_content: &str) -> Option<Fingerprint> {
    exact_fingerprint(topic_content).and_then(|_| exact_fingerprint(&format!("{title}\n{topic_content}")))
}

/// A 32-digit hex fingerprint; `None` for anything else.
fn parse_hex(hex: &str) -> Option<Fingerprint> {
    let bytes = hex.as_bytes();
    if bytes.len() != 32 {
        return None;
    }
    let mut out = [0u8; 16];
    for (byte, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        let text = std::str::from_utf8(pair).ok()?;
        *byte = u8::from_str_radix(text, 16).ok()?;
    }
    Some(out)
}

/// The pages kept so far, over all shards read.
#[derive(Default)]
struct KeptPages {
    urls: HashMap<Fingerprint, u32>,
    exact: HashMap<Fingerprint, u32>,
    near: HashMap<Fingerprint, u32>,
    /// (URL, shard ordinal) of every kept page, by ordinal.
    kept: Vec<(String, usize)>,
}

impl KeptPages {
    /// The kept page `record` copies, or `None` after remembering it as kept.
    fn check(&mut self, record: &RecordKeys, shard: usize, near_min_terms: usize) -> Option<(u32, GlobalReplicaKind)> {
        let url: Fingerprint = Md5::digest(record.identifier.as_bytes()).into();
        let exact = record_exact_fingerprint(&record.title, &record.topic_content);
        // As in the build: near signatures of topic pages with enough text only.
        let near =
            record.fingerprint.as_deref().and_then(parse_hex).filter(|_| {
                record.page_type == BlockType::Topic && term_count(&record.topic_content) >= near_min_terms
            });
        if let Some(&kept) = self.urls.get(&url) {
            return Some((kept, GlobalReplicaKind::Url));
        }
        if let Some(&kept) = exact.and_then(|f| self.exact.get(&f)) {
            return Some((kept, GlobalReplicaKind::Exact));
        }
        if let Some(&kept) = near.and_then(|f| self.near.get(&f)) {
            return Some((kept, GlobalReplicaKind::Near));
        }
        let ordinal = u32::try_from(self.kept.len()).unwrap_or(u32::MAX);
        self.urls.insert(url, ordinal);
        if let Some(f) = exact {
            self.exact.insert(f, ordinal);
        }
        if let Some(f) = near {
            self.near.insert(f, ordinal);
        }
        self.kept.push((record.identifier.clone(), shard));
        None
    }
}

fn term_count(text: &str) -> usize {
    let mut count = 0;
    for_each_token(text, |_| count += 1);
    count
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> MergeError + '_ {
    move |source| MergeError::Io { path: path.display().to_string(), source }
}

/// Finds the replicas across the shard build folders `dirs` (first shard first) and, unless
/// `dry_run`, removes them from their shards and publishes the changed shards.
pub fn merge_replicas(dirs: &[PathBuf], dry_run: bool) -> Result<MergeReport, MergeError> {
    // Every shard is a build folder a new build can be published in, checked before any is
    // staged: `DIR/current` would be read as its build and then refused at staging.
    for dir in dirs {
        check_build_folder(dir)?;
    }
    let mut builds = Vec::new();
    for dir in dirs {
        let build = current_build(dir)?;
        let canonical = build.canonicalize().unwrap_or_else(|_| build.clone());
        if builds.iter().any(|(_, b): &(PathBuf, PathBuf)| *b == canonical) {
            return Err(MergeError::SameShardTwice { dir: dir.display().to_string() });
        }
        builds.push((dir.clone(), canonical));
    }
    // Near signatures are keyword fingerprints: shards of different term analyses have
    // different keywords for some pages.
    if let Some((first_dir, first_build)) = builds.first() {
        let first_analysis = read_term_analysis(first_build);
        if let Some((dir, build)) = builds.iter().find(|(_, b)| read_term_analysis(b) != first_analysis) {
            return Err(MergeError::MixedTermAnalysis {
                dir: dir.display().to_string(),
                its: describe_term_analysis(read_term_analysis(build)),
                first: first_dir.display().to_string(),
                first_analysis: describe_term_analysis(first_analysis),
            });
        }
    }
    // The near-replica threshold of the first shard's build, as its config.toml recorded it.
    let near_min_terms = match builds.first().map(|(_, b)| b.join("config.toml")) {
        Some(path) if path.is_file() => Config::from_toml_file(&path)?.replicas.near_min_terms,
        _ => Config::default().replicas.near_min_terms,
    };

    let mut kept = KeptPages::default();
    let mut report = MergeReport::default();
    let mut removed_per_shard: Vec<Vec<GlobalReplica>> = Vec::new();
    for (shard, (dir, build)) in builds.iter().enumerate() {
        let path = build.join(DOCVIEW_FILE);
        let reader = BufReader::new(File::open(&path).map_err(io_error(&path))?);
        let mut removed = Vec::new();
        let mut pages = 0;
        for (n, line) in reader.lines().enumerate() {
            let line = line.map_err(io_error(&path))?;
            if line.trim().is_empty() {
                continue;
            }
            let record: RecordKeys = serde_json::from_str(&line).map_err(|e| MergeError::Record {
                path: path.display().to_string(),
                line: n + 1,
                message: e.to_string(),
            })?;
            pages += 1;
            if let Some((ordinal, kind)) = kept.check(&record, shard, near_min_terms) {
                let (kept_url, kept_shard) = kept.kept.get(ordinal as usize).cloned().unwrap_or_default();
                removed.push(GlobalReplica {
                    removed: record.identifier,
                    removed_shard: dir.display().to_string(),
                    kept: kept_url,
                    kept_shard: dirs.get(kept_shard).map(|d| d.display().to_string()).unwrap_or_default(),
                    kind,
                });
            }
        }
        report.shards.push(ShardOutcome {
            shard: dir.display().to_string(),
            pages,
            removed: removed.len(),
            published: None,
        });
        removed_per_shard.push(removed);
    }

    // Every changed shard is staged before any is published, so that a failure (a full
    // disk, a broken index) changes no shard.
    let mut staged = Vec::new();
    for (index, ((dir, build), removed)) in builds.iter().zip(&removed_per_shard).enumerate() {
        if !removed.is_empty() && !dry_run {
            match stage_without(dir, build, removed) {
                Ok(output) => staged.push((index, output)),
                Err(e) => {
                    staged.into_iter().for_each(|(_, output)| abandon_build(output));
                    return Err(e);
                }
            }
        }
    }
    let mut staged = staged.into_iter();
    while let Some((index, output)) = staged.next() {
        let published = match publish_build(output) {
            Ok(published) => published,
            Err(e) => {
                staged.for_each(|(_, output)| abandon_build(output));
                return Err(e.into());
            }
        };
        if let Some(outcome) = report.shards.get_mut(index) {
            outcome.published = Some(published.display().to_string());
        }
    }
    report.replicas = removed_per_shard.into_iter().flatten().collect();
    Ok(report)
}

/// Stages a new build of the shard in `dir` without the `removed` pages; a failure leaves no
/// staging folder behind.
fn stage_without(dir: &Path, build: &Path, removed: &[GlobalReplica]) -> Result<BuildOutput, MergeError> {
    let output = start_build(dir)?;
    match write_without(build, &output, removed) {
        Ok(()) => Ok(output),
        Err(e) => {
            abandon_build(output);
            Err(e)
        }
    }
}

fn write_without(build: &Path, output: &BuildOutput, removed: &[GlobalReplica]) -> Result<(), MergeError> {
    link_tree(build, &output.staging)?;
    let urls: std::collections::HashSet<&str> = removed.iter().map(|r| r.removed.as_str()).collect();

    // docview.jsonl without the removed records (the other lines byte for byte).
    let path = output.staging.join(DOCVIEW_FILE);
    let source = build.join(DOCVIEW_FILE);
    // The staged file is a link to the published one: replace it, never write through it.
    std::fs::remove_file(&path).map_err(io_error(&path))?;
    let mut writer = BufWriter::new(File::create(&path).map_err(io_error(&path))?);
    for line in BufReader::new(File::open(&source).map_err(io_error(&source))?).lines() {
        let line = line.map_err(io_error(&source))?;
        let identifier = serde_json::from_str::<RecordKeys>(&line).map(|r| r.identifier).unwrap_or_default();
        if !urls.contains(identifier.as_str()) {
            writeln!(writer, "{line}").map_err(io_error(&path))?;
        }
    }
    writer.flush().map_err(io_error(&path))?;

    // The removed pages, appended to what earlier merges removed from this shard.
    let list = output.staging.join(GLOBAL_REPLICAS_FILE);
    let mut text = match std::fs::read_to_string(build.join(GLOBAL_REPLICAS_FILE)) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => return Err(io_error(&build.join(GLOBAL_REPLICAS_FILE))(source)),
    };
    for r in removed {
        text.push_str(&format!("{}\t{}\t{}\t{}\n", r.removed, r.kept, r.kind.as_str(), r.kept_shard));
    }
    let _ = std::fs::remove_file(&list);
    std::fs::write(&list, text).map_err(io_error(&list))?;

    let mut totals = HashMap::new();
    for kind in IndexKind::ALL {
        totals.insert(kind.name().to_string(), delete_urls(&output.staging.join(kind.name()), kind, &urls)?);
    }
    write_token_totals(&output.staging, &totals)?;
    Ok(())
}

/// Deletes the documents of `urls` from one index, commits, and merges its segments so that
/// the deleted documents are gone from the statistics BM25 scores with. Returns the exact
/// token totals of its fields (see [`crate::index::count_token_totals`]).
fn delete_urls(
    path: &Path,
    kind: IndexKind,
    urls: &std::collections::HashSet<&str>,
) -> Result<TokenTotals, MergeError> {
    let tantivy_error = |e: tantivy::TantivyError| MergeError::Tantivy {
        path: path.display().to_string(),
        message: format!("{e}; the shard's previous build is kept"),
    };
    let schema = IndexSchema::load(kind).map_err(IndexError::from)?;
    let index = Index::open_in_dir(path).map_err(tantivy_error)?;
    register_tokenizers(&index);
    let mut writer: IndexWriter = index.writer_with_num_threads(1, WRITER_MEMORY).map_err(tantivy_error)?;
    for url in urls {
        writer.delete_term(Term::from_field_text(schema.url, url));
    }
    writer.commit().map_err(tantivy_error)?;
    let segments = index.searchable_segment_ids().map_err(tantivy_error)?;
    if !segments.is_empty() {
        writer.merge(&segments).wait().map_err(tantivy_error)?;
    }
    writer.wait_merging_threads().map_err(tantivy_error)?;
    Ok(count_token_totals(&index, &schema)?)
}

/// Recreates the files of `from` under `to` as hard links (copies where links cannot be
/// made). Tantivy never writes into an existing file (new segments are new files, its meta
/// files are replaced by rename), so the published build is never changed through a link.
fn link_tree(from: &Path, to: &Path) -> Result<(), MergeError> {
    for entry in walkdir::WalkDir::new(from).min_depth(1) {
        let entry = entry.map_err(|e| MergeError::Io {
            path: from.display().to_string(),
            source: std::io::Error::other(e.to_string()),
        })?;
        let relative = entry.path().strip_prefix(from).unwrap_or(entry.path());
        let target = to.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).map_err(io_error(&target))?;
        } else if std::fs::hard_link(entry.path(), &target).is_err() {
            std::fs::copy(entry.path(), &target).map_err(io_error(&target))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(url: &str, title: &str, content: &str, fingerprint: Option<&str>) -> RecordKeys {
        RecordKeys {
            identifier: url.into(),
            page_type: BlockType::Topic,
            title: title.into(),
            topic_content: content.into(),
            fingerprint: fingerprint.map(str::to_string),
        }
    }

    #[test]
    fn exact_fingerprints_of_records_are_the_builds() {
        use crate::input::RawPage;
        use crate::page::{PageContext, process_page};
        use crate::text::StopWords;
        let config = Config::default();
        let stop_words = StopWords::generic();
        let ctx = PageContext::new(&config, &stop_words).unwrap();
        let html = "<html><head><title>Glacier melt</title></head><body><div><h1>Glacier melt</h1>\
            <p>The glacier lost more ice this summer than in any year on record.</p></div></body></html>";
        let raw = RawPage {
            url: "https://news.example/g".into(),
            origin: "test".into(),
            bytes: html.as_bytes().to_vec(),
            http_charset: None,
            http_language: None,
        };
        let page = process_page(raw, &ctx).unwrap();
        assert!(page.fingerprints.exact.is_some());
        assert_eq!(record_exact_fingerprint(&page.record.title, &page.record.topic_content), page.fingerprints.exact);
    }

    #[test]
    fn hex_fingerprints_round_trip_and_junk_is_ignored() {
        let f = [0xab; 16];
        assert_eq!(parse_hex(&crate::replicas::to_hex(&f)), Some(f));
        assert_eq!(parse_hex("abc"), None);
        assert_eq!(parse_hex(&"zz".repeat(16)), None);
        assert_eq!(parse_hex(&"é".repeat(16)), None);
    }

    #[test]
    fn the_first_shard_keeps_and_later_copies_are_found_by_url_content_and_fingerprint() {
        let long = "word ".repeat(40);
        let fp = "0123456789abcdef0123456789abcdef";
        let mut kept = KeptPages::default();
        assert_eq!(kept.check(&record("a", "A", &long, Some(fp)), 0, 30), None);
        assert_eq!(kept.check(&record("b", "B", "other text", None), 0, 30), None);
        assert_eq!(kept.check(&record("a", "Z", "changed", None), 1, 30), Some((0, GlobalReplicaKind::Url)));
        assert_eq!(kept.check(&record("c", "B", "other  text", None), 1, 30), Some((1, GlobalReplicaKind::Exact)));
        let edited = format!("{long} edit");
        assert_eq!(kept.check(&record("d", "D", &edited, Some(fp)), 1, 30), Some((0, GlobalReplicaKind::Near)));
        // Too short for a near signature, as in the build: kept.
        assert_eq!(kept.check(&record("e", "E", "short", Some(fp)), 1, 30), None);
        assert_eq!(kept.kept[2], ("e".to_string(), 1));
    }
}
