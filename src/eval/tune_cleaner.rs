//! `indexer eval tune-cleaner`: the default cleaner's settings (`[cleaning]`) chosen on the
//! training sets, and the cross-validated F1 that says how well that choice carries to pages
//! it was not made on.
//!
//! Protocol:
//! - Data: the `[[training_sets]]` of the cleaning configuration (`../shared/data/clean-train`),
//!   never the test sets.
//! - Folds: k folds by site (the host of the page's URL, from the set's `meta.tsv`), so that
//!   pages of one template never sit on both sides; a page without a URL is a site of its own.
//! - Search: coordinate descent from the current defaults over a grid per setting
//!   ([`SETTINGS`]), a few rounds; the objective is the mean over the training sets of each
//!   set's F1 (the metric of `eval clean`). Ties keep the current value, so a setting moves
//!   only for a gain.
//! - Cross-validated F1: for each fold, the search runs on the other folds and the fold's
//!   pages are scored with the setting it chose; a set's F1 pools its pages over the folds.
//! - The chosen setting is the search over all training pages; its F1 there is in-sample and
//!   reported as such.
//!
//! Every page is parsed once; a setting's scores over all pages are kept, so that folds share
//! the settings they try.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::clean::{BlockWeights, CleanerKind, HeadlinePlacement, Layout, block_weights, clean_page, site_of};
use crate::config::{CleaningConfig, Config};
use crate::eval::clean::{CleanEvalError, GoldSet, PageScore, aggregate, score_tokens};
use crate::eval::clean_report::{CrossValidatedF1, GoldSetConfig};
use crate::page::PageContext;
use crate::tagtree::TagTree;
use crate::text::StopWords;

/// A tunable setting of `[cleaning]`: its name, the values tried, and its accessors.
pub struct Setting {
    pub name: &'static str,
    pub grid: &'static [f64],
    get: fn(&CleaningConfig) -> f64,
    set: fn(&mut CleaningConfig, f64),
}

/// The settings the search moves, with the values it tries (the current default among them).
/// Where 0 turns a rule off, the grid holds 0, so that the report's curves show what the rule
/// gains.
pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "min_paragraph_terms",
        grid: &[4.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0],
        get: |c| c.min_paragraph_terms as f64,
        set: |c, v| c.min_paragraph_terms = v as usize,
    },
    Setting {
        name: "sibling_score_share",
        grid: &[0.1, 0.15, 0.25, 0.35, 0.5, 0.75],
        get: |c| c.sibling_score_share,
        set: |c, v| c.sibling_score_share = v,
    },
    Setting {
        name: "title_heading_score",
        grid: &[0.0, 10.0, 20.0, 30.0, 40.0, 80.0],
        get: |c| c.title_heading_score,
        set: |c, v| c.title_heading_score = v,
    },
    Setting {
        name: "title_root_min_share",
        grid: &[0.0, 0.1, 0.25, 0.5, 1.0],
        get: |c| c.title_root_min_share,
        set: |c, v| c.title_root_min_share = v,
    },
    Setting {
        name: "max_heading_gap_terms",
        grid: &[0.0, 10.0, 30.0, 60.0, 120.0, 240.0, 480.0],
        get: |c| c.max_heading_gap_terms as f64,
        set: |c, v| c.max_heading_gap_terms = v as usize,
    },
    Setting {
        name: "title_override_ratio",
        grid: &[1.0, 1.5, 2.0, 3.0, 5.0],
        get: |c| c.title_override_ratio,
        set: |c, v| c.title_override_ratio = v,
    },
    Setting {
        name: "climb_share",
        grid: &[0.0, 0.25, 0.5, 1.0, 2.0, 4.0],
        get: |c| c.climb_share,
        set: |c, v| c.climb_share = v,
    },
    Setting {
        name: "climb_max_link_density",
        grid: &[0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
        get: |c| c.climb_max_link_density,
        set: |c, v| c.climb_max_link_density = v,
    },
    Setting {
        name: "climb_min_text",
        grid: &[0.0, 15.0, 30.0, 45.0, 60.0, 120.0, 240.0],
        get: |c| c.climb_min_text,
        set: |c, v| c.climb_min_text = v,
    },
    Setting {
        name: "min_root_coverage",
        grid: &[0.0, 0.2, 0.35, 0.5, 0.65],
        get: |c| c.min_root_coverage,
        set: |c, v| c.min_root_coverage = v,
    },
];

