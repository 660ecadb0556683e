//! `indexer build`: the whole pipeline over a crawl, streaming and parallel.
//!
//! 1. A first pass over the first `stop_words.sample_pages` pages learns the aggressive
//!    stop-word list (§3.2) from document frequencies.
//!    The default cleaner's site templates (`clean::site_template`) need the number of pages
//!    of each host: a counting pass reads the input (no parsing). When the hosts' samples
//!    lie in short stretches of the input, the main pass learns the templates as it goes
//!    ([`write_build`]); otherwise a learning pass parses the sampled pages first, and keeps
//!    their trees on disk for the main pass (`spill`).
//! 2. The main pass: reader threads read the inputs, several files at once (`lanes`), and
//!    hand over batches of pages in an order that depends only on the inputs; each batch is
//!    processed in parallel by rayon ([`process_page`]); then, in that order, each page is
//!    checked for replicas, its DocView record written to `docview.jsonl`, and it is added to
//!    both indexes. Memory is bounded by the batch size and the channel depths, whatever the
//!    size of the corpus.
//! 3. The indexes are committed, the build published atomically, and a summary returned.
//!
//! `--append` ([`BuildMode::Append`]) starts from a copy of the published build instead of an
//! empty one: its stop-word list, its indexes, its records, and the replica detector's memory
//! of its pages (`signatures.bin`, `seen-urls.bin`), so new pages that copy old ones are
//! dropped as replicas. The copy is published like any build: the old one stays searchable
//! until the switch.

mod extract;
mod lanes;
mod spill;
mod summary;

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use crate::classify::ClassifyError;
use crate::clean::site_template::{SiteTemplates, SiteTemplatesError};
use crate::clean::{Cleaner, CleanerError, CleanerKind, site_of};
use crate::config::Config;
use crate::index::{
    BuildOutput, IndexError, IndexSet, PageDocument, SUMMARY_FILE, TERM_ANALYSIS, abandon_build, check_build_folder,
    current_build, describe_term_analysis, publish_build, read_term_analysis, start_append, start_build,
    write_term_analysis,
};
use crate::input::{ByteCounter, Inflation, InputError, InputEvent, RawPage, SkipReason, Skipped, Source};
use crate::replicas::{
    ReplicaDetector, ReplicaKind, SEEN_URLS_FILE, SIGNATURES_FILE, SeenUrls, SignatureWriter, StoreError, Verdict,
    check_settings, load_detector,
};
use crate::shards::{SHARD_SIGNATURES_FILE, ShardRow, ShardWriter, UnsupportedDetector, check_shard_config};
use crate::text::StopWords;

use crate::page::{
    PageContext, PageContextError, ProcessedPage, binary_page, distinct_terms, is_binary, process_page, process_parsed,
    tree_terms,
};
use crate::tagtree::TagTree;
use encoding_rs::Encoding;
pub use extract::{ExtractSummary, extract};
pub use lanes::read_batches;
use lanes::{read_batches_inflated, unreadable_source};
use spill::{SpillReader, SpillWriter};
pub use summary::{AppendCounts, BuildSummary, dir_size, peak_rss_bytes};

/// The learned stop words of a build, one a line.
const STOP_WORDS_FILE: &str = "stopwords-learned.txt";
/// The effective configuration of a build.
const CONFIG_FILE: &str = "config.toml";
/// The site templates the default cleaner used (`clean::site_template`).
pub const SITE_TEMPLATES_FILE: &str = "site-templates.tsv";

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
    #[error(transparent)]
    Context(#[from] PageContextError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
    #[error("cannot append to {path}: {reason}; rebuild without --append")]
    NotAppendable { path: String, reason: String },
    /// Records were read and every one was skipped; `summary` counts them by reason.
    #[error(
        "no page could be indexed ({} read, all skipped; see the messages above); the previous build, if any, is kept",
        summary.pages_read
    )]
    NothingIndexed { summary: Box<BuildSummary> },
    #[error(
        "the inputs hold no pages (a folder is searched for .html, .htm, .xhtml and .shtml pages and for crawl files: .warc, .arc and .jsonl, optionally .gz); nothing was built"
    )]
    NoPages { summary: Box<BuildSummary> },
    #[error(transparent)]
    ShardDetector(#[from] UnsupportedDetector),
    #[error("a shard build (--shard) is a new build of its inputs: it cannot --append")]
    ShardAppend,
    #[error("{path}: {source}")]
    SiteTemplates { path: String, source: SiteTemplatesError },
}

impl BuildError {
    /// The summary of a build that read its inputs and published nothing because no page could
    /// be indexed: what was read and why each record was skipped (`build --json` prints it).
    pub fn summary(&self) -> Option<&BuildSummary> {
        match self {
            BuildError::NothingIndexed { summary } | BuildError::NoPages { summary } => Some(summary),
            _ => None,
        }
    }
}

/// Whether a build replaces the published build of its folder or adds pages to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BuildMode {
    /// A new collection of the inputs alone.
    #[default]
    Replace,
    /// The published build plus the inputs (a plain build when the folder has none).
    Append,
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
    build_with_mode(inputs, dir, config, observer, BuildMode::Replace)
}

/// [`build`], or with [`BuildMode::Append`] an addition of `inputs` to the published build.
pub fn build_with_mode(
    inputs: &[PathBuf],
    dir: &Path,
    config: &Config,
    observer: &dyn BuildObserver,
    mode: BuildMode,
) -> Result<BuildSummary, BuildError> {
    build_with_options(inputs, dir, config, observer, &BuildOptions { mode, ..BuildOptions::default() })
}

