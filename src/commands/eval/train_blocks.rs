use crate::commands::prelude::*;
use indexer::eval::train_blocks::{GridSetting, GridSpec, grid_blocks, grid_markdown, write_grid_report};

#[derive(Args)]
pub struct EvalTrainBlocksArgs {
    /// The cleaning configuration naming the training sets.
    #[arg(long, value_name = "FILE", default_value = "eval/cleaning.toml")]
    pub config: PathBuf,
    /// Where to write the model (JSON).
    #[arg(long, value_name = "FILE", required_unless_present_any = ["grid", "stacking"])]
    pub out: Option<PathBuf>,
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
    /// Instead of training: compare learner settings DEPTH:LEARNING_RATE:MIN_LEAF_WEIGHT
    /// (comma-separated, e.g. `5:0.1:1,6:0.05:1`) by the same cross-validation, the pages read
    /// and their features computed once; writes grid.md and grid.json into the report folder.
    #[arg(long, value_name = "SETTINGS", value_delimiter = ',')]
    pub grid: Vec<GridSetting>,
    /// The tree counts scored for every grid setting (fewer trees are the first trees of one fit).
    #[arg(long, value_name = "N,...", value_delimiter = ',', default_value = "150,300,600")]
    pub grid_trees: Vec<usize>,
    /// A stacked second stage at the [blocks] settings, reading the first stage's out-of-fold
    /// probabilities of the block's neighbours, ancestors, siblings and page. With --out (and
    /// no --grid): train and write a stacked model (the first stage fitted on every page, the
    /// second on rows carrying the cross-validation's out-of-fold first-stage probabilities,
    /// the threshold chosen on the second stage's out-of-fold probabilities). With --grid, or
    /// without --out: compare it with the one-stage model in the grid report.
    #[arg(long)]
    pub stacking: bool,
    /// With --stacking, in the grid report only: also a third stage, reading the block
    /// features and the first and second stages' probabilities around the block (a model
    /// file holds at most two stages).
    #[arg(long, requires = "stacking")]
    pub third_stage: bool,
    /// With --grid: also write the first stage's out-of-fold result at the [blocks] settings
    /// into DIR (pages.tsv: per page precision and recall; blocks.tsv: per block label,
    /// probability, tag, class/id and text), for error analysis on the training pages; with
    /// --stacking also the second stage's (stacked-pages.tsv, stacked-blocks.tsv).
    #[arg(long, value_name = "DIR", requires = "grid")]
    pub dump_out_of_fold: Option<PathBuf>,
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
    let progress = |step: &str| {
        let _ = writeln!(std::io::stderr().lock(), "[{:>5.0} s] {step}", started.elapsed().as_secs_f64());
    };
    if args.third_stage && args.grid.is_empty() && args.out.is_some() {
        bail!("--third-stage is compared in the grid report only: give --grid, or leave out --out");
    }
    if !args.grid.is_empty() || (args.stacking && args.out.is_none()) {
        let spec = GridSpec {
            settings: args.grid,
            trees: args.grid_trees,
            stacking: args.stacking,
            third_stage: args.third_stage,
            dump: args.dump_out_of_fold,
        };
        let report = grid_blocks(&eval_config.training_sets, &config, &spec, args.max_pages, progress)?;
        write_grid_report(&report, &out, &command_line())?;
        outln!("{}", grid_markdown(&report, &command_line()));
        outln!("wrote {} ({:.0} s)", out.join("grid.md").display(), started.elapsed().as_secs_f64());
        return Ok(ExitCode::SUCCESS);
    }
    let model_out = args.out.context("--out FILE is needed to train")?;
    let (model, report) = train_blocks(&eval_config.training_sets, &config, args.max_pages, args.stacking, progress)?;
    let mean = |f1: &[f64]| f1.iter().sum::<f64>() / f1.len().max(1) as f64;
    let rounded = |f1: &[f64]| f1.iter().map(|f| (f * 10_000.0).round() / 10_000.0).collect::<Vec<_>>();
    outln!("sets: {}", report.sets.join(", "));
    outln!(
        "blocks, cross-validated F1 {:?}  mean {:.4}",
        rounded(&report.cross_validated_f1),
        mean(&report.cross_validated_f1)
    );
    outln!("docview (in-sample)        {:?}  mean {:.4}", rounded(&report.docview_f1), mean(&report.docview_f1));
    std::fs::write(&model_out, model.to_json()).with_context(|| format!("writing {}", model_out.display()))?;
    write_blocks_report(&report, &out, &command_line())?;
    outln!(
        "{} trees{} over {} blocks ({} content), threshold {}; wrote {} and {} ({:.0} s)",
        model.trees.len(),
        model.stage2.as_ref().map(|s| format!(" and a second stage of {}", s.trees.len())).unwrap_or_default(),
        model.examples,
        model.positives,
        model.threshold,
        model_out.display(),
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
