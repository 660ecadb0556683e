//! `indexer eval clean --config eval/cleaning.toml --all`: the cleaning table — every cleaner
//! on every gold set (P, R, F1, pages per second) beside reference extractors, written as
//! report.md, report.json and a chart (cleaning-f1.svg).
//!
//! The configuration names the sets (paths relative to the file) and the reference figures,
//! which are data measured outside this program (they come with the issue that asked for the
//! table) and are printed as such, never recomputed.
//!
//! Two kinds of sets, reported in two tables: `[[sets]]` are test sets, scored to report and
//! never used to choose a rule or a setting; `[[training_sets]]` (`../shared/data/clean-train`)
//! are what settings are chosen on (`indexer eval tune-cleaner`). Beside the training F1 of
//! each cleaner the report shows the tuned cleaner's cross-validated F1, read from the tuning
//! report (`training_report`): the honest estimate of its F1 on pages it was not tuned on.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::eval::clean::{CleanEvalError, CleanScore};

/// One gold set of the table.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GoldSetConfig {
    /// Short name for the table's column.
    pub name: String,
    pub html: PathBuf,
    pub gold: PathBuf,
}

/// An extractor measured elsewhere: F1 per set (in set order) and pages per second per core.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceExtractor {
    pub name: String,
    /// F1 per test set; empty when not measured there.
    #[serde(default)]
    pub f1: Vec<f64>,
    /// F1 per training set (in the order of `training_sets`); empty when not measured there.
    #[serde(default)]
    pub training_f1: Vec<f64>,
    pub pages_per_second: String,
}

/// `eval/cleaning.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CleaningEvalConfig {
    pub report: PathBuf,
    /// Test sets: reported, never tuned on.
    pub sets: Vec<GoldSetConfig>,
    /// Training sets: what `eval tune-cleaner` chooses settings on.
    #[serde(default)]
    pub training_sets: Vec<GoldSetConfig>,
    /// The report.json of `indexer eval tune-cleaner`, whose cross-validated F1 the table shows.
    #[serde(default)]
    pub training_report: Option<PathBuf>,
    /// The report.json of `indexer eval train-blocks`: the block classifier's cross-validated
    /// F1, a second cross-validated row.
    #[serde(default)]
    pub blocks_report: Option<PathBuf>,
    #[serde(default)]
    pub reference_note: String,
    #[serde(default)]
    pub references: Vec<ReferenceExtractor>,
}

impl CleaningEvalConfig {
    /// Reads a configuration and resolves its paths against the file's folder.
    pub fn from_file(path: &Path) -> Result<CleaningEvalConfig, CleanEvalError> {
        let error = |message: String| CleanEvalError { path: path.display().to_string(), message };
        let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
        let mut config: CleaningEvalConfig = toml::from_str(&text).map_err(|e| error(e.to_string()))?;
        let mut paths: Vec<&mut PathBuf> = vec![&mut config.report];
        for set in config.sets.iter_mut().chain(config.training_sets.iter_mut()) {
            paths.push(&mut set.html);
            paths.push(&mut set.gold);
        }
        paths.extend(config.training_report.as_mut());
        paths.extend(config.blocks_report.as_mut());
        super::resolve_relative_to(path, paths);
        Ok(config)
    }
}

/// One cell of the table: a cleaner on a set.
#[derive(Debug, Clone, Serialize)]
pub struct CleaningCell {
    pub set: String,
    pub score: CleanScore,
}

/// The table.
#[derive(Debug, Clone, Serialize)]
pub struct CleaningReport {
    pub sets: Vec<String>,
    pub cleaners: Vec<String>,
    pub cells: Vec<CleaningCell>,
    /// Pages per set were capped at this number (a short run), if at all.
    pub max_pages: Option<usize>,
    pub reference_note: String,
    pub references: Vec<ReferenceExtractor>,
    /// Pages per second of decoding and html5ever parsing alone, per set (same order as
    /// `sets`): the floor under every cleaner here (`eval::clean::parse_floor`).
    pub parse_floor: Vec<f64>,
    /// Pages per set, same order as `sets` (the floor's pages: every page of the set).
    pub set_pages: Vec<usize>,
    /// The training sets scored in this run (their cells are in `cells` too).
    pub training_sets: Vec<String>,
    /// The cross-validated F1 per training set of the cleaners fitted or tuned there: the
    /// default cleaner's settings (the tuning report), the block classifier (its report).
    pub cross_validated: Vec<CrossValidatedF1>,
}