/// How the search runs.
#[derive(Debug, Clone, Copy)]
pub struct TuneOptions {
    pub folds: usize,
    pub rounds: usize,
    /// At most this many pages per set (the first by file name): a short run.
    pub max_pages: Option<usize>,
}

/// A parsed training page: its tree, layout, block weights and gold tokens.
struct TrainingPage {
    set: usize,
    fold: usize,
    tree: TagTree,
    /// Read once: `[layout]` is not among the settings tuned here.
    layout: Layout,
    weights: BlockWeights,
    gold: HashMap<String, u32>,
}

/// The settings' values in [`SETTINGS`] order.
fn values(config: &CleaningConfig) -> Vec<f64> {
    SETTINGS.iter().map(|s| (s.get)(config)).collect()
}

fn with_values(base: &CleaningConfig, values: &[f64]) -> CleaningConfig {
    let mut config = base.clone();
    for (setting, &v) in SETTINGS.iter().zip(values) {
        (setting.set)(&mut config, v);
    }
    config
}

/// The training pages, parsed, and each setting's page scores once computed.
struct Tuner {
    sets: Vec<String>,
    pages: Vec<TrainingPage>,
    base: Config,
    scored: HashMap<Vec<u64>, Arc<Vec<PageScore>>>,
}

impl Tuner {
    fn scores(&mut self, values: &[f64]) -> Arc<Vec<PageScore>> {
        let key: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        if let Some(scores) = self.scored.get(&key) {
            return scores.clone();
        }
        let mut config = self.base.clone();
        config.cleaning = with_values(&self.base.cleaning, values);
        let scores: Vec<PageScore> = self
            .pages
            .par_iter()
            .map(|page| {
                let text = clean_page(&page.tree, &page.layout, &page.weights, CleanerKind::DocView, &config)
                    .text_with(&page.tree, HeadlinePlacement::default());
                PageScore::new(&score_tokens(&text), &page.gold)
            })
            .collect();
        let scores = Arc::new(scores);
        self.scored.insert(key, scores.clone());
        scores
    }

    /// F1 per set over the pages `keep` admits.
    fn set_f1(&self, scores: &[PageScore], keep: impl Fn(&TrainingPage) -> bool) -> Vec<f64> {
        (0..self.sets.len())
            .map(|set| {
                let picked: Vec<PageScore> = self
                    .pages
                    .iter()
                    .zip(scores)
                    .filter(|(page, _)| page.set == set && keep(page))
                    .map(|(_, s)| *s)
                    .collect();
                aggregate("", &picked, 1.0).f1
            })
            .collect()
    }

    fn objective(&mut self, values: &[f64], keep: &impl Fn(&TrainingPage) -> bool) -> f64 {
        let scores = self.scores(values);
        mean(&self.set_f1(&scores, keep))
    }

    /// Coordinate descent from `start` on the pages `keep` admits.
    fn search(&mut self, start: &[f64], rounds: usize, keep: impl Fn(&TrainingPage) -> bool) -> Vec<f64> {
        let mut best = start.to_vec();
        let mut best_score = self.objective(&best, &keep);
        for _ in 0..rounds {
            let mut moved = false;
            for (i, setting) in SETTINGS.iter().enumerate() {
                for &v in setting.grid {
                    let mut candidate = best.clone();
                    candidate[i] = v;
                    let score = self.objective(&candidate, &keep);
                    // A setting moves only for a gain beyond rounding noise.
                    if score > best_score + 1e-9 {
                        best_score = score;
                        best = candidate;
                        moved = true;
                    }
                }
            }
            if !moved {
                break;
            }
        }
        best
    }
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 }
}

