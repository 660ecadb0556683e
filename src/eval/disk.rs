//! Disk access of searches, after §7.3 and Figure 6 of the paper: the same single-term
//! queries, in groups of 100, against the abstract and the full-text index, counting what
//! each index reads.
//!
//! Each index is opened through a [`CountingDirectory`], which wraps Tantivy's directory and
//! counts every read a search makes through it: bytes, read calls, and distinct 4 KiB pages
//! (what a cold page cache would fetch from disk), for all files and for the inverted file
//! proper (postings and positions), which is what the paper compares. Counting starts after
//! the indexes are opened, so it measures the queries, not the loading of the term
//! dictionaries, which Tantivy keeps memory-mapped from the start.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{DirectoryLock, FileHandle, Lock, OwnedBytes, WatchCallback, WatchHandle, WritePtr};
use tantivy::{Directory, HasLen};

use crate::eval::run::Topic;
use crate::index::IndexKind;
use crate::search::{Collection, IndexChoice, SearchError, SearchRequest};

/// Page size for counting distinct pages touched.
pub const PAGE_SIZE: usize = 4096;

/// Reads counted since the last reset: of all files, and of the inverted file proper.
#[derive(Debug, Default)]
pub struct AccessCounter {
    all: FileCounter,
    postings: FileCounter,
}

#[derive(Debug, Default)]
struct FileCounter {
    bytes: AtomicU64,
    reads: AtomicU64,
    pages: Mutex<HashSet<(u64, usize)>>,
}

impl FileCounter {
    fn record(&self, file: u64, range: &Range<usize>) {
        self.bytes.fetch_add(range.len() as u64, Ordering::Relaxed);
        self.reads.fetch_add(1, Ordering::Relaxed);
        if range.is_empty() {
            return;
        }
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        for page in range.start / PAGE_SIZE..=(range.end - 1) / PAGE_SIZE {
            pages.insert((file, page));
        }
    }

    fn take(&self) -> Access {
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        let access = Access {
            bytes: self.bytes.swap(0, Ordering::Relaxed),
            reads: self.reads.swap(0, Ordering::Relaxed),
            pages: pages.len() as u64,
        };
        pages.clear();
        access
    }
}

/// What a search read, in all files and in the inverted file (postings and positions).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct IndexAccess {
    /// Every read: postings, positions, field norms (BM25 reads a field's norms on every
    /// query), skip data, stored documents.
    pub all: Access,
    /// The inverted file proper (`.idx` postings and `.pos` positions): what the paper's
    /// inverted-file comparison measures.
    pub postings: Access,
}

/// A snapshot of an [`AccessCounter`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Access {
    pub bytes: u64,
    pub reads: u64,
    pub pages: u64,
}

impl Access {
    /// Both accesses together (pages of two indexes are distinct files).
    pub fn plus(&self, other: &Access) -> Access {
        Access { bytes: self.bytes + other.bytes, reads: self.reads + other.reads, pages: self.pages + other.pages }
    }

    /// This access relative to `other` (abstract / full text), per measure.
    pub fn ratio(&self, other: &Access) -> AccessRatio {
        let r = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        AccessRatio {
            bytes: r(self.bytes, other.bytes),
            reads: r(self.reads, other.reads),
            pages: r(self.pages, other.pages),
        }
    }
}

/// Ratios of two accesses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct AccessRatio {
    pub bytes: f64,
    pub reads: f64,
    pub pages: f64,
}

impl AccessCounter {
    fn record(&self, file: u64, postings: bool, range: &Range<usize>) {
        self.all.record(file, range);
        if postings {
            self.postings.record(file, range);
        }
    }

    /// The counts so far, and a reset.
    pub fn take(&self) -> IndexAccess {
        IndexAccess { all: self.all.take(), postings: self.postings.take() }
    }
}

/// A Tantivy directory that counts the reads made through it.
#[derive(Debug)]
pub struct CountingDirectory {
    inner: Box<dyn Directory>,
    counter: Arc<AccessCounter>,
}

impl CountingDirectory {
    pub fn new(inner: Box<dyn Directory>, counter: Arc<AccessCounter>) -> CountingDirectory {
        CountingDirectory { inner, counter }
    }
}