/// F1 of a cleaner whose settings were chosen (or whose model was fitted) by k-fold
/// cross-validation: each page scored with the settings chosen on the other folds (`indexer
/// eval tune-cleaner`) or by the model fitted on them (`indexer eval train-blocks`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CrossValidatedF1 {
    pub cleaner: String,
    pub folds: usize,
    /// (training set, F1), in the tuning run's order.
    pub sets: Vec<(String, f64)>,
    /// The part of the cleaner's model the figure is of, when not all of it (a stacked block
    /// classifier's report holds its first stage's cross-validated F1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
}

impl CleaningReport {
    fn cell(&self, cleaner: &str, set: &str) -> Option<&CleanScore> {
        self.cells.iter().find(|c| c.set == set && c.score.cleaner == cleaner).map(|c| &c.score)
    }

    /// A cleaner's F1 averaged over the test sets it was measured on.
    pub fn mean_f1(&self, cleaner: &str) -> Option<f64> {
        self.mean_f1_over(cleaner, &self.sets)
    }

    fn mean_f1_over(&self, cleaner: &str, sets: &[String]) -> Option<f64> {
        let f1: Vec<f64> = sets.iter().filter_map(|s| self.cell(cleaner, s)).map(|c| c.f1).collect();
        (!f1.is_empty()).then(|| f1.iter().sum::<f64>() / f1.len() as f64)
    }

    /// A cleaner's pages and pages per second over all the sets it was measured on: its
    /// pages over its summed time, the rate of one run through every page.
    pub fn overall_pages_per_second(&self, cleaner: &str) -> Option<(usize, f64)> {
        let cells: Vec<&CleanScore> = self.sets.iter().filter_map(|s| self.cell(cleaner, s)).collect();
        over_sets(cells.iter().map(|c| (c.pages, c.pages_per_second)))
    }
}

/// Pages and pages per second of runs with these (pages, pages per second): total pages over
/// total time.
fn over_sets(runs: impl Iterator<Item = (usize, f64)>) -> Option<(usize, f64)> {
    let (pages, seconds) = runs
        .filter(|&(_, rate)| rate > 0.0)
        .fold((0usize, 0f64), |(pages, seconds), (n, rate)| (pages + n, seconds + n as f64 / rate));
    (seconds > 0.0).then(|| (pages, pages as f64 / seconds))
}

