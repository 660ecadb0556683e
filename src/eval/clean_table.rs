//! `indexer eval clean`: the cleaning table run. Every chosen cleaner on every chosen gold set,
//! each row printed as it is scored (text or JSON Lines), then, with a cleaning configuration,
//! the report (`clean_report`) with the reference figures and the cross-validated row.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::clean::{CleanerKind, HeadlinePlacement};
use crate::eval::clean::{CleanEvalError, GoldSet, evaluate_cleaner_held_out};
use crate::eval::clean_report::{
    CleaningCell, CleaningEvalConfig, CleaningReport, CrossValidatedF1, GoldSetConfig, write_cleaning_report,
};

/// Where the gold pages come from.
pub enum GoldSource {
    /// A cleaning configuration (eval/cleaning.toml): its test sets, then its training sets.
    Config(CleaningEvalConfig),
    /// One folder of pages and one of gold texts.
    Pair { html: PathBuf, gold: PathBuf },
}

/// What to score and where the report goes.
pub struct CleaningTableOptions {
    pub source: GoldSource,
    /// Only these sets of the configuration (all when empty).
    pub sets: Vec<String>,
    /// At most this many pages per set.
    pub max_pages: Option<usize>,
    /// The report folder [default: the configuration's, for the full table only].
    pub report: Option<PathBuf>,
    /// One cleaner, or every cleaner when `None`.
    pub cleaner: Option<CleanerKind>,
    /// Score the text with its headline as the first line.
    pub with_headline: bool,
    /// Also leave out the pages this cleaner's model was trained on.
    pub held_out_of: Option<CleanerKind>,
    /// JSON Lines instead of the text table.
    pub json: bool,
    /// The settings every cleaner runs with (`--settings`; the defaults otherwise).
    pub settings: crate::config::Config,
    /// The command line, recorded in the report.
    pub command: String,
}