/// The fold of a site: FNV-1a of its name, modulo `folds` (stable across runs and machines).
pub fn fold_of(site: &str, folds: usize) -> usize {
    seeded_fold_of(site, folds, 0)
}

/// The fold of a site in the partition of `seed`: FNV-1a of the seed's bytes followed by the
/// site's name, modulo `folds`. Seed 0 hashes the name alone ([`fold_of`]'s partition).
pub fn seeded_fold_of(site: &str, folds: usize, seed: u64) -> usize {
    let prefix: &[u8] = if seed == 0 { &[] } else { &seed.to_le_bytes() };
    let hash = prefix
        .iter()
        .copied()
        .chain(site.bytes())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3));
    (hash % folds.max(1) as u64) as usize
}

/// One fold's search.
#[derive(Debug, Clone, Serialize)]
pub struct FoldResult {
    pub fold: usize,
    pub pages: usize,
    /// The setting chosen on the other folds.
    pub setting: Vec<(String, f64)>,
    /// F1 of the fold's pages per set: the start setting, then the chosen one.
    pub start_f1: Vec<f64>,
    pub tuned_f1: Vec<f64>,
}

/// What one value of a setting gives over all training pages, the others as chosen.
#[derive(Debug, Clone, Serialize)]
pub struct SettingCurve {
    pub setting: String,
    pub chosen: f64,
    /// (value, mean F1 over the sets), in grid order.
    pub points: Vec<(f64, f64)>,
}

/// The tuning report.
#[derive(Debug, Clone, Serialize)]
pub struct TuningReport {
    pub sets: Vec<String>,
    pub set_pages: Vec<usize>,
    pub folds: usize,
    pub rounds: usize,
    pub max_pages: Option<usize>,
    /// The setting the search starts from (the current defaults) and its F1 per set.
    pub start: Vec<(String, f64)>,
    pub start_f1: Vec<f64>,
    /// Each page scored with the setting chosen without its fold.
    pub cross_validated: CrossValidatedF1,
    pub fold_results: Vec<FoldResult>,
    /// The setting chosen on all training pages, and its (in-sample) F1 per set.
    pub chosen: Vec<(String, f64)>,
    pub chosen_f1: Vec<f64>,
    pub curves: Vec<SettingCurve>,
}

fn named(values: &[f64]) -> Vec<(String, f64)> {
    SETTINGS.iter().zip(values).map(|(s, &v)| (s.name.to_string(), v)).collect()
}

/// Loads and parses the training sets (every page once, in parallel).
fn load(sets: &[GoldSetConfig], config: &Config, options: TuneOptions) -> Result<Tuner, CleanEvalError> {
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(config, &stop_words)
        .map_err(|e| CleanEvalError { path: "configuration".into(), message: e.to_string() })?;
    let mut names = Vec::new();
    let mut pages = Vec::new();
    for (index, set_config) in sets.iter().enumerate() {
        let mut set = GoldSet::open(&set_config.html, &set_config.gold)?;
        if let Some(n) = options.max_pages {
            set.pages.truncate(n);
        }
        names.push(set_config.name.clone());
        let parsed: Vec<TrainingPage> = set
            .pages
            .par_iter()
            .map(|page| {
                let (tree, _) = ctx.tag_tree(&page.raw_page());
                let weights = block_weights(&tree, &config.block_weight);
                let layout = Layout::of(&tree, &config.layout);
                TrainingPage {
                    set: index,
                    fold: fold_of(&site_of(&page.url), options.folds),
                    tree,
                    layout,
                    weights,
                    gold: score_tokens(&page.gold),
                }
            })
            .collect();
        pages.extend(parsed);
    }
    Ok(Tuner { sets: names, pages, base: config.clone(), scored: HashMap::new() })
}