/// Writes report.md, report.json and cleaning-f1.svg into `out`.
pub fn write_cleaning_report(report: &CleaningReport, out: &Path, command: &str) -> Result<(), CleanEvalError> {
    let error = |path: &Path, message: String| CleanEvalError { path: path.display().to_string(), message };
    std::fs::create_dir_all(out).map_err(|e| error(out, e.to_string()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| error(out, e.to_string()))? + "\n";
    std::fs::write(out.join("report.json"), json).map_err(|e| error(&out.join("report.json"), e.to_string()))?;
    std::fs::write(out.join("report.md"), markdown(report, command))
        .map_err(|e| error(&out.join("report.md"), e.to_string()))?;
    let chart = out.join("cleaning-f1.svg");
    f1_chart(report, &chart).map_err(|e| error(&chart, e))
}

fn markdown(report: &CleaningReport, command: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Cleaning against human gold\n\nMade by `{command}`.\n");
    let _ = writeln!(
        md,
        "Token-bag precision, recall and F1 of each cleaner's topic content against the gold text \
         (the metric is described in `src/eval/clean.rs`); pages per second on one thread, including \
         decoding and parsing. The text scored is what `indexer extract` writes: the topic content \
         without its headline (the heading matching `<title>`), as trafilatura's text output and \
         `articleBody` gold have it, unless the command says `--with-headline`; a row named \
         \"headline inline\" (or \"apart\") places it the other way. Gold conventions differ: \
         aeb's gold leaves headlines out, dragnet's keeps them.{}\n",
        match report.max_pages {
            Some(n) => format!(" Short run: at most {n} pages per set."),
            None => String::new(),
        }
    );
    let _ = writeln!(md, "## F1 on the test sets\n");
    let _ = writeln!(md, "Test sets are scored to report only: no rule or setting was chosen by its score here.\n");
    let _ = writeln!(md, "| cleaner | {} | mean |", report.sets.join(" | "));
    let _ = writeln!(md, "|---|{}---|", "---|".repeat(report.sets.len()));
    for cleaner in &report.cleaners {
        let cells: Vec<String> = report
            .sets
            .iter()
            .map(|s| report.cell(cleaner, s).map_or("–".into(), |c| format!("{:.3}", c.f1)))
            .collect();
        let mean = report.mean_f1(cleaner).map_or("–".into(), |m| format!("{m:.3}"));
        let _ = writeln!(md, "| {cleaner} | {} | {mean} |", cells.join(" | "));
    }
    for reference in report.references.iter().filter(|r| !r.f1.is_empty()) {
        let cells: Vec<String> = reference.f1.iter().map(|f| format!("{f:.3}")).collect();
        let mean = reference.f1.iter().sum::<f64>() / reference.f1.len().max(1) as f64;
        let _ = writeln!(md, "| *{}* (reference) | {} | {mean:.3} |", reference.name, cells.join(" | "));
    }
    for cleaner in &report.cleaners {
        let held_out: Vec<String> = report
            .sets
            .iter()
            .filter_map(|s| report.cell(cleaner, s).map(|c| (s, c)))
            .filter(|(_, c)| c.held_out_excluded > 0)
            .map(|(s, c)| format!("{s} {} of {}", c.pages, c.pages + c.held_out_excluded))
            .collect();
        if !held_out.is_empty() {
            let _ = writeln!(
                md,
                "\n`{cleaner}` is scored only on the pages its model was not trained on ({}); compare it with the \
                 others on the same pages with `--held-out-of {cleaner}`.",
                held_out.join(", ")
            );
        }
    }
    if !report.reference_note.is_empty() {
        let _ = writeln!(md, "\n{}", report.reference_note);
    }
    training_table(&mut md, report);
    cleaner_table(&mut md, report, "Precision / recall / pages per second", |c| {
        format!("{:.3} / {:.3} / {:.0}", c.precision, c.recall, c.pages_per_second)
    });
    if !report.parse_floor.is_empty() {
        let cells: Vec<String> = report.parse_floor.iter().map(|p| format!("– / – / {p:.0}")).collect();
        let _ = writeln!(md, "| *decode + html5ever parse only* (floor) | {} |", cells.join(" | "));
        let _ = writeln!(
            md,
            "\nThe floor row is decoding and html5ever parsing alone, timed in the same run: no cleaner built on \
             html5ever can be faster. Pages are larger in some sets than others (wcxb's average 313 KiB, \
             cleaneval's 36 KiB), hence the spread of pages per second."
        );
    }
    if report.sets.len() > 1 {
        let _ = writeln!(md, "\n## Pages per second over all sets\n");
        let _ = writeln!(md, "One thread, every set's pages one after the other: pages over summed time.\n");
        let _ = writeln!(md, "| cleaner | pages | pages/s |\n|---|---:|---:|");
        for cleaner in &report.cleaners {
            if let Some((pages, rate)) = report.overall_pages_per_second(cleaner) {
                let _ = writeln!(md, "| {cleaner} | {pages} | {rate:.0} |");
            }
        }
        let floor = over_sets(report.set_pages.iter().copied().zip(report.parse_floor.iter().copied()));
        if let Some((pages, rate)) = floor {
            let _ = writeln!(md, "| *decode + html5ever parse only* (floor) | {pages} | {rate:.0} |");
        }
    }
    cleaner_table(&mut md, report, "Pages, empty outputs, mean per-page F1", |c| {
        format!("{} / {} / {:.3}", c.pages, c.empty_outputs, c.mean_page_f1)
    });
    let _ = writeln!(md, "\n![F1 per cleaner and set](cleaning-f1.svg)");
    md
}

/// The F1 table of the training sets: each cleaner as run (in-sample for a cleaner whose
/// settings were chosen on these sets), the cross-validated row, and the references.
fn training_table(md: &mut String, report: &CleaningReport) {
    if report.training_sets.is_empty() {
        return;
    }
    let sets = &report.training_sets;
    let _ = writeln!(md, "\n## F1 on the training sets\n");
    let _ = writeln!(
        md,
        "The sets settings are chosen and models fitted on (`indexer eval tune-cleaner`, `indexer eval \
         train-blocks`). A cleaner's row here is in-sample for the settings chosen (the model fitted) on these \
         pages; a cross-validated row scores each page with the settings chosen (the model fitted) on the \
         other folds, the estimate to compare with the test sets.\n"
    );
    let _ = writeln!(md, "| cleaner | {} | mean |", sets.join(" | "));
    let _ = writeln!(md, "|---|{}---|", "---|".repeat(sets.len()));
    for cv in &report.cross_validated {
        let f1: Vec<Option<f64>> =
            sets.iter().map(|s| cv.sets.iter().find(|(name, _)| name == s).map(|&(_, f)| f)).collect();
        let cells: Vec<String> = f1.iter().map(|f| f.map_or("–".into(), |f| format!("**{f:.3}**"))).collect();
        let known: Vec<f64> = f1.iter().flatten().copied().collect();
        let mean = if known.len() == sets.len() {
            format!("**{:.3}**", known.iter().sum::<f64>() / known.len() as f64)
        } else {
            "–".into()
        };
        let part = cv.part.as_ref().map(|p| format!(" ({p})")).unwrap_or_default();
        let _ = writeln!(
            md,
            "| **{}{part}, {}-fold cross-validated** | {} | {mean} |",
            cv.cleaner,
            cv.folds,
            cells.join(" | ")
        );
    }
    for cleaner in &report.cleaners {
        let cells: Vec<String> =
            sets.iter().map(|s| report.cell(cleaner, s).map_or("–".into(), |c| format!("{:.3}", c.f1))).collect();
        let mean = report.mean_f1_over(cleaner, sets).map_or("–".into(), |m| format!("{m:.3}"));
        // The tuned cleaner's rows: its name, or its name with a placement ("docview, headline
        // inline"); not another cleaner sharing the prefix (docview-paper).
        let tuned = report.cross_validated.iter().any(|cv| {
            cleaner == &cv.cleaner
                || cleaner.strip_prefix(cv.cleaner.as_str()).is_some_and(|rest| rest.starts_with(", "))
        });
        let label = if tuned { format!("{cleaner} (in-sample)") } else { cleaner.clone() };
        let _ = writeln!(md, "| {label} | {} | {mean} |", cells.join(" | "));
    }
    for reference in report.references.iter().filter(|r| !r.training_f1.is_empty()) {
        let cells: Vec<String> = reference.training_f1.iter().map(|f| format!("{f:.3}")).collect();
        let mean = reference.training_f1.iter().sum::<f64>() / reference.training_f1.len() as f64;
        let _ = writeln!(md, "| *{}* (reference) | {} | {mean:.3} |", reference.name, cells.join(" | "));
    }
}

/// A section with a table of one row per cleaner and one column per set, each cell `cell`
/// of the cleaner's score on the set.
fn cleaner_table(md: &mut String, report: &CleaningReport, title: &str, cell: impl Fn(&CleanScore) -> String) {
    let _ = writeln!(md, "\n## {title}\n");
    let _ = writeln!(md, "| cleaner | {} |", report.sets.join(" | "));
    let _ = writeln!(md, "|---|{}", "---|".repeat(report.sets.len()));
    for cleaner in &report.cleaners {
        let cells: Vec<String> =
            report.sets.iter().map(|s| report.cell(cleaner, s).map_or("–".into(), &cell)).collect();
        let _ = writeln!(md, "| {cleaner} | {} |", cells.join(" | "));
    }
}

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Grouped bars: one group per set, one bar per cleaner; reference extractors as black ticks.
fn f1_chart(report: &CleaningReport, path: &Path) -> Result<(), String> {
    let root = SVGBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let sets = report.sets.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption("Cleaning F1 against human gold", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(45)
        // Headroom above 1.0 keeps the legend clear of the bars.
        .build_cartesian_2d(0.0..sets as f64, 0.0..1.45)
        .map_err(|e| e.to_string())?;
    let names = report.sets.clone();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(sets * 2 + 1)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            if (x - i as f64 - 0.5).abs() < 1e-6 { names.get(i).cloned().unwrap_or_default() } else { String::new() }
        })
        .max_light_lines(0)
        .y_labels(16)
        .y_label_formatter(&|y| if *y <= 1.0 + 1e-9 { format!("{y:.1}") } else { String::new() })
        .y_desc("F1")
        .draw()
        .map_err(|e| e.to_string())?;
    let width = 0.8 / report.cleaners.len().max(1) as f64;
    for (k, cleaner) in report.cleaners.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        let bars: Vec<Rectangle<(f64, f64)>> = report
            .sets
            .iter()
            .enumerate()
            .filter_map(|(i, s)| report.cell(cleaner, s).map(|c| (i, c.f1)))
            .map(|(i, f1)| {
                let x0 = i as f64 + 0.1 + k as f64 * width;
                Rectangle::new([(x0, 0.0), (x0 + width * 0.9, f1)], color.filled())
            })
            .collect();
        chart
            .draw_series(bars)
            .map_err(|e| e.to_string())?
            .label(cleaner.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    for (r, reference) in report.references.iter().enumerate() {
        let style = [BLACK, RGBColor(110, 110, 110), RGBColor(180, 180, 180)][r % 3];
        if reference.f1.is_empty() {
            continue;
        }
        let ticks: Vec<PathElement<(f64, f64)>> = reference
            .f1
            .iter()
            .enumerate()
            .take(sets)
            .map(|(i, &f1)| PathElement::new(vec![(i as f64 + 0.05, f1), (i as f64 + 0.95, f1)], style.stroke_width(2)))
            .collect();
        chart
            .draw_series(ticks)
            .map_err(|e| e.to_string())?
            .label(format!("{} (reference)", reference.name))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], style.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 11))
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::clean::{PageScore, aggregate};

    fn score(cleaner: &str, tp: u32) -> CleanScore {
        aggregate(cleaner, &[PageScore { output_tokens: 10, gold_tokens: 10, true_positives: tp }], 1.0)
    }

    #[test]
    fn the_table_has_a_row_per_cleaner_and_a_mean_over_sets() {
        let report = CleaningReport {
            sets: vec!["a".into(), "b".into()],
            cleaners: vec!["x".into(), "y".into()],
            cells: vec![
                CleaningCell { set: "a".into(), score: score("x", 8) },
                CleaningCell { set: "b".into(), score: score("x", 6) },
                CleaningCell { set: "a".into(), score: score("y", 10) },
            ],
            max_pages: None,
            reference_note: "measured elsewhere".into(),
            references: vec![ReferenceExtractor {
                name: "r".into(),
                f1: vec![0.5, 0.25],
                training_f1: vec![0.75],
                pages_per_second: "~1".into(),
            }],
            parse_floor: vec![500.0, 250.4],
            set_pages: vec![1, 1],
            training_sets: vec!["t".into()],
            cross_validated: vec![CrossValidatedF1 {
                cleaner: "x".into(),
                folds: 5,
                sets: vec![("t".into(), 0.5)],
                part: None,
            }],
        };
        let mut with_training = report.clone();
        with_training.cells.push(CleaningCell { set: "t".into(), score: score("x", 9) });
        assert!((report.mean_f1("x").unwrap() - 0.7).abs() < 1e-12);
        assert_eq!(report.mean_f1("y"), Some(1.0));
        let md = markdown(&report, "test");
        assert!(md.contains("| x | 0.800 | 0.600 | 0.700 |"), "{md}");
        assert!(md.contains("| y | 1.000 | – | 1.000 |"), "{md}");
        assert!(md.contains("| *r* (reference) | 0.500 | 0.250 | 0.375 |"), "{md}");
        assert!(md.contains("| *decode + html5ever parse only* (floor) | – / – / 500 | – / – / 250 |"), "{md}");
        // x: one page a second on each set; the floor: 2 pages in 1/500 + 1/250.4 s.
        assert_eq!(report.overall_pages_per_second("x"), Some((2, 1.0)));
        assert!(md.contains("| x | 2 | 1 |") && md.contains("| y | 1 | 1 |"), "{md}");
        assert!(md.contains("| *decode + html5ever parse only* (floor) | 2 | 334 |"), "{md}");
        // The training table: the cross-validated row, the tuned cleaner's in-sample row, the
        // reference's training F1; training cells stay out of the test means.
        let md = markdown(&with_training, "test");
        assert!(md.contains("| **x, 5-fold cross-validated** | **0.500** | **0.500** |"), "{md}");
        assert!(md.contains("| x (in-sample) | 0.900 | 0.900 |"), "{md}");
        assert!(md.contains("| y | – | – |"), "{md}");
        assert!(md.contains("| *r* (reference) | 0.750 | 0.750 |"), "{md}");
        assert!((with_training.mean_f1("x").unwrap() - 0.7).abs() < 1e-12);
        // A figure of part of the model says which part, and the tuned rows are still found.
        let mut of_part = with_training.clone();
        of_part.cross_validated[0].part = Some("first stage".into());
        let md = markdown(&of_part, "test");
        assert!(md.contains("| **x (first stage), 5-fold cross-validated** | **0.500** |"), "{md}");
        assert!(md.contains("| x (in-sample) | 0.900 | 0.900 |"), "{md}");
        let dir = tempfile::tempdir().unwrap();
        write_cleaning_report(&report, dir.path(), "test").unwrap();
        let svg = std::fs::read_to_string(dir.path().join("cleaning-f1.svg")).unwrap();
        assert!(svg.contains("<rect") && svg.contains("(reference)"));
    }
}
