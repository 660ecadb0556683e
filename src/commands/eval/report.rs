use indexer::eval::report::{EvalConfig, ReportOptions, collection_report, write_report};
use indexer::eval::run::read_topics;
use indexer::eval::score::Qrels;
use indexer::pipeline::build;
use indexer::search::Collection;

use crate::commands::eval::disk::{DiskOptions, disk_terms};

use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalReportArgs {
    /// An evaluation config (eval/<collection>.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The build folder [default: indexer-data/eval-<name> with --config, else indexer-data].
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    pub topics: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    pub qrels: Option<PathBuf>,
    /// The folder the report is written to.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// The collection's name in the report.
    #[arg(long)]
    pub name: Option<String>,
    /// Results per topic in the runs.
    #[arg(short = 'n', long, default_value_t = 1000)]
    pub limit: usize,
    #[command(flatten)]
    pub disk: DiskOptions,
    /// Build again even if the folder has a build.
    #[arg(long)]
    pub rebuild: bool,
}

pub fn run(args: EvalReportArgs) -> Result<ExitCode> {
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
        let summary =
            build(std::slice::from_ref(&config.input), &dir, &config.build_config(), &indexer::pipeline::Quiet)?;
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
