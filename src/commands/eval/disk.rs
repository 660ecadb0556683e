use indexer::eval::disk::{measure_disk, read_terms, sample_terms};
use indexer::eval::run::read_topics;
use indexer::search::Collection;

use crate::commands::prelude::*;

#[derive(Args)]
pub struct DiskOptions {
    /// A query log: one query term per line (default: sample from the vocabulary).
    #[arg(long, value_name = "FILE")]
    pub terms: Option<PathBuf>,
    /// How many terms to sample without --terms (the paper used 6,000).
    #[arg(long, default_value_t = 6000)]
    pub queries: usize,
    /// Queries per group.
    #[arg(long, default_value_t = 100)]
    pub group: usize,
    /// Seed of the term sample.
    #[arg(long, default_value_t = 2004)]
    pub seed: u64,
}

#[derive(Args)]
pub struct EvalDiskArgs {
    #[command(flatten)]
    pub dir: DirArg,
    #[command(flatten)]
    pub disk: DiskOptions,
    /// Also measure these topics' queries, as one group.
    #[arg(long, value_name = "FILE")]
    pub topics: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

pub fn disk_terms(options: &DiskOptions, collection: &Collection) -> Result<(Vec<String>, String)> {
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

pub fn run(args: EvalDiskArgs) -> Result<ExitCode> {
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
