use indexer::eval::score::{EvalOptions, Qrels, Run, evaluate};

use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalScoreArgs {
    /// Relevance judgments (`qid iter docno rel`).
    #[arg(long, value_name = "FILE")]
    pub qrels: PathBuf,
    /// A TREC run file.
    #[arg(long, value_name = "FILE")]
    pub run: PathBuf,
    /// Print every topic's measures too (trec_eval -q).
    #[arg(short = 'q')]
    pub per_topic: bool,
    /// Average over every judged topic, scoring topics missing from the run as 0 (trec_eval -c).
    #[arg(short = 'c', long)]
    pub complete: bool,
    /// Print JSON instead of trec_eval's text format.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: EvalScoreArgs) -> Result<ExitCode> {
    let qrels = Qrels::from_path(&args.qrels)?;
    let run = Run::from_path(&args.run)?;
    let evaluation = evaluate(&qrels, &run, EvalOptions { complete: args.complete })?;
    if args.json {
        outln!("{}", serde_json::to_string(&evaluation)?);
    } else {
        out!("{}", evaluation.to_trec_eval_text(args.per_topic));
    }
    Ok(ExitCode::SUCCESS)
}
