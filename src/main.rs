//! The `indexer` command line: a thin layer over the library.
//!
//! Exit codes: 0 success; 1 a search or evaluation ran but found nothing; 2 an error (bad
//! arguments, unreadable input, no build). A build that skipped some pages still exits 0:
//! skipped pages are reported one per line on stderr and counted in the summary.
//!
//! Each subcommand has its module in `commands/` (cargo's layout): its flags as a clap struct,
//! turned into the library's options and one library call. What is printed is decided there;
//! what is computed is in the library.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// mimalloc, not the system allocator: html5ever's DOM, its string buffers and the tag tree
/// are many small allocations per page, and every page frees them all. It is faster than
/// glibc's malloc on every gold set and on whole builds, at the cost of a higher peak RSS
/// (it keeps freed pages per thread for reuse); the figures are in commit 3f8d7b8.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

mod commands;

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
    #[command(long_about = commands::build::LONG_ABOUT)]
    Build(commands::build::BuildArgs),
    /// Write the topic content of each page as a text file (no indexes).
    #[command(long_about = commands::extract::LONG_ABOUT)]
    Extract(commands::extract::ExtractArgs),
    /// Search a build (BM25) and print ranked results.
    #[command(long_about = commands::search::LONG_ABOUT)]
    Search(commands::search::SearchArgs),
    /// Evaluate: write TREC runs, score them like trec_eval.
    #[command(subcommand)]
    Eval(commands::eval::EvalCommand),
    /// Content classification: train a model, evaluate on the public sets.
    #[command(subcommand)]
    Classify(commands::classify::ClassifyCommand),
    /// Export a build's index documents as JSON Lines (for Quickwit).
    #[command(long_about = commands::export::LONG_ABOUT)]
    Export(commands::export::ExportArgs),
    /// Shard builds: remove the replicas between them.
    #[command(subcommand)]
    Replicas(commands::replicas::ReplicasCommand),
    /// Learn the stop-word list a build of the inputs would learn, for shard builds to share.
    #[command(long_about = commands::stop_words::LONG_ABOUT)]
    StopWords(commands::stop_words::StopWordsArgs),
    /// Learn the site templates a build of the inputs would learn, for shard builds to share.
    #[command(long_about = commands::site_templates::LONG_ABOUT)]
    SiteTemplates(commands::site_templates::SiteTemplatesArgs),
    /// Show what the pipeline makes of one page: tag tree, topic content, DocView record.
    #[command(long_about = commands::inspect::LONG_ABOUT)]
    Inspect(commands::inspect::InspectArgs),
    /// Print the default configuration as TOML, each section and parameter explained in a
    /// comment above it (`indexer config > my.toml`, edit, then `--config my.toml`).
    Config,
    /// Measure throughput per stage, whole builds against a floor reference, and memory.
    #[command(long_about = commands::bench::LONG_ABOUT)]
    Bench(commands::bench::BenchArgs),
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
        Command::Build(args) => commands::build::run(args),
        Command::Extract(args) => commands::extract::run(args),
        Command::Search(args) => commands::search::run(args),
        Command::Eval(command) => commands::eval::run(command),
        Command::Classify(command) => commands::classify::run(command),
        Command::Replicas(command) => commands::replicas::run(command),
        Command::StopWords(args) => commands::stop_words::run(args),
        Command::SiteTemplates(args) => commands::site_templates::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Inspect(args) => commands::inspect::run(args),
        Command::Config => {
            out!("{}", indexer::config::Config::default().to_commented_toml());
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench(args) => commands::bench::run(args),
    }
}
