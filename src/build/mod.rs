//! `indexer build`: the whole pipeline over a crawl, streaming and parallel.
//!
//! 1. A first pass over the first `stop_words.sample_pages` pages learns the aggressive
//!    stop-word list (§3.2) from document frequencies.
//! 2. The main pass: a reader thread reads the inputs in order and sends batches of pages over
//!    a bounded channel; each batch is processed in parallel by rayon ([`process_page`]);
//!    then, in input order, each page is checked for replicas, its DocView record written to
//!    `docview.jsonl`, and it is added to both indexes. Memory is bounded by the batch size
//!    and the channel depth, whatever the size of the corpus.
//! 3. The indexes are committed, the build published atomically, and a summary returned.

mod extract;
mod page;
mod summary;

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use md5::{Digest, Md5};
use rayon::prelude::*;

use crate::classify::{ClassifyError, Model, default_model};
use crate::clean::{Cleaner, CleanerError, site_of};
use crate::config::Config;
use crate::index::{IndexError, IndexSet, PageDocument, publish_build, start_build};
use crate::input::{ByteCounter, InputError, InputEvent, RawPage, SkipReason, Skipped, Source};
use crate::replicas::{ReplicaDetector, ReplicaKind, Verdict};
use crate::text::StopWords;

pub use extract::{ExtractSummary, extract};
pub use page::{PageContext, ProcessedPage, distinct_terms, process_page, terms_in_order};
pub use summary::{BuildSummary, dir_size, peak_rss_bytes};

/// Pages in flight between the reader and the workers, in batches.
const CHANNEL_BATCHES: usize = 4;

/// A build that could not complete; the previous build, if any, stays published.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Classifier(#[from] ClassifyError),
    #[error(transparent)]
    Cleaner(#[from] CleanerError),
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
    #[error("no page could be indexed ({read} read, all skipped); the previous build, if any, is kept")]
    NothingIndexed { read: usize },
}

/// What a build reports as it goes.
pub trait BuildObserver: Sync {
    /// A record was skipped (called in input order, from the main thread).
    fn skipped(&self, _skipped: &Skipped) {}
    /// Progress: bytes read of `total`, pages done so far.
    fn progress(&self, _bytes_read: u64, _total_bytes: u64, _pages: usize) {}
    /// A non-fatal warning about one page.
    fn warning(&self, _message: &str) {}
}

/// An observer that ignores everything.
pub struct Quiet;
impl BuildObserver for Quiet {}