/// Runs the protocol of the module documentation; `progress` hears each step.
pub fn tune_cleaner(
    sets: &[GoldSetConfig],
    config: &Config,
    options: TuneOptions,
    progress: impl Fn(&str),
) -> Result<TuningReport, CleanEvalError> {
    if sets.is_empty() {
        return Err(CleanEvalError {
            path: "[[training_sets]]".into(),
            message: "the configuration names no training sets".into(),
        });
    }
    let mut tuner = load(sets, config, options)?;
    progress(&format!("{} training pages parsed", tuner.pages.len()));
    let start = values(&config.cleaning);
    let all = |_: &TrainingPage| true;
    let start_scores = tuner.scores(&start);
    let start_f1 = tuner.set_f1(&start_scores, all);

    let mut fold_results = Vec::new();
    let mut held_out_scores =
        vec![PageScore { output_tokens: 0, gold_tokens: 0, true_positives: 0 }; tuner.pages.len()];
    for fold in 0..options.folds {
        let setting = tuner.search(&start, options.rounds, |p| p.fold != fold);
        let scores = tuner.scores(&setting);
        for (i, page) in tuner.pages.iter().enumerate() {
            if page.fold == fold {
                held_out_scores[i] = scores[i];
            }
        }
        let in_fold = |p: &TrainingPage| p.fold == fold;
        let result = FoldResult {
            fold,
            pages: tuner.pages.iter().filter(|p| p.fold == fold).count(),
            setting: named(&setting),
            start_f1: tuner.set_f1(&start_scores, in_fold),
            tuned_f1: tuner.set_f1(&scores, in_fold),
        };
        progress(&format!(
            "fold {fold}: {} pages, held-out F1 {:.4} (start {:.4})",
            result.pages,
            mean(&result.tuned_f1),
            mean(&result.start_f1)
        ));
        fold_results.push(result);
    }
    let cv_f1 = tuner.set_f1(&held_out_scores, all);
    let chosen = tuner.search(&start, options.rounds, all);
    let chosen_scores = tuner.scores(&chosen);
    let chosen_f1 = tuner.set_f1(&chosen_scores, all);
    let mut curves = Vec::new();
    for (i, setting) in SETTINGS.iter().enumerate() {
        let mut points = Vec::new();
        for &v in setting.grid {
            let mut candidate = chosen.clone();
            candidate[i] = v;
            points.push((v, tuner.objective(&candidate, &all)));
        }
        curves.push(SettingCurve { setting: setting.name.to_string(), chosen: chosen[i], points });
    }
    Ok(TuningReport {
        set_pages: (0..tuner.sets.len()).map(|s| tuner.pages.iter().filter(|p| p.set == s).count()).collect(),
        sets: tuner.sets.clone(),
        folds: options.folds,
        rounds: options.rounds,
        max_pages: options.max_pages,
        start: named(&start),
        start_f1,
        cross_validated: CrossValidatedF1 {
            cleaner: CleanerKind::DocView.name().to_string(),
            folds: options.folds,
            sets: tuner.sets.iter().cloned().zip(cv_f1).collect(),
            part: None,
        },
        fold_results,
        chosen: named(&chosen),
        chosen_f1,
        curves,
    })
}

fn row(f1: &[f64]) -> String {
    let cells: Vec<String> = f1.iter().map(|f| format!("{f:.4}")).collect();
    format!("{} | {:.4}", cells.join(" | "), mean(f1))
}

