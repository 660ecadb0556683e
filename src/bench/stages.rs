//! Each per-page stage of a build, timed on its own on one thread.
//!
//! The pages are read into memory first (the read is timed as a stage of its own), then each
//! page goes through the stages of [`crate::page::process_page`] in order, each timed
//! separately; finally the replica check and the indexing of the pages a build would keep.
//! A stage's throughput counts the pages that reached it and their bytes of HTML.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{BenchError, Throughput};
use crate::clean::{block_weights, site_of, term_frequencies};
use crate::config::Config;
use crate::decode::decode;
use crate::docview::{IntegrationInput, integrate};
use crate::index::{IndexSet, PageDocument};
use crate::input::{ByteCounter, InputEvent, RawPage, Source};
use crate::page::{PageContext, terms_in_order};
use crate::replicas::{
    NearSignature, PageFingerprints, ReplicaDetector, Verdict, exact_fingerprint, keyword_fingerprint,
};
use crate::tagtree::{BlockType, parse_html, tag_tree_of};
use crate::text::StopWords;

/// The stages, in pipeline order, with what each one times.
pub const STAGES: [(&str, &str); 10] = [
    ("read", "reading the input: files, gunzip, WARC and HTTP parsing"),
    ("decode", "charset sniffing and decoding to UTF-8"),
    ("parse", "html5ever parsing into the arena DOM (after the markup-depth cap), freeing the DOM"),
    ("tag tree", "the tag tree of containers, text, links, images, terms"),
    ("clean", "block weights (Algorithm 1) and topic content (§4)"),
    ("docview", "DocView integration: title, keywords, abstract, links, images (§6)"),
    ("classify", "content classification code of the topic content (§6)"),
    ("fingerprint", "term frequencies, the keyword fingerprint, exact and near-replica signatures (§5)"),
    ("replica check", "replica lookups of every page against those kept (§5)"),
    ("index", "the full-text body (visible text), adding the kept pages to both Tantivy indexes, committing"),
];

/// One stage's time over the pages that reached it.
#[derive(Debug, Clone, Serialize)]
pub struct StageTiming {
    pub stage: &'static str,
    pub what: &'static str,
    pub pages: usize,
    pub html_bytes: u64,
    pub seconds: f64,
    pub throughput: Throughput,
}

/// The per-stage measurement.
#[derive(Debug, Clone, Serialize)]
pub struct StageReport {
    /// Pages measured (the first `stage_pages` of the input).
    pub pages: usize,
    pub html_bytes: u64,
    pub stages: Vec<StageTiming>,
    /// All stages together: one thread's whole per-page work.
    pub total: Throughput,
    pub total_seconds: f64,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    pages: usize,
    bytes: u64,
    time: Duration,
}

impl Tally {
    fn add(&mut self, bytes: usize, time: Duration) {
        self.pages += 1;
        self.bytes += bytes as u64;
        self.time += time;
    }
}

/// Times a closure.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let value = f();
    (value, started.elapsed())
}

