use indexer::eval::run::{read_topics, run_topics};
use indexer::search::{Collection, IndexChoice, SearchRequest};

use crate::commands::search::{SearchTuning, index_parser, parse_limit};

use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalRunArgs {
    #[command(flatten)]
    pub dir: DirArg,
    /// Topics: `qid<TAB>query` lines or TREC <top> blocks.
    #[arg(long, value_name = "FILE")]
    pub topics: PathBuf,
    /// Which search: an index, or tiered (both indexes fused).
    #[arg(long, default_value = "tiered", value_parser = index_parser())]
    pub index: IndexChoice,
    #[command(flatten)]
    pub tuning: SearchTuning,
    /// Results per topic (at least 1).
    #[arg(short = 'n', long, default_value_t = 1000, value_parser = parse_limit)]
    pub limit: usize,
    /// Where to write the run (`qid Q0 docno rank score tag`).
    #[arg(long, value_name = "FILE")]
    pub run: PathBuf,
}

pub fn run(args: EvalRunArgs) -> Result<ExitCode> {
    let topics = read_topics(&args.topics)?;
    let mut collection = Collection::open(&args.dir.dir)?;
    if let Some(stale) = collection.stale_analysis() {
        eprintln!("indexer: warning: {} was {stale}", args.dir.dir.display());
    }
    if let Some(settings) = args.tuning.settings()? {
        collection.set_settings(settings)?;
    }
    collection.preload_urls()?;
    let choice = args.index;
    let feedback = args.tuning.feedback(choice);
    let request = SearchRequest { choice, limit: args.limit, category: None, feedback };
    let tag = format!("indexer-{}{}", choice.name(), if feedback { "-rm3" } else { "" });
    let run = run_topics(&collection, &topics, &request, &tag)?;
    std::fs::write(&args.run, &run).with_context(|| format!("cannot write the run to {}", args.run.display()))?;
    eprintln!("indexer: {} topics, {} results written to {}", topics.len(), run.lines().count(), args.run.display());
    Ok(ExitCode::SUCCESS)
}
