//! The `indexer` command line: a thin layer over the library.
//!
//! Exit codes: 0 success; 1 a search or evaluation ran but found nothing; 2 an error (bad
//! arguments, unreadable input, no build). A build that skipped some pages still exits 0:
//! skipped pages are reported one per line on stderr and counted in the summary.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use indexer::build::{BuildMode, BuildObserver, BuildOptions, BuildSummary, build, build_with_options};
use indexer::clean::{CleanerKind, HeadlinePlacement};
use indexer::config::Config;
use indexer::eval::disk::{measure_disk, read_terms, sample_terms};
use indexer::eval::report::{EvalConfig, ReportOptions, collection_report, write_report};
use indexer::eval::run::{read_topics, run_topics};
use indexer::eval::score::{EvalOptions, Qrels, Run, evaluate};
use indexer::eval::stats::index_statistics;
use indexer::input::{SkipReason, Skipped};
use indexer::search::{Collection, IndexChoice, SearchRequest, SearchSettings, Shards};

/// mimalloc, not the system allocator: html5ever's DOM, its string buffers and the tag tree
/// are many small allocations per page, and every page frees them all. Measured on this
/// machine against glibc's malloc (2026-11-23, `indexer eval clean --cleaner docview` and
/// `indexer bench` on the cacm crawl): cleaning 19-27% more pages per second on each gold
/// set, whole builds 717 -> 854 pages/s on 2 threads; peak RSS 125 -> 227 MiB at 1x and
/// 186 -> 306 MiB at 10x distinct copies (mimalloc keeps freed pages per thread for reuse).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const DEFAULT_DIR: &str = "indexer-data";

/// `println!` that returns write errors (a closed pipe: `indexer search … | head -1`)
/// instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*)?
    };
}

/// `print!`, likewise.
macro_rules! out {
    ($($arg:tt)*) => {
        write!(std::io::stdout().lock(), $($arg)*)?
    };
}

#[derive(Parser)]
#[command(
    name = "indexer",
    version,
    about = "Turn a crawl into a clean, searchable collection (DocView preprocessing).",
    long_about = "Turn a crawl into a clean, searchable collection.\n\n\
        `indexer build` reads pages (a folder of .html files, WARC files, or JSON Lines), \
        removes template noise from each page (DocView cleaning), drops exact and near \
        replicas, writes one DocView record per page (title, keywords, abstract, topic \
        content, relevant links) and builds two Tantivy indexes: a small, precise abstract \
        index and a full-text index. `indexer search` queries them.\n\n\
        Quick start:\n  indexer build eval/sample-corpus/pages --dir /tmp/sample\n  \
        indexer search \"sodium battery\" --dir /tmp/sample\n\n\
        Exit codes: 0 success, 1 nothing found, 2 error.",
    after_help = "Run `indexer <COMMAND> --help` for the options of each command."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the DocView records and both indexes from pages, WARC or JSON Lines.
    #[command(long_about = "Build the DocView records and both indexes.\n\n\
        INPUT is a folder of pages (.html/.htm, also .gz; recursive; an optional urls.tsv \
        manifest of <path><TAB><url> gives their URLs), a crawl file (WARC 0.17-1.1 or ARC, \
        plain or gzipped: .warc, .warc.gz, .arc, .arc.gz; URL from WARC-Target-URI, charset \
        from the HTTP header), or a JSON Lines file of {\"url\": …, \"html\": …}. Give several to index them together, or \
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
        build goes on.")]
    Build(BuildArgs),
    /// Write the topic content of each page as a text file (no indexes).
    #[command(long_about = "Write the topic content of each page as a text file, with the \
        same cleaner a build uses, and nothing else: no indexes, no replica removal.\n\n\
        Pages from a folder are written as OUT/<stem>.txt after their file (page.html -> \
        page.txt; -2, -3 ... when two files share a stem); pages from WARC and JSON Lines \
        files are numbered in input order (000001.txt). OUT/manifest.tsv maps each file to \
        its URL, page type, origin and headline. The text is the body: the headline (the \
        heading matching <title>) is left out unless --with-headline is given. A page with no \
        topic content gets an empty file; a record that cannot be read is reported and \
        skipped.\n\n\
        Example: indexer extract ../shared/data/zh-wced/html --out /tmp/zh --cleaner docview")]
    Extract(ExtractArgs),
    /// Search a build (BM25) and print ranked results.
    #[command(long_about = "Search a build and print ranked results: rank, score, URL, title \
        and a snippet of the abstract.\n\n\
        Any text is a valid query: it is segmented like the pages (Chinese by jieba), \
        stemmed, and matched as a bag of words with BM25. --index abstract searches titles, \
        keywords and abstracts (precise); fulltext searches all visible text of the raw \
        pages (the paper's baseline); tiered answers from the abstract index first and fills \
        the rest from the full-text index.\n\n\
        Shards: give --dir several times to search shard builds as one collection. Every \
        shard is scored with the document counts, document frequencies and field lengths \
        summed over all shards, so the ranking is that of one build over all their pages \
        (run `indexer replicas merge` first to drop replicas across shards). Each result \
        names its shard.\n\n\
        Example: indexer search \"sodium battery\" --dir shards/a --dir shards/b\n\n\
        Exit code 1 when nothing matched.")]
    Search(SearchArgs),
    /// Evaluate: write TREC runs, score them like trec_eval.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// Content classification: train a model, evaluate on the public sets.
    #[command(subcommand)]
    Classify(ClassifyCommand),
    /// Export a build's index documents as JSON Lines (for Quickwit).
    #[command(long_about = "Export the documents of one index of a build as JSON Lines, one \
        object per page with the fields of index-schema/<index>.json under the same names: for \
        ingestion by Quickwit with the index configs index-schema/quickwit/<index>.json.\n\n\
        The full-text index's body (the raw pages' visible text) is not kept by a build: give \
        the build's inputs with --input to export it; they are read again and each page the \
        build kept is written with its visible text.\n\n\
        Example:\n  indexer export --dir /tmp/sample --format jsonl > abstract.jsonl\n  \
        quickwit index create --index-config index-schema/quickwit/abstract.json\n  \
        quickwit index ingest --index docview-abstract --input-path abstract.jsonl")]
    Export(ExportArgs),
    /// Shard builds: remove the replicas between them.
    #[command(subcommand)]
    Replicas(ReplicasCommand),
    /// Learn the stop-word list a build of the inputs would learn, for shard builds to share.
    #[command(long_about = "Learn the stop-word list a build of INPUT would learn (§3.2: terms \
        in more than stop_words.max_document_frequency of the first stop_words.sample_pages \
        pages, besides the generic lists) and print it, one a line.\n\n\
        Shard builds of one collection each see only their own pages, so each would learn its \
        own list and their abstracts, keywords and index terms would differ from one build's. \
        Learn the list once over all the inputs, in build order, and give it to every shard \
        with `indexer build --stop-words FILE`. Only the first pages are read.\n\n\
        Example:\n  indexer stop-words crawl-00.warc.gz crawl-01.warc.gz -o stop-words.txt\n  \
        indexer build crawl-01.warc.gz --shard --stop-words stop-words.txt --dir shard-01")]
    StopWords(StopWordsArgs),
    /// Learn the site templates a build of the inputs would learn, for shard builds to share.
    #[command(long_about = "Learn the site templates a build of INPUT would learn and write \
        them (one line per host: the host, then the hashes of its template blocks).\n\n\
        A block (a container with text of its own: its tag, classes and text) found on at least \
        cleaning.site_template_share of the first cleaning.site_sample_pages pages of a host is \
        that host's template, and the default cleaner treats it as noise on every page of the \
        host. Hosts with fewer than cleaning.site_min_pages pages get none (0 turns site \
        evidence off).\n\n\
        Shard builds of one collection each see only their own pages. Learn the templates once \
        over all the inputs, in build order, and give them to every shard with `indexer build \
        --site-templates FILE`. Every input is read; only the sampled pages are parsed.\n\n\
        Example:\n  indexer site-templates crawl-00.warc.gz crawl-01.warc.gz -o site-templates.tsv\n  \
        indexer build crawl-01.warc.gz --shard --site-templates site-templates.tsv --dir shard-01")]
    SiteTemplates(SiteTemplatesArgs),
    /// Show what the pipeline makes of one page: tag tree, topic content, DocView record.
    Inspect(InspectArgs),
    /// Print the default configuration as TOML (every parameter, documented in the code).
    Config,
    /// Measure throughput per stage, whole builds against a floor reference, and memory.
    #[command(long_about = "Measure the pipeline on your own data, in one run:\n\n\
        - each stage (read, decode, parse, tag tree, clean, DocView, classify, fingerprint, \
        replica check, index) on one thread, as pages/s and MB/s of HTML;\n\
        - the whole `indexer build` on each thread count of --threads, each in its own \
        process (its own peak RSS), pinned to as many CPUs with taskset;\n\
        - the floor reference on the same pages and thread counts: html5ever parsing, visible \
        text, Tantivy indexing of that text in one field with our analyzer — the least any \
        such indexer must do — three times: parsed into an RcDom, into the arena DOM the build \
        parses into, and with html5ever's tokenizer alone (no tree), the lowest floor; and the \
        ratios build / each floor and 2 threads / 1 thread;\n\
        - with --baseline EXECUTABLE, whole builds of another indexer (a previous version) \
        beside ours, and the ratio;\n\
        - with --scale N, builds of the input written N times under other URLs (exact copies, \
        and distinct copies with suffixed words) for memory against corpus size.\n\n\
        Writes report.md, report.json and throughput.svg to --report DIR.\n\n\
        Example:\n  indexer bench ../shared/data/ir-web/cacm/pages.warc.gz --threads 1,2 --scale 10 \
        --report eval/reports/performance/cacm")]
    Bench(BenchArgs),
}

#[derive(Args)]
struct BenchArgs {
    /// Folders of pages, WARC files, or JSON Lines files (as for `indexer build`).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Thread counts of the whole builds and floor runs.
    #[arg(long, value_name = "N,N…", value_delimiter = ',', default_value = "1,2")]
    threads: Vec<usize>,
    /// Only the per-stage timings on one thread (fast; no child builds).
    #[arg(long)]
    stages: bool,
    /// At most this many pages for the per-stage timings (they are held in memory).
    #[arg(long, value_name = "N", default_value_t = 5000)]
    stage_pages: usize,
    /// Also build the input repeated N times under other URLs, for peak RSS against size.
    #[arg(long, value_name = "N")]
    scale: Option<usize>,
    /// Where report.md, report.json and throughput.svg go.
    #[arg(long, value_name = "DIR", default_value = "eval/reports/performance")]
    report: PathBuf,
    /// A TOML file overriding any parameter (see `indexer config`).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Internal: run only the floor reference in this process and print it as JSON.
    #[arg(long, hide = true)]
    floor_run: bool,
    /// Also run whole builds of this other `indexer` executable (e.g. the previous version),
    /// on the same pages and thread counts, for a before/after in one run.
    #[arg(long, value_name = "EXECUTABLE")]
    baseline: Option<PathBuf>,
    /// Internal: the floor run's parse, `rcdom`, `arena` or `tokenizer`.
    #[arg(long, hide = true, value_name = "KIND", default_value = "rcdom")]
    floor_kind: String,
    /// Internal: the folder of the floor run's index.
    #[arg(long, hide = true, value_name = "DIR")]
    work_dir: Option<PathBuf>,
}