/// Times every stage over the first `max_pages` pages of `inputs`, on the calling thread.
/// The indexes are written under `work_dir` and removed.
pub fn measure_stages(
    inputs: &[PathBuf],
    config: &Config,
    max_pages: usize,
    work_dir: &Path,
) -> Result<StageReport, BenchError> {
    let mut tallies = [Tally::default(); STAGES.len()];
    let (pages, read_time) = timed(|| read_pages(inputs, config, max_pages));
    let pages = pages?;
    tallies[0] = Tally { pages: pages.len(), bytes: pages.iter().map(|p| p.bytes.len() as u64).sum(), time: read_time };

    // The stop words a build learns from its sample change which terms count, not the cost.
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(config, &stop_words)?;
    let mut cleaner = crate::clean::Cleaner::from_config(config)?;
    // Not a per-page stage; the learning pass costs a parse of every page it samples more.
    cleaner.learn_from_pages(&pages, |page| ctx.tag_tree(page).0);
    let ctx = ctx.with_cleaner(cleaner);

    // jieba's dictionary (about 0.1 s, once per process) would otherwise land in the tag tree
    // stage of whichever page first holds a Chinese character: stages are per-page rates.
    crate::text::load_dictionary();
    let mut kept_pages: Vec<(usize, PageDocument)> = Vec::new();
    let mut detector = ReplicaDetector::new(ctx.signer().kind(), &config.replicas);
    // The full-text body is rendered per page but belongs to indexing.
    let mut body_time = Duration::ZERO;
    for page in &pages {
        let size = page.bytes.len();
        if is_binary(&page.bytes) {
            continue;
        }
        let (decoded, t) = timed(|| decode(&page.bytes, page.http_charset.as_deref(), &page.url));
        tallies[1].add(size, t);
        let (parsed, t_parse) = timed(|| parse_html(&decoded.text, &config.tag_tree));
        let (tree, t) = timed(|| tag_tree_of(&parsed, &config.tag_tree, ctx.weighty_tags()));
        tallies[3].add(size, t);
        let ((), t_free) = timed(|| drop(parsed));
        tallies[2].add(size, t_parse + t_free);
        let ((weights, content), t) = timed(|| {
            let weights = block_weights(&tree, &config.block_weight);
            let content = ctx.cleaner().clean(&site_of(&page.url), &tree, &weights, config);
            (weights, content)
        });
        tallies[4].add(size, t);
        if content.page_type == BlockType::Empty {
            continue;
        }
        let input = IntegrationInput {
            url: &page.url,
            tree: &tree,
            content: &content,
            weights: &weights,
            stop_words: &stop_words,
            http_language: page.http_language.as_deref(),
        };
        let (integrated, t) = timed(|| integrate(&input, &config.docview));
        let (mut record, page_stop_words) = (integrated.record, integrated.stop_words);
        tallies[5].add(size, t);
        if let Some(model) = ctx.classifier() {
            let (prediction, t) = timed(|| model.classify_text(&record.topic_content));
            tallies[6].add(size, t);
            record.classification_code = prediction.map(|p| p.code);
        }
        // As `process_page` computes them (its helper is private to the build).
        let (fingerprints, t) = timed(|| {
            let tf = term_frequencies(&tree, &content.nodes, &page_stop_words);
            let keyword = keyword_fingerprint(&tf, config.replicas.percentage, config.replicas.interval);
            let exact = exact_fingerprint(&record.topic_content)
                .and_then(|_| exact_fingerprint(&format!("{}\n{}", record.title, record.topic_content)));
            let near = if record.page_type == BlockType::Topic {
                ctx.signer().sign(&terms_in_order(&tree, &content.nodes), &tf)
            } else {
                NearSignature::None
            };
            (keyword, PageFingerprints { exact, near })
        });
        tallies[7].add(size, t);
        let (_, fingerprints) = fingerprints;
        let (visible_text, t) = timed(|| tree.visible_text());
        body_time += t;
        let (verdict, t) = timed(|| detector.check(&record.identifier, &fingerprints));
        tallies[8].add(size, t);
        if let Verdict::Unique = verdict {
            kept_pages.push((size, PageDocument::of_record(record, &visible_text)));
        }
    }
    tallies[9] = index_pages(&kept_pages, config, work_dir)?;
    tallies[9].time += body_time;

    let measured_pages = tallies[0].pages;
    let measured_bytes = tallies[0].bytes;
    let stages: Vec<StageTiming> = STAGES
        .iter()
        .zip(tallies)
        .map(|(&(stage, what), tally)| StageTiming {
            stage,
            what,
            pages: tally.pages,
            html_bytes: tally.bytes,
            seconds: tally.time.as_secs_f64(),
            throughput: Throughput::of(tally.pages, tally.bytes, tally.time.as_secs_f64()),
        })
        .collect();
    let total_seconds: f64 = stages.iter().map(|s| s.seconds).sum();
    Ok(StageReport {
        pages: measured_pages,
        html_bytes: measured_bytes,
        total: Throughput::of(measured_pages, measured_bytes, total_seconds),
        total_seconds,
        stages,
    })
}

/// The first `max_pages` pages of the input.
fn read_pages(inputs: &[PathBuf], config: &Config, max_pages: usize) -> Result<Vec<RawPage>, BenchError> {
    let mut pages = Vec::new();
    for path in inputs {
        if pages.len() >= max_pages {
            break;
        }
        Source::from_path(path)?.visit(config.input.max_page_bytes, &ByteCounter::default(), &mut |event| {
            if let InputEvent::Page(page) = event {
                pages.push(page);
            }
            pages.len() < max_pages
        })?;
    }
    Ok(pages)
}

/// Indexes the kept pages into both indexes with one writer thread each, as a build does.
fn index_pages(pages: &[(usize, PageDocument)], config: &Config, work_dir: &Path) -> Result<Tally, BenchError> {
    let dir = tempfile::Builder::new().prefix("stages-").tempdir_in(work_dir).map_err(BenchError::io(work_dir))?;
    let started = Instant::now();
    let mut indexes = IndexSet::create(dir.path(), config.index.writer_memory_mib, 1)?;
    let mut tally = Tally::default();
    for (size, page) in pages {
        indexes.add(page)?;
        tally.pages += 1;
        tally.bytes += *size as u64;
    }
    indexes.commit()?;
    tally.time = started.elapsed();
    Ok(tally)
}

/// As the build tells binary data from a page: a NUL byte near the start, unless the page
/// announces UTF-16 with a byte-order mark.
fn is_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8192)];
    let utf16 = head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]);
    !utf16 && head.contains(&0)
}
