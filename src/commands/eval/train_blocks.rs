use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalTrainBlocksArgs {
    /// The cleaning configuration naming the training sets.
    #[arg(long, value_name = "FILE", default_value = "eval/cleaning.toml")]
    pub config: PathBuf,
    /// Where to write the model (JSON).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Where the report goes [default: the folder of the config's blocks_report].
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// At most this many pages per training set (the first by file name): a short run.
    #[arg(long, value_name = "N")]
    pub max_pages: Option<usize>,
    /// Configuration whose [blocks] and [cleaning] settings are used [default: the built-in
    /// defaults].
    #[arg(long, value_name = "FILE")]
    pub cleaner_config: Option<PathBuf>,
}

pub fn run(args: EvalTrainBlocksArgs) -> Result<ExitCode> {
    use indexer::eval::clean_report::CleaningEvalConfig;
    use indexer::eval::train_blocks::{train_blocks, write_blocks_report};
    let eval_config = CleaningEvalConfig::from_file(&args.config)?;
    let config = load_config(args.cleaner_config.as_deref())?;
    let out = match (args.report, &eval_config.blocks_report) {
        (Some(dir), _) => dir,
        (None, Some(path)) => path.parent().map(Path::to_path_buf).unwrap_or_default(),
        (None, None) => bail!("{}: no blocks_report; give --report DIR", args.config.display()),
    };
    let started = std::time::Instant::now();
    let (model, report) = train_blocks(&eval_config.training_sets, &config, args.max_pages, |step| {
        let _ = writeln!(std::io::stderr().lock(), "[{:>5.0} s] {step}", started.elapsed().as_secs_f64());
    })?;
    let mean = |f1: &[f64]| f1.iter().sum::<f64>() / f1.len().max(1) as f64;
    let rounded = |f1: &[f64]| f1.iter().map(|f| (f * 10_000.0).round() / 10_000.0).collect::<Vec<_>>();
    outln!("sets: {}", report.sets.join(", "));
    outln!(
        "blocks, cross-validated F1 {:?}  mean {:.4}",
        rounded(&report.cross_validated_f1),
        mean(&report.cross_validated_f1)
    );
    outln!("docview (in-sample)        {:?}  mean {:.4}", rounded(&report.docview_f1), mean(&report.docview_f1));
    std::fs::write(&args.out, model.to_json()).with_context(|| format!("writing {}", args.out.display()))?;
    write_blocks_report(&report, &out, &command_line())?;
    outln!(
        "{} trees over {} blocks ({} content), threshold {}; wrote {} and {} ({:.0} s)",
        model.trees.len(),
        model.examples,
        model.positives,
        model.threshold,
        args.out.display(),
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