/// How a build is made, beyond its configuration.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    pub mode: BuildMode,
    /// A stop-word list to use instead of learning one from the inputs (`--stop-words`): shard
    /// builds share the list one build over all their inputs would learn (`indexer stop-words`).
    pub stop_words: Option<StopWords>,
    /// Site templates to use instead of learning them from the inputs (`--site-templates`):
    /// shard builds share the templates one build over all their inputs would learn
    /// (`indexer site-templates`).
    pub site_templates: Option<SiteTemplates>,
    /// A shard of a larger collection (`--shard`): no replica is removed; every page's replica
    /// signatures go to `signatures.jsonl` for the global join (see [`crate::shards`]).
    pub shard: bool,
}

/// [`build`] with every option.
pub fn build_with_options(
    inputs: &[PathBuf],
    dir: &Path,
    config: &Config,
    observer: &dyn BuildObserver,
    options: &BuildOptions,
) -> Result<BuildSummary, BuildError> {
    let started = Instant::now();
    let mode = options.mode;
    // Before any pass over the inputs: a build folder that is a build itself is refused now,
    // not after the learning passes.
    check_build_folder(dir)?;
    if options.shard {
        if mode == BuildMode::Append {
            return Err(BuildError::ShardAppend);
        }
        check_shard_config(config)?;
    }
    let sources = Source::of_inputs(inputs)?;
    for warning in sources.iter().flat_map(Source::warnings) {
        observer.warning(&warning);
    }
    let earlier = match mode {
        BuildMode::Replace => None,
        BuildMode::Append => match current_build(dir) {
            Ok(published) => Some(published),
            Err(IndexError::NoBuild { .. }) => None,
            Err(e) => return Err(e.into()),
        },
    };
    if let Some(published) = &earlier {
        check_appendable(published, config)?;
        check_same_cleaning(published, config)?;
    }
    // An append keeps the stop-word list of the build it adds to: the abstracts and keywords
    // of old and new pages are then made alike, and the index terms agree.
    let given_stop_words = match (&earlier, &options.stop_words) {
        (Some(published), _) => Some(read_stop_words(published)?),
        (None, Some(given)) => Some(given.clone()),
        (None, None) => None,
    };
    // The cleaner and the classifier (§6) the configuration names: one that cannot be loaded
    // stops the build before anything is written. Tag trees do not depend on the stop words:
    // the learning passes parse with this context.
    let generic = StopWords::generic();
    let learning_ctx = PageContext::new(config, &generic)?;
    // A gzipped crawl file is inflated once: the first full read keeps the inflated bytes for
    // the later ones (`input::Inflation`).
    let inflation = Inflation::new(sources.len());
    // The site templates, like the stop words: an append keeps those of the build it adds
    // to (a build made before site evidence has none: its pages were cleaned alone, and so
    // are the new ones), shards take the list learned over all inputs, a build learns them.
    let given_templates = match (&earlier, &options.site_templates) {
        (Some(published), _) => Some(read_site_templates(published, observer)?),
        (None, Some(given)) => Some(given.clone()),
        (None, None) => None,
    };
    let Learned { cleaner, stop_word_documents: stop_word_sample, spilled } = match given_templates {
        Some(templates) => {
            let mut cleaner = Cleaner::from_config(config)?;
            cleaner.set_site_templates(templates);
            let cleaner = if cleaner.learns_from_sites() {
                learned_cleaner_inflated(&sources, &inflation, &learning_ctx, observer)?
            } else {
                cleaner
            };
            Learned { cleaner, stop_word_documents: None, spilled: None }
        }
        None => build_cleaner(&sources, &inflation, &learning_ctx, observer, given_stop_words.is_none())?,
    };
    // A learning pass of the templates also gave the stop-word sample's terms (the pages
    // `learn_stop_words` parses are then parsed once).
    let stop_words = match (given_stop_words, stop_word_sample) {
        (Some(given), _) => given,
        (None, Some(documents)) => stop_words_of_sample(documents, config),
        (None, None) => learn_stop_words(&sources, config, observer)?.0,
    };
    let mut ctx = PageContext::new(config, &stop_words)?.with_cleaner(cleaner);

    let (output, earlier_summary) = match &earlier {
        Some(published) => {
            let earlier_summary = read_summary(published)?;
            (start_append(dir, published)?, Some(earlier_summary))
        }
        None => (start_build(dir)?, None),
    };
    let shard = if options.shard {
        let writer = ShardWriter::create(&output.staging, inputs, config).map_err(|source| BuildError::Write {
            path: output.staging.join(SHARD_SIGNATURES_FILE).display().to_string(),
            source,
        })?;
        Some(writer)
    } else {
        None
    };
    let result =
        write_build(&sources, &inflation, &output, earlier_summary.is_some(), &mut ctx, observer, shard, spilled);
    let mut summary = match result {
        Ok(summary) => summary,
        Err(mut e) => {
            abandon_build(output);
            if let BuildError::NothingIndexed { summary } | BuildError::NoPages { summary } = &mut e {
                summary.elapsed_seconds = started.elapsed().as_secs_f64();
                summary.peak_rss_bytes = peak_rss_bytes();
                summary.threads = rayon::current_num_threads();
            }
            return Err(e);
        }
    };
    let staging = output.staging.clone();
    let write_error = |name: &str| {
        let path = staging.join(name).display().to_string();
        move |source| BuildError::Write { path, source }
    };
    if let Some(earlier) = &earlier_summary {
        summary.add_earlier(earlier);
    }
    summary.learned_stop_words = stop_words.learned_sorted().len();
    summary.abstract_index_bytes = dir_size(&staging.join("abstract"));
    summary.fulltext_index_bytes = dir_size(&staging.join("fulltext"));
    summary.elapsed_seconds = started.elapsed().as_secs_f64();
    summary.peak_rss_bytes = peak_rss_bytes();
    summary.threads = rayon::current_num_threads();
    // The folder the build is published as, so that summary.json names it too.
    summary.output = output.published_path().display().to_string();
    let summary_json = serde_json::to_string_pretty(&summary).unwrap_or_default();
    std::fs::write(staging.join(SUMMARY_FILE), summary_json + "\n").map_err(write_error(SUMMARY_FILE))?;
    write_term_analysis(&staging)?;
    publish_build(output)?;
    Ok(summary)
}

