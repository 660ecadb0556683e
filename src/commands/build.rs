use std::io::IsTerminal;

use indexer::config::{ClassifierChoice, CleanerKind, DetectorKind};
use indexer::pipeline::{BuildMode, BuildOptions, BuildSummary, build_with_options};
use indicatif::{ProgressBar, ProgressStyle};

use crate::commands::prelude::*;

pub const LONG_ABOUT: &str = "Build the DocView records and both indexes.\n\n\
        INPUT is a folder of pages (.html, .htm, .xhtml, .shtml, also .gz; recursive; an optional urls.tsv \
        manifest of <path><TAB><url> gives their URLs), a crawl file (WARC 0.17-1.1 or ARC, \
        plain or gzipped: .warc, .warc.gz, .arc, .arc.gz, Common Crawl's .warc.wet.gz (with \
        --accept text) and .warc.wat.gz, or any file that starts like a WARC or ARC record; \
        URL from WARC-Target-URI, charset \
        from the HTTP header), or a JSON Lines file of pages, {\"url\": …, \"html\": …}, or of text documents \
        ({\"id\" or \"url\", \"text\" or \"contents\", optional \"title\"}, as Pyserini, BEIR and C4 \
        write them; with --accept text; the id is the record's identifier). Give several to index them together, or \
        --input-list FILE. Several files are read at once (input.parallel_files open, \
        input.reader_threads read at the same moment): the build takes one batch of pages \
        from each in turn, so the result depends on the inputs, never on thread timing.\n\n\
        --append adds the pages to the published build instead of replacing it: new pages \
        are checked for replicas against the pages already indexed (exact and near copies, \
        and URLs read before), and the first build's stop-word list is kept. The replica \
        settings must be those of the first build. With no build in DIR, --append is a plain \
        build.\n\n\
        Example:\n  indexer build crawl-may.warc.gz --dir idx\n  \
        indexer build --append crawl-june.warc.gz --dir idx\n  \
        indexer build --input-list warcs.txt --dir idx   (one path a line, # comments)\n\n\
        The build is written to DIR/builds/<id>/ and published by switching the link \
        DIR/current to it when everything succeeded: a failed or interrupted build leaves \
        the previous one searchable. A build folder holds docview.jsonl, replicas.tsv \
        (removed<TAB>kept<TAB>exact|near), skipped.tsv, summary.json, the learned stop \
        words, the effective config, the replica signatures and URL digests that --append \
        reads (signatures.bin, seen-urls.bin), and the indexes abstract/ and fulltext/.\n\n\
        Every capture of a crawl file is accounted for: indexed, removed as a replica, or \
        skipped with its reason in skipped.tsv (not-html, not-a-page for dns:, robots.txt, \
        logs, feeds and plain text, revisit, http-status, bad-record, unreadable, ...). \
        request, metadata and warcinfo records describe captures and are not counted. A \
        damaged record costs that record only: reading resumes at the next one.\n\n\
        Bad pages are skipped with a one-line message naming the page and the reason; the \
        build goes on.";

