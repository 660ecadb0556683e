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

use indexer::build::{BuildObserver, BuildSummary, build};
use indexer::clean::CleanerKind;
use indexer::config::Config;
use indexer::eval::disk::{measure_disk, read_terms, sample_terms};
use indexer::eval::report::{EvalConfig, ReportOptions, collection_report, write_report};
use indexer::eval::run::{read_topics, run_topics};
use indexer::eval::score::{EvalOptions, Qrels, Run, evaluate};
use indexer::eval::stats::index_statistics;
use indexer::input::{SkipReason, Skipped};
use indexer::search::{Collection, IndexChoice};

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
        manifest of <path><TAB><url> gives their URLs), a WARC file (.warc or .warc.gz: \
        response records, URL from WARC-Target-URI, charset from the HTTP header), or a JSON \
        Lines file of {\"url\": …, \"html\": …}. Give several to index them together.\n\n\
        The build is written to DIR/builds/<id>/ and published by switching the link \
        DIR/current to it when everything succeeded: a failed or interrupted build leaves \
        the previous one searchable. A build folder holds docview.jsonl, replicas.tsv \
        (removed<TAB>kept<TAB>exact|near), skipped.tsv, summary.json, the learned stop \
        words, the effective config, and the indexes abstract/ and fulltext/.\n\n\
        Bad pages are skipped with a one-line message naming the page and the reason; the \
        build goes on.")]
    Build(BuildArgs),
    /// Search a build (BM25) and print ranked results.
    #[command(long_about = "Search a build and print ranked results: rank, score, URL, title \
        and a snippet of the abstract.\n\n\
        Any text is a valid query: it is segmented like the pages (Chinese by jieba), \
        stemmed, and matched as a bag of words with BM25. --index abstract searches titles, \
        keywords and abstracts (precise); fulltext searches all visible text of the raw \
        pages (the paper's baseline); tiered answers from the abstract index first and fills \
        the rest from the full-text index.\n\nExit code 1 when nothing matched.")]
    Search(SearchArgs),
    /// Evaluate: write TREC runs, score them like trec_eval.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// Content classification: train a model, evaluate on the public sets.
    #[command(subcommand)]
    Classify(ClassifyCommand),
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
        such indexer must do; and the ratios build / floor and 2 threads / 1 thread;\n\
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
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    #[command(flatten)]
    dir: DirArg,
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
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// No progress bar and no per-page messages (the summary is still printed).
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
struct SearchArgs {
    /// The query.
    query: String,
    #[command(flatten)]
    dir: DirArg,
    /// Which index answers.
    #[arg(long, default_value = "abstract", value_parser = clap::builder::PossibleValuesParser::new(IndexChoice::NAMES))]
    index: String,
    /// Number of results.
    #[arg(short = 'n', long, default_value_t = 10)]
    limit: usize,
    /// Only pages of this content category (a code of the build's classifier, e.g. 05).
    #[arg(long, value_name = "CODE")]
    category: Option<String>,
    /// One JSON object per result (JSON Lines).
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
}

#[derive(Args)]
struct EvalCleanArgs {
    /// Folder of pages.
    #[arg(long, value_name = "DIR")]
    html: PathBuf,
    /// Folder of gold texts (<stem>.txt).
    #[arg(long, value_name = "DIR")]
    gold: PathBuf,
    /// The cleaner to score.
    #[arg(long, default_value = "docview", value_parser = clap::builder::PossibleValuesParser::new(CleanerKind::NAMES))]
    cleaner: String,
    /// Score every cleaner.
    #[arg(long)]
    all: bool,
    #[arg(long)]
    json: bool,
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
    #[arg(long, default_value = "abstract", value_parser = clap::builder::PossibleValuesParser::new(IndexChoice::NAMES))]
    index: String,
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
        eval/classify/sample-labels.tsv --labels eval/classify/extra --pages \
        eval/sample-corpus/pages --config eval/classify/default-model.toml --out \
        src/classify/data/default-model.bin")]
    Train(ClassifyTrainArgs),
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
            eprintln!("indexer: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Build(args) => build_command(args),
        Command::Search(args) => search_command(args),
        Command::Eval(EvalCommand::Run(args)) => eval_run_command(args),
        Command::Eval(EvalCommand::Score(args)) => eval_score_command(args),
        Command::Eval(EvalCommand::Report(args)) => eval_report_command(args),
        Command::Eval(EvalCommand::Disk(args)) => eval_disk_command(args),
        Command::Eval(EvalCommand::Stats(args)) => eval_stats_command(args),
        Command::Eval(EvalCommand::Replicas(args)) => eval_replicas_command(args),
        Command::Eval(EvalCommand::Clean(args)) => eval_clean_command(args),
        Command::Classify(ClassifyCommand::Train(args)) => classify_train_command(args),
        Command::Classify(ClassifyCommand::Eval(args)) => classify_eval_command(args),
        Command::Classify(ClassifyCommand::Text(args)) => classify_text_command(args),
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
    let result = build(&args.inputs, &args.dir.dir, &config, &observer);
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

fn index_choice(name: &str) -> IndexChoice {
    IndexChoice::from_name(name).unwrap_or(IndexChoice::Abstract)
}

fn search_command(args: SearchArgs) -> Result<ExitCode> {
    let collection = Collection::open(&args.dir.dir)?;
    let hits =
        collection.search_in_category(&args.query, index_choice(&args.index), args.limit, args.category.as_deref())?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for hit in &hits {
        if args.json {
            writeln!(out, "{}", serde_json::to_string(hit)?)?;
        } else {
            match &hit.category {
                Some(code) => writeln!(out, "{:>3}. {:<8.3} {}  [{code}]", hit.rank, hit.score, hit.url)?,
                None => writeln!(out, "{:>3}. {:<8.3} {}", hit.rank, hit.score, hit.url)?,
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
    let collection = Collection::open(&args.dir.dir)?;
    let run =
        run_topics(&collection, &topics, index_choice(&args.index), args.limit, &format!("indexer-{}", args.index))?;
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
    };
    let report = collection_report(&dir, &topics, &qrels, &options)?;
    let command = match &args.config {
        Some(path) => format!("indexer eval report --config {}", path.display()),
        None => "indexer eval report".to_string(),
    };
    write_report(&report, &report_dir, &command)?;
    for e in &report.effectiveness {
        let m = &e.summary.measures;
        outln!("{:<9} P@10 {:.4}  MAP {:.4}  nDCG@10 {:.4}", e.index, m.p_10, m.map, m.ndcg_cut_10);
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
    }
    Ok(ExitCode::SUCCESS)
}

fn eval_clean_command(args: EvalCleanArgs) -> Result<ExitCode> {
    use indexer::eval::clean::{GoldSet, evaluate_cleaner};
    let set = GoldSet::open(&args.html, &args.gold)?;
    let cleaners: Vec<&str> = if args.all { CleanerKind::NAMES.to_vec() } else { vec![args.cleaner.as_str()] };
    for name in cleaners {
        let kind = CleanerKind::from_name(name).context("unknown cleaner")?;
        let score = evaluate_cleaner(&set, kind)?;
        if args.json {
            outln!("{}", serde_json::to_string(&score)?);
        } else {
            outln!(
                "{:<14} pages {:>4}  P {:.3}  R {:.3}  F1 {:.3}  mean page F1 {:.3}  empty {:>3}  {:.0} pages/s",
                score.cleaner,
                score.pages,
                score.precision,
                score.recall,
                score.f1,
                score.mean_page_f1,
                score.empty_outputs,
                score.pages_per_second
            );
        }
    }
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
    let settings = Config::default();
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
        let command = match &args.config {
            Some(path) => {
                format!("indexer eval replicas --config {}{}", path.display(), if args.sweep { " --sweep" } else { "" })
            }
            None => "indexer eval replicas".to_string(),
        };
        write_replica_report(&report, &dir, &command)?;
        if !args.json {
            outln!("report written to {}", dir.join("report.md").display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn classify_train_command(args: ClassifyTrainArgs) -> Result<ExitCode> {
    use indexer::classify::CategoryScheme;
    use indexer::classify::labels::read_labels;
    use indexer::classify::train::{Example, train};

    let config = load_config(args.config.as_deref())?;
    let scheme = match &args.scheme {
        Some(path) => CategoryScheme::from_file(path)?,
        None => CategoryScheme::table1(),
    };
    let started = std::time::Instant::now();
    let mut labelled = Vec::new();
    for labels in &args.labels {
        labelled.extend(read_labels(labels, &args.pages, &config)?);
    }
    let settings = config.classify.feature_settings();
    let mut examples = Vec::new();
    for item in &labelled {
        let class = scheme
            .index_of(&item.code)
            .with_context(|| format!("{}: code {:?} is not in the category scheme", item.origin, item.code))?;
        examples.push(Example { features: settings.extract(&item.text), class });
    }
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
    let results = indexer::classify::eval::evaluate_shared(&args.data, &config.classify, args.limit)?;
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
    let raw = RawPage { url, origin: args.file.display().to_string(), bytes, http_charset: None };
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

fn bench_command(args: BenchArgs) -> Result<ExitCode> {
    use indexer::bench::{BenchOptions, run_bench, run_floor};

    let config = load_config(args.config.as_deref())?;
    if args.floor_run {
        let threads = args.threads.first().copied().unwrap_or(1).max(1);
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("cannot set the number of threads")?;
        let work_dir = args.work_dir.unwrap_or_else(std::env::temp_dir);
        let run = run_floor(&args.inputs, &config, &work_dir)?;
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
        work_dir: work_dir.path().to_path_buf(),
    };
    let report = run_bench(&options, &|step| eprintln!("indexer bench: {step}"))?;
    let command: Vec<String> = std::env::args().map(|a| if a.contains(' ') { format!("{a:?}") } else { a }).collect();
    let command = command.join(" ").replacen(&std::env::args().next().unwrap_or_default(), "indexer", 1);
    indexer::bench::write_report(&report, &args.report, &command)?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    for run in &report.runs {
        outln!(
            "{} thread(s): build {:.0} pages/s ({:.2} MB/s, peak {:.0} MiB), floor {:.0} pages/s, build / floor {:.2}",
            run.threads,
            run.build_throughput.pages_per_second,
            run.build_throughput.mb_per_second,
            run.build.peak_rss_bytes.unwrap_or(0) as f64 / 1048576.0,
            run.floor_throughput.pages_per_second,
            run.build_over_floor
        );
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
