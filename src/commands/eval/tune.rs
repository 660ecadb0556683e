use indexer::eval::report::EvalConfig;
use indexer::eval::run::read_topics;
use indexer::eval::score::Qrels;
use indexer::eval::tune::{Stage, TuneStart};
use indexer::pipeline::build;
use indexer::search::{Collection, SearchSettings};

use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalTuneArgs {
    /// Evaluation configs (eval/<collection>.toml), at least two.
    #[arg(long = "config", value_name = "FILE", required = true)]
    pub configs: Vec<PathBuf>,
    /// Known-item collections (evaluation configs of our own pages with queries judged by
    /// construction, e.g. eval/sample.toml and eval/zh.toml) that bound every choice: a
    /// candidate is admissible only if it keeps as many of their queries' best-judged pages
    /// first, on the abstract, full-text and tiered searches, as the best candidate of its stage
    /// (all of them when any does). They are never held out and score no objective.
    #[arg(long = "keep-answers", value_name = "FILE")]
    pub keep_answers: Vec<PathBuf>,
    /// Results per topic in the runs.
    #[arg(short = 'n', long, default_value_t = 1000)]
    pub limit: usize,
    /// The settings before tuning [default: the shipped ones].
    #[arg(long, value_name = "FILE", conflicts_with = "from_report")]
    pub settings: Option<PathBuf>,
    /// Start each fold from the settings an earlier tuning chose for it (that tuning's
    /// report.json), and the choice on all collections from its chosen settings: with
    /// --stages, later stages are chosen again without choosing the earlier ones again, still
    /// leave-one-collection-out.
    #[arg(long, value_name = "FILE")]
    pub from_report: Option<PathBuf>,
    /// The stages to choose, comma-separated, of query, abstract, abstract-k1-b, fulltext,
    /// fulltext-k1-b, tiered, tiered+feedback, feedback-use, linear-fusion (a linear model over
    /// the rankings of the search with feedback, by coordinate ascent) [default: all but
    /// linear-fusion], or none (with --from-report: the earlier tuning's
    /// held-out figures measured again, on today's builds); the others keep their start values.
    #[arg(long, value_name = "LIST", value_parser = parse_stages)]
    pub stages: Option<Stages>,
    /// Where the report goes.
    #[arg(long, value_name = "DIR", default_value = "eval/reports/tuning")]
    pub report: PathBuf,
    /// Write the settings chosen on all collections to this file (src/search/settings.toml
    /// ships them).
    #[arg(long, value_name = "FILE")]
    pub write_settings: Option<PathBuf>,
}

/// The stages `--stages` names.
#[derive(Debug, Clone)]
pub struct Stages(Vec<Stage>);

fn parse_stages(list: &str) -> Result<Stages, String> {
    if list == "none" {
        return Ok(Stages(Vec::new()));
    }
    let parse = |name: &str| {
        Stage::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Stage::ALL.iter().map(|s| s.name()).collect();
            format!("unknown stage {name:?} (stages: {}, or none)", known.join(", "))
        })
    };
    list.split(',').map(parse).collect::<Result<Vec<Stage>, String>>().map(Stages)
}

pub fn run(args: EvalTuneArgs) -> Result<ExitCode> {
    use indexer::eval::tune::{tune, write_tuning_report};
    let start = match (&args.settings, &args.from_report) {
        (_, Some(path)) => {
            let json = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            let description = format!("each fold's settings from the tuning of {}", path.display());
            TuneStart::from_report(&json, &description)
                .map_err(|e| anyhow::anyhow!("{}: not a tuning report.json ({e})", path.display()))?
        }
        (Some(path), None) => TuneStart::same(
            SearchSettings::from_file(path)?,
            &format!("the settings of {} (before tuning)", path.display()),
        ),
        (None, None) => TuneStart::same(SearchSettings::shipped(), "the shipped settings"),
    };
    let stages = args.stages.as_ref().map_or_else(|| Stage::DEFAULT.to_vec(), |s| s.0.clone());
    let mut collections = args.configs.iter().map(|path| open_collection(path)).collect::<Result<Vec<_>>>()?;
    let mut known = args.keep_answers.iter().map(|path| open_collection(path)).collect::<Result<Vec<_>>>()?;
    let report =
        tune(&mut collections, &mut known, &start, &stages, args.limit, &|step| eprintln!("indexer: tuning, {step}"))?;
    let mut words: Vec<String> = Vec::new();
    if let Some(path) = &args.settings {
        words.push(format!("--settings {}", path.display()));
    }
    if let Some(path) = &args.from_report {
        words.push(format!("--from-report {}", path.display()));
    }
    if args.stages.is_some() {
        let list = if report.stages.is_empty() { "none".to_string() } else { report.stages.join(",") };
        words.push(format!("--stages {list}"));
    }
    words.extend(args.configs.iter().map(|p| format!("--config {}", p.display())));
    words.extend(args.keep_answers.iter().map(|p| format!("--keep-answers {}", p.display())));
    let command = format!("indexer eval tune {}", words.join(" "));
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
    if !report.known_items.is_empty() {
        outln!(
            "known-item answers kept first by the chosen settings: {} of {} ({})",
            report.answers_kept,
            report.answers_total,
            report.known_items.join(", ")
        );
    }
    outln!("report written to {}", args.report.join("report.md").display());
    Ok(ExitCode::SUCCESS)
}

/// The collection of an evaluation config, its build (indexer-data/eval-<name>) made first
/// when it has none.
fn open_collection(path: &Path) -> Result<indexer::eval::tune::TuneCollection> {
    let config = EvalConfig::from_file(path).map_err(anyhow::Error::msg)?;
    let dir = Path::new(DEFAULT_DIR).join(format!("eval-{}", config.name));
    if indexer::index::current_build(&dir).is_err() {
        eprintln!("indexer: building {} into {}", config.input.display(), dir.display());
        let summary =
            build(std::slice::from_ref(&config.input), &dir, &config.build_config(), &indexer::pipeline::Quiet)?;
        eprintln!("{summary}");
    }
    Ok(indexer::eval::tune::TuneCollection {
        name: config.name.clone(),
        collection: Collection::open(&dir)?,
        topics: read_topics(&config.topics)?,
        qrels: Qrels::from_path(&config.qrels)?,
    })
}
