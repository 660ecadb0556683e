use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalPageTypesArgs {
    /// The cleaning configuration naming the training sets.
    #[arg(long, value_name = "FILE", default_value = "eval/cleaning.toml")]
    pub config: PathBuf,
    /// A training set the hub-page model is fitted on (repeat the option for several)
    /// [default: every training set].
    #[arg(long, value_name = "NAME")]
    pub fit_set: Vec<String>,
    /// Number of folds (by site).
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = clap::value_parser!(u16).range(2..))]
    pub folds: u16,
    /// Partitions into folds by site scored by nested cross-validation: the shipped folds,
    /// then N-1 others drawn with other hashes (a choice is not read off one partition).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub partitions: u16,
    /// At most this many pages per training set (the first by file name): a short run.
    #[arg(long, value_name = "N")]
    pub max_pages: Option<usize>,
    /// Write the model fitted on every page of the fit sets here (JSON); to ship it, write it
    /// over src/clean/page_type/hub-model.json and rebuild.
    #[arg(long, value_name = "FILE")]
    pub write_model: Option<PathBuf>,
    /// Where report.md and report.json go [default: print the report only].
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Every page's features and cross-validated hub probability, as TSV.
    #[arg(long, value_name = "FILE")]
    pub features: Option<PathBuf>,
    /// A TOML file overriding any parameter (see `indexer config`): the cleaner pages are
    /// typed after, and its settings.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// The JSON report instead of the markdown.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: EvalPageTypesArgs) -> Result<ExitCode> {
    use indexer::eval::clean_report::CleaningEvalConfig;
    use indexer::eval::page_types::{
        PageTypeOptions, evaluate_page_types, page_features_tsv, page_type_markdown, write_page_type_report,
    };
    let eval_config = CleaningEvalConfig::from_file(&args.config)?;
    let options = PageTypeOptions {
        sets: eval_config.training_sets,
        fit_sets: args.fit_set,
        folds: args.folds as usize,
        partitions: args.partitions as usize,
        max_pages: args.max_pages,
        config: load_config(args.settings.as_deref())?,
    };
    let started = std::time::Instant::now();
    let report = evaluate_page_types(&options, |step| {
        let _ = writeln!(std::io::stderr().lock(), "[{:>5.0} s] {step}", started.elapsed().as_secs_f64());
    })?;
    let command = command_line();
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        out!("{}", page_type_markdown(&report, &command));
    }
    if let Some(path) = &args.write_model {
        std::fs::write(path, report.model.to_json()).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.features {
        std::fs::write(path, page_features_tsv(&report)).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(dir) = &args.report {
        write_page_type_report(&report, dir, &command)?;
    }
    Ok(ExitCode::SUCCESS)
}