/// The report as markdown.
pub fn tuning_markdown(report: &TuningReport, command: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# The default cleaner's settings, chosen on the training sets\n\nMade by `{command}`.\n");
    let _ = writeln!(
        md,
        "Coordinate descent ({} rounds at most) over the grid of each `[cleaning]` setting, objective the mean \
         of the training sets' F1 (`eval clean`'s metric); {} folds by site. No test set is read.{}\n",
        report.rounds,
        report.folds,
        report.max_pages.map_or(String::new(), |n| format!(" Short run: at most {n} pages per set."))
    );
    let sets: Vec<String> = report.sets.iter().zip(&report.set_pages).map(|(s, n)| format!("{s} ({n})")).collect();
    let _ = writeln!(md, "## F1\n\n| setting | {} | mean |\n|---|{}---|", sets.join(" | "), "---|".repeat(sets.len()));
    let cv: Vec<f64> = report.cross_validated.sets.iter().map(|&(_, f)| f).collect();
    let _ = writeln!(md, "| start (the defaults before tuning), all pages | {} |", row(&report.start_f1));
    let _ = writeln!(md, "| **tuned, {}-fold cross-validated** | {} |", report.folds, row(&cv));
    let _ = writeln!(md, "| tuned on all pages (in-sample) | {} |", row(&report.chosen_f1));
    let _ = writeln!(
        md,
        "\n## Settings\n\nPer fold, the setting chosen on the other folds; last, the one chosen on all pages.\n"
    );
    let _ = writeln!(
        md,
        "| setting | start | {} | chosen |\n|---|---:|{}---:|",
        (0..report.fold_results.len()).map(|f| format!("fold {f}")).collect::<Vec<_>>().join(" | "),
        "---:|".repeat(report.fold_results.len())
    );
    for (i, (name, start)) in report.start.iter().enumerate() {
        let folds: Vec<String> = report.fold_results.iter().map(|f| format!("{}", f.setting[i].1)).collect();
        let _ = writeln!(md, "| {name} | {start} | {} | {} |", folds.join(" | "), report.chosen[i].1);
    }
    let _ = writeln!(
        md,
        "\n## Held-out F1 per fold (mean over sets)\n\n| fold | pages | start | tuned |\n|---|---:|---:|---:|"
    );
    for f in &report.fold_results {
        let _ = writeln!(md, "| {} | {} | {:.4} | {:.4} |", f.fold, f.pages, mean(&f.start_f1), mean(&f.tuned_f1));
    }
    let _ = writeln!(
        md,
        "\n## Each setting's curve\n\nMean F1 over the sets (all pages, in-sample) for each value, the other settings \
         as chosen: how much each setting matters.\n\n| setting | values: mean F1 | range |\n|---|---|---:|"
    );
    for curve in &report.curves {
        let points: Vec<String> = curve
            .points
            .iter()
            .map(|&(v, f)| if v == curve.chosen { format!("**{v}: {f:.4}**") } else { format!("{v}: {f:.4}") })
            .collect();
        let (lo, hi) = curve.points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &(_, f)| (lo.min(f), hi.max(f)));
        let _ = writeln!(md, "| {} | {} | {:.4} |", curve.setting, points.join(", "), hi - lo);
    }
    md
}