impl Clone for CountingDirectory {
    fn clone(&self) -> Self {
        CountingDirectory { inner: self.inner.box_clone(), counter: Arc::clone(&self.counter) }
    }
}

#[derive(Debug)]
struct CountingFile {
    inner: Arc<dyn FileHandle>,
    file: u64,
    postings: bool,
    counter: Arc<AccessCounter>,
}

impl HasLen for CountingFile {
    fn len(&self) -> usize {
        self.inner.len()
    }
}

impl FileHandle for CountingFile {
    fn read_bytes(&self, range: Range<usize>) -> std::io::Result<OwnedBytes> {
        self.counter.record(self.file, self.postings, &range);
        self.inner.read_bytes(range)
    }
}

fn file_id(path: &Path) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut hasher);
    hasher.finish()
}

impl Directory for CountingDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        let inner = self.inner.get_file_handle(path)?;
        let postings = path.extension().is_some_and(|e| e == "idx" || e == "pos");
        Ok(Arc::new(CountingFile { inner, file: file_id(path), postings, counter: Arc::clone(&self.counter) }))
    }
    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.inner.delete(path)
    }
    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }
    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        self.inner.open_write(path)
    }
    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.inner.atomic_read(path)
    }
    fn atomic_write(&self, path: &Path, data: &[u8]) -> std::io::Result<()> {
        self.inner.atomic_write(path, data)
    }
    fn sync_directory(&self) -> std::io::Result<()> {
        self.inner.sync_directory()
    }
    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.inner.watch(watch_callback)
    }
    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        self.inner.acquire_lock(lock)
    }
}

/// A collection opened with a counter on each index.
pub struct CountedCollection {
    pub collection: Collection,
    counters: HashMap<IndexKind, Arc<AccessCounter>>,
}

impl CountedCollection {
    pub fn open(dir: &Path) -> Result<CountedCollection, SearchError> {
        let counters: HashMap<IndexKind, Arc<AccessCounter>> =
            IndexKind::ALL.into_iter().map(|k| (k, Arc::new(AccessCounter::default()))).collect();
        let collection = Collection::open_with(dir, &|kind, directory| {
            Box::new(CountingDirectory::new(directory, Arc::clone(&counters[&kind])))
        })?;
        // Opening read what an open index keeps; queries are counted from here on.
        for counter in counters.values() {
            counter.take();
        }
        Ok(CountedCollection { collection, counters })
    }

    /// The reads of one index since the last call.
    pub fn take(&self, kind: IndexKind) -> IndexAccess {
        self.counters[&kind].take()
    }
}

/// One group of queries: what each index read for it.
#[derive(Debug, Clone, Serialize)]
pub struct GroupAccess {
    pub group: usize,
    pub queries: usize,
    #[serde(rename = "abstract")]
    pub abstract_index: IndexAccess,
    pub fulltext: IndexAccess,
    /// abstract / full text, over the inverted file (postings and positions).
    pub ratio: AccessRatio,
    /// abstract / full text, over every read.
    pub ratio_all: AccessRatio,
}

/// The disk-access measurement.
#[derive(Debug, Clone, Serialize)]
pub struct DiskReport {
    /// Where the single-term queries came from.
    pub terms_source: String,
    pub group_size: usize,
    pub groups: Vec<GroupAccess>,
    /// The mean over groups of the per-group ratios of the inverted file (Figure 6's
    /// average).
    pub mean_ratio: AccessRatio,
    /// The same over every read.
    pub mean_ratio_all: AccessRatio,
    /// The same figures for the topic queries, as one group.
    pub topics: Option<GroupAccess>,
    /// The topic queries through the tiered search.
    pub tiered_topics: Option<TieredAccess>,
    /// The topic queries through the tiered search with feedback (the default search): its
    /// first pass, the feedback pages' records, and the expanded query's pass. Like the two
    /// fields above, `null` when there were no topic queries, so the JSON keeps one shape.
    pub tiered_feedback_topics: Option<TieredAccess>,
}

