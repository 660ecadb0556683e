use crate::commands::prelude::*;

pub const LONG_ABOUT: &str = "Learn the stop-word list a build of INPUT would learn (§3.2: terms \
        in more than stop_words.max_document_frequency of the first stop_words.sample_pages \
        pages, besides the generic lists) and print it, one a line.\n\n\
        Shard builds of one collection each see only their own pages, so each would learn its \
        own list and their abstracts, keywords and index terms would differ from one build's. \
        Learn the list once over all the inputs, in build order, and give it to every shard \
        with `indexer build --stop-words FILE`. Only the first pages are read.\n\n\
        Example:\n  indexer stop-words crawl-00.warc.gz crawl-01.warc.gz -o stop-words.txt\n  \
        indexer build crawl-01.warc.gz --shard --stop-words stop-words.txt --dir shard-01";

#[derive(Args)]
pub struct StopWordsArgs {
    /// Folders of pages, WARC files, or JSON Lines files, in the order a build takes them.
    #[arg(required_unless_present = "input_list", value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// A file naming more inputs, one path a line (as for `indexer build`).
    #[arg(long, value_name = "FILE")]
    pub input_list: Option<PathBuf>,
    /// A TOML file overriding any parameter (see `indexer config`): [stop_words] sets the
    /// sample.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Write the list here instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: StopWordsArgs) -> Result<ExitCode> {
    let config = load_config(args.config.as_deref())?;
    let observer = CliObserver::new(None, false);
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
