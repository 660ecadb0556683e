use indexer::eval::stats::index_statistics;
use indexer::search::Collection;

use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalStatsArgs {
    #[command(flatten)]
    pub dir: DirArg,
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: EvalStatsArgs) -> Result<ExitCode> {
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