/// Builds the DocView collection and both indexes of `inputs` into the build folder `dir`.
pub fn build(
    inputs: &[PathBuf],
    dir: &Path,
    config: &Config,
    observer: &dyn BuildObserver,
) -> Result<BuildSummary, BuildError> {
    let started = Instant::now();
    let sources = inputs.iter().map(|p| Source::from_path(p)).collect::<Result<Vec<_>, _>>()?;
    let total_bytes: u64 = sources.iter().map(Source::size_on_disk).sum();

    let stop_words = learn_stop_words(&sources, config, observer);
    // The classifier (§6): a model file named by the configuration (`--classifier`), the
    // built-in default model, or none (`off`). A model that cannot be loaded stops the build
    // before anything is written.
    let loaded = match config.classify.model.as_str() {
        "" => {
            default_model()?;
            None
        }
        "off" => None,
        path => Some(Model::from_file(Path::new(path))?),
    };
    let mut ctx = PageContext::new(config, &stop_words);
    if let Some(model) = &loaded {
        ctx.classifier = Some(model);
    }
    ctx.cleaner = learned_cleaner(&sources, &ctx, observer)?;

    let output = start_build(dir)?;
    let staging = output.staging.clone();
    let writer = |name: &str| -> Result<BufWriter<File>, BuildError> {
        let path = staging.join(name);
        File::create(&path)
            .map(|f| BufWriter::with_capacity(1 << 20, f))
            .map_err(|source| BuildError::Write { path: path.display().to_string(), source })
    };
    let mut docview = writer("docview.jsonl")?;
    let mut replicas_tsv = writer("replicas.tsv")?;
    let mut skipped_tsv = writer("skipped.tsv")?;
    let mut indexes = IndexSet::create(&staging, config.index.writer_memory_mib, config.index.writer_threads)?;

    let mut summary = BuildSummary::default();
    let mut detector = ReplicaDetector::new(ctx.signer.kind(), &config.replicas);
    let mut seen_urls: HashSet<[u8; 16]> = HashSet::new();
    let counter = ByteCounter::default();

    let (sender, receiver) = crossbeam_channel::bounded::<Vec<InputEvent>>(CHANNEL_BATCHES);
    let batch_size = config.input.batch_size;
    let max_page_bytes = config.input.max_page_bytes;
    let reader_counter = counter.clone();
    let reader_sources = sources.clone();
    let reader = std::thread::spawn(move || {
        let mut batch = Vec::with_capacity(batch_size);
        for source in &reader_sources {
            let result = source.visit(max_page_bytes, &reader_counter, &mut |event| {
                batch.push(event);
                if batch.len() >= batch_size {
                    return sender.send(std::mem::replace(&mut batch, Vec::with_capacity(batch_size))).is_ok();
                }
                true
            });
            if let Err(e) = result {
                batch.push(InputEvent::Skipped(unreadable_source(e)));
            }
        }
        if !batch.is_empty() {
            let _ = sender.send(batch);
        }
    });

    let write_error = |name: &str| {
        let path = staging.join(name).display().to_string();
        move |source| BuildError::Write { path, source }
    };
    for batch in receiver {
        let results: Vec<Result<ProcessedPage, Skipped>> = batch
            .into_par_iter()
            .map(|event| match event {
                InputEvent::Page(raw) => process_page(raw, &ctx),
                InputEvent::Skipped(skipped) => Err(skipped),
            })
            .collect();
        for result in results {
            summary.pages_read += 1;
            let page = match result {
                Ok(page) => page,
                Err(skipped) => {
                    record_skip(&mut summary, &mut skipped_tsv, observer, &skipped)
                        .map_err(write_error("skipped.tsv"))?;
                    continue;
                }
            };
            summary.input_page_bytes += page.bytes as u64;
            if !seen_urls.insert(Md5::digest(page.record.identifier.as_bytes()).into()) {
                let skipped = Skipped {
                    origin: page.origin.clone(),
                    reason: SkipReason::DuplicateUrl,
                    detail: format!("{} was read before; the first copy is kept", page.record.identifier),
                };
                record_skip(&mut summary, &mut skipped_tsv, observer, &skipped).map_err(write_error("skipped.tsv"))?;
                continue;
            }
            if page.depth_capped {
                summary.warnings.depth_capped += 1;
                observer.warning(&format!(
                    "{}: markup nested deeper than {} containers was flattened",
                    page.origin, config.tag_tree.max_depth
                ));
            }
            match detector.check(&page.record.identifier, &page.fingerprints) {
                Verdict::Replica { kept_url, kind } => {
                    match kind {
                        ReplicaKind::Exact => summary.replicas.exact += 1,
                        ReplicaKind::Near => summary.replicas.near += 1,
                    }
                    writeln!(replicas_tsv, "{}\t{}\t{}", page.record.identifier, kept_url, kind.as_str())
                        .map_err(write_error("replicas.tsv"))?;
                    continue;
                }
                Verdict::Unique => {}
            }
            serde_json::to_writer(&mut docview, &page.record).map_err(|e| BuildError::Write {
                path: staging.join("docview.jsonl").display().to_string(),
                source: e.into(),
            })?;
            docview.write_all(b"\n").map_err(write_error("docview.jsonl"))?;
            let record = page.record;
            indexes.add(&PageDocument {
                title: record.title.clone(),
                body: format!("{}\n{}", record.title, page.visible_text),
                keywords: record.keywords,
                summary: record.summary,
                page_type: record.page_type.as_str().to_string(),
                category: record.classification_code.unwrap_or_default(),
                url: record.identifier,
            })?;
            *summary.page_types.entry(record.page_type.as_str().to_string()).or_default() += 1;
            summary.pages_indexed += 1;
        }
        observer.progress(counter.get(), total_bytes, summary.pages_read);
    }
    // The reader only fails by panicking, which the channel already reported by closing.
    let _ = reader.join();

    for (mut file, name) in [(docview, "docview.jsonl"), (replicas_tsv, "replicas.tsv"), (skipped_tsv, "skipped.tsv")] {
        file.flush().map_err(write_error(name))?;
    }
    if summary.pages_indexed == 0 {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(BuildError::NothingIndexed { read: summary.pages_read });
    }
    indexes.commit()?;
    let learned = stop_words.learned_sorted().join("\n");
    std::fs::write(staging.join("stopwords-learned.txt"), learned + "\n")
        .map_err(write_error("stopwords-learned.txt"))?;
    std::fs::write(staging.join("config.toml"), config.to_toml()).map_err(write_error("config.toml"))?;

    summary.learned_stop_words = stop_words.learned_sorted().len();
    summary.input_bytes = counter.get();
    summary.abstract_index_bytes = dir_size(&staging.join("abstract"));
    summary.fulltext_index_bytes = dir_size(&staging.join("fulltext"));
    summary.elapsed_seconds = started.elapsed().as_secs_f64();
    summary.peak_rss_bytes = peak_rss_bytes();
    summary.threads = rayon::current_num_threads();
    let summary_json = serde_json::to_string_pretty(&summary).unwrap_or_default();
    std::fs::write(staging.join("summary.json"), summary_json + "\n").map_err(write_error("summary.json"))?;
    summary.output = publish_build(output)?.display().to_string();
    Ok(summary)
}