/// An append adds pages cleaned by the configuration's cleaner to pages cleaned by the
/// published build's: both must be the same, or the build's `config.toml` would misstate
/// half of its records.
fn check_same_cleaning(published: &Path, config: &Config) -> Result<(), BuildError> {
    let path = published.join(CONFIG_FILE);
    let Ok(earlier) = Config::from_toml_file(&path) else {
        // A build always writes its config; one that cannot be read was made by an older
        // indexer, whose other files `check_appendable` has already vouched for.
        return Ok(());
    };
    let reason = if earlier.cleaning.cleaner != config.cleaning.cleaner {
        format!(
            "its pages were cleaned by --cleaner {}, not {}; append with --cleaner {}",
            earlier.cleaning.cleaner.name(),
            config.cleaning.cleaner.name(),
            earlier.cleaning.cleaner.name()
        )
    } else if earlier.cleaning != config.cleaning {
        "its [cleaning] settings differ from these (see its config.toml); append with the same settings".to_string()
    } else {
        return Ok(());
    };
    Err(BuildError::NotAppendable { path: published.display().to_string(), reason })
}

/// The files of a build being written.
struct BuildFiles {
    docview: BufWriter<File>,
    replicas: BufWriter<File>,
    skipped: BufWriter<File>,
    signatures: SignatureWriter,
    seen_urls: SeenUrls,
    indexes: IndexSet,
    detector: ReplicaDetector,
}

impl BuildFiles {
    /// Empty files, or with `append` the copies of the published build's files in `staging`.
    fn open(staging: &Path, append: bool, ctx: &PageContext<'_>) -> Result<BuildFiles, BuildError> {
        let config = ctx.config();
        let text_file = |name: &str| -> Result<BufWriter<File>, BuildError> {
            let path = staging.join(name);
            OpenOptions::new()
                .create(true)
                .write(true)
                .append(append)
                .truncate(!append)
                .open(&path)
                .map(|f| BufWriter::with_capacity(1 << 20, f))
                .map_err(|source| BuildError::Write { path: path.display().to_string(), source })
        };
        let (memory, threads) = (config.index.writer_memory_mib, config.index.writer_threads);
        let signatures_path = staging.join(SIGNATURES_FILE);
        let seen_path = staging.join(SEEN_URLS_FILE);
        let (indexes, detector, signatures, seen_urls) = if append {
            let detector = load_detector(&signatures_path, ctx.signer().kind(), &config.replicas)?;
            (
                IndexSet::open(staging, memory, threads)?,
                detector,
                SignatureWriter::append(&signatures_path)?,
                SeenUrls::open(&seen_path)?,
            )
        } else {
            (
                IndexSet::create(staging, memory, threads)?,
                ReplicaDetector::new(ctx.signer().kind(), &config.replicas),
                SignatureWriter::create(&signatures_path, &config.replicas)?,
                SeenUrls::create(&seen_path)?,
            )
        };
        Ok(BuildFiles {
            docview: text_file("docview.jsonl")?,
            replicas: text_file("replicas.tsv")?,
            skipped: text_file("skipped.tsv")?,
            signatures,
            seen_urls,
            indexes,
            detector,
        })
    }

    /// Writes out and commits everything.
    fn finish(self, staging: &Path) -> Result<(), BuildError> {
        for (mut file, name) in
            [(self.docview, "docview.jsonl"), (self.replicas, "replicas.tsv"), (self.skipped, "skipped.tsv")]
        {
            file.flush()
                .map_err(|source| BuildError::Write { path: staging.join(name).display().to_string(), source })?;
        }
        self.signatures.finish()?;
        self.seen_urls.finish()?;
        self.indexes.commit()?;
        Ok(())
    }
}