#[derive(Args)]
pub struct BuildArgs {
    /// Folders of pages, WARC files, or JSON Lines files.
    #[arg(required_unless_present = "input_list", value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// A file naming more inputs, one path a line (`#` starts a comment; relative paths are
    /// relative to the file's folder).
    #[arg(long, value_name = "FILE")]
    pub input_list: Option<PathBuf>,
    #[command(flatten)]
    pub dir: DirArg,
    /// Add the pages to the build published in DIR (replica checks against its pages)
    /// instead of replacing it; a plain build when DIR has none.
    #[arg(long)]
    pub append: bool,
    /// A TOML file overriding any parameter (see `indexer config`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The page cleaner [default: blocks, or `cleaning.cleaner` of --config]. See README,
    /// "Cleaning quality".
    #[arg(long, value_parser = cleaner_parser())]
    pub cleaner: Option<CleanerKind>,
    /// A classifier model file (`indexer classify train`) for the content classification
    /// code of every record [default: the built-in model, the paper's 12 categories]; `off`
    /// leaves records unclassified.
    #[arg(long, value_name = "MODEL")]
    pub classifier: Option<String>,
    /// The near-replica detector [default: minhash, or `replicas.detector` of --config];
    /// `off`: exact copies only. See README, "Replica detection".
    #[arg(long, value_parser = detector_parser())]
    pub replicas: Option<DetectorKind>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// What a WARC, ARC or JSON Lines record may be to be indexed, comma-separated [default:
    /// html,xhtml; input.accept]. `text` adds plain text pages (text/plain records, WET files,
    /// JSON Lines `text`), cut into paragraphs at blank lines, or at every line when there are
    /// none; robots.txt, logs and dns: records are never pages.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMATS")]
    pub accept: Vec<indexer::input::PageFormat>,
    /// Use this stop-word list (one a line, as `indexer stop-words` writes it) instead of
    /// learning one from the inputs: shards of one collection share one list.
    #[arg(long, value_name = "FILE", conflicts_with = "append")]
    pub stop_words: Option<PathBuf>,
    /// Use these site templates (as `indexer site-templates` writes them) instead of learning
    /// them from the inputs: shards of one collection share them.
    #[arg(long, value_name = "FILE", conflicts_with = "append")]
    pub site_templates: Option<PathBuf>,
    /// Build a shard of a larger collection: remove no replica, and write every page's
    /// replica signatures (signatures.jsonl, shard.json) for a global join such as the Spark
    /// job in spark/, whose choices `indexer replicas apply` removes.
    #[arg(long, conflicts_with = "append")]
    pub shard: bool,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no per-page messages (the summary is still printed).
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: BuildArgs) -> Result<ExitCode> {
    let mut config = load_config(args.config.as_deref())?;
    if let Some(cleaner) = args.cleaner {
        config.cleaning.cleaner = cleaner;
    }
    if let Some(replicas) = args.replicas {
        config.replicas.detector = replicas;
    }
    if let Some(classifier) = args.classifier {
        config.classify.model = ClassifierChoice::from(classifier);
    }
    if !args.accept.is_empty() {
        config.input.accept = args.accept;
    }
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build_global()
            .context("cannot set the number of threads")?;
    }
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {elapsed_precise} [{wide_bar}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left) {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let observer = CliObserver::new(bar, args.quiet);
    let mut inputs = args.inputs;
    if let Some(list) = &args.input_list {
        inputs.extend(indexer::input::read_input_list(list)?);
    }
    let mode = if args.append { BuildMode::Append } else { BuildMode::Replace };
    let stop_words = match &args.stop_words {
        Some(path) => Some(read_stop_word_list(path)?),
        None => None,
    };
    let site_templates = match &args.site_templates {
        Some(path) => Some(crate::commands::site_templates::read_site_templates_file(path)?),
        None => None,
    };
    let options = BuildOptions { mode, stop_words, site_templates, shard: args.shard };
    let result = build_with_options(&inputs, &args.dir.dir, &config, &observer, &options);
    observer.finish();
    let summary: BuildSummary = match result {
        Ok(summary) => summary,
        Err(e) => {
            // A program reading --json gets the counts of a build that indexed nothing (what was
            // read, why each record was skipped) with the error, as one object; the exit code
            // is still the failure's.
            if let (true, Some(summary)) = (args.json, e.summary()) {
                let mut json = serde_json::to_value(summary)?;
                json["error"] = serde_json::Value::String(e.to_string());
                outln!("{json}");
            }
            return Err(e.into());
        }
    };
    if args.json {
        outln!("{}", serde_json::to_string(&summary)?);
    } else {
        outln!("{summary}");
    }
    Ok(ExitCode::SUCCESS)
}

/// A stop-word list file: one word a line, blank lines ignored.
pub fn read_stop_word_list(path: &Path) -> Result<indexer::text::StopWords> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!("cannot read the stop-word list {}; write it with `indexer stop-words`", path.display())
    })?;
    let words = text.lines().map(str::trim).filter(|w| !w.is_empty()).map(str::to_string);
    Ok(indexer::text::StopWords::from_learned(words))
}