fn unreadable_source(error: InputError) -> Skipped {
    let origin = match &error {
        InputError::NotFound { path } | InputError::Io { path, .. } | InputError::Format { path, .. } => path.clone(),
    };
    Skipped { origin, reason: SkipReason::Unreadable, detail: error.to_string() }
}

fn record_skip(
    summary: &mut BuildSummary,
    tsv: &mut impl Write,
    observer: &dyn BuildObserver,
    skipped: &Skipped,
) -> std::io::Result<()> {
    *summary.skipped.entry(skipped.reason).or_default() += 1;
    observer.skipped(skipped);
    writeln!(tsv, "{}\t{}\t{}", skipped.origin, skipped.reason, skipped.detail.replace(['\t', '\n'], " "))
}

/// The cleaner of the configuration, after its learning pass over the whole input if it has
/// one (the site style tree learns each site's template from all its pages). Pages are parsed
/// in parallel batches and observed in input order, so the result does not depend on the
/// number of threads; memory is bounded by the batch and what the cleaner keeps.
pub fn learned_cleaner(
    sources: &[Source],
    ctx: &PageContext<'_>,
    observer: &dyn BuildObserver,
) -> Result<Cleaner, BuildError> {
    let mut cleaner = Cleaner::from_config(ctx.config)?;
    if !cleaner.learns_from_sites() {
        return Ok(cleaner);
    }
    let batch_size = ctx.config.input.batch_size.max(1);
    let mut batch: Vec<RawPage> = Vec::with_capacity(batch_size);
    let observe = |batch: &mut Vec<RawPage>, cleaner: &mut Cleaner| {
        let trees: Vec<_> = batch.par_iter().map(|page| (site_of(&page.url), ctx.tag_tree(page).0)).collect();
        for (site, tree) in &trees {
            cleaner.observe(site, tree);
        }
        batch.clear();
    };
    let counter = ByteCounter::default();
    for source in sources {
        let result = source.visit(ctx.config.input.max_page_bytes, &counter, &mut |event| {
            if let InputEvent::Page(page) = event {
                batch.push(page);
                if batch.len() >= batch_size {
                    observe(&mut batch, &mut cleaner);
                }
            }
            true
        });
        if let Err(e) = result {
            // The main pass reports the unreadable source as a skipped record.
            observer.warning(&format!("cleaner learning pass: {e}"));
        }
    }
    observe(&mut batch, &mut cleaner);
    cleaner.finish_learning();
    Ok(cleaner)
}

/// The first pass: document frequencies over a sample from the start of the input.
fn learn_stop_words(sources: &[Source], config: &Config, observer: &dyn BuildObserver) -> StopWords {
    let wanted = config.stop_words.sample_pages;
    if wanted == 0 {
        return StopWords::generic();
    }
    let mut sample: Vec<RawPage> = Vec::new();
    let counter = ByteCounter::default();
    for source in sources {
        let result = source.visit(config.input.max_page_bytes, &counter, &mut |event| {
            if let InputEvent::Page(page) = event {
                sample.push(page);
            }
            sample.len() < wanted
        });
        if let Err(e) = result {
            observer.warning(&format!("stop-word sample: {e}"));
        }
        if sample.len() >= wanted {
            break;
        }
    }
    let generic = StopWords::generic();
    let ctx = PageContext::new(config, &generic);
    let documents: Vec<HashSet<String>> = sample.par_iter().map(|page| distinct_terms(page, &ctx)).collect();
    StopWords::learn(documents, config.stop_words.max_document_frequency, config.stop_words.min_sample_pages)
}