/// The main pass into the staging folder of `output`: every page read, processed, checked and
/// written; the indexes committed. Returns the counts of this run.
///
/// A cleaner still learning site templates ([`build_cleaner`]) learns here, each page parsed
/// once: pages wait, parsed, until the sample of their host is complete and its template
/// made, and leave in input order, so that every output is the one a learning pass before
/// this one gives.
#[allow(clippy::too_many_arguments)]
fn write_build(
    sources: &[Source],
    inflation: &Inflation,
    output: &BuildOutput,
    append: bool,
    ctx: &mut PageContext<'_>,
    observer: &dyn BuildObserver,
    shard: Option<ShardWriter>,
    mut spilled: Option<SpillReader>,
) -> Result<BuildSummary, BuildError> {
    let config = ctx.config();
    let staging = &output.staging;
    let write_error = |name: &str| {
        let path = staging.join(name).display().to_string();
        move |source| BuildError::Write { path, source }
    };
    let mut pass = MainPass {
        files: BuildFiles::open(staging, append, ctx)?,
        summary: BuildSummary::default(),
        shard,
        observer,
        config,
        staging,
    };
    let counter = ByteCounter::default();
    let total_bytes: u64 = sources.iter().map(Source::size_on_disk).sum();
    let mut waiting = VecDeque::new();
    let mut positions = vec![0usize; sources.len()];

    read_batches_inflated(sources, Some((inflation, false)), &config.input, &counter, &mut |source, batch| {
        let results: Vec<(usize, Result<ProcessedPage, Skipped>)> = if ctx.cleaner().learns_from_sites() {
            learn_from_batch(ctx, source, batch, &mut waiting);
            process_ready(ctx, &mut waiting)
        } else {
            let ctx = &*ctx;
            // The trees the learning pass kept, taken in input order.
            let batch: Vec<(InputEvent, Option<Vec<u8>>)> = batch
                .into_iter()
                .map(|event| {
                    let spilled = match (&event, &mut spilled) {
                        (InputEvent::Page(_), Some(spilled)) => spilled.take(source, positions[source]),
                        _ => None,
                    };
                    if let InputEvent::Page(_) = event {
                        positions[source] += 1;
                    }
                    (event, spilled)
                })
                .collect();
            batch
                .into_par_iter()
                .map(|(event, spilled)| match event {
                    InputEvent::Page(raw) => {
                        let parsed = spilled
                            .filter(|_| !is_binary(&raw.bytes))
                            .and_then(|body| spill::deserialize(&body, &raw.url));
                        match parsed {
                            Some((tree, encoding)) => (source, process_parsed(raw, tree, encoding, ctx)),
                            None => (source, process_page(raw, ctx)),
                        }
                    }
                    InputEvent::Skipped(skipped) => (source, Err(skipped)),
                })
                .collect()
        };
        for (source, result) in results {
            pass.write(source, result)?;
        }
        observer.progress(counter.get(), total_bytes, pass.summary.pages_read);
        Ok::<(), BuildError>(())
    })?;
    if ctx.cleaner().learns_from_sites() {
        ctx.cleaner_mut().finish_learning();
        for (source, result) in process_ready(ctx, &mut waiting) {
            pass.write(source, result)?;
        }
    }
    let MainPass { files, mut summary, shard, .. } = pass;

    // An append that adds no page still records what it read (replicas, skipped pages) over
    // a collection that has pages; a new build of nothing would publish an empty collection.
    if summary.pages_indexed == 0 && !append {
        let summary = Box::new(summary);
        return Err(match summary.pages_read {
            0 => BuildError::NoPages { summary },
            _ => BuildError::NothingIndexed { summary },
        });
    }
    files.finish(staging)?;
    if let Some(writer) = shard {
        let path = writer.path().display().to_string();
        writer.finish().map_err(|source| BuildError::Write { path, source })?;
    }
    if !append {
        let learned = ctx.stop_words().learned_sorted().join("\n");
        std::fs::write(staging.join(STOP_WORDS_FILE), learned + "\n").map_err(write_error(STOP_WORDS_FILE))?;
        std::fs::write(staging.join(SITE_TEMPLATES_FILE), ctx.cleaner().site_templates().to_text())
            .map_err(write_error(SITE_TEMPLATES_FILE))?;
    }
    std::fs::write(staging.join(CONFIG_FILE), config.to_toml()).map_err(write_error(CONFIG_FILE))?;
    summary.input_bytes = counter.get();
    Ok(summary)
}

/// A record of the main pass waiting for its host's template, with the index of its source.
enum Waiting {
    Skipped(usize, Skipped),
    /// A page, parsed unless it is binary and not sampled (it is then skipped unparsed).
    Page {
        source: usize,
        site: String,
        raw: RawPage,
        parsed: Option<Box<(TagTree, &'static Encoding)>>,
    },
}

/// Samples and observes the pages of `batch` for the site templates, in input order, as the
/// learning pass of [`observed_cleaner`] does; makes the template of each host whose sample
/// is then complete; queues the records in `waiting`.
fn learn_from_batch(ctx: &mut PageContext<'_>, source: usize, batch: Vec<InputEvent>, waiting: &mut VecDeque<Waiting>) {
    let cleaner = ctx.cleaner_mut();
    // Skipped records have no site.
    let batch: Vec<(InputEvent, String, bool)> = batch
        .into_iter()
        .map(|event| match event {
            InputEvent::Page(page) => {
                let site = site_of(&page.url);
                let taken = cleaner.take(&site);
                (InputEvent::Page(page), site, taken)
            }
            skipped => (skipped, String::new(), false),
        })
        .collect();
    let context = &*ctx;
    let parsed: Vec<_> = batch
        .par_iter()
        .map(|(event, _, taken)| match event {
            InputEvent::Page(raw) if *taken || !is_binary(&raw.bytes) => Some(Box::new(context.tag_tree(raw))),
            _ => None,
        })
        .collect();
    let cleaner = ctx.cleaner_mut();
    let mut sampled = HashSet::new();
    for ((event, site, taken), parsed) in batch.into_iter().zip(parsed) {
        match event {
            InputEvent::Page(raw) => {
                if taken {
                    if let Some(parsed) = &parsed {
                        let (tree, _) = &**parsed;
                        cleaner.observe(&site, tree);
                    }
                    sampled.insert(site.clone());
                }
                waiting.push_back(Waiting::Page { source, site, raw, parsed });
            }
            InputEvent::Skipped(skipped) => waiting.push_back(Waiting::Skipped(source, skipped)),
        }
    }
    // Only once every page of the batch is observed: `take` ran over the whole batch first,
    // so a host's sample counts as complete before its last pages in the batch are observed.
    for site in sampled {
        if cleaner.site_sample_complete(&site) {
            cleaner.finish_site(&site);
        }
    }
}

/// Takes from the front of `waiting` the records whose host's template is made (all of them
/// once learning is over) and processes them in parallel; returns them in input order.
fn process_ready(
    ctx: &PageContext<'_>,
    waiting: &mut VecDeque<Waiting>,
) -> Vec<(usize, Result<ProcessedPage, Skipped>)> {
    let cleaner = ctx.cleaner();
    let ready = waiting
        .iter()
        .position(|record| match record {
            Waiting::Skipped(..) => false,
            Waiting::Page { site, .. } => !cleaner.site_sample_complete(site),
        })
        .unwrap_or(waiting.len());
    let ready: Vec<Waiting> = waiting.drain(..ready).collect();
    ready
        .into_par_iter()
        .map(|record| match record {
            Waiting::Skipped(source, skipped) => (source, Err(skipped)),
            Waiting::Page { source, raw, parsed, .. } => match parsed {
                Some(parsed) if !is_binary(&raw.bytes) => {
                    let (tree, encoding) = *parsed;
                    (source, process_parsed(raw, tree, encoding, ctx))
                }
                _ => (source, Err(binary_page(raw))),
            },
        })
        .collect()
}

/// What the main pass writes to, and its counts.
struct MainPass<'a> {
    files: BuildFiles,
    summary: BuildSummary,
    shard: Option<ShardWriter>,
    observer: &'a dyn BuildObserver,
    config: &'a Config,
    staging: &'a Path,
}

