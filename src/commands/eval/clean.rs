use indexer::clean::CleanerKind;
use indexer::eval::clean_report::CleaningEvalConfig;
use indexer::eval::clean_table::{CleaningTableError, CleaningTableOptions, GoldSource, run_cleaning_table};

use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalCleanArgs {
    /// Folder of pages (one gold set; or use --config).
    #[arg(long, value_name = "DIR", requires = "gold", conflicts_with = "config")]
    pub html: Option<PathBuf>,
    /// Folder of gold texts (<stem>.txt).
    #[arg(long, value_name = "DIR", requires = "html")]
    pub gold: Option<PathBuf>,
    /// The gold sets and reference figures of the cleaning table (eval/cleaning.toml); with
    /// --all, writes the report (markdown, JSON, chart) to the config's `report` folder.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Only these sets of the config (comma-separated names).
    #[arg(long, value_name = "NAMES", value_delimiter = ',', requires = "config")]
    pub sets: Vec<String>,
    /// At most this many pages per set (the first by file name): a short run.
    #[arg(long, value_name = "N")]
    pub max_pages: Option<usize>,
    /// Where the report goes [default: the config's `report`, for the full table only: --all
    /// on every set and page, nothing held out].
    #[arg(long, value_name = "DIR", requires = "config")]
    pub report: Option<PathBuf>,
    /// The cleaner to score (the default is the build's default cleaner).
    #[arg(long, default_value_t = indexer::config::CleaningConfig::default().cleaner, value_parser = cleaner_parser())]
    pub cleaner: CleanerKind,
    /// Score every cleaner.
    #[arg(long)]
    pub all: bool,
    /// Score the text with its headline as the first line (`extract --with-headline`); by
    /// default the headline is left out, as `extract` writes it. With --all and --config, the
    /// table also has a row for docview with the headline placed the other way.
    #[arg(long)]
    pub with_headline: bool,
    /// Also leave out the pages this cleaner's model was trained on (compare cleaners on the
    /// same held-out pages, e.g. --cleaner docview --held-out-of mountain).
    #[arg(long, value_name = "CLEANER", value_parser = cleaner_parser())]
    pub held_out_of: Option<CleanerKind>,
    /// A TOML file overriding any parameter (see `indexer config`) for every cleaner scored:
    /// how a setting is tried on the training sets.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// One JSON object per cleaner and set (JSON Lines).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: EvalCleanArgs) -> Result<ExitCode> {
    let source = match (args.config.as_deref(), args.html, args.gold) {
        (Some(path), _, _) => GoldSource::Config(CleaningEvalConfig::from_file(path)?),
        (None, Some(html), Some(gold)) => GoldSource::Pair { html, gold },
        _ => bail!("give --html DIR --gold DIR, or --config eval/cleaning.toml"),
    };
    let cleaner = if args.all { None } else { Some(args.cleaner) };
    let options = CleaningTableOptions {
        source,
        sets: args.sets,
        max_pages: args.max_pages,
        report: args.report,
        cleaner,
        with_headline: args.with_headline,
        held_out_of: args.held_out_of,
        json: args.json,
        settings: load_config(args.settings.as_deref())?,
        command: command_line(),
    };
    match run_cleaning_table(options, &mut std::io::stdout().lock()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The write error itself, so that a closed pipe is recognised as one.
        Err(CleaningTableError::Output(error)) => Err(error.into()),
        Err(error) => Err(error.into()),
    }
}