#[derive(Debug, thiserror::Error)]
pub enum CleaningTableError {
    #[error(transparent)]
    Eval(#[from] CleanEvalError),
    #[error("--sets: no set named {unknown:?} in the config; it has {known:?}")]
    UnknownSets { unknown: Vec<String>, known: Vec<String> },
    /// Writing the table failed (a closed pipe, a full disk).
    #[error(transparent)]
    Output(#[from] std::io::Error),
}

/// Scores the cleaners on the gold sets, writing each row to `out` as it is scored, and
/// writes the report when the options ask for one.
pub fn run_cleaning_table(options: CleaningTableOptions, out: &mut dyn Write) -> Result<(), CleaningTableError> {
    let all = options.cleaner.is_none();
    let (config, pair) = match options.source {
        GoldSource::Config(config) => (Some(config), None),
        GoldSource::Pair { html, gold } => (None, Some(GoldSetConfig { name: html.display().to_string(), html, gold })),
    };
    // Rows: (row name, cleaner, headline placement). The table also scores docview with its
    // headline placed the other way, so that the convention's effect on each set is seen.
    let placement = |inline: bool| if inline { HeadlinePlacement::Inline } else { HeadlinePlacement::Apart };
    let mut rows: Vec<(String, CleanerKind, HeadlinePlacement)> = match options.cleaner {
        Some(kind) => vec![kind],
        None => CleanerKind::NAMES.iter().filter_map(|name| CleanerKind::from_name(name)).collect(),
    }
    .into_iter()
    .map(|kind| (kind.name().to_string(), kind, placement(options.with_headline)))
    .collect();
    if all && config.is_some() {
        let other = if options.with_headline { "docview, headline apart" } else { "docview, headline inline" };
        rows.insert(1, (other.to_string(), CleanerKind::DocView, placement(!options.with_headline)));
    }
    // Test sets first, then training sets; `is_training` marks the second kind.
    let sets: Vec<(GoldSetConfig, bool)> = match &config {
        Some(config) => {
            let all_sets = config.sets.iter().map(|s| (s, false)).chain(config.training_sets.iter().map(|s| (s, true)));
            let unknown: Vec<&String> =
                options.sets.iter().filter(|name| !all_sets.clone().any(|(s, _)| &s.name == *name)).collect();
            if !unknown.is_empty() {
                return Err(CleaningTableError::UnknownSets {
                    unknown: unknown.into_iter().cloned().collect(),
                    known: all_sets.map(|(s, _)| s.name.clone()).collect(),
                });
            }
            all_sets
                .filter(|(s, _)| options.sets.is_empty() || options.sets.contains(&s.name))
                .map(|(s, is_training)| (s.clone(), is_training))
                .collect()
        }
        None => pair.into_iter().map(|set| (set, false)).collect(),
    };
    let held_out_of: Vec<CleanerKind> = options.held_out_of.into_iter().collect();
    let mut cells = Vec::new();
    let mut parse_floor = Vec::new();
    let mut set_pages = Vec::new();
    for (set_config, is_training) in &sets {
        let mut set = GoldSet::open(&set_config.html, &set_config.gold)?;
        if let Some(n) = options.max_pages {
            set.pages.truncate(n);
        }
        if config.is_some() && !is_training {
            let floor = crate::eval::clean::parse_floor(&set);
            if !options.json {
                writeln!(
                    out,
                    "{:<12} {:<24} decode + html5ever parse only: {floor:.0} pages/s",
                    set_config.name, "(floor)"
                )?;
            }
            parse_floor.push(floor);
            set_pages.push(set.pages.len());
        }
        for (row, kind, headline) in &rows {
            let mut score = evaluate_cleaner_held_out(&set, *kind, &held_out_of, *headline, &options.settings)?;
            score.cleaner = row.clone();
            if options.json {
                writeln!(out, "{}", serde_json::json!({"set": set_config.name, "score": score}))?;
            } else {
                let held_out = match score.held_out_excluded {
                    0 => String::new(),
                    n => format!("  (held out: {n} training pages skipped)"),
                };
                writeln!(
                    out,
                    "{:<12} {:<24} pages {:>4}  P {:.3}  R {:.3}  F1 {:.3}  mean page F1 {:.3}  empty {:>3}  {:.0} pages/s{}",
                    if config.is_some() { set_config.name.as_str() } else { "" },
                    score.cleaner,
                    score.pages,
                    score.precision,
                    score.recall,
                    score.f1,
                    score.mean_page_f1,
                    score.empty_outputs,
                    score.pages_per_second,
                    held_out
                )?;
            }
            cells.push(CleaningCell { set: set_config.name.clone(), score });
        }
    }
    if let Some(config) = config {
        // References are given for the config's full lists of sets; keep the columns in step.
        let picked = |all: &[GoldSetConfig], training: bool| -> Vec<usize> {
            sets.iter()
                .filter(|(_, is_training)| *is_training == training)
                .filter_map(|(s, _)| all.iter().position(|c| c.name == s.name))
                .collect()
        };
        let (test_positions, training_positions) = (picked(&config.sets, false), picked(&config.training_sets, true));
        let pick = |f1: &[f64], positions: &[usize]| -> Vec<f64> {
            if f1.is_empty() { Vec::new() } else { positions.iter().filter_map(|&i| f1.get(i).copied()).collect() }
        };
        let references = config
            .references
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.f1 = pick(&r.f1, &test_positions);
                r.training_f1 = pick(&r.training_f1, &training_positions);
                r
            })
            .collect();
        let mut cross_validated = Vec::new();
        let reports = [
            (&config.training_report, "indexer eval tune-cleaner"),
            (&config.blocks_report, "indexer eval train-blocks"),
        ];
        for (path, command) in reports {
            match path {
                Some(path) if path.is_file() => cross_validated.push(read_cross_validated(path)?),
                Some(path) if !options.json => {
                    writeln!(
                        out,
                        "(no report at {}: the table lacks its cross-validated row; `{command}` writes it)",
                        path.display()
                    )?;
                }
                _ => {}
            }
        }
        let names = |training: bool| -> Vec<String> {
            sets.iter().filter(|(_, t)| *t == training).map(|(s, _)| s.name.clone()).collect()
        };
        let report = CleaningReport {
            sets: names(false),
            cleaners: rows.iter().map(|(row, _, _)| row.clone()).collect(),
            cells,
            max_pages: options.max_pages,
            reference_note: config.reference_note.clone(),
            references,
            parse_floor,
            set_pages,
            training_sets: names(true),
            cross_validated,
        };
        if !options.json && report.sets.len() > 1 {
            for cleaner in &report.cleaners {
                if let Some((pages, rate)) = report.overall_pages_per_second(cleaner) {
                    writeln!(out, "{:<12} {:<24} pages {pages:>4}  {rate:.0} pages/s", "(all sets)", cleaner)?;
                }
            }
        }
        // The config's report folder holds the full table: a partial run (one cleaner, some
        // sets, a page limit, held-out pages) writes a report only where --report says, so
        // that it never overwrites the table with a part of it.
        let full_table = all && options.sets.is_empty() && options.max_pages.is_none() && held_out_of.is_empty();
        let report_dir = match (options.report, full_table) {
            (Some(dir), _) => Some(dir),
            (None, true) => Some(config.report),
            (None, false) => None,
        };
        if let Some(dir) = report_dir {
            write_cleaning_report(&report, &dir, &options.command)?;
            if !options.json {
                writeln!(out, "report written to {}", dir.display())?;
            }
        } else if !options.json {
            writeln!(out, "(a partial run: no report written; --report DIR writes one)")?;
        }
    }
    Ok(())
}

/// The cross-validated F1 of a tuning or training report (the report.json of `indexer eval
/// tune-cleaner` or `indexer eval train-blocks`).
fn read_cross_validated(path: &Path) -> Result<CrossValidatedF1, CleanEvalError> {
    let error = |message: String| CleanEvalError { path: path.display().to_string(), message };
    let text = std::fs::read_to_string(path).map_err(|e| error(format!("cannot read: {e}")))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| error(format!("not JSON: {e}")))?;
    let cv = json
        .get("cross_validated")
        .cloned()
        .ok_or_else(|| error("no `cross_validated` field; run the command that wrote it again".to_string()))?;
    let mut cv: CrossValidatedF1 =
        serde_json::from_value(cv).map_err(|e| error(format!("`cross_validated` is not as expected: {e}")))?;
    // train-blocks cross-validates the first stage; a stacked model's second stage has its
    // cross-validated figure in the grid's report (`eval train-blocks --grid --stacking`).
    if json.get("second_stage_trees").is_some_and(|n| !n.is_null()) {
        cv.part = Some("first stage of the stacked model".to_string());
    }
    Ok(cv)
}
