use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalLanguagesArgs {
    /// Folders of pages, WARC or ARC files, JSON Lines files.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The JSON figures instead of the table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: EvalLanguagesArgs) -> Result<ExitCode> {
    let sources = indexer::input::Source::of_inputs(&args.inputs)?;
    let eval = indexer::eval::languages::evaluate_languages(&sources, &Config::default())?;
    if args.json {
        outln!("{}", serde_json::to_string(&eval)?);
    } else {
        out!("{}", eval.to_markdown());
    }
    Ok(ExitCode::SUCCESS)
}
