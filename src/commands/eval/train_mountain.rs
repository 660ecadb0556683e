use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalTrainMountainArgs {
    /// Folder holding the gold sets (<DATA>/<set>/html, <DATA>/<set>/gold).
    #[arg(long, value_name = "DIR")]
    pub data: PathBuf,
    /// Where to write the model (JSON).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// A set to train on (repeat for several); default: dragnet-train, wcxb-train, page-signal
    /// (the cleaning training sets; never train on the test sets of `eval clean`).
    #[arg(long = "set", value_name = "NAME")]
    pub sets: Vec<String>,
    /// Configuration whose [mountain] section gives the cell, ridge and training parameters.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

pub fn run(args: EvalTrainMountainArgs) -> Result<ExitCode> {
    use indexer::eval::train_mountain::{DEFAULT_SETS, train_mountain};
    let config = load_config(args.config.as_deref())?;
    let sets: Vec<String> =
        if args.sets.is_empty() { DEFAULT_SETS.iter().map(|s| s.to_string()).collect() } else { args.sets };
    let started = std::time::Instant::now();
    let (model, summaries) = train_mountain(&args.data, &sets, &config)?;
    for s in &summaries {
        outln!(
            "{:<16} train {:>4} pages  held out {:>4}  ridges {:>5}  primary {:>4}",
            s.set,
            s.training_pages,
            s.held_out_pages,
            s.ridges,
            s.positives
        );
    }
    std::fs::write(&args.out, model.to_json()).with_context(|| format!("writing {}", args.out.display()))?;
    outln!(
        "{} ridges ({} primary); weights {:?} on {:?}, bias {:.4}; {:.1} s; wrote {}",
        model.examples,
        model.positives,
        model.regression.weights.iter().map(|w| (w * 1e4).round() / 1e4).collect::<Vec<_>>(),
        model.regression.features,
        model.regression.bias,
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