/// What the tiered search reads for the topic queries: it ranks both indexes to the fusion
/// depth before fusing, so it reads about what the two searches alone read together.
#[derive(Debug, Clone, Serialize)]
pub struct TieredAccess {
    pub queries: usize,
    /// Hits taken from each index before fusing.
    pub depth: usize,
    #[serde(rename = "abstract")]
    pub abstract_index: IndexAccess,
    pub fulltext: IndexAccess,
    /// (abstract + full text) of the tiered search / the full-text search alone, inverted file.
    pub ratio_to_fulltext: AccessRatio,
}

/// How each query is run: its top 10, as a result page would need.
const RESULTS_PER_QUERY: usize = 10;

fn measure_group(counted: &CountedCollection, group: usize, queries: &[String]) -> Result<GroupAccess, SearchError> {
    counted.take(IndexKind::Abstract);
    counted.take(IndexKind::Fulltext);
    for query in queries {
        counted.collection.rank(IndexKind::Abstract, query, RESULTS_PER_QUERY)?;
    }
    let abstract_index = counted.take(IndexKind::Abstract);
    for query in queries {
        counted.collection.rank(IndexKind::Fulltext, query, RESULTS_PER_QUERY)?;
    }
    let fulltext = counted.take(IndexKind::Fulltext);
    Ok(GroupAccess {
        group,
        queries: queries.len(),
        ratio: abstract_index.postings.ratio(&fulltext.postings),
        ratio_all: abstract_index.all.ratio(&fulltext.all),
        abstract_index,
        fulltext,
    })
}

fn measure_tiered(
    counted: &CountedCollection,
    queries: &[String],
    fulltext_alone: &IndexAccess,
    feedback: bool,
) -> Result<TieredAccess, SearchError> {
    counted.take(IndexKind::Abstract);
    counted.take(IndexKind::Fulltext);
    let request = SearchRequest { feedback, ..SearchRequest::new(IndexChoice::Tiered, RESULTS_PER_QUERY) };
    for query in queries {
        counted.collection.ranking(query, &request)?;
    }
    let (abstract_index, fulltext) = (counted.take(IndexKind::Abstract), counted.take(IndexKind::Fulltext));
    Ok(TieredAccess {
        queries: queries.len(),
        depth: counted.collection.settings().tiered.depth.max(RESULTS_PER_QUERY),
        ratio_to_fulltext: abstract_index.postings.plus(&fulltext.postings).ratio(&fulltext_alone.postings),
        abstract_index,
        fulltext,
    })
}

/// Runs the single-term queries `terms` in groups of `group_size`, and the topics as one more
/// group, against both indexes of the build in `dir`.
pub fn measure_disk(
    dir: &Path,
    terms: &[String],
    terms_source: &str,
    group_size: usize,
    topics: Option<&[Topic]>,
) -> Result<DiskReport, SearchError> {
    let counted = CountedCollection::open(dir)?;
    let group_size = group_size.max(1);
    let groups = terms
        .chunks(group_size)
        .enumerate()
        .map(|(i, chunk)| measure_group(&counted, i + 1, chunk))
        .collect::<Result<Vec<_>, _>>()?;
    let n = groups.len().max(1) as f64;
    let mean = |ratio: fn(&GroupAccess) -> AccessRatio| AccessRatio {
        bytes: groups.iter().map(|g| ratio(g).bytes).sum::<f64>() / n,
        reads: groups.iter().map(|g| ratio(g).reads).sum::<f64>() / n,
        pages: groups.iter().map(|g| ratio(g).pages).sum::<f64>() / n,
    };
    let (mean_ratio, mean_ratio_all) = (mean(|g| g.ratio), mean(|g| g.ratio_all));
    let queries: Option<Vec<String>> = topics.map(|topics| topics.iter().map(|t| t.query.clone()).collect());
    let topics = queries.as_deref().map(|queries| measure_group(&counted, 0, queries)).transpose()?;
    let tiered_topics = match (&queries, &topics) {
        (Some(queries), Some(alone)) => Some(measure_tiered(&counted, queries, &alone.fulltext, false)?),
        _ => None,
    };
    let tiered_feedback_topics = match (&queries, &topics) {
        (Some(queries), Some(alone)) => Some(measure_tiered(&counted, queries, &alone.fulltext, true)?),
        _ => None,
    };
    Ok(DiskReport {
        terms_source: terms_source.to_string(),
        group_size,
        groups,
        mean_ratio,
        mean_ratio_all,
        topics,
        tiered_topics,
        tiered_feedback_topics,
    })
}

