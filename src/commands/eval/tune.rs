use indexer::build::build;
use indexer::eval::report::EvalConfig;
use indexer::eval::run::read_topics;
use indexer::eval::score::Qrels;
use indexer::search::{Collection, SearchSettings};

use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalTuneArgs {
    /// Evaluation configs (eval/<collection>.toml), at least two.
    #[arg(long = "config", value_name = "FILE", required = true)]
    pub configs: Vec<PathBuf>,
    /// Results per topic in the runs.
    #[arg(short = 'n', long, default_value_t = 1000)]
    pub limit: usize,
    /// The settings before tuning [default: the shipped ones].
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Where the report goes.
    #[arg(long, value_name = "DIR", default_value = "eval/reports/tuning")]
    pub report: PathBuf,
    /// Write the settings chosen on all collections to this file (src/search/settings.toml
    /// ships them).
    #[arg(long, value_name = "FILE")]
    pub write_settings: Option<PathBuf>,
}

pub fn run(args: EvalTuneArgs) -> Result<ExitCode> {
    use indexer::eval::tune::{TuneCollection, tune, write_tuning_report};
    let start = match &args.settings {
        Some(path) => SearchSettings::from_file(path)?,
        None => SearchSettings::shipped(),
    };
    let mut collections = Vec::new();
    for path in &args.configs {
        let config = EvalConfig::from_file(path).map_err(anyhow::Error::msg)?;
        let dir = Path::new(DEFAULT_DIR).join(format!("eval-{}", config.name));
        if indexer::index::current_build(&dir).is_err() {
            eprintln!("indexer: building {} into {}", config.input.display(), dir.display());
            let summary = build(std::slice::from_ref(&config.input), &dir, &Config::default(), &indexer::build::Quiet)?;
            eprintln!("{summary}");
        }
        collections.push(TuneCollection {
            name: config.name.clone(),
            collection: Collection::open(&dir)?,
            topics: read_topics(&config.topics)?,
            qrels: Qrels::from_path(&config.qrels)?,
        });
    }
    let report = tune(&mut collections, &start, args.limit, &|step| eprintln!("indexer: tuning, {step}"))?;
    let configs: Vec<String> = args.configs.iter().map(|p| format!("--config {}", p.display())).collect();
    let command = format!("indexer eval tune {}", configs.join(" "));
    write_tuning_report(&report, &args.report, &command, args.write_settings.as_deref())?;
    if let Some(path) = &args.write_settings {
        outln!("settings written to {}", path.display());
    }
    for fold in &report.folds {
        for (search, scores) in &fold.held_out {
            outln!(
                "{:<8} {:<16} held out: P@10 {:.4}  MAP {:.4}  nDCG@10 {:.4}",
                fold.collection,
                search,
                scores.p_10,
                scores.map,
                scores.ndcg_10
            );
        }
    }
    outln!("report written to {}", args.report.join("report.md").display());
    Ok(ExitCode::SUCCESS)
}