/// Writes report.md and report.json into `out`.
pub fn write_tuning_report(report: &TuningReport, out: &Path, command: &str) -> Result<(), CleanEvalError> {
    let error = |path: &Path, message: String| CleanEvalError { path: path.display().to_string(), message };
    std::fs::create_dir_all(out).map_err(|e| error(out, e.to_string()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| error(out, e.to_string()))? + "\n";
    std::fs::write(out.join("report.json"), json).map_err(|e| error(&out.join("report.json"), e.to_string()))?;
    std::fs::write(out.join("report.md"), tuning_markdown(report, command))
        .map_err(|e| error(&out.join("report.md"), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_reads_back_what_it_writes_and_its_grid_holds_the_default() {
        let defaults = CleaningConfig::default();
        for setting in SETTINGS {
            assert!(setting.grid.contains(&(setting.get)(&defaults)), "{}: default not in the grid", setting.name);
            let mut config = defaults.clone();
            let v = setting.grid[setting.grid.len() - 1];
            (setting.set)(&mut config, v);
            assert_eq!((setting.get)(&config), v, "{}", setting.name);
        }
        assert_eq!(with_values(&defaults, &values(&defaults)), defaults);
    }

    #[test]
    fn folds_are_by_site_and_stable() {
        assert_eq!(fold_of("example.com", 5), fold_of("example.com", 5));
        let folds: std::collections::HashSet<usize> =
            (0..100).map(|i| fold_of(&format!("site{i}.example"), 5)).collect();
        assert_eq!(folds.len(), 5, "100 sites spread over every fold");
        assert!((0..100).all(|i| fold_of(&format!("site{i}.example"), 5) < 5));
    }

    #[test]
    fn seed_0_is_the_unseeded_partition_and_another_seed_a_different_one() {
        // FNV-1a written out again here, so seed 0 is pinned to the partition every earlier
        // report used, not just to itself.
        let fnv = |bytes: &[u8]| {
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            for &b in bytes {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            h
        };
        let sites: Vec<String> = (0..200).map(|i| format!("site{i}.example")).collect();
        for site in &sites {
            assert_eq!(seeded_fold_of(site, 5, 0), (fnv(site.as_bytes()) % 5) as usize);
            assert_eq!(seeded_fold_of(site, 5, 0), fold_of(site, 5));
        }
        let moved = sites.iter().filter(|s| seeded_fold_of(s, 5, 1) != fold_of(s, 5)).count();
        assert!(moved > 100, "seed 1 moves most sites to another fold ({moved} of 200)");
        assert_eq!(seeded_fold_of("example.com", 5, 1), seeded_fold_of("example.com", 5, 1));
        let folds: std::collections::HashSet<usize> = sites.iter().map(|s| seeded_fold_of(s, 5, 1)).collect();
        assert_eq!(folds.len(), 5, "seed 1 still fills every fold");
    }

    fn page(tokens: &str, gold: &str) -> String {
        format!(
            "<html><head><title>T</title></head><body><nav>{tokens}</nav><article><p>{gold}</p></article></body></html>"
        )
    }

    #[test]
    fn the_tuning_report_scores_held_out_folds_and_says_what_it_chose() {
        let dir = tempfile::tempdir().unwrap();
        let (html, gold) = (dir.path().join("s/html"), dir.path().join("s/gold"));
        std::fs::create_dir_all(&html).unwrap();
        std::fs::create_dir_all(&gold).unwrap();
        let body = "the river carries silt down from the mountains every spring and the farmers wait for it";
        for i in 0..6 {
            std::fs::write(html.join(format!("{i}.html")), page("home news sport contact", body)).unwrap();
            std::fs::write(gold.join(format!("{i}.txt")), body).unwrap();
        }
        let sets = vec![GoldSetConfig { name: "s".into(), html, gold }];
        let options = TuneOptions { folds: 2, rounds: 1, max_pages: None };
        let report = tune_cleaner(&sets, &Config::default(), options, |_| {}).unwrap();
        assert_eq!(report.set_pages, vec![6]);
        assert_eq!(report.fold_results.len(), 2);
        assert_eq!(report.fold_results.iter().map(|f| f.pages).sum::<usize>(), 6);
        // Every page is the article alone: F1 1 from the start, so no setting moves.
        assert!((report.start_f1[0] - 1.0).abs() < 1e-9, "{:?}", report.start_f1);
        assert!((report.cross_validated.sets[0].1 - 1.0).abs() < 1e-9);
        assert_eq!(report.chosen, report.start);
        let md = tuning_markdown(&report, "test");
        assert!(md.contains("| **tuned, 2-fold cross-validated** | 1.0000 | 1.0000 |"), "{md}");
        let out = dir.path().join("report");
        write_tuning_report(&report, &out, "test").unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
        assert_eq!(json["cross_validated"]["folds"], 2);
    }
}