/// Samples `count` query terms from the full-text index's vocabulary, Zipf-like by document
/// frequency (the term of rank r is drawn with probability ∝ 1/r), with a fixed seed: a
/// stand-in for a query log, where frequent words are asked for most. Terms are drawn with
/// replacement, as a log repeats its queries. Terms are returned as indexed (analyzed).
pub fn sample_terms(collection: &Collection, count: usize, seed: u64) -> Result<Vec<String>, SearchError> {
    let schema = collection.schema(IndexKind::Fulltext);
    let searcher = collection.searcher(IndexKind::Fulltext);
    let mut df: HashMap<String, u64> = HashMap::new();
    for &(field, _) in &schema.search_fields {
        for segment in searcher.segment_readers() {
            let inverted = segment.inverted_index(field)?;
            let mut stream = inverted.terms().stream().map_err(tantivy::TantivyError::from)?;
            while stream.advance() {
                if let Ok(term) = std::str::from_utf8(stream.key()) {
                    *df.entry(term.to_string()).or_default() += u64::from(stream.value().doc_freq);
                }
            }
        }
    }
    let mut vocabulary: Vec<(String, u64)> = df.into_iter().collect();
    vocabulary.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if vocabulary.is_empty() {
        return Ok(Vec::new());
    }
    // Cumulative Zipf weights over ranks.
    let mut cumulative = Vec::with_capacity(vocabulary.len());
    let mut total = 0.0;
    for rank in 1..=vocabulary.len() {
        total += 1.0 / rank as f64;
        cumulative.push(total);
    }
    let mut rng = SplitMix64(seed);
    Ok((0..count)
        .map(|_| {
            let x = rng.next_f64() * total;
            let i = cumulative.partition_point(|&c| c < x).min(vocabulary.len() - 1);
            vocabulary[i].0.clone()
        })
        .collect())
}

/// Reads query terms from a log file, one query per line.
pub fn read_terms(path: &Path) -> std::io::Result<Vec<String>> {
    Ok(std::fs::read_to_string(path)?.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect())
}

/// SplitMix64: a tiny seeded generator, so that the sample is the same on every machine and
/// with every version of every crate.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_counts_bytes_reads_and_distinct_pages() {
        let counter = AccessCounter::default();
        counter.record(1, true, &(0..10));
        counter.record(1, true, &(4090..4100));
        counter.record(2, false, &(0..1));
        counter.record(1, true, &(5..5));
        let access = counter.take();
        assert_eq!(access.all, Access { bytes: 21, reads: 4, pages: 3 });
        assert_eq!(access.postings, Access { bytes: 20, reads: 3, pages: 2 });
        assert_eq!(counter.take(), IndexAccess::default());
    }

    #[test]
    fn ratios_guard_against_zero() {
        let a = Access { bytes: 10, reads: 2, pages: 1 };
        let b = Access { bytes: 40, reads: 4, pages: 0 };
        assert_eq!(a.ratio(&b), AccessRatio { bytes: 0.25, reads: 0.5, pages: 0.0 });
    }

    #[test]
    fn a_report_without_topic_queries_names_every_topic_field_as_null() {
        let report = DiskReport {
            terms_source: "sample".to_string(),
            group_size: 10,
            groups: Vec::new(),
            mean_ratio: AccessRatio::default(),
            mean_ratio_all: AccessRatio::default(),
            topics: None,
            tiered_topics: None,
            tiered_feedback_topics: None,
        };
        let json = serde_json::to_value(&report).unwrap();
        for field in ["topics", "tiered_topics", "tiered_feedback_topics"] {
            assert_eq!(json.get(field), Some(&serde_json::Value::Null), "{field}");
        }
    }

    #[test]
    fn splitmix_is_deterministic_and_uniformish() {
        let mut a = SplitMix64(7);
        let mut b = SplitMix64(7);
        let xs: Vec<f64> = (0..1000).map(|_| a.next_f64()).collect();
        assert!(xs.iter().zip((0..1000).map(|_| b.next_f64())).all(|(x, y)| *x == y));
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!((mean - 0.5).abs() < 0.05 && xs.iter().all(|x| (0.0..1.0).contains(x)));
    }
}