impl MainPass<'_> {
    /// One record of source `source`, in input order: skipped, a replica, or written and
    /// indexed.
    fn write(&mut self, source: usize, result: Result<ProcessedPage, Skipped>) -> Result<(), BuildError> {
        let staging = self.staging;
        let write_error = |name: &str| {
            let path = staging.join(name).display().to_string();
            move |source| BuildError::Write { path, source }
        };
        let (summary, files, observer) = (&mut self.summary, &mut self.files, self.observer);
        summary.pages_read += 1;
        let record = self.shard.as_mut().map(|writer| writer.next_record(source));
        let page = match result {
            Ok(page) => page,
            Err(skipped) => {
                record_skip(summary, &mut files.skipped, observer, &skipped).map_err(write_error("skipped.tsv"))?;
                return Ok(());
            }
        };
        summary.input_page_bytes += page.bytes as u64;
        let first_read = files.seen_urls.insert(&page.record.identifier)?;
        if let (Some(writer), Some(record)) = (self.shard.as_mut(), record) {
            let row = ShardRow::new(source, record, &page.record.identifier, &page.fingerprints, !first_read);
            writer
                .write(&row)
                .map_err(|source| BuildError::Write { path: writer.path().display().to_string(), source })?;
        }
        if !first_read {
            let skipped = Skipped {
                origin: page.origin.clone(),
                reason: SkipReason::DuplicateUrl,
                detail: format!("{} was read before; the first copy is kept", page.record.identifier),
            };
            record_skip(summary, &mut files.skipped, observer, &skipped).map_err(write_error("skipped.tsv"))?;
            return Ok(());
        }
        if page.depth_capped {
            summary.warnings.depth_capped += 1;
            observer.warning(&format!(
                "{}: markup nested deeper than {} containers was flattened",
                page.origin, self.config.tag_tree.max_depth
            ));
        }
        // A shard keeps its replicas: the global join decides (`indexer replicas apply`).
        let verdict = match self.shard {
            Some(_) => Verdict::Unique,
            None => files.detector.check(&page.record.identifier, &page.fingerprints),
        };
        match verdict {
            Verdict::Replica { kept_url, kind } => {
                match kind {
                    ReplicaKind::Exact => summary.replicas.exact += 1,
                    ReplicaKind::Near => summary.replicas.near += 1,
                }
                writeln!(files.replicas, "{}\t{}\t{}", page.record.identifier, kept_url, kind.as_str())
                    .map_err(write_error("replicas.tsv"))?;
                return Ok(());
            }
            Verdict::Unique => {}
        }
        files.signatures.write(&page.record.identifier, &page.fingerprints)?;
        serde_json::to_writer(&mut files.docview, &page.record).map_err(|e| BuildError::Write {
            path: staging.join("docview.jsonl").display().to_string(),
            source: e.into(),
        })?;
        files.docview.write_all(b"\n").map_err(write_error("docview.jsonl"))?;
        let page_type = page.record.page_type.as_str().to_string();
        files.indexes.add(&PageDocument::of_record(page.record, &page.visible_text))?;
        *summary.page_types.entry(page_type).or_default() += 1;
        summary.pages_indexed += 1;
        Ok(())
    }
}

/// Refuses early (before any pass over the input) a build that cannot be appended to.
fn check_appendable(published: &Path, config: &Config) -> Result<(), BuildError> {
    for name in [SIGNATURES_FILE, SEEN_URLS_FILE] {
        let path = published.join(name);
        if !path.is_file() {
            return Err(BuildError::NotAppendable {
                path: path.display().to_string(),
                reason: "the build has no saved replica signatures (made by an older indexer)".into(),
            });
        }
    }
    // Old and new pages' terms must meet, in the indexes and in the fingerprints the new pages
    // are compared with.
    let made_with = read_term_analysis(published);
    if made_with != Some(TERM_ANALYSIS) {
        return Err(BuildError::NotAppendable {
            path: published.display().to_string(),
            reason: format!(
                "its terms were made with {}, this indexer's are of term analysis {TERM_ANALYSIS}, and the two \
                 would not match",
                describe_term_analysis(made_with)
            ),
        });
    }
    Ok(check_settings(&published.join(SIGNATURES_FILE), &config.replicas)?)
}

