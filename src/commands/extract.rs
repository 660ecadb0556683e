use indexer::clean::{CleanerKind, HeadlinePlacement};

use crate::commands::prelude::*;

pub const LONG_ABOUT: &str = "Write the topic content of each page as a text file, with the \
        same cleaner a build uses, and nothing else: no indexes, no replica removal.\n\n\
        Pages from a folder are written as OUT/<stem>.txt after their file (page.html -> \
        page.txt; -2, -3 ... when two files share a stem); pages from WARC and JSON Lines \
        files are numbered in input order (000001.txt). OUT/manifest.tsv maps each file to \
        its URL, page type, origin and headline. The text is the body: the headline (the \
        heading matching <title>) is left out unless --with-headline is given. A page with no \
        topic content gets an empty file; a record that cannot be read is reported and \
        skipped.\n\n\
        Example: indexer extract ../shared/data/zh-wced/html --out /tmp/zh --cleaner docview";

#[derive(Args)]
pub struct ExtractArgs {
    /// Folders of pages, WARC files, or JSON Lines files.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The folder the text files go to (created if missing; files in it are overwritten).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// A TOML file overriding any parameter (see `indexer config`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The page cleaner [default: blocks, or `cleaning.cleaner` of --config]. See README,
    /// "Cleaning quality".
    #[arg(long, value_parser = cleaner_parser())]
    pub cleaner: Option<CleanerKind>,
    /// Keep the headline as the text's first line. By default the text is the body, as
    /// article extractors write it, and the headline goes to manifest.tsv's `headline`
    /// column (a build indexes it with the topic content either way).
    #[arg(long)]
    pub with_headline: bool,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// No per-page messages (the summary is still printed).
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: ExtractArgs) -> Result<ExitCode> {
    let mut config = load_config(args.config.as_deref())?;
    if let Some(cleaner) = args.cleaner {
        config.cleaning.cleaner = cleaner;
    }
    let observer = CliObserver::new(None, args.quiet);
    let headline = if args.with_headline { HeadlinePlacement::Inline } else { HeadlinePlacement::Apart };
    let summary = indexer::pipeline::extract(&args.inputs, &args.out, headline, &config, &observer)?;
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
