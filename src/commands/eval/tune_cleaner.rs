use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalTuneCleanerArgs {
    /// The cleaning configuration naming the training sets.
    #[arg(long, value_name = "FILE", default_value = "eval/cleaning.toml")]
    pub config: PathBuf,
    /// Number of folds (by site).
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = clap::value_parser!(u16).range(2..))]
    pub folds: u16,
    /// Rounds of coordinate descent at most.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub rounds: usize,
    /// At most this many pages per training set (the first by file name): a short run.
    #[arg(long, value_name = "N")]
    pub max_pages: Option<usize>,
    /// Where the report goes [default: the folder of the config's training_report].
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Configuration whose [cleaning] settings the search starts from [default: the built-in
    /// defaults].
    #[arg(long, value_name = "FILE")]
    pub cleaner_config: Option<PathBuf>,
}

pub fn run(args: EvalTuneCleanerArgs) -> Result<ExitCode> {
    use indexer::eval::clean_report::CleaningEvalConfig;
    use indexer::eval::tune_cleaner::{TuneOptions, tune_cleaner, write_tuning_report};
    let eval_config = CleaningEvalConfig::from_file(&args.config)?;
    let config = load_config(args.cleaner_config.as_deref())?;
    let out = match (args.report, &eval_config.training_report) {
        (Some(dir), _) => dir,
        (None, Some(path)) => path.parent().map(Path::to_path_buf).unwrap_or_default(),
        (None, None) => bail!("{}: no training_report; give --report DIR", args.config.display()),
    };
    let options = TuneOptions { folds: args.folds as usize, rounds: args.rounds, max_pages: args.max_pages };
    let started = std::time::Instant::now();
    let report = tune_cleaner(&eval_config.training_sets, &config, options, |step| {
        let _ = writeln!(std::io::stderr().lock(), "[{:>5.0} s] {step}", started.elapsed().as_secs_f64());
    })?;
    let mean = |f1: &[f64]| f1.iter().sum::<f64>() / f1.len().max(1) as f64;
    let cv: Vec<f64> = report.cross_validated.sets.iter().map(|&(_, f)| f).collect();
    outln!("sets: {}", report.sets.join(", "));
    outln!("start F1           {:?}  mean {:.4}", rounded(&report.start_f1), mean(&report.start_f1));
    outln!("cross-validated F1 {:?}  mean {:.4}", rounded(&cv), mean(&cv));
    outln!(
        "in-sample F1       {:?}  mean {:.4}  (the setting chosen on all pages)",
        rounded(&report.chosen_f1),
        mean(&report.chosen_f1)
    );
    for ((name, start), (_, chosen)) in report.start.iter().zip(&report.chosen) {
        let mark = if start != chosen { "  <- moved" } else { "" };
        outln!("  {name:<26} {start:>8} -> {chosen:<8}{mark}");
    }
    write_tuning_report(&report, &out, &command_line())?;
    outln!("report written to {} ({:.0} s)", out.display(), started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

pub fn rounded(f1: &[f64]) -> Vec<f64> {
    f1.iter().map(|f| (f * 10_000.0).round() / 10_000.0).collect()
}