/// The stop words a published build learned.
fn read_stop_words(build: &Path) -> Result<StopWords, BuildError> {
    let path = build.join(STOP_WORDS_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| BuildError::NotAppendable { path: path.display().to_string(), reason: e.to_string() })?;
    Ok(StopWords::from_learned(text.lines().map(str::trim).filter(|w| !w.is_empty()).map(str::to_string)))
}

/// The site templates a published build used; none for a build made before they existed.
fn read_site_templates(build: &Path, observer: &dyn BuildObserver) -> Result<SiteTemplates, BuildError> {
    let path = build.join(SITE_TEMPLATES_FILE);
    if !path.is_file() {
        observer.warning(&format!(
            "{} has no {SITE_TEMPLATES_FILE} (made by an older indexer): the new pages are cleaned without site \
            evidence, as its pages were",
            build.display()
        ));
        return Ok(SiteTemplates::default());
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| BuildError::NotAppendable { path: path.display().to_string(), reason: e.to_string() })?;
    SiteTemplates::from_text(&text)
        .map_err(|source| BuildError::SiteTemplates { path: path.display().to_string(), source })
}

/// The summary of a published build.
fn read_summary(build: &Path) -> Result<BuildSummary, BuildError> {
    let path = build.join(SUMMARY_FILE);
    let not_appendable = |reason: String| BuildError::NotAppendable { path: path.display().to_string(), reason };
    let text = std::fs::read_to_string(&path).map_err(|e| not_appendable(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| not_appendable(format!("not a build summary: {e}")))
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

/// The most bytes of HTML the main pass may hold parsed while it learns site templates: when
/// the samples of the hosts overlap over more of the input than this, the templates are
/// learned in a pass of their own instead. A bound on memory, not a tuned setting.
const LEARN_IN_MAIN_PASS_MAX_BYTES: u64 = 32 << 20;

/// The cleaner of a build. One that learns site templates counts the pages of each host
/// first (reading only); then, when each host's sample (its first pages) lies in a short
/// stretch of the input, as in a crawl written host by host, it is returned still learning,
/// and the main pass learns as it goes, parsing each page once ([`write_build`]). Otherwise
/// the sampled pages are parsed in a learning pass of their own ([`observed_cleaner`]).
/// Both give the same templates. With `sample_stop_words`, a learning pass also returns the
/// distinct terms of the stop-word sample ([`learn_stop_words`]'s pages, parsed once).
fn build_cleaner(
    sources: &[Source],
    inflation: &Inflation,
    ctx: &PageContext<'_>,
    observer: &dyn BuildObserver,
    sample_stop_words: bool,
) -> Result<Learned, BuildError> {
    let counted = counted_cleaner(sources, inflation, ctx)?;
    let cleaner = counted.cleaner;
    if !cleaner.learns_from_sites()
        || (cleaner.kind() != CleanerKind::SiteStyleTree && counted.held_bytes <= LEARN_IN_MAIN_PASS_MAX_BYTES)
    {
        return Ok(Learned { cleaner, stop_word_documents: None, spilled: None });
    }
    let wanted = ctx.config().stop_words.sample_pages;
    let sample = (sample_stop_words && wanted > 0).then(|| StopWordSample::new(&counted.source_pages, wanted));
    let mut spill = match SpillWriter::create() {
        Ok(spill) => Some(spill),
        Err(e) => {
            observer.warning(&format!(
                "cannot create a temporary file for the parsed pages of the learning pass ({e}): the main pass \
                parses them again"
            ));
            None
        }
    };
    let (cleaner, stop_word_documents) =
        observed_cleaner(sources, inflation, ctx, observer, cleaner, sample, spill.as_mut());
    Ok(Learned { cleaner, stop_word_documents, spilled: spill.and_then(SpillWriter::finish) })
}

/// What [`build_cleaner`] gives the main pass.
struct Learned {
    cleaner: Cleaner,
    /// The distinct terms of the stop-word sample, when a learning pass parsed it.
    stop_word_documents: Option<StopWordDocuments>,
    /// The trees the learning pass parsed, for the main pass (`spill`).
    spilled: Option<SpillReader>,
}

/// The distinct terms of each page of the stop-word sample.
type StopWordDocuments = Vec<HashSet<String>>;

/// Which pages [`learn_stop_words`] samples: the first `stop_words.sample_pages` pages of the
/// inputs taken one after another, known by their place in their input once the counting
/// pass has the number of pages of each.
struct StopWordSample {
    /// How many of each input's first pages are sampled.
    per_source: Vec<usize>,
}

impl StopWordSample {
    fn new(source_pages: &[usize], wanted: usize) -> StopWordSample {
        let mut left = wanted;
        let per_source = source_pages
            .iter()
            .map(|&pages| {
                let taken = pages.min(left);
                left -= taken;
                taken
            })
            .collect();
        StopWordSample { per_source }
    }

    /// Whether page number `position` of input `source` is sampled.
    fn contains(&self, source: usize, position: usize) -> bool {
        self.per_source.get(source).is_some_and(|&n| position < n)
    }
}

/// A first pass counts the pages of each site (reading only); the second parses only the
/// pages the cleaner samples, in parallel batches, observed in input order, so the result
/// does not depend on the number of threads; memory is bounded by the batch and what the
/// cleaner keeps.
pub fn learned_cleaner(
    sources: &[Source],
    ctx: &PageContext<'_>,
    observer: &dyn BuildObserver,
) -> Result<Cleaner, BuildError> {
    learned_cleaner_inflated(sources, &Inflation::new(sources.len()), ctx, observer)
}

/// [`learned_cleaner`] with the inputs' inflated copies (made by the counting pass).
fn learned_cleaner_inflated(
    sources: &[Source],
    inflation: &Inflation,
    ctx: &PageContext<'_>,
    observer: &dyn BuildObserver,
) -> Result<Cleaner, BuildError> {
    let cleaner = counted_cleaner(sources, inflation, ctx)?.cleaner;
    if !cleaner.learns_from_sites() {
        return Ok(cleaner);
    }
    Ok(observed_cleaner(sources, inflation, ctx, observer, cleaner, None, None).0)
}

/// Where the sample of one host lies in the input (pages counted in input order).
struct SampleSpan {
    pages: usize,
    first: usize,
    /// Bytes of the pages before the first one.
    bytes_before: u64,
    /// The last sampled page, and the bytes up to its end.
    last: usize,
    bytes_through: u64,
}

/// What the counting pass found.
struct Counted {
    cleaner: Cleaner,
    /// The most bytes of HTML the main pass would hold if it learned the templates itself: a
    /// page waits from the first page of its host's sample to the last, and the pages after
    /// it wait with it, so the stretches of overlapping samples add up.
    held_bytes: u64,
    /// The pages of each input.
    source_pages: Vec<usize>,
}

/// The cleaner after the counting pass (the pages of each host), and what else that pass
/// found.
/// The counting pass makes the inputs' inflated copies: a later pass reads them.
fn counted_cleaner(sources: &[Source], inflation: &Inflation, ctx: &PageContext<'_>) -> Result<Counted, BuildError> {
    let mut cleaner = Cleaner::from_config(ctx.config())?;
    let mut source_pages = vec![0; sources.len()];
    if !cleaner.learns_from_sites() {
        return Ok(Counted { cleaner, held_bytes: 0, source_pages });
    }
    let cleaning = &ctx.config().cleaning;
    let mut spans: HashMap<String, SampleSpan> = HashMap::new();
    let (mut pages, mut bytes) = (0usize, 0u64);
    let counter = ByteCounter::default();
    let Ok(()) = read_batches_inflated::<std::convert::Infallible>(
        sources,
        Some((inflation, true)),
        &ctx.config().input,
        &counter,
        &mut |source, events| {
            for event in events {
                if let InputEvent::Page(page) = event {
                    source_pages[source] += 1;
                    let site = site_of(&page.url);
                    cleaner.count_page(&site);
                    let size = page.bytes.len() as u64;
                    let span = spans.entry(site).or_insert(SampleSpan {
                        pages: 0,
                        first: pages,
                        bytes_before: bytes,
                        last: pages,
                        bytes_through: bytes,
                    });
                    span.pages += 1;
                    if span.pages <= cleaning.site_sample_pages {
                        span.last = pages;
                        span.bytes_through = bytes + size;
                    }
                    pages += 1;
                    bytes += size;
                }
            }
            Ok(())
        },
    );
    let mut sampled: Vec<SampleSpan> =
        spans.into_values().filter(|span| span.pages >= cleaning.site_min_pages.max(1)).collect();
    sampled.sort_by_key(|span| span.first);
    let mut held = 0u64;
    let mut stretch: Option<(usize, u64, u64)> = None;
    for span in sampled {
        stretch = match stretch {
            Some((last, before, through)) if span.first <= last => {
                Some((last.max(span.last), before, through.max(span.bytes_through)))
            }
            _ => Some((span.last, span.bytes_before, span.bytes_through)),
        };
        if let Some((_, before, through)) = stretch {
            held = held.max(through - before);
        }
    }
    Ok(Counted { cleaner, held_bytes: held, source_pages })
}

/// The learning pass of a counted cleaner: the sampled pages parsed and observed. With a
/// stop-word sample, also the distinct terms of its pages, in input order. With `spill`, the
/// parsed pages' trees are written to it for the main pass.
fn observed_cleaner(
    sources: &[Source],
    inflation: &Inflation,
    ctx: &PageContext<'_>,
    observer: &dyn BuildObserver,
    mut cleaner: Cleaner,
    stop_word_sample: Option<StopWordSample>,
    mut spill: Option<&mut SpillWriter>,
) -> (Cleaner, Option<StopWordDocuments>) {
    /// A page to parse: its site when the cleaner samples it, whether the stop words do, and
    /// its place in the input.
    struct Wanted {
        site: Option<String>,
        stop_words: bool,
        page: RawPage,
        source: usize,
        position: usize,
    }
    let batch_size = ctx.config().input.batch_size.max(1);
    let mut batch: Vec<Wanted> = Vec::with_capacity(batch_size);
    let mut documents = Vec::new();
    let mut observe = |batch: &mut Vec<Wanted>, cleaner: &mut Cleaner| {
        // A binary page is skipped unparsed by the main pass: its tree is not kept.
        let keep = spill.as_ref().is_some_and(|spill| spill.accepts());
        let trees: Vec<_> = batch
            .par_iter()
            .map(|wanted| {
                let (tree, encoding) = ctx.tag_tree(&wanted.page);
                let terms = wanted.stop_words.then(|| tree_terms(&tree));
                let kept = (keep && !is_binary(&wanted.page.bytes))
                    .then(|| spill::serialize(&wanted.page.url, &tree, encoding));
                (tree, terms, kept)
            })
            .collect();
        for (wanted, (tree, terms, kept)) in batch.iter().zip(trees) {
            if let Some(site) = &wanted.site {
                cleaner.observe(site, &tree);
            }
            documents.extend(terms);
            if let (Some(spill), Some(body)) = (spill.as_deref_mut(), kept) {
                spill.write(wanted.source, wanted.position, &body);
            }
        }
        batch.clear();
    };
    let mut positions = vec![0usize; sources.len()];
    let counter = ByteCounter::default();
    let Ok(()) = read_batches_inflated::<std::convert::Infallible>(
        sources,
        Some((inflation, false)),
        &ctx.config().input,
        &counter,
        &mut |source, events| {
            for event in events {
                match event {
                    InputEvent::Page(page) => {
                        let position = positions[source];
                        let stop_words = stop_word_sample.as_ref().is_some_and(|s| s.contains(source, position));
                        positions[source] += 1;
                        let site = site_of(&page.url);
                        let site = cleaner.take(&site).then_some(site);
                        if site.is_some() || stop_words {
                            batch.push(Wanted { site, stop_words, page, source, position });
                        }
                    }
                    // The main pass reports the unreadable source as a skipped record.
                    InputEvent::Skipped(skipped) if skipped.reason == SkipReason::Unreadable => {
                        observer.warning(&format!("cleaner learning pass: {}", skipped.detail))
                    }
                    InputEvent::Skipped(_) => {}
                }
                if batch.len() >= batch_size {
                    observe(&mut batch, &mut cleaner);
                }
            }
            Ok(())
        },
    );
    observe(&mut batch, &mut cleaner);
    cleaner.finish_learning();
    (cleaner, stop_word_sample.map(|_| documents))
}

/// The site templates a build of `inputs` would learn (`indexer site-templates`): what shard
/// builds share with `--site-templates` to clean as one build would.
pub fn site_templates_of(
    inputs: &[PathBuf],
    config: &Config,
    observer: &dyn BuildObserver,
) -> Result<SiteTemplates, BuildError> {
    let sources = Source::of_inputs(inputs)?;
    let mut config = config.clone();
    config.cleaning.cleaner = CleanerKind::DocView;
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words)?;
    Ok(learned_cleaner(&sources, &ctx, observer)?.site_templates().clone())
}

/// The stop words a build of `inputs` would learn (`indexer stop-words`), and the number of
/// pages sampled: what shard builds share with `--stop-words` to index as one build would.
pub fn stop_words_of(
    inputs: &[PathBuf],
    config: &Config,
    observer: &dyn BuildObserver,
) -> Result<(StopWords, usize), BuildError> {
    let sources = Source::of_inputs(inputs)?;
    learn_stop_words(&sources, config, observer)
}

/// The first pass: document frequencies over a sample from the start of the input. Returns
/// the list and the number of pages sampled.
fn learn_stop_words(
    sources: &[Source],
    config: &Config,
    observer: &dyn BuildObserver,
) -> Result<(StopWords, usize), BuildError> {
    let wanted = config.stop_words.sample_pages;
    if wanted == 0 {
        return Ok((StopWords::generic(), 0));
    }
    let mut sample: Vec<RawPage> = Vec::new();
    let counter = ByteCounter::default();
    for source in sources {
        let result = source.visit_with(&config.input.read_options(), &counter, &mut |event| {
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
    let ctx = PageContext::new(config, &generic)?;
    let documents: Vec<HashSet<String>> = sample.par_iter().map(|page| distinct_terms(page, &ctx)).collect();
    let sampled = documents.len();
    Ok((stop_words_of_sample(documents, config), sampled))
}

/// The stop words learned from the distinct terms of the sampled pages.
fn stop_words_of_sample(documents: Vec<HashSet<String>>, config: &Config) -> StopWords {
    StopWords::learn(documents, config.stop_words.max_document_frequency, config.stop_words.min_sample_pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_pass_gets_back_the_trees_the_learning_pass_parsed() {
        // The `sst` cleaner always learns in a pass of its own.
        let mut config = Config::default();
        config.cleaning.cleaner = CleanerKind::SiteStyleTree;
        let sources = vec![Source::from_path(Path::new("eval/sample-corpus/pages")).unwrap()];
        let generic = StopWords::generic();
        let ctx = PageContext::new(&config, &generic).unwrap();
        let learned = build_cleaner(&sources, &Inflation::new(sources.len()), &ctx, &Quiet, true).unwrap();
        let mut spilled = learned.spilled.expect("the learning pass keeps its trees");
        let (mut pages, mut kept, mut positions) = (0, 0, vec![0usize; sources.len()]);
        read_batches::<()>(&sources, &config.input, &ByteCounter::default(), &mut |source, batch| {
            for event in batch {
                if let InputEvent::Page(raw) = event {
                    pages += 1;
                    if let Some(body) = spilled.take(source, positions[source]) {
                        let (tree, encoding) = spill::deserialize(&body, &raw.url).unwrap();
                        let (parsed, parsed_encoding) = ctx.tag_tree(&raw);
                        assert_eq!(format!("{tree:?}"), format!("{parsed:?}"), "{}", raw.origin);
                        assert_eq!(encoding, parsed_encoding, "{}", raw.origin);
                        kept += 1;
                    }
                    positions[source] += 1;
                }
            }
            Ok(())
        })
        .unwrap();
        // Every frame was taken, in order, and most pages were kept.
        assert!(spilled.take(0, positions[0]).is_none());
        assert!(kept * 2 > pages && pages > 100, "{kept} of {pages}");
    }
}