#[derive(Args)]
struct DirArg {
    /// The build folder.
    #[arg(long, default_value = DEFAULT_DIR, value_name = "DIR")]
    dir: PathBuf,
}

#[derive(Args)]
struct BuildArgs {
    /// Folders of pages, WARC files, or JSON Lines files.
    #[arg(required_unless_present = "input_list", value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// A file naming more inputs, one path a line (`#` starts a comment; relative paths are
    /// relative to the file's folder).
    #[arg(long, value_name = "FILE")]
    input_list: Option<PathBuf>,
    #[command(flatten)]
    dir: DirArg,
    /// Add the pages to the build published in DIR (replica checks against its pages)
    /// instead of replacing it; a plain build when DIR has none.
    #[arg(long)]
    append: bool,
    /// A TOML file overriding any parameter (see `indexer config`).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The page cleaner.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(CleanerKind::NAMES))]
    cleaner: Option<String>,
    /// A classifier model file (`indexer classify train`) for the content classification
    /// code of every record [default: the built-in model, the paper's 12 categories]; `off`
    /// leaves records unclassified.
    #[arg(long, value_name = "MODEL")]
    classifier: Option<String>,
    /// The near-replica detector (`off`: exact copies only). See README.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(indexer::replicas::DetectorKind::NAMES))]
    replicas: Option<String>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// What a WARC or ARC record may be to be indexed, comma-separated [default: html,xhtml;
    /// input.accept]. `text` adds plain text pages; robots.txt, logs and dns: records are
    /// never pages.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMATS")]
    accept: Vec<indexer::input::PageFormat>,
    /// Use this stop-word list (one a line, as `indexer stop-words` writes it) instead of
    /// learning one from the inputs: shards of one collection share one list.
    #[arg(long, value_name = "FILE", conflicts_with = "append")]
    stop_words: Option<PathBuf>,
    /// Use these site templates (as `indexer site-templates` writes them) instead of learning
    /// them from the inputs: shards of one collection share them.
    #[arg(long, value_name = "FILE", conflicts_with = "append")]
    site_templates: Option<PathBuf>,
    /// Build a shard of a larger collection: remove no replica, and write every page's
    /// replica signatures (signatures.jsonl, shard.json) for a global join such as the Spark
    /// job in spark/, whose choices `indexer replicas apply` removes.
    #[arg(long, conflicts_with = "append")]
    shard: bool,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// No progress bar and no per-page messages (the summary is still printed).
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
struct SiteTemplatesArgs {
    /// Folders of pages, WARC files, or JSON Lines files, in the order a build takes them.
    #[arg(required_unless_present = "input_list", value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// A file naming more inputs, one path a line (as for `indexer build`).
    #[arg(long, value_name = "FILE")]
    input_list: Option<PathBuf>,
    /// A TOML file overriding any parameter (see `indexer config`): [cleaning] site_* set
    /// the sample and the share.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Write the templates here instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Args)]
struct StopWordsArgs {
    /// Folders of pages, WARC files, or JSON Lines files, in the order a build takes them.
    #[arg(required_unless_present = "input_list", value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// A file naming more inputs, one path a line (as for `indexer build`).
    #[arg(long, value_name = "FILE")]
    input_list: Option<PathBuf>,
    /// A TOML file overriding any parameter (see `indexer config`): [stop_words] sets the
    /// sample.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Write the list here instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Args)]
struct ExtractArgs {
    /// Folders of pages, WARC files, or JSON Lines files.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// The folder the text files go to (created if missing; files in it are overwritten).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// A TOML file overriding any parameter (see `indexer config`).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The page cleaner.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(CleanerKind::NAMES))]
    cleaner: Option<String>,
    /// Keep the headline as the text's first line. By default the text is the body, as
    /// article extractors write it, and the headline goes to manifest.tsv's `headline`
    /// column (a build indexes it with the topic content either way).
    #[arg(long)]
    with_headline: bool,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// No per-page messages (the summary is still printed).
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
struct SearchArgs {
    /// The query.
    query: String,
    /// The build folder; give --dir several times to search shard builds together, scored
    /// with their summed collection statistics and merged by score.
    #[arg(long, default_value = DEFAULT_DIR, value_name = "DIR")]
    dir: Vec<PathBuf>,
    /// Which index answers: tiered fuses the abstract and the full-text index's hits (the
    /// best of the three in the held-out evaluation, README "Search settings").
    #[arg(long, default_value = "tiered", value_parser = clap::builder::PossibleValuesParser::new(IndexChoice::NAMES))]
    index: String,
    /// Number of results.
    #[arg(short = 'n', long, default_value_t = 10)]
    limit: usize,
    /// Only pages of this content category (a code of the build's classifier, e.g. 05).
    #[arg(long, value_name = "CODE")]
    category: Option<String>,
    #[command(flatten)]
    tuning: SearchTuning,
    /// One JSON object per result (JSON Lines).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct SearchTuning {
    /// Expand the query by pseudo-relevance feedback (RM3): the words of the top pages'
    /// DocView records (title, keywords, abstract) join the query, weighted by a relevance
    /// model; the number of pages and terms and the original query's weight are settings.
    #[arg(long)]
    feedback: bool,
    /// Search settings (BM25 k1 and b per index, field boosts, the tiered search's fusion,
    /// feedback) from this file instead of the shipped ones (src/search/settings.toml, which
    /// says how each was chosen; `indexer eval tune` chooses them).
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
}

impl SearchTuning {
    fn settings(&self) -> Result<Option<SearchSettings>> {
        Ok(self.settings.as_deref().map(SearchSettings::from_file).transpose()?)
    }
}

#[derive(Args)]
struct ExportArgs {
    #[command(flatten)]
    dir: DirArg,
    /// The output format.
    #[arg(long, default_value = "jsonl", value_parser = clap::builder::PossibleValuesParser::new(["jsonl"]))]
    format: String,
    /// Which index's documents.
    #[arg(long, default_value = "abstract", value_parser = clap::builder::PossibleValuesParser::new(["abstract", "fulltext"]))]
    index: String,
    /// The build's inputs (needed for --index fulltext); repeatable.
    #[arg(long, value_name = "INPUT")]
    input: Vec<PathBuf>,
    /// Write to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Subcommand)]
enum ReplicasCommand {
    /// Join replicas across shard builds; later copies are removed from their shards.
    #[command(long_about = "Join replicas across shard builds (built separately with `indexer \
        build`, for example one per machine). Every DocView record is looked up among the pages \
        of the shards before it: the same URL, the same exact-copy MD5 (title and topic \
        content), or the same 16-byte keyword fingerprint (§5, topic pages). The first shard \
        given keeps a page; a later copy is deleted from both indexes of its shard and from its \
        docview.jsonl, and listed in its replicas-global.tsv (removed<TAB>kept<TAB>url|exact|\
        near<TAB>kept shard). A changed shard gets a new build, published atomically once every \
        changed shard is ready: a merge that fails leaves every shard searchable as it was.\n\n\
        Prints one line per removed page (removed, kept, kind, removed shard, kept shard), or \
        JSON Lines with --json.\n\n\
        Example:\n  indexer replicas merge --dir shards/a --dir shards/b\n  \
        indexer search \"sodium battery\" --dir shards/a --dir shards/b")]
    Merge(ReplicasMergeArgs),
    /// Remove the pages a global replica join chose from one shard build.
    #[command(long_about = "Remove from a shard build (made with `indexer build --shard`) the \
        pages a global replica join chose, such as the Spark job in spark/. LIST has one line \
        per page: removed URL<TAB>kept URL<TAB>url|exact|near<TAB>kept shard. The pages are \
        deleted from both indexes and docview.jsonl, the token totals recounted, the list \
        appended to the shard's replicas-global.tsv, and the new build published atomically.\n\n\
        Safe to repeat: pages the shard no longer holds are reported as already removed, and \
        a list with nothing left to remove changes nothing.\n\n\
        Example: indexer replicas apply --dir out/shard-00001 --list out/removals/shard-00001.tsv")]
    Apply(ReplicasApplyArgs),
}

#[derive(Args)]
struct ReplicasApplyArgs {
    /// The shard's build folder.
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// The pages to remove: removed<TAB>kept<TAB>url|exact|near<TAB>kept shard.
    #[arg(long, value_name = "FILE")]
    list: PathBuf,
    /// Print the outcome as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct ReplicasMergeArgs {
    /// A shard's build folder; give one per shard, earlier shards keep their pages.
    #[arg(long, required = true, value_name = "DIR")]
    dir: Vec<PathBuf>,
    /// List the replicas without removing them.
    #[arg(long)]
    dry_run: bool,
    /// One JSON object per removed page (JSON Lines), then one per shard.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum EvalCommand {
    /// Run every topic of a topic file and write a TREC run file.
    Run(EvalRunArgs),
    /// Score a run against relevance judgments, like trec_eval.
    Score(EvalScoreArgs),
    /// Everything §7.3 measures for one collection, written as a report (markdown, JSON, SVG).
    #[command(long_about = "Everything §7.3 of the DocView paper measures, for one collection: \
        P@10 and the other trec_eval measures of the abstract, full-text and tiered searches, \
        the index statistics of Table 3, and the disk access of Figure 6. Writes report.md, \
        report.json, effectiveness.svg and disk-access.svg.\n\n\
        With --config eval/<collection>.toml the topics, judgments, report folder and crawl \
        come from the file, and the crawl is built first when the build folder has no build \
        (default folder: indexer-data/eval-<name>).\n\n\
        Example: indexer eval report --config eval/cacm.toml")]
    Report(EvalReportArgs),
    /// Choose the search settings by leave-one-collection-out over several collections.
    #[command(long_about = "Chooses the search settings (BM25 k1 and b and field boosts of each \
        index, the tiered search's fusion, feedback) by leave-one-collection-out: each collection \
        in turn is held out, every value is chosen on the others (the mean of P@10, MAP and \
        nDCG@10 over them) and scored on the held-out one. Then the values are chosen on all \
        the collections together: the settings to ship. Writes report.md and report.json (the \
        held-out table) and, with --write-settings, the chosen settings file.\n\n\
        Each --config is an evaluation config (eval/<collection>.toml); its build folder is \
        indexer-data/eval-<name>, built first when it has no build. Takes a few minutes.\n\n\
        Example: indexer eval tune --config eval/cacm.toml --config eval/cisi.toml \
        --config eval/medline.toml --config eval/adi.toml --write-settings src/search/settings.toml")]
    Tune(EvalTuneArgs),
    /// Disk access of single-term queries on both indexes, in groups (Figure 6).
    Disk(EvalDiskArgs),
    /// Sum of terms and size of both indexes (Table 3).
    Stats(EvalStatsArgs),
    /// A cleaner's topic content scored against human gold text (token-bag P, R, F1).
    #[command(long_about = "Scores a cleaner's topic content against human gold text: pages of \
        --html with a gold file of the same stem in --gold. Tokens are case-folded \\w runs, \
        each CJK ideograph or kana a token of its own; P = tp/|output| averaged over pages \
        with output, R = tp/|gold| averaged over pages with gold, F1 from the two. Pages per \
        second are measured on one thread.")]
    Clean(EvalCleanArgs),
    /// Train the `mountain` cleaner's ridge classifier on the training half of the training sets.
    #[command(long_about = "Trains the ridge classifier of the `mountain` cleaner (the Mountain \
        Model of primary content) and writes it as JSON.\n\n\
        Data: for each --set, <DATA>/<set>/html and <DATA>/<set>/gold (as for `eval clean`). \
        Split: the pages of a set sorted by file stem; those at even positions (0, 2, 4 ...) \
        train, the others are held out. The model lists its training pages, and \
        `indexer eval clean --cleaner mountain` leaves them out (it says how many).\n\n\
        Each ridge of a training page is an example: its four features (height, width, ridge \
        position, cell position) and a label, primary when at least mountain.label_min_gold_share \
        of its tokens are in the gold text. The learner is a logistic regression fitted by \
        gradient descent: deterministic, a few seconds. The cell and ridge parameters \
        ([mountain] of --config) are recorded in the model; train again after changing them.\n\n\
        To use a model: [mountain] model = \"path\" in a config, or write it over the built-in one \
        and rebuild.\n\n\
        Example: indexer eval train-mountain --data ../shared/data/clean-train --out src/clean/mountain_model/ridge-model.json")]
    TrainMountain(EvalTrainMountainArgs),
    /// Choose the default cleaner's settings on the training sets, with cross-validated F1.
    #[command(long_about = "Chooses the settings of the default cleaner ([cleaning] of the \
        configuration) on the training sets of the cleaning configuration ([[training_sets]] of \
        eval/cleaning.toml: ../shared/data/clean-train), never on its test sets.\n\n\
        Folds: --folds folds by site (the page's host from meta.tsv). Search: coordinate descent \
        from the current settings over a grid per setting, at most --rounds rounds; objective the \
        mean of the training sets' F1 (the metric of `eval clean`). Each fold's pages are scored \
        with the setting chosen on the other folds: that cross-validated F1 is the estimate to \
        trust. The setting chosen on all pages is printed (its F1 is in-sample); to adopt it, \
        write it into [cleaning] or into CleaningConfig's defaults.\n\n\
        Writes report.md and report.json (per-fold settings, each setting's curve) to --report, \
        by default the config's training_report folder, which `eval clean --all` reads for its \
        cross-validated row. Every page is parsed once; runs on every core.\n\n\
        Example: indexer eval tune-cleaner --config eval/cleaning.toml")]
    TuneCleaner(EvalTuneCleanerArgs),
    /// Replica detection: hit and error rates like §7.2, Table 2, and judged pairs.
    #[command(long_about = "Replica detection measured like §7.2 of the DocView paper. INPUT is a \
        replica test set (base pages, a near replica and a non-replica of each) with --truth \
        (url<TAB>set<TAB>base_url, set = base|near|non). Reports the hit rate (near replicas \
        grouped with their base) and error rate (non-replicas grouped with theirs) of every \
        detector over the topic content and over the raw page text; --sweep adds the paper's \
        Table 2 (Percentage 10–100% × Interval 1–10) with heatmaps; --pairs adds precision, \
        recall and false-positive rate on human-judged pairs (JSON Lines with label_raw, \
        src_doc, target_doc).\n\nExample: indexer eval replicas --config eval/replicas.toml --sweep")]
    Replicas(EvalReplicasArgs),
    /// The language identifier against the languages pages declare: accuracy and speed.
    #[command(long_about = "Measures the language identifier. Every page of the inputs (folders \
        of .html or .html.gz pages, WARC or ARC files, JSON Lines) is cleaned as a build cleans \
        it; a page whose <html lang> or Content-Language names a language is identified from its \
        text alone (the topic content, then the visible text), as a build does before it weighs \
        the declaration, and scored against the declaration (its primary subtag: en-US is en). \
        Declarations are not gold (templates declare a default), so the accuracy is a floor. \
        Pages without a declaration are counted, not scored. Speed: pages identified per second \
        on one thread, and the identification's time as a share of the time to parse and clean \
        the same pages.\n\nExample: indexer eval languages ../shared/data/real-warc ../shared/data/scrapinghub-aeb/html")]
    Languages(EvalLanguagesArgs),
}

#[derive(Args)]
struct EvalCleanArgs {
    /// Folder of pages (one gold set; or use --config).
    #[arg(long, value_name = "DIR", requires = "gold", conflicts_with = "config")]
    html: Option<PathBuf>,
    /// Folder of gold texts (<stem>.txt).
    #[arg(long, value_name = "DIR", requires = "html")]
    gold: Option<PathBuf>,
    /// The gold sets and reference figures of the cleaning table (eval/cleaning.toml); with
    /// --all, writes the report (markdown, JSON, chart) to the config's `report` folder.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Only these sets of the config (comma-separated names).
    #[arg(long, value_name = "NAMES", value_delimiter = ',', requires = "config")]
    sets: Vec<String>,
    /// At most this many pages per set (the first by file name): a short run.
    #[arg(long, value_name = "N")]
    max_pages: Option<usize>,
    /// Where the report goes [default: the config's `report`, for the full table only: --all
    /// on every set and page, nothing held out].
    #[arg(long, value_name = "DIR", requires = "config")]
    report: Option<PathBuf>,
    /// The cleaner to score.
    #[arg(long, default_value = "docview", value_parser = clap::builder::PossibleValuesParser::new(CleanerKind::NAMES))]
    cleaner: String,
    /// Score every cleaner.
    #[arg(long)]
    all: bool,
    /// Score the text with its headline as the first line (`extract --with-headline`); by
    /// default the headline is left out, as `extract` writes it. With --all and --config, the
    /// table also has a row for docview with the headline placed the other way.
    #[arg(long)]
    with_headline: bool,
    /// Also leave out the pages this cleaner's model was trained on (compare cleaners on the
    /// same held-out pages, e.g. --cleaner docview --held-out-of mountain).
    #[arg(long, value_name = "CLEANER", value_parser = clap::builder::PossibleValuesParser::new(CleanerKind::NAMES))]
    held_out_of: Option<String>,
    /// A TOML file overriding any parameter (see `indexer config`) for every cleaner scored:
    /// how a setting is tried on the training sets.
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
    /// One JSON object per cleaner and set (JSON Lines).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct EvalTuneCleanerArgs {
    /// The cleaning configuration naming the training sets.
    #[arg(long, value_name = "FILE", default_value = "eval/cleaning.toml")]
    config: PathBuf,
    /// Number of folds (by site).
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = clap::value_parser!(u16).range(2..))]
    folds: u16,
    /// Rounds of coordinate descent at most.
    #[arg(long, value_name = "N", default_value_t = 2)]
    rounds: usize,
    /// At most this many pages per training set (the first by file name): a short run.
    #[arg(long, value_name = "N")]
    max_pages: Option<usize>,
    /// Where the report goes [default: the folder of the config's training_report].
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Configuration whose [cleaning] settings the search starts from [default: the built-in
    /// defaults].
    #[arg(long, value_name = "FILE")]
    cleaner_config: Option<PathBuf>,
}

#[derive(Args)]
struct EvalTrainMountainArgs {
    /// Folder holding the gold sets (<DATA>/<set>/html, <DATA>/<set>/gold).
    #[arg(long, value_name = "DIR")]
    data: PathBuf,
    /// Where to write the model (JSON).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// A set to train on (repeat for several); default: dragnet-train, wcxb-train, page-signal
    /// (the cleaning training sets; never train on the test sets of `eval clean`).
    #[arg(long = "set", value_name = "NAME")]
    sets: Vec<String>,
    /// Configuration whose [mountain] section gives the cell, ridge and training parameters.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

#[derive(Args)]
struct EvalReplicasArgs {
    /// The replica test set (a WARC file or a folder of pages).
    input: Option<PathBuf>,
    /// The truth file (url, set, base_url).
    #[arg(long, value_name = "FILE")]
    truth: Option<PathBuf>,
    /// Judged pairs (webis copycat JSON Lines).
    #[arg(long, value_name = "FILE")]
    pairs: Option<PathBuf>,
    /// An evaluation config (eval/replicas.toml) giving all of the above and --report.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Where to write report.md, report.json and the heatmap.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Reproduce Table 2 (Percentage × Interval) for the keyword fingerprint.
    #[arg(long)]
    sweep: bool,
    /// Replica settings to measure: a build configuration (TOML, as for `indexer build
    /// --config`) whose [replicas] section overrides the defaults.
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct EvalReportArgs {
    /// An evaluation config (eval/<collection>.toml).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The build folder [default: indexer-data/eval-<name> with --config, else indexer-data].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    topics: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    qrels: Option<PathBuf>,
    /// The folder the report is written to.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// The collection's name in the report.
    #[arg(long)]
    name: Option<String>,
    /// Results per topic in the runs.
    #[arg(short = 'n', long, default_value_t = 1000)]
    limit: usize,
    #[command(flatten)]
    disk: DiskOptions,
    /// Build again even if the folder has a build.
    #[arg(long)]
    rebuild: bool,
}

#[derive(Args)]
struct EvalTuneArgs {
    /// Evaluation configs (eval/<collection>.toml), at least two.
    #[arg(long = "config", value_name = "FILE", required = true)]
    configs: Vec<PathBuf>,
    /// Results per topic in the runs.
    #[arg(short = 'n', long, default_value_t = 1000)]
    limit: usize,
    /// The settings before tuning [default: the shipped ones].
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
    /// Where the report goes.
    #[arg(long, value_name = "DIR", default_value = "eval/reports/tuning")]
    report: PathBuf,
    /// Write the settings chosen on all collections to this file (src/search/settings.toml
    /// ships them).
    #[arg(long, value_name = "FILE")]
    write_settings: Option<PathBuf>,
}

#[derive(Args)]
struct DiskOptions {
    /// A query log: one query term per line (default: sample from the vocabulary).
    #[arg(long, value_name = "FILE")]
    terms: Option<PathBuf>,
    /// How many terms to sample without --terms (the paper used 6,000).
    #[arg(long, default_value_t = 6000)]
    queries: usize,
    /// Queries per group.
    #[arg(long, default_value_t = 100)]
    group: usize,
    /// Seed of the term sample.
    #[arg(long, default_value_t = 2004)]
    seed: u64,
}

#[derive(Args)]
struct EvalDiskArgs {
    #[command(flatten)]
    dir: DirArg,
    #[command(flatten)]
    disk: DiskOptions,
    /// Also measure these topics' queries, as one group.
    #[arg(long, value_name = "FILE")]
    topics: Option<PathBuf>,
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct EvalLanguagesArgs {
    /// Folders of pages, WARC or ARC files, JSON Lines files.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// The JSON figures instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct EvalStatsArgs {
    #[command(flatten)]
    dir: DirArg,
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct EvalRunArgs {
    #[command(flatten)]
    dir: DirArg,
    /// Topics: `qid<TAB>query` lines or TREC <top> blocks.
    #[arg(long, value_name = "FILE")]
    topics: PathBuf,
    /// Which search: an index, or tiered (both indexes fused).
    #[arg(long, default_value = "tiered", value_parser = clap::builder::PossibleValuesParser::new(IndexChoice::NAMES))]
    index: String,
    #[command(flatten)]
    tuning: SearchTuning,
    /// Results per topic.
    #[arg(short = 'n', long, default_value_t = 1000)]
    limit: usize,
    /// Where to write the run (`qid Q0 docno rank score tag`).
    #[arg(long, value_name = "FILE")]
    run: PathBuf,
}

#[derive(Args)]
struct EvalScoreArgs {
    /// Relevance judgments (`qid iter docno rel`).
    #[arg(long, value_name = "FILE")]
    qrels: PathBuf,
    /// A TREC run file.
    #[arg(long, value_name = "FILE")]
    run: PathBuf,
    /// Print every topic's measures too (trec_eval -q).
    #[arg(short = 'q')]
    per_topic: bool,
    /// Average over every judged topic, scoring topics missing from the run as 0 (trec_eval -c).
    #[arg(short = 'c', long)]
    complete: bool,
    /// Print JSON instead of trec_eval's text format.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum ClassifyCommand {
    /// Train a classifier on labelled texts and pages and write the model file.
    #[command(long_about = "Train a classifier and write the model file (for `indexer build \
        --classifier MODEL`).\n\n\
        --labels is a file of url-or-path<TAB>code lines (a URL names a page of the crawl \
        given with --pages; a path a .txt or .html file relative to the labels file) or a \
        folder with one sub-folder per code. Pages are cleaned first: the model learns from \
        their DocView topic content, as the build classifies it. Give --labels several times \
        to combine sets.\n\n\
        The default model is retrained with:\n  indexer classify train --labels \
        eval/classify/sample-labels.tsv --labels eval/classify/extra --labels \
        eval/classify/wordnet --pages eval/sample-corpus/pages --config \
        eval/classify/default-model.toml --out src/classify/data/default-model.bin")]
    Train(ClassifyTrainArgs),
    /// Cross-validated accuracy of a training recipe, and the confidence threshold it
    /// supports.
    #[command(long_about = "Cross-validate a training recipe on its own labelled set: the \
        texts are dealt into folds by group (a page's site, since the pages of one site share \
        template and topics; a text file alone), each fold is classified by a model trained \
        on the others with the same --config, and the held-out predictions are scored.\n\n\
        Prints the accuracy and macro-F1, then for each confidence threshold how many codes \
        a build would keep and how many of them are right, and the threshold that maximises \
        right minus wrong codes (for `classify.min_confidence`). Takes the options of \
        `classify train` except --out.")]
    Cv(ClassifyCvArgs),
    /// Accuracy and macro-F1 on THUCNews titles (dev → test) and AG News (5-fold CV).
    Eval(ClassifyEvalArgs),
    /// Classify a text: every category's confidence, best first.
    Text(ClassifyTextArgs),
}

#[derive(Args)]
struct ClassifyTextArgs {
    /// The text (`-`: read it from stdin).
    text: String,
    /// A model file [default: the built-in model].
    #[arg(long, value_name = "MODEL")]
    classifier: Option<PathBuf>,
}

#[derive(Args)]
struct ClassifyTrainArgs {
    /// A labels file (url-or-path<TAB>code lines) or a folder per class; repeatable.
    #[arg(long, required = true, value_name = "FILE|DIR")]
    labels: Vec<PathBuf>,
    /// The crawl holding the labelled URLs (folder with urls.tsv, WARC, JSON Lines); repeatable.
    #[arg(long, value_name = "INPUT")]
    pages: Vec<PathBuf>,
    /// The category scheme (code<TAB>name lines) [default: the paper's Table 1, 01–12].
    #[arg(long, value_name = "FILE")]
    scheme: Option<PathBuf>,
    /// A TOML file overriding parameters ([classify] section; see `indexer config`).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Where to write the model.
    #[arg(long, value_name = "MODEL")]
    out: PathBuf,
}

#[derive(Args)]
struct ClassifyCvArgs {
    /// A labels file (url-or-path<TAB>code lines) or a folder per class; repeatable.
    #[arg(long, required = true, value_name = "FILE|DIR")]
    labels: Vec<PathBuf>,
    /// The crawl holding the labelled URLs (folder with urls.tsv, WARC, JSON Lines); repeatable.
    #[arg(long, value_name = "INPUT")]
    pages: Vec<PathBuf>,
    /// The category scheme (code<TAB>name lines) [default: the paper's Table 1, 01–12].
    #[arg(long, value_name = "FILE")]
    scheme: Option<PathBuf>,
    /// A TOML file overriding parameters ([classify] section; see `indexer config`).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Number of folds.
    #[arg(long, default_value_t = 5, value_name = "K")]
    folds: usize,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct ClassifyEvalArgs {
    /// The folder of the shared classification sets.
    #[arg(long, default_value = "../shared/data/classify", value_name = "DIR")]
    data: PathBuf,
    /// A TOML file overriding parameters ([classify] section).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Only N documents of each file, evenly spaced (a quick run).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Print one JSON object per set (JSON Lines).
    #[arg(long)]
    json: bool,
    /// The tuning protocol: 5-fold cross-validation inside THUCNews dev.txt only (test.txt
    /// is not read), for choosing parameters without looking at the test split.
    #[arg(long)]
    tuning: bool,
}

#[derive(Args)]
struct InspectArgs {
    /// An HTML file.
    file: PathBuf,
    /// The page's URL (resolves its links).
    #[arg(long)]
    url: Option<String>,
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(CleanerKind::NAMES))]
    cleaner: Option<String>,
    /// Print the tag tree outline too.
    #[arg(long)]
    tree: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader went away (`| head`): stop quietly, as Unix tools do.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("indexer: {}", one_line(&error));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes on one line, `a: b: c`; a cause that the message before it
/// already ends with (our typed errors print their source) is not repeated.
fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Build(args) => build_command(args),
        Command::Extract(args) => extract_command(args),
        Command::Search(args) => search_command(args),
        Command::Eval(EvalCommand::Run(args)) => eval_run_command(args),
        Command::Eval(EvalCommand::Score(args)) => eval_score_command(args),
        Command::Eval(EvalCommand::Report(args)) => eval_report_command(args),
        Command::Eval(EvalCommand::Tune(args)) => eval_tune_command(args),
        Command::Eval(EvalCommand::Disk(args)) => eval_disk_command(args),
        Command::Eval(EvalCommand::Stats(args)) => eval_stats_command(args),
        Command::Eval(EvalCommand::Languages(args)) => eval_languages_command(args),
        Command::Eval(EvalCommand::Replicas(args)) => eval_replicas_command(args),
        Command::Eval(EvalCommand::Clean(args)) => eval_clean_command(args),
        Command::Eval(EvalCommand::TrainMountain(args)) => eval_train_mountain_command(args),
        Command::Eval(EvalCommand::TuneCleaner(args)) => eval_tune_cleaner_command(args),
        Command::Classify(ClassifyCommand::Train(args)) => classify_train_command(args),
        Command::Classify(ClassifyCommand::Cv(args)) => classify_cv_command(args),
        Command::Classify(ClassifyCommand::Eval(args)) => classify_eval_command(args),
        Command::Classify(ClassifyCommand::Text(args)) => classify_text_command(args),
        Command::Replicas(ReplicasCommand::Merge(args)) => replicas_merge_command(args),
        Command::Replicas(ReplicasCommand::Apply(args)) => replicas_apply_command(args),
        Command::StopWords(args) => stop_words_command(args),
        Command::SiteTemplates(args) => site_templates_command(args),
        Command::Export(args) => export_command(args),
        Command::Inspect(args) => inspect_command(args),
        Command::Config => {
            out!("{}", Config::default().to_toml());
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench(args) => bench_command(args),
    }
}

fn load_config(path: Option<&Path>) -> Result<Config> {
    Ok(match path {
        Some(path) => Config::from_toml_file(path)?,
        None => Config::default(),
    })
}

/// Per-page messages are capped per reason so a bad crawl does not flood the terminal; all of
/// them are in skipped.tsv.
const MESSAGES_PER_REASON: usize = 10;

struct CliObserver {
    bar: Option<ProgressBar>,
    quiet: bool,
    shown: Mutex<HashMap<SkipReason, usize>>,
}

impl CliObserver {
    fn say(&self, message: &str) {
        match &self.bar {
            Some(bar) => bar.println(message),
            None => eprintln!("{message}"),
        }
    }
}

impl BuildObserver for CliObserver {
    fn skipped(&self, skipped: &Skipped) {
        if self.quiet {
            return;
        }
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        let count = shown.entry(skipped.reason).or_default();
        *count += 1;
        if *count <= MESSAGES_PER_REASON {
            self.say(&format!("indexer: {skipped}"));
        } else if *count == MESSAGES_PER_REASON + 1 {
            self.say(&format!(
                "indexer: more pages skipped as {}; all are listed in skipped.tsv of the build",
                skipped.reason
            ));
        }
    }

    fn progress(&self, bytes_read: u64, total_bytes: u64, pages: usize) {
        if let Some(bar) = &self.bar {
            bar.set_length(total_bytes.max(bytes_read));
            bar.set_position(bytes_read);
            bar.set_message(format!("{pages} pages"));
        }
    }

    fn warning(&self, message: &str) {
        if !self.quiet {
            self.say(&format!("indexer: warning: {message}"));
        }
    }
}

fn build_command(args: BuildArgs) -> Result<ExitCode> {
    let mut config = load_config(args.config.as_deref())?;
    if let Some(cleaner) = args.cleaner {
        config.cleaning.cleaner = cleaner;
    }
    if let Some(replicas) = args.replicas {
        config.replicas.detector = replicas;
    }
    if let Some(classifier) = args.classifier {
        config.classify.model = classifier;
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
            ProgressStyle::with_template("{spinner} {elapsed_precise} [{wide_bar}] {bytes}/{total_bytes} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let observer = CliObserver { bar, quiet: args.quiet, shown: Mutex::new(HashMap::new()) };
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
        Some(path) => Some(read_site_templates_file(path)?),
        None => None,
    };
    let options = BuildOptions { mode, stop_words, site_templates, shard: args.shard };
    let result = build_with_options(&inputs, &args.dir.dir, &config, &observer, &options);
    if let Some(bar) = &observer.bar {
        bar.finish_and_clear();
    }
    let summary: BuildSummary = result?;
    if args.json {
        outln!("{}", serde_json::to_string(&summary)?);
    } else {
        outln!("{summary}");
    }
    Ok(ExitCode::SUCCESS)
}

fn extract_command(args: ExtractArgs) -> Result<ExitCode> {
    let mut config = load_config(args.config.as_deref())?;
    if let Some(cleaner) = args.cleaner {
        config.cleaning.cleaner = cleaner;
    }
    let observer = CliObserver { bar: None, quiet: args.quiet, shown: Mutex::new(HashMap::new()) };
    let headline = if args.with_headline { HeadlinePlacement::Inline } else { HeadlinePlacement::Apart };
    let summary = indexer::build::extract(&args.inputs, &args.out, headline, &config, &observer)?;
    if args.json {
        outln!("{}", serde_json::to_string(&summary)?);
    } else {
        let skipped: usize = summary.skipped.values().sum();
        let reasons: Vec<String> = summary.skipped.iter().map(|(r, n)| format!("{r} {n}")).collect();
        outln!(
            "{} pages read, {} files written to {} ({} with no topic content), {} skipped{}; cleaner {}, {:.1} s",
            summary.pages_read,
            summary.files_written,
            args.out.display(),
            summary.empty,
            skipped,
            if reasons.is_empty() { String::new() } else { format!(" ({})", reasons.join(", ")) },
            summary.cleaner,
            summary.elapsed_seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn index_choice(name: &str) -> IndexChoice {
    // clap accepts only IndexChoice::NAMES.
    IndexChoice::from_name(name).unwrap_or(IndexChoice::Tiered)
}

fn search_command(args: SearchArgs) -> Result<ExitCode> {
    let request = SearchRequest {
        choice: index_choice(&args.index),
        limit: args.limit,
        category: args.category.as_deref(),
        feedback: args.tuning.feedback,
    };
    let settings = args.tuning.settings()?;
    let hits = match args.dir.as_slice() {
        [dir] => {
            let mut collection = Collection::open(dir)?;
            if let Some(settings) = settings {
                collection.set_settings(settings)?;
            }
            collection.search_request(&args.query, &request)?
        }
        dirs => {
            let mut shards = Shards::open(dirs)?;
            if let Some(settings) = settings {
                shards.set_settings(settings)?;
            }
            shards.search_request(&args.query, &request)?
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for hit in &hits {
        if args.json {
            writeln!(out, "{}", serde_json::to_string(hit)?)?;
        } else {
            match &hit.category {
                Some(code) => write!(out, "{:>3}. {:<8.3} {}  [{code}]", hit.rank, hit.score, hit.url)?,
                None => write!(out, "{:>3}. {:<8.3} {}", hit.rank, hit.score, hit.url)?,
            }
            match &hit.shard {
                Some(shard) => writeln!(out, "  ({shard})")?,
                None => writeln!(out)?,
            }
            if !hit.title.is_empty() {
                writeln!(out, "     {}", hit.title)?;
            }
            if !hit.snippet.is_empty() {
                writeln!(out, "     {}", hit.snippet)?;
            }
        }
    }
    if hits.is_empty() {
        if !args.json {
            match &args.category {
                Some(code) => {
                    eprintln!("indexer: no results for {:?} in category {code} of the {} index", args.query, args.index)
                }
                None => eprintln!("indexer: no results for {:?} in the {} index", args.query, args.index),
            }
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn eval_run_command(args: EvalRunArgs) -> Result<ExitCode> {
    let topics = read_topics(&args.topics)?;
    let mut collection = Collection::open(&args.dir.dir)?;
    if let Some(settings) = args.tuning.settings()? {
        collection.set_settings(settings)?;
    }
    collection.preload_urls()?;
    let request = SearchRequest {
        choice: index_choice(&args.index),
        limit: args.limit,
        category: None,
        feedback: args.tuning.feedback,
    };
    let tag = format!("indexer-{}{}", args.index, if args.tuning.feedback { "-rm3" } else { "" });
    let run = run_topics(&collection, &topics, &request, &tag)?;
    std::fs::write(&args.run, &run).with_context(|| format!("cannot write the run to {}", args.run.display()))?;
    eprintln!("indexer: {} topics, {} results written to {}", topics.len(), run.lines().count(), args.run.display());
    Ok(ExitCode::SUCCESS)
}

fn eval_score_command(args: EvalScoreArgs) -> Result<ExitCode> {
    let qrels = Qrels::from_path(&args.qrels)?;
    let run = Run::from_path(&args.run)?;
    let evaluation = evaluate(&qrels, &run, EvalOptions { complete: args.complete })?;
    if args.json {
        outln!("{}", serde_json::to_string(&evaluation)?);
    } else {
        out!("{}", evaluation.to_trec_eval_text(args.per_topic));
    }
    Ok(ExitCode::SUCCESS)
}

fn disk_terms(options: &DiskOptions, collection: &Collection) -> Result<(Vec<String>, String)> {
    match &options.terms {
        Some(path) => {
            let terms = read_terms(path).with_context(|| format!("cannot read the term log {}", path.display()))?;
            let source = format!("{} queries from {}", terms.len(), path.display());
            Ok((terms, source))
        }
        None => Ok((
            sample_terms(collection, options.queries, options.seed)?,
            format!(
                "{} terms sampled from the full-text vocabulary, Zipf-like by document frequency (seed {})",
                options.queries, options.seed
            ),
        )),
    }
}

fn eval_report_command(args: EvalReportArgs) -> Result<ExitCode> {
    let config = args.config.as_deref().map(EvalConfig::from_file).transpose().map_err(anyhow::Error::msg)?;
    let pick = |given: Option<PathBuf>, from_config: Option<&PathBuf>, what: &str| -> Result<PathBuf> {
        given.or_else(|| from_config.cloned()).with_context(|| format!("give --{what} or --config"))
    };
    let topics_path = pick(args.topics, config.as_ref().map(|c| &c.topics), "topics")?;
    let qrels_path = pick(args.qrels, config.as_ref().map(|c| &c.qrels), "qrels")?;
    let report_dir = pick(args.report, config.as_ref().map(|c| &c.report), "report")?;
    let name = args.name.or_else(|| config.as_ref().map(|c| c.name.clone())).unwrap_or_else(|| "collection".into());
    let dir = args.dir.unwrap_or_else(|| match &config {
        Some(c) => Path::new(DEFAULT_DIR).join(format!("eval-{}", c.name)),
        None => PathBuf::from(DEFAULT_DIR),
    });
    let has_build = indexer::index::current_build(&dir).is_ok();
    if args.rebuild || !has_build {
        let Some(config) = &config else { bail!("no build in {}: build it first, or give --config", dir.display()) };
        eprintln!("indexer: building {} into {}", config.input.display(), dir.display());
        let summary = build(std::slice::from_ref(&config.input), &dir, &Config::default(), &indexer::build::Quiet)?;
        eprintln!("{summary}");
    }
    let topics = read_topics(&topics_path)?;
    let qrels = Qrels::from_path(&qrels_path)?;
    let options = ReportOptions {
        name,
        depth: args.limit,
        terms: match &args.disk.terms {
            Some(_) => Some(disk_terms(&args.disk, &Collection::open(&dir)?)?),
            None => None,
        },
        sampled_terms: args.disk.queries,
        group_size: args.disk.group,
        seed: args.disk.seed,
        reference: config.as_ref().and_then(|c| c.reference.clone()),
        peer_runs: config.as_ref().and_then(|c| c.peer_runs.clone()),
    };
    let report = collection_report(&dir, &topics, &qrels, &options)?;
    let command = match &args.config {
        Some(path) => format!("indexer eval report --config {}", path.display()),
        None => "indexer eval report".to_string(),
    };
    write_report(&report, &report_dir, &command)?;
    for e in &report.effectiveness {
        let m = &e.summary.measures;
        outln!("{:<22} P@10 {:.4}  MAP {:.4}  nDCG@10 {:.4}", e.index, m.p_10, m.map, m.ndcg_cut_10);
    }
    for p in &report.peers {
        let m = &p.summary.measures;
        outln!("{:<22} P@10 {:.4}  MAP {:.4}  nDCG@10 {:.4}", format!("peer {}", p.run), m.p_10, m.map, m.ndcg_cut_10);
    }
    outln!(
        "index size ratio {:.3}, sum-of-terms ratio {:.3}, mean disk-access ratio {:.3} (bytes), {:.3} (pages)",
        report.statistics.size_ratio,
        report.statistics.terms_ratio,
        report.disk.mean_ratio.bytes,
        report.disk.mean_ratio.pages
    );
    outln!("report written to {}", report_dir.join("report.md").display());
    Ok(ExitCode::SUCCESS)
}

fn eval_tune_command(args: EvalTuneArgs) -> Result<ExitCode> {
    use indexer::eval::tune::{TuneCollection, markdown, tune};
    let start = match &args.settings {
        Some(path) => SearchSettings::from_file(path)?,
        None => SearchSettings::shipped(),
    };
    let mut collections = Vec::new();
    for path in &args.configs {
        let config = EvalConfig::from_file(path).map_err(anyhow::Error::msg)?;
        let dir = Path::new(DEFAULT_DIR).join(format!("eval-{}", config.name));
        if indexer::index::current_build(&dir).is_err() {
            eprintln!("indexer: building {} into {}", config.input.display(), dir.display());
            let summary = build(std::slice::from_ref(&config.input), &dir, &Config::default(), &indexer::build::Quiet)?;
            eprintln!("{summary}");
        }
        collections.push(TuneCollection {
            name: config.name.clone(),
            collection: Collection::open(&dir)?,
            topics: read_topics(&config.topics)?,
            qrels: Qrels::from_path(&config.qrels)?,
        });
    }
    let report = tune(&mut collections, &start, args.limit, &|step| eprintln!("indexer: tuning, {step}"))?;
    let configs: Vec<String> = args.configs.iter().map(|p| format!("--config {}", p.display())).collect();
    let command = format!("indexer eval tune {}", configs.join(" "));
    std::fs::create_dir_all(&args.report).with_context(|| format!("cannot create {}", args.report.display()))?;
    std::fs::write(args.report.join("report.md"), markdown(&report, &command))
        .with_context(|| format!("cannot write the report to {}", args.report.display()))?;
    std::fs::write(args.report.join("report.json"), serde_json::to_string_pretty(&report)? + "\n")
        .with_context(|| format!("cannot write the report to {}", args.report.display()))?;
    if let Some(path) = &args.write_settings {
        let text = format!(
            "# Search settings (see src/search/settings.rs), written by `{command} --write-settings`.\n{}",
            toml::to_string(&report.chosen)?
        );
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
        outln!("settings written to {}", path.display());
    }
    for fold in &report.folds {
        for (search, scores) in &fold.held_out {
            outln!(
                "{:<8} {:<16} held out: P@10 {:.4}  MAP {:.4}  nDCG@10 {:.4}",
                fold.collection,
                search,
                scores.p_10,
                scores.map,
                scores.ndcg_10
            );
        }
    }
    outln!("report written to {}", args.report.join("report.md").display());
    Ok(ExitCode::SUCCESS)
}

fn eval_disk_command(args: EvalDiskArgs) -> Result<ExitCode> {
    let (terms, source) = disk_terms(&args.disk, &Collection::open(&args.dir.dir)?)?;
    let topics = args.topics.as_deref().map(read_topics).transpose()?;
    let report = measure_disk(&args.dir.dir, &terms, &source, args.disk.group, topics.as_deref())?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!("{source}; groups of {}", report.group_size);
    outln!("group  abstract bytes  fulltext bytes  bytes ratio  reads ratio  pages ratio   (inverted file)");
    for g in report.groups.iter().chain(&report.topics) {
        let label = if g.group == 0 { "topics".to_string() } else { g.group.to_string() };
        outln!(
            "{:>6} {:>15} {:>15} {:>12.3} {:>12.3} {:>12.3}",
            label,
            g.abstract_index.postings.bytes,
            g.fulltext.postings.bytes,
            g.ratio.bytes,
            g.ratio.reads,
            g.ratio.pages
        );
    }
    let (m, a) = (report.mean_ratio, report.mean_ratio_all);
    outln!("mean ratio over groups, inverted file: bytes {:.3}, reads {:.3}, pages {:.3}", m.bytes, m.reads, m.pages);
    outln!("mean ratio over groups, every read:    bytes {:.3}, reads {:.3}, pages {:.3}", a.bytes, a.reads, a.pages);
    Ok(ExitCode::SUCCESS)
}

fn eval_languages_command(args: EvalLanguagesArgs) -> Result<ExitCode> {
    use indexer::input::Source;
    let mut sources = Vec::new();
    for input in &args.inputs {
        // A folder of crawl files is read file by file: a folder source reads pages.
        let crawl_files: Vec<PathBuf> = if input.is_dir() {
            walkdir::WalkDir::new(input)
                .sort_by_file_name()
                .into_iter()
                .filter_map(|e| e.ok())
                .map(|e| e.into_path())
                .filter(|p| {
                    let name = p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
                    name.contains(".warc") || name.contains(".arc")
                })
                .collect()
        } else {
            Vec::new()
        };
        if crawl_files.is_empty() {
            sources.push(Source::from_path(input)?);
        } else {
            for file in crawl_files {
                sources.push(Source::from_path(&file)?);
            }
        }
    }
    let eval = indexer::eval::languages::evaluate_languages(&sources, &Config::default())?;
    if args.json {
        outln!("{}", serde_json::to_string(&eval)?);
    } else {
        out!("{}", eval.to_markdown());
    }
    Ok(ExitCode::SUCCESS)
}

fn eval_stats_command(args: EvalStatsArgs) -> Result<ExitCode> {
    let collection = Collection::open(&args.dir.dir)?;
    let stats = index_statistics(&args.dir.dir, &collection)?;
    if args.json {
        outln!("{}", serde_json::to_string(&stats)?);
    } else {
        outln!("                 abstract      full text   ratio");
        outln!("documents    {:>12} {:>14}", stats.abstract_index.documents, stats.fulltext.documents);
        outln!(
            "sum of terms {:>12} {:>14}   {:.4}",
            stats.abstract_index.sum_of_terms,
            stats.fulltext.sum_of_terms,
            stats.terms_ratio
        );
        outln!(
            "index bytes  {:>12} {:>14}   {:.4}",
            stats.abstract_index.bytes,
            stats.fulltext.bytes,
            stats.size_ratio
        );
        let c = &stats.abstract_coverage;
        outln!(
            "abstract / topic content terms {:.4} over {} topic pages ({} at 90% or more); {:.4} over the {} with \
             {} sentences or more",
            c.terms_ratio,
            c.topic_pages,
            c.pages_at_least_90_percent,
            c.long_terms_ratio,
            c.long_pages,
            indexer::eval::stats::LONG_PAGE_SENTENCES
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The command line as typed, for the reports that record how they were made: `indexer`
/// and its arguments, those holding a space quoted.
fn command_line() -> String {
    let args: Vec<String> =
        std::env::args().skip(1).map(|a| if a.contains(' ') { format!("{a:?}") } else { a }).collect();
    format!("indexer {}", args.join(" "))
}

fn eval_clean_command(args: EvalCleanArgs) -> Result<ExitCode> {
    use indexer::eval::clean::{GoldSet, evaluate_cleaner_held_out};
    use indexer::eval::clean_report::{
        CleaningCell, CleaningEvalConfig, CleaningReport, GoldSetConfig, write_cleaning_report,
    };
    let config = args.config.as_deref().map(CleaningEvalConfig::from_file).transpose()?;
    let settings = load_config(args.settings.as_deref())?;
    // Rows: (row name, cleaner, headline placement). The table also scores docview with its
    // headline placed the other way, so that the convention's effect on each set is seen.
    let placement = |inline: bool| if inline { HeadlinePlacement::Inline } else { HeadlinePlacement::Apart };
    let mut rows: Vec<(String, CleanerKind, HeadlinePlacement)> = if args.all {
        CleanerKind::NAMES.iter().filter_map(|name| CleanerKind::from_name(name)).collect()
    } else {
        vec![CleanerKind::from_name(&args.cleaner).context("unknown cleaner")?]
    }
    .into_iter()
    .map(|kind| (kind.name().to_string(), kind, placement(args.with_headline)))
    .collect();
    if args.all && config.is_some() {
        let other = if args.with_headline { "docview, headline apart" } else { "docview, headline inline" };
        rows.insert(1, (other.to_string(), CleanerKind::DocView, placement(!args.with_headline)));
    }
    // Test sets first, then training sets; `is_training` marks the second kind.
    let sets: Vec<(GoldSetConfig, bool)> = match (&config, &args.html, &args.gold) {
        (Some(config), _, _) => {
            let all_sets = config.sets.iter().map(|s| (s, false)).chain(config.training_sets.iter().map(|s| (s, true)));
            let unknown: Vec<&String> =
                args.sets.iter().filter(|name| !all_sets.clone().any(|(s, _)| &s.name == *name)).collect();
            if !unknown.is_empty() {
                bail!(
                    "--sets: no set named {unknown:?} in the config; it has {:?}",
                    all_sets.map(|(s, _)| &s.name).collect::<Vec<_>>()
                );
            }
            all_sets
                .filter(|(s, _)| args.sets.is_empty() || args.sets.contains(&s.name))
                .map(|(s, is_training)| (s.clone(), is_training))
                .collect()
        }
        (None, Some(html), Some(gold)) => {
            vec![(GoldSetConfig { name: html.display().to_string(), html: html.clone(), gold: gold.clone() }, false)]
        }
        _ => bail!("give --html DIR --gold DIR, or --config eval/cleaning.toml"),
    };
    let held_out_of: Vec<CleanerKind> =
        args.held_out_of.as_deref().and_then(CleanerKind::from_name).into_iter().collect();
    let mut cells = Vec::new();
    let mut parse_floor = Vec::new();
    let mut set_pages = Vec::new();
    for (set_config, is_training) in &sets {
        let mut set = GoldSet::open(&set_config.html, &set_config.gold)?;
        if let Some(n) = args.max_pages {
            set.pages.truncate(n);
        }
        if config.is_some() && !is_training {
            let floor = indexer::eval::clean::parse_floor(&set);
            if !args.json {
                outln!("{:<12} {:<24} decode + html5ever parse only: {floor:.0} pages/s", set_config.name, "(floor)");
            }
            parse_floor.push(floor);
            set_pages.push(set.pages.len());
        }
        for (row, kind, headline) in &rows {
            let mut score = evaluate_cleaner_held_out(&set, *kind, &held_out_of, *headline, &settings)?;
            score.cleaner = row.clone();
            if args.json {
                outln!("{}", serde_json::json!({"set": set_config.name, "score": score}));
            } else {
                let held_out = match score.held_out_excluded {
                    0 => String::new(),
                    n => format!("  (held out: {n} training pages skipped)"),
                };
                outln!(
                    "{:<12} {:<24} pages {:>4}  P {:.3}  R {:.3}  F1 {:.3}  mean page F1 {:.3}  empty {:>3}  {:.0} pages/s{}",
                    if config.is_some() { set_config.name.as_str() } else { "" },
                    score.cleaner,
                    score.pages,
                    score.precision,
                    score.recall,
                    score.f1,
                    score.mean_page_f1,
                    score.empty_outputs,
                    score.pages_per_second,
                    held_out
                );
            }
            cells.push(CleaningCell { set: set_config.name.clone(), score });
        }
    }
    if let Some(config) = config {
        // References are given for the config's full lists of sets; keep the columns in step.
        let picked = |all: &[GoldSetConfig], training: bool| -> Vec<usize> {
            sets.iter()
                .filter(|(_, is_training)| *is_training == training)
                .filter_map(|(s, _)| all.iter().position(|c| c.name == s.name))
                .collect()
        };
        let (test_positions, training_positions) = (picked(&config.sets, false), picked(&config.training_sets, true));
        let pick = |f1: &[f64], positions: &[usize]| -> Vec<f64> {
            if f1.is_empty() { Vec::new() } else { positions.iter().filter_map(|&i| f1.get(i).copied()).collect() }
        };
        let references = config
            .references
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.f1 = pick(&r.f1, &test_positions);
                r.training_f1 = pick(&r.training_f1, &training_positions);
                r
            })
            .collect();
        let cross_validated = match &config.training_report {
            Some(path) if path.is_file() => Some(read_cross_validated(path)?),
            Some(path) => {
                if !args.json {
                    outln!(
                        "(no tuning report at {}: the table has no cross-validated row; `indexer eval tune-cleaner` writes it)",
                        path.display()
                    );
                }
                None
            }
            None => None,
        };
        let names = |training: bool| -> Vec<String> {
            sets.iter().filter(|(_, t)| *t == training).map(|(s, _)| s.name.clone()).collect()
        };
        let report = CleaningReport {
            sets: names(false),
            cleaners: rows.iter().map(|(row, _, _)| row.clone()).collect(),
            cells,
            max_pages: args.max_pages,
            reference_note: config.reference_note.clone(),
            references,
            parse_floor,
            set_pages,
            training_sets: names(true),
            cross_validated,
        };
        if !args.json && report.sets.len() > 1 {
            for cleaner in &report.cleaners {
                if let Some((pages, rate)) = report.overall_pages_per_second(cleaner) {
                    outln!("{:<12} {:<24} pages {pages:>4}  {rate:.0} pages/s", "(all sets)", cleaner);
                }
            }
        }
        // The config's report folder holds the full table: a partial run (one cleaner, some
        // sets, a page limit, held-out pages) writes a report only where --report says, so
        // that it never overwrites the table with a part of it.
        let full_table = args.all && args.sets.is_empty() && args.max_pages.is_none() && held_out_of.is_empty();
        let out = match (args.report, full_table) {
            (Some(dir), _) => Some(dir),
            (None, true) => Some(config.report),
            (None, false) => None,
        };
        if let Some(out) = out {
            write_cleaning_report(&report, &out, &command_line())?;
            if !args.json {
                outln!("report written to {}", out.display());
            }
        } else if !args.json {
            outln!("(a partial run: no report written; --report DIR writes one)");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The cross-validated F1 of a tuning report (`indexer eval tune-cleaner`'s report.json).
fn read_cross_validated(path: &Path) -> Result<indexer::eval::clean_report::CrossValidatedF1> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let cv = json.get("cross_validated").cloned().with_context(|| {
        format!("{}: no `cross_validated` field; run `indexer eval tune-cleaner` again", path.display())
    })?;
    serde_json::from_value(cv).with_context(|| format!("{}: `cross_validated` is not as expected", path.display()))
}

fn eval_tune_cleaner_command(args: EvalTuneCleanerArgs) -> Result<ExitCode> {
    use indexer::eval::clean_report::CleaningEvalConfig;
    use indexer::eval::tune_cleaner::{TuneOptions, tune_cleaner, write_tuning_report};
    let eval_config = CleaningEvalConfig::from_file(&args.config)?;
    let config = load_config(args.cleaner_config.as_deref())?;
    let out = match (args.report, &eval_config.training_report) {
        (Some(dir), _) => dir,
        (None, Some(path)) => path.parent().map(Path::to_path_buf).unwrap_or_default(),
        (None, None) => bail!("{}: no training_report; give --report DIR", args.config.display()),
    };
    let options = TuneOptions { folds: args.folds as usize, rounds: args.rounds, max_pages: args.max_pages };
    let started = std::time::Instant::now();
    let report = tune_cleaner(&eval_config.training_sets, &config, options, |step| {
        let _ = writeln!(std::io::stderr().lock(), "[{:>5.0} s] {step}", started.elapsed().as_secs_f64());
    })?;
    let mean = |f1: &[f64]| f1.iter().sum::<f64>() / f1.len().max(1) as f64;
    let cv: Vec<f64> = report.cross_validated.sets.iter().map(|&(_, f)| f).collect();
    outln!("sets: {}", report.sets.join(", "));
    outln!("start F1           {:?}  mean {:.4}", rounded(&report.start_f1), mean(&report.start_f1));
    outln!("cross-validated F1 {:?}  mean {:.4}", rounded(&cv), mean(&cv));
    outln!(
        "in-sample F1       {:?}  mean {:.4}  (the setting chosen on all pages)",
        rounded(&report.chosen_f1),
        mean(&report.chosen_f1)
    );
    for ((name, start), (_, chosen)) in report.start.iter().zip(&report.chosen) {
        let mark = if start != chosen { "  <- moved" } else { "" };
        outln!("  {name:<26} {start:>8} -> {chosen:<8}{mark}");
    }
    write_tuning_report(&report, &out, &command_line())?;
    outln!("report written to {} ({:.0} s)", out.display(), started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

fn rounded(f1: &[f64]) -> Vec<f64> {
    f1.iter().map(|f| (f * 10_000.0).round() / 10_000.0).collect()
}

fn eval_train_mountain_command(args: EvalTrainMountainArgs) -> Result<ExitCode> {
    use indexer::eval::train_mountain::{DEFAULT_SETS, train_mountain};
    let config = load_config(args.config.as_deref())?;
    let sets: Vec<String> =
        if args.sets.is_empty() { DEFAULT_SETS.iter().map(|s| s.to_string()).collect() } else { args.sets };
    let started = std::time::Instant::now();
    let (model, summaries) = train_mountain(&args.data, &sets, &config)?;
    for s in &summaries {
        outln!(
            "{:<16} train {:>4} pages  held out {:>4}  ridges {:>5}  primary {:>4}",
            s.set,
            s.training_pages,
            s.held_out_pages,
            s.ridges,
            s.positives
        );
    }
    std::fs::write(&args.out, model.to_json()).with_context(|| format!("writing {}", args.out.display()))?;
    outln!(
        "{} ridges ({} primary); weights {:?} on {:?}, bias {:.4}; {:.1} s; wrote {}",
        model.examples,
        model.positives,
        model.weights.iter().map(|w| (w * 1e4).round() / 1e4).collect::<Vec<_>>(),
        model.features,
        model.bias,
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn eval_replicas_command(args: EvalReplicasArgs) -> Result<ExitCode> {
    use indexer::eval::replicas::{
        ReplicaEvalConfig, ReplicaReport, evaluate_pairs, evaluate_replica_set, read_truth, write_replica_report,
    };
    let config = args.config.as_deref().map(ReplicaEvalConfig::from_file).transpose()?;
    let input = args.input.or_else(|| config.as_ref().map(|c| c.input.clone())).context("give INPUT or --config")?;
    let truth = args.truth.or_else(|| config.as_ref().map(|c| c.truth.clone())).context("give --truth or --config")?;
    let pairs = args.pairs.or_else(|| config.as_ref().map(|c| c.pairs.clone()));
    let report_dir = args.report.or_else(|| config.as_ref().map(|c| c.report.clone()));
    let settings = load_config(args.settings.as_deref())?;
    let (pages, detectors, sweeps) = evaluate_replica_set(&input, &read_truth(&truth)?, &settings, args.sweep)?;
    let pairs = match pairs {
        Some(path) if path.exists() => evaluate_pairs(&path, &settings.replicas)?,
        Some(path) => bail!("{}: no such file", path.display()),
        None => Vec::new(),
    };
    let report = ReplicaReport { pages, detectors, sweeps, pairs, settings: settings.replicas };
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        for d in &report.detectors {
            outln!(
                "{:<8} {:<6} hit rate {:5.1}%  error rate {:4.1}%",
                d.detector,
                format!("{:?}", d.source).to_lowercase(),
                100.0 * d.rates.hit_rate,
                100.0 * d.rates.error_rate
            );
        }
        for p in &report.pairs {
            let m = &p.metrics;
            outln!(
                "{:<8} pairs (label ≥ {}): P {:.3} R {:.3} F1 {:.3} FPR {:.1}%",
                p.detector,
                p.positive_from,
                m.precision,
                m.recall,
                m.f1,
                100.0 * m.false_positive_rate
            );
        }
    }
    if let Some(dir) = report_dir {
        write_replica_report(&report, &dir, &command_line())?;
        if !args.json {
            outln!("report written to {}", dir.join("report.md").display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The labelled examples of `classify train` and `classify cv`, with each one's origin.
fn labelled_examples(
    labels: &[PathBuf],
    pages: &[PathBuf],
    scheme: &indexer::classify::CategoryScheme,
    config: &Config,
) -> Result<(Vec<indexer::classify::train::Example>, Vec<String>)> {
    use indexer::classify::labels::read_labels;
    use indexer::classify::train::Example;

    let mut labelled = Vec::new();
    for path in labels {
        labelled.extend(read_labels(path, pages, config)?);
    }
    let settings = config.classify.feature_settings();
    let mut examples = Vec::new();
    let mut origins = Vec::new();
    for item in labelled {
        let class = scheme
            .index_of(&item.code)
            .with_context(|| format!("{}: code {:?} is not in the category scheme", item.origin, item.code))?;
        examples.push(Example { features: settings.extract(&item.text), class });
        origins.push(item.origin);
    }
    Ok((examples, origins))
}

fn scheme_of(path: Option<&Path>) -> Result<indexer::classify::CategoryScheme> {
    Ok(match path {
        Some(path) => indexer::classify::CategoryScheme::from_file(path)?,
        None => indexer::classify::CategoryScheme::table1(),
    })
}

fn classify_train_command(args: ClassifyTrainArgs) -> Result<ExitCode> {
    use indexer::classify::train::train;

    let config = load_config(args.config.as_deref())?;
    let scheme = scheme_of(args.scheme.as_deref())?;
    let started = std::time::Instant::now();
    let (examples, _) = labelled_examples(&args.labels, &args.pages, &scheme, &config)?;
    let model = train(&scheme, &examples, &config.classify)?;
    model.write(&args.out)?;
    let per_class: Vec<String> = scheme
        .categories
        .iter()
        .zip(model.documents())
        .map(|(category, n)| format!("{} {}", category.code, n))
        .collect();
    outln!(
        "trained {} on {} texts ({}) in {:.2} s: {} features; model written to {}",
        config.classify.algorithm,
        examples.len(),
        per_class.join(", "),
        started.elapsed().as_secs_f64(),
        model.vocabulary_size(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn classify_cv_command(args: ClassifyCvArgs) -> Result<ExitCode> {
    use indexer::classify::eval::{best_threshold, cross_validate_grouped, group_of, scores, threshold_table};

    let config = load_config(args.config.as_deref())?;
    let scheme = scheme_of(args.scheme.as_deref())?;
    let (examples, origins) = labelled_examples(&args.labels, &args.pages, &scheme, &config)?;
    let groups: Vec<String> = origins.iter().map(|o| group_of(o)).collect();
    let held_out = cross_validate_grouped(&scheme, &examples, &groups, args.folds, &config.classify)?;
    let truth: Vec<usize> = held_out.iter().map(|h| h.truth).collect();
    let predicted: Vec<usize> = held_out.iter().map(|h| h.predicted).collect();
    let s = scores(&truth, &predicted, scheme.len());
    let table = threshold_table(&held_out);
    let best = best_threshold(&table);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let value = serde_json::json!({
            "folds": args.folds.max(2),
            "examples": held_out.len(),
            "accuracy": s.accuracy,
            "macro_f1": s.macro_f1,
            "thresholds": table,
            "best_min_confidence": best.map(|b| b.min_confidence),
        });
        writeln!(out, "{value}")?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{}-fold cross-validation by group on {} texts: accuracy {:.1}%, macro-F1 {:.1}%",
        args.folds.max(2),
        held_out.len(),
        100.0 * s.accuracy,
        100.0 * s.macro_f1
    )?;
    writeln!(out, "min_confidence  coded  right  wrong  right-wrong")?;
    for row in &table {
        writeln!(
            out,
            "{:>14.2}  {:>5}  {:>5}  {:>5}  {:>11}",
            row.min_confidence,
            row.coded,
            row.right,
            row.wrong,
            row.right as i64 - row.wrong as i64
        )?;
    }
    if let Some(best) = best {
        writeln!(out, "most right minus wrong codes at min_confidence = {:.2}", best.min_confidence)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn classify_text_command(args: ClassifyTextArgs) -> Result<ExitCode> {
    let loaded = args.classifier.as_deref().map(indexer::classify::Model::from_file).transpose()?;
    let model = match &loaded {
        Some(model) => model,
        None => indexer::classify::default_model()?,
    };
    let text = if args.text == "-" { std::io::read_to_string(std::io::stdin())? } else { args.text };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (category, confidence) in model.confidences(&model.features().extract(&text)) {
        writeln!(out, "{}\t{:.3}\t{}", category.code, confidence, category.name)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn classify_eval_command(args: ClassifyEvalArgs) -> Result<ExitCode> {
    let config = load_config(args.config.as_deref())?;
    let results = if args.tuning {
        indexer::classify::eval::evaluate_tuning(&args.data, &config.classify, args.limit)?
    } else {
        indexer::classify::eval::evaluate_shared(&args.data, &config.classify, args.limit)?
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for r in &results {
        if args.json {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        } else {
            let spread = if r.accuracy_std > 0.0 { format!(" ±{:.1}", 100.0 * r.accuracy_std) } else { String::new() };
            writeln!(
                out,
                "{:<16} {:<34} accuracy {:.1}%{}  macro-F1 {:.1}%  mean confidence {:.1}%  train {:.2} s ({} docs)  test {:.2} s ({} docs)",
                r.set,
                r.protocol,
                100.0 * r.accuracy,
                spread,
                100.0 * r.macro_f1,
                100.0 * r.mean_confidence,
                r.train_seconds,
                r.train_documents,
                r.test_seconds,
                r.test_documents
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn inspect_command(args: InspectArgs) -> Result<ExitCode> {
    use indexer::build::{PageContext, process_page};
    use indexer::input::RawPage;
    use indexer::text::StopWords;

    let mut config = Config::default();
    if let Some(cleaner) = args.cleaner {
        config.cleaning.cleaner = cleaner;
    }
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let url = args.url.unwrap_or_else(|| format!("file://{}", args.file.display()));
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words);
    let raw = RawPage { url, origin: args.file.display().to_string(), bytes, http_charset: None, http_language: None };
    if args.tree {
        let (tree, _) = ctx.tag_tree(&raw);
        outln!("{}", tree.outline());
    }
    match process_page(raw, &ctx) {
        Ok(page) => outln!("{}", serde_json::to_string_pretty(&page.record)?),
        Err(skipped) => bail!("{skipped}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// A stop-word list file: one word a line, blank lines ignored.
fn read_stop_word_list(path: &Path) -> Result<indexer::text::StopWords> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!("cannot read the stop-word list {}; write it with `indexer stop-words`", path.display())
    })?;
    let words = text.lines().map(str::trim).filter(|w| !w.is_empty()).map(str::to_string);
    Ok(indexer::text::StopWords::from_learned(words))
}

/// A site-templates file, as `indexer site-templates` writes it.
fn read_site_templates_file(path: &Path) -> Result<indexer::clean::site_template::SiteTemplates> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!("cannot read the site templates {}; write them with `indexer site-templates`", path.display())
    })?;
    indexer::clean::site_template::SiteTemplates::from_text(&text)
        .with_context(|| format!("{} is not a site-templates file", path.display()))
}

fn site_templates_command(args: SiteTemplatesArgs) -> Result<ExitCode> {
    let config = load_config(args.config.as_deref())?;
    let observer = CliObserver { bar: None, quiet: false, shown: Mutex::new(HashMap::new()) };
    let mut inputs = args.inputs;
    if let Some(list) = &args.input_list {
        inputs.extend(indexer::input::read_input_list(list)?);
    }
    let templates = indexer::build::site_templates_of(&inputs, &config, &observer)?;
    let text = templates.to_text();
    match &args.output {
        Some(path) => std::fs::write(path, &text).with_context(|| format!("cannot write {}", path.display()))?,
        None => out!("{text}"),
    }
    eprintln!(
        "indexer: {} template blocks on {} hosts (hosts of at least {} pages, blocks on {} of their first {} pages)",
        templates.blocks(),
        templates.hosts(),
        config.cleaning.site_min_pages,
        config.cleaning.site_template_share,
        config.cleaning.site_sample_pages
    );
    Ok(ExitCode::SUCCESS)
}

fn stop_words_command(args: StopWordsArgs) -> Result<ExitCode> {
    let config = load_config(args.config.as_deref())?;
    let observer = CliObserver { bar: None, quiet: false, shown: Mutex::new(HashMap::new()) };
    let mut inputs = args.inputs;
    if let Some(list) = &args.input_list {
        inputs.extend(indexer::input::read_input_list(list)?);
    }
    let (stop_words, sampled) = indexer::build::stop_words_of(&inputs, &config, &observer)?;
    let list = stop_words.learned_sorted();
    let text: String = list.iter().map(|w| format!("{w}\n")).collect();
    match &args.output {
        Some(path) => std::fs::write(path, &text).with_context(|| format!("cannot write {}", path.display()))?,
        None => out!("{text}"),
    }
    eprintln!(
        "indexer: {} stop words learned from {sampled} pages (sample of {}, at least {} needed)",
        list.len(),
        config.stop_words.sample_pages,
        config.stop_words.min_sample_pages
    );
    Ok(ExitCode::SUCCESS)
}

fn replicas_apply_command(args: ReplicasApplyArgs) -> Result<ExitCode> {
    let report = indexer::shards::apply_removals(&args.dir, &args.list)?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        let published = report.published.as_deref().map(|p| format!(", new build {p}")).unwrap_or_default();
        outln!(
            "{}: {} pages, {} removed, {} already removed{published}",
            report.shard,
            report.pages,
            report.removed,
            report.already_removed
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn replicas_merge_command(args: ReplicasMergeArgs) -> Result<ExitCode> {
    if args.dir.len() < 2 {
        eprintln!("indexer: replicas merge needs at least two shards: --dir A --dir B");
        return Ok(ExitCode::from(2));
    }
    let report = indexer::shards::merge_replicas(&args.dir, args.dry_run)?;
    for r in &report.replicas {
        if args.json {
            outln!("{}", serde_json::to_string(r)?);
        } else {
            outln!("{}\t{}\t{}\t{}\t{}", r.removed, r.kept, r.kind.as_str(), r.removed_shard, r.kept_shard);
        }
    }
    for shard in &report.shards {
        if args.json {
            outln!("{}", serde_json::to_string(shard)?);
        } else {
            let action = match (&shard.published, args.dry_run) {
                (Some(build), _) => format!("removed, new build {build}"),
                (None, true) if shard.removed > 0 => "to remove (dry run)".to_string(),
                _ => "removed".to_string(),
            };
            eprintln!("indexer: {}: {} pages, {} {action}", shard.shard, shard.pages, shard.removed);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn export_command(args: ExportArgs) -> Result<ExitCode> {
    use indexer::index::IndexKind;
    let kind = if args.index == "fulltext" { IndexKind::Fulltext } else { IndexKind::Abstract };
    let summary = match &args.out {
        Some(path) => {
            let file = std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
            let mut writer = std::io::BufWriter::new(file);
            let summary = indexer::export::export_jsonl(&args.dir.dir, kind, &args.input, &mut writer)?;
            writer.flush().with_context(|| format!("cannot write {}", path.display()))?;
            summary
        }
        None => {
            let stdout = std::io::stdout();
            let mut writer = std::io::BufWriter::new(stdout.lock());
            let summary = indexer::export::export_jsonl(&args.dir.dir, kind, &args.input, &mut writer)?;
            writer.flush()?;
            summary
        }
    };
    eprintln!("indexer: {} {} documents exported", summary.documents, args.index);
    if summary.missing > 0 {
        eprintln!(
            "indexer: warning: {} pages of the build were not found in the inputs; give the inputs it was built from",
            summary.missing
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_command(args: BenchArgs) -> Result<ExitCode> {
    use indexer::bench::{BenchOptions, FloorKind, run_bench, run_floor};

    let config = load_config(args.config.as_deref())?;
    if args.floor_run {
        let Some(kind) = FloorKind::parse(&args.floor_kind) else {
            bail!("--floor-kind {}: unknown; use rcdom, arena or tokenizer", args.floor_kind);
        };
        let threads = args.threads.first().copied().unwrap_or(1).max(1);
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("cannot set the number of threads")?;
        let work_dir = args.work_dir.unwrap_or_else(std::env::temp_dir);
        let run = run_floor(&args.inputs, &config, &work_dir, kind)?;
        outln!("{}", serde_json::to_string(&run)?);
        return Ok(ExitCode::SUCCESS);
    }
    if args.threads.contains(&0) {
        bail!("--threads: a thread count must be at least 1");
    }
    let work_dir =
        tempfile::Builder::new().prefix("indexer-bench-").tempdir().context("cannot create a temporary folder")?;
    let options = BenchOptions {
        inputs: args.inputs,
        config,
        thread_counts: args.threads,
        stages_only: args.stages,
        stage_pages: args.stage_pages.max(1),
        scale: args.scale.filter(|&n| n > 1),
        indexer: std::env::current_exe().context("cannot find the indexer executable for the child builds")?,
        baseline: args.baseline,
        work_dir: work_dir.path().to_path_buf(),
    };
    let report = run_bench(&options, &|step| eprintln!("indexer bench: {step}"))?;
    indexer::bench::write_report(&report, &args.report, &command_line())?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    for run in &report.runs {
        outln!(
            "{} thread(s): build {:.0} pages/s ({:.2} MB/s, peak {:.0} MiB), RcDom floor {:.0} pages/s, build / floor \
             {:.2}; arena floor {:.0} pages/s, build / floor {:.2}; tokenizer floor {:.0} pages/s, build / floor {:.2}",
            run.threads,
            run.build_throughput.pages_per_second,
            run.build_throughput.mb_per_second,
            run.build.peak_rss_bytes.unwrap_or(0) as f64 / 1048576.0,
            run.floor_throughput.pages_per_second,
            run.build_over_floor,
            run.arena_floor_throughput.pages_per_second,
            run.build_over_arena_floor,
            run.tokenizer_floor_throughput.pages_per_second,
            run.build_over_tokenizer_floor
        );
        if let Some(baseline) = &run.baseline {
            outln!(
                "{} thread(s): baseline {} {:.0} pages/s (peak {:.0} MiB): build / baseline {:.2}",
                run.threads,
                baseline.executable,
                baseline.throughput.pages_per_second,
                baseline.build.peak_rss_bytes.unwrap_or(0) as f64 / 1048576.0,
                baseline.speedup
            );
        }
    }
    if let Some(scaling) = report.build_scaling {
        outln!("thread scaling of the build: {scaling:.2}x");
    }
    for run in &report.scale {
        outln!(
            "{}x {}: {} pages, peak RSS {:.0} MiB",
            run.copies,
            run.kind.as_str(),
            run.input.pages,
            run.build.peak_rss_bytes.unwrap_or(0) as f64 / 1048576.0
        );
    }
    outln!(
        "stages on one thread: {:.0} pages/s, {:.2} MB/s; report written to {}",
        report.stages.total.pages_per_second,
        report.stages.total.mb_per_second,
        args.report.join("report.md").display()
    );
    Ok(ExitCode::SUCCESS)
}
