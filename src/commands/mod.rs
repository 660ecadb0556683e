//! The subcommands of the binary, one module each (the layout of cargo's `commands/`). Each
//! holds its flags (a clap struct, with the help text) and a `run` that turns them into the
//! library's options, calls the library and prints the outcome. Not part of the library: the
//! library is `src/lib.rs`.

pub mod bench;
pub mod build;
pub mod classify;
pub mod eval;
pub mod export;
pub mod extract;
pub mod inspect;
pub mod replicas;
pub mod search;
pub mod site_templates;
pub mod stop_words;

use std::collections::HashMap;
use std::sync::Mutex;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use indexer::config::{CleanerKind, DetectorKind};
use indexer::input::{SkipReason, Skipped};
use indexer::pipeline::BuildObserver;
use indicatif::ProgressBar;

use crate::commands::prelude::*;

/// What every command module uses.
pub mod prelude {
    pub use std::io::Write;
    pub use std::path::{Path, PathBuf};
    pub use std::process::ExitCode;

    pub use anyhow::{Context, Result, bail};
    pub use clap::{Args, Subcommand};
    pub use indexer::config::Config;

    pub use super::{CliObserver, DEFAULT_DIR, DirArg, cleaner_parser, command_line, detector_parser, load_config};
}

/// `--cleaner NAME`: one of `CleanerKind::NAMES` (listed by `--help`), parsed here once.
pub fn cleaner_parser() -> impl TypedValueParser<Value = CleanerKind> {
    PossibleValuesParser::new(CleanerKind::NAMES).try_map(|name| CleanerKind::from_name(&name).ok_or("unknown cleaner"))
}

/// `--replicas NAME`: one of `DetectorKind::NAMES`, parsed here once.
pub fn detector_parser() -> impl TypedValueParser<Value = DetectorKind> {
    PossibleValuesParser::new(DetectorKind::NAMES)
        .try_map(|name| DetectorKind::from_name(&name).ok_or("unknown detector"))
}

/// The build folder when --dir is not given.
pub const DEFAULT_DIR: &str = "indexer-data";

#[derive(Args)]
pub struct DirArg {
    /// The build folder.
    #[arg(long, default_value = DEFAULT_DIR, value_name = "DIR")]
    pub dir: PathBuf,
}

pub fn load_config(path: Option<&Path>) -> Result<Config> {
    Ok(match path {
        Some(path) => Config::from_toml_file(path)?,
        None => Config::default(),
    })
}

/// The command line as typed, for the reports that record how they were made: `indexer`
/// and its arguments, those holding a space quoted.
pub fn command_line() -> String {
    let args: Vec<String> =
        std::env::args().skip(1).map(|a| if a.contains(' ') { format!("{a:?}") } else { a }).collect();
    format!("indexer {}", args.join(" "))
}

/// Per-page messages are capped per reason so a bad crawl does not flood the terminal; all of
/// them are in skipped.tsv.
const MESSAGES_PER_REASON: usize = 10;

/// The build's observer on a terminal: skipped pages on stderr (capped per reason), warnings,
/// and the progress bar when there is one.
pub struct CliObserver {
    bar: Option<ProgressBar>,
    quiet: bool,
    shown: Mutex<HashMap<SkipReason, usize>>,
}

impl CliObserver {
    pub fn new(bar: Option<ProgressBar>, quiet: bool) -> CliObserver {
        CliObserver { bar, quiet, shown: Mutex::new(HashMap::new()) }
    }

    /// Clears the progress bar, if there is one.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

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
            let seconds = bar.elapsed().as_secs_f64();
            if seconds >= 1.0 {
                bar.set_message(format!("{pages} pages, {:.0} pages/s", pages as f64 / seconds));
            } else {
                bar.set_message(format!("{pages} pages"));
            }
        }
    }

    fn warning(&self, message: &str) {
        if !self.quiet {
            self.say(&format!("indexer: warning: {message}"));
        }
    }
}
