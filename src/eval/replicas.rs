//! `indexer eval replicas`: replica detection measured like §7.2 of the paper, and on
//! human-judged web-page pairs.
//!
//! - The replica set (base pages, a near replica of each in another site's template, and a
//!   non-replica of each in the same template): the hit rate is the share of near replicas
//!   grouped with their base page, the error rate the share of non-replicas grouped with
//!   theirs. Each detector runs over the topic content and over the raw page text, to show
//!   the paper's point that cleaning first matters. `--sweep` reproduces Table 2 (Percentage
//!   10–100% × Interval 1–10) for the keyword fingerprint.
//! - Human-judged pairs (webis copycat: canonicalised texts, fed straight to the signature
//!   stage): precision, recall and false-positive rate of each detector's pair decision.
//!
//! The evaluation holds its pages' terms in memory: the sets are small (hundreds of pages).

use std::collections::HashMap;
use std::path::Path;

use gaoya::minhash::compute_minhash_similarity;
use gaoya::simhash::SimHashBits;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::clean::{block_weights, site_of, term_frequencies};
use crate::config::{Config, ReplicaConfig};
use crate::input::{ByteCounter, InputError, InputEvent, RawPage, Source};
use crate::page::{PageContext, terms_in_order};
use crate::replicas::{
    DetectorKind, NearSignature, PageFingerprints, ReplicaDetector, Signer, Verdict, exact_fingerprint,
    keyword_fingerprint,
};
use crate::tagtree::{BlockType, TagTree};
use crate::text::{StopWords, terms};

/// A page's text as the detectors see it, from its topic content or from the whole page.
#[derive(Debug, Clone, Default)]
struct Text {
    exact: String,
    terms: Vec<String>,
    tf: HashMap<String, u32>,
    /// Near signatures apply (topic pages, for the topic content; every page for raw text).
    comparable: bool,
}

struct EvalPage {
    url: String,
    topic: Text,
    raw: Text,
}

/// Which text the detectors read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextSource {
    /// The topic content found by cleaning.
    Topic,
    /// All visible text of the raw page.
    Raw,
}

/// Hit and error rates (§7.2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Rates {
    pub hits: usize,
    pub near: usize,
    pub errors: usize,
    pub non: usize,
    pub hit_rate: f64,
    pub error_rate: f64,
}

/// One detector on one text source.
#[derive(Debug, Clone, Serialize)]
pub struct DetectorRates {
    pub detector: &'static str,
    pub source: TextSource,
    pub rates: Rates,
}

/// Table 2: rates per Interval (rows, 1–10) and Percentage (columns, 10–100%).
#[derive(Debug, Clone, Serialize)]
pub struct Sweep {
    pub source: TextSource,
    pub percentages: Vec<f64>,
    pub intervals: Vec<usize>,
    /// `rates[i][p]` for `intervals[i]`, `percentages[p]`.
    pub rates: Vec<Vec<Rates>>,
}

/// Pair-classification figures on judged pairs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct PairMetrics {
    pub true_positives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
    pub true_negatives: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub false_positive_rate: f64,
}

impl PairMetrics {
    fn from_decisions(decisions: impl IntoIterator<Item = (bool, bool)>) -> PairMetrics {
        let mut m = PairMetrics::default();
        for (truth, decided) in decisions {
            match (truth, decided) {
                (true, true) => m.true_positives += 1,
                (false, true) => m.false_positives += 1,
                (true, false) => m.false_negatives += 1,
                (false, false) => m.true_negatives += 1,
            }
        }
        let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        m.precision = ratio(m.true_positives, m.true_positives + m.false_positives);
        m.recall = ratio(m.true_positives, m.true_positives + m.false_negatives);
        m.f1 = if m.precision + m.recall > 0.0 { 2.0 * m.precision * m.recall / (m.precision + m.recall) } else { 0.0 };
        m.false_positive_rate = ratio(m.false_positives, m.false_positives + m.true_negatives);
        m
    }
}

/// One detector on the judged pairs, at one cut of the graded labels.
#[derive(Debug, Clone, Serialize)]
pub struct PairRates {
    pub detector: &'static str,
    /// Pairs labelled at least this are positives; 0.5 are negatives; others are left out.
    pub positive_from: f64,
    pub metrics: PairMetrics,
}

/// The whole replica evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct ReplicaReport {
    pub pages: usize,
    pub detectors: Vec<DetectorRates>,
    pub sweeps: Vec<Sweep>,
    pub pairs: Vec<PairRates>,
    pub settings: ReplicaConfig,
}

/// An evaluation that could not run.
#[derive(Debug, thiserror::Error)]
pub enum ReplicaEvalError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Context(#[from] crate::page::PageContextError),
    #[error("{path}: {message}")]
    Data { path: String, message: String },
}

fn data_error(path: &Path, message: impl Into<String>) -> ReplicaEvalError {
    ReplicaEvalError::Data { path: path.display().to_string(), message: message.into() }
}

/// The replica set's truth: url → (set, base url).
pub fn read_truth(path: &Path) -> Result<HashMap<String, (String, String)>, ReplicaEvalError> {
    let text = std::fs::read_to_string(path).map_err(|e| data_error(path, e.to_string()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let column = |name: &str| {
        header.iter().position(|h| *h == name).ok_or_else(|| data_error(path, format!("no column {name:?}")))
    };
    let (url, set, base) = (column("url")?, column("set")?, column("base_url")?);
    let mut truth = HashMap::new();
    for (n, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('\t').collect();
        let cell = |i: usize| {
            cells.get(i).copied().ok_or_else(|| data_error(path, format!("line {}: too few columns", n + 2)))
        };
        truth.insert(cell(url)?.to_string(), (cell(set)?.to_string(), cell(base)?.to_string()));
    }
    Ok(truth)
}

fn text_of(tree: &TagTree, nodes: &[usize], exact: String, comparable: bool, stop_words: &StopWords) -> Text {
    Text { exact, terms: terms_in_order(tree, nodes), tf: term_frequencies(tree, nodes, stop_words), comparable }
}

fn load_pages(input: &Path, config: &Config) -> Result<Vec<EvalPage>, ReplicaEvalError> {
    let source = Source::from_path(input)?;
    let mut raw: Vec<RawPage> = Vec::new();
    source.visit_with(&config.input.read_options(), &ByteCounter::default(), &mut |event| {
        if let InputEvent::Page(page) = event {
            raw.push(page);
        }
        true
    })?;
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(config, &stop_words)?;
    Ok(raw
        .par_iter()
        .map(|page| {
            let (tree, _) = ctx.tag_tree(page);
            let weights = block_weights(&tree, &config.block_weight);
            let content = ctx.cleaner().clean(&site_of(&page.url), &tree, &weights, config);
            let all: Vec<usize> = (0..tree.nodes.len()).collect();
            let topic_text = content.text(&tree);
            let topic = text_of(
                &tree,
                &content.nodes,
                format!("{}\n{}", tree.title, topic_text),
                content.page_type == BlockType::Topic,
                &stop_words,
            );
            let raw = text_of(&tree, &all, tree.visible_text(), true, &stop_words);
            EvalPage { url: page.url.clone(), topic, raw }
        })
        .collect())
}

/// Groups pages the way a build does (first page kept, in input order) and returns each
/// page's group (the URL of the kept page).
fn group_pages(
    pages: &[EvalPage],
    source: TextSource,
    sign: &dyn Fn(&Text) -> PageFingerprints,
    mut detector: ReplicaDetector,
) -> HashMap<String, String> {
    let mut group = HashMap::new();
    for page in pages {
        let text = match source {
            TextSource::Topic => &page.topic,
            TextSource::Raw => &page.raw,
        };
        let kept = match detector.check(&page.url, &sign(text)) {
            Verdict::Unique => page.url.clone(),
            Verdict::Replica { kept_url, .. } => kept_url,
        };
        group.insert(page.url.clone(), kept);
    }
    group
}

fn rates(group: &HashMap<String, String>, truth: &HashMap<String, (String, String)>) -> Rates {
    let mut r = Rates::default();
    for (url, (set, base)) in truth {
        let same = match (group.get(url), group.get(base)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        };
        match set.as_str() {
            "near" => {
                r.near += 1;
                r.hits += usize::from(same);
            }
            "non" => {
                r.non += 1;
                r.errors += usize::from(same);
            }
            _ => {}
        }
    }
    r.hit_rate = if r.near == 0 { 0.0 } else { r.hits as f64 / r.near as f64 };
    r.error_rate = if r.non == 0 { 0.0 } else { r.errors as f64 / r.non as f64 };
    r
}

fn exact_of(text: &Text) -> Option<crate::replicas::Fingerprint> {
    exact_fingerprint(&text.exact)
}

const DETECTORS: [DetectorKind; 3] = [DetectorKind::DocView, DetectorKind::MinHash, DetectorKind::SimHash];

/// Hit and error rates of every detector on both text sources, and the sweep if asked.
pub fn evaluate_replica_set(
    input: &Path,
    truth: &HashMap<String, (String, String)>,
    config: &Config,
    sweep: bool,
) -> Result<(usize, Vec<DetectorRates>, Vec<Sweep>), ReplicaEvalError> {
    let pages = load_pages(input, config)?;
    let mut detectors = Vec::new();
    for kind in DETECTORS {
        let signer = Signer::new(kind, &config.replicas);
        for source in [TextSource::Topic, TextSource::Raw] {
            let sign = |text: &Text| PageFingerprints {
                exact: exact_of(text),
                near: if text.comparable { signer.sign(&text.terms, &text.tf) } else { NearSignature::None },
            };
            let group = group_pages(&pages, source, &sign, ReplicaDetector::new(kind, &config.replicas));
            detectors.push(DetectorRates { detector: kind.name(), source, rates: rates(&group, truth) });
        }
    }
    let mut sweeps = Vec::new();
    if sweep {
        let percentages: Vec<f64> = (1..=10).map(|p| p as f64 / 10.0).collect();
        let intervals: Vec<usize> = (1..=10).collect();
        for source in [TextSource::Topic, TextSource::Raw] {
            let table = intervals
                .par_iter()
                .map(|&interval| {
                    percentages
                        .iter()
                        .map(|&percentage| {
                            let sign = |text: &Text| PageFingerprints {
                                exact: exact_of(text),
                                near: if text.comparable {
                                    keyword_fingerprint(&text.tf, percentage, interval)
                                        .map_or(NearSignature::None, NearSignature::Keyword)
                                } else {
                                    NearSignature::None
                                },
                            };
                            let detector = ReplicaDetector::new(DetectorKind::DocView, &config.replicas);
                            rates(&group_pages(&pages, source, &sign, detector), truth)
                        })
                        .collect()
                })
                .collect();
            sweeps.push(Sweep { source, percentages: percentages.clone(), intervals: intervals.clone(), rates: table });
        }
    }
    Ok((pages.len(), detectors, sweeps))
}

#[derive(Deserialize)]
struct JudgedPair {
    label_raw: String,
    src_doc: String,
    target_doc: String,
}

/// The graded label of a copycat pair; `None` for "unknown".
fn label(raw: &str) -> Option<f64> {
    raw.trim().trim_end_matches('s').trim().parse().ok()
}

/// Precision, recall and false-positive rate of every detector on judged pairs (JSON Lines
/// with `label_raw`, `src_doc`, `target_doc`), with positives at label ≥ 2 and at ≥ 1,
/// negatives at 0.5.
pub fn evaluate_pairs(path: &Path, config: &ReplicaConfig) -> Result<Vec<PairRates>, ReplicaEvalError> {
    let text = std::fs::read_to_string(path).map_err(|e| data_error(path, e.to_string()))?;
    let mut pairs = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let pair: JudgedPair =
            serde_json::from_str(line).map_err(|e| data_error(path, format!("line {}: {e}", n + 1)))?;
        if let Some(label) = label(&pair.label_raw) {
            pairs.push((label, pair.src_doc, pair.target_doc));
        }
    }
    let stop_words = StopWords::generic();
    let prepared: Vec<(f64, Text, Text)> = pairs
        .par_iter()
        .map(|(label, a, b)| {
            let text = |s: &str| {
                let t = terms(s);
                let mut tf = HashMap::new();
                for term in t.iter().filter(|t| !stop_words.is_stop(t)) {
                    *tf.entry(term.clone()).or_insert(0) += 1;
                }
                Text { exact: s.to_string(), terms: t, tf, comparable: true }
            };
            (*label, text(a), text(b))
        })
        .collect();
    let mut out = Vec::new();
    for kind in DETECTORS {
        let signer = Signer::new(kind, config);
        let decisions: Vec<(f64, bool)> = prepared
            .par_iter()
            .map(|(label, a, b)| {
                let same = match (signer.sign(&a.terms, &a.tf), signer.sign(&b.terms, &b.tf)) {
                    (NearSignature::Keyword(x), NearSignature::Keyword(y)) => x == y,
                    (NearSignature::MinHash(x), NearSignature::MinHash(y)) => {
                        compute_minhash_similarity(&x, &y) >= config.minhash_threshold
                    }
                    (NearSignature::SimHash(x), NearSignature::SimHash(y)) => {
                        x.hamming_distance(&y) <= config.simhash_max_distance
                    }
                    _ => false,
                } || exact_of(a).is_some() && exact_of(a) == exact_of(b);
                (*label, same)
            })
            .collect();
        for positive_from in [2.0, 1.0] {
            let labelled = decisions.iter().filter_map(|&(label, decided)| {
                if label >= positive_from {
                    Some((true, decided))
                } else if (label - 0.5).abs() < 1e-9 {
                    Some((false, decided))
                } else {
                    None
                }
            });
            out.push(PairRates {
                detector: kind.name(),
                positive_from,
                metrics: PairMetrics::from_decisions(labelled),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_parsed_like_the_readme_says() {
        assert_eq!(label("3"), Some(3.0));
        assert_eq!(label("0.5s"), Some(0.5));
        assert_eq!(label("0.5 "), Some(0.5));
        assert_eq!(label("unkown"), None);
    }

    #[test]
    fn pair_metrics() {
        let m =
            PairMetrics::from_decisions([(true, true), (true, false), (false, true), (false, false), (false, false)]);
        assert_eq!((m.true_positives, m.false_negatives, m.false_positives, m.true_negatives), (1, 1, 1, 2));
        assert!((m.precision - 0.5).abs() < 1e-12 && (m.recall - 0.5).abs() < 1e-12);
        assert!((m.false_positive_rate - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn rates_count_groups_with_the_base() {
        let truth: HashMap<String, (String, String)> = [
            ("b", ("base", "b")),
            ("n", ("near", "b")),
            ("x", ("non", "b")),
            ("b2", ("base", "b2")),
            ("n2", ("near", "b2")),
            ("x2", ("non", "b2")),
        ]
        .into_iter()
        .map(|(u, (s, b))| (u.to_string(), (s.to_string(), b.to_string())))
        .collect();
        let group: HashMap<String, String> =
            [("b", "b"), ("n", "b"), ("x", "x"), ("b2", "n2"), ("n2", "n2"), ("x2", "n2")]
                .into_iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect();
        let r = rates(&group, &truth);
        assert_eq!((r.hits, r.near, r.errors, r.non), (2, 2, 1, 2));
    }
}

/// The replica evaluation's configuration (`eval/replicas.toml`); paths relative to the file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplicaEvalConfig {
    pub input: std::path::PathBuf,
    pub truth: std::path::PathBuf,
    pub pairs: std::path::PathBuf,
    pub report: std::path::PathBuf,
}

impl ReplicaEvalConfig {
    pub fn from_file(path: &Path) -> Result<ReplicaEvalConfig, ReplicaEvalError> {
        let text = std::fs::read_to_string(path).map_err(|e| data_error(path, e.to_string()))?;
        let mut config: ReplicaEvalConfig = toml::from_str(&text).map_err(|e| data_error(path, e.to_string()))?;
        super::resolve_relative_to(path, [&mut config.input, &mut config.truth, &mut config.pairs, &mut config.report]);
        Ok(config)
    }
}

/// Writes report.md, report.json and (with a sweep) table2-heatmap.svg into `out`.
pub fn write_replica_report(report: &ReplicaReport, out: &Path, command: &str) -> Result<(), ReplicaEvalError> {
    use std::fmt::Write as _;
    std::fs::create_dir_all(out).map_err(|e| data_error(out, e.to_string()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| data_error(out, e.to_string()))? + "\n";
    std::fs::write(out.join("report.json"), json).map_err(|e| data_error(&out.join("report.json"), e.to_string()))?;
    let mut md = String::new();
    let s = &report.settings;
    let _ = writeln!(md, "# Replica detection\n\nMade by `{command}`.\n");
    let _ = writeln!(
        md,
        "Settings: keyword fingerprint Percentage {} and Interval {} (the paper's); MinHash {} hashes over {}-word \
         shingles, replicas at estimated Jaccard ≥ {}; SimHash 64 bits over {}-word shingles, replicas at Hamming \
         distance ≤ {}. The defaults were fixed before measuring these sets; a command with --settings measures others.\n",
        s.percentage,
        s.interval,
        s.minhash_hashes,
        s.shingle_words,
        s.minhash_threshold,
        s.shingle_words,
        s.simhash_max_distance
    );
    let _ = writeln!(md, "## The replica set (§7.2)\n");
    let _ = writeln!(
        md,
        "{} pages: base pages, a near replica of each (the same article in another site's template, some lightly \
         edited) and a non-replica of each (another article in the base page's template). Hit rate: near replicas \
         grouped with their base; error rate: non-replicas grouped with theirs. The paper: 58% / 1.6% (P 0.4, I 5).\n",
        report.pages
    );
    let _ = writeln!(md, "| detector | text | hit rate | error rate |\n|---|---|---|---|");
    for d in &report.detectors {
        let source = match d.source {
            TextSource::Topic => "topic content",
            TextSource::Raw => "raw page text",
        };
        let _ = writeln!(
            md,
            "| {} | {} | {:.1}% ({}/{}) | {:.1}% ({}/{}) |",
            d.detector,
            source,
            100.0 * d.rates.hit_rate,
            d.rates.hits,
            d.rates.near,
            100.0 * d.rates.error_rate,
            d.rates.errors,
            d.rates.non
        );
    }
    for sweep in &report.sweeps {
        let source = match sweep.source {
            TextSource::Topic => "topic content",
            TextSource::Raw => "raw page text",
        };
        let _ = writeln!(
            md,
            "\n### Table 2 over the {source}: hits / errors (of {} / {})\n",
            sweep.rates[0][0].near, sweep.rates[0][0].non
        );
        let header: Vec<String> = sweep.percentages.iter().map(|p| format!("P={:.0}%", p * 100.0)).collect();
        let _ = writeln!(md, "| | {} |", header.join(" | "));
        let _ = writeln!(md, "|---|{}", "---|".repeat(header.len()));
        for (i, row) in sweep.rates.iter().enumerate() {
            let cells: Vec<String> = row.iter().map(|r| format!("{}/{}", r.hits, r.errors)).collect();
            let _ = writeln!(md, "| I={} | {} |", sweep.intervals[i], cells.join(" | "));
        }
    }
    if !report.sweeps.is_empty() {
        let _ = writeln!(md, "\n![Table 2 as heatmaps](table2-heatmap.svg)");
        let path = out.join("table2-heatmap.svg");
        heatmap(report, &path).map_err(|e| data_error(&path, e))?;
    }
    if !report.pairs.is_empty() {
        let _ = writeln!(md, "\n## Human-judged pairs (webis copycat)\n");
        let _ = writeln!(
            md,
            "Pairs of pages sharing a canonical link, judged on a graded scale; negatives are the pairs labelled \
             0.5 (hard: all have word-8-gram S3 ≥ 0.4), unknown labels are left out. References measured on this \
             machine: DocView-style fingerprint P 0.93 / R 0.51 / FPR 2.8%; MinHash-128 on 5-shingles at J ≥ 0.8: \
             P 0.92 / R 0.58 / FPR 4%.\n"
        );
        let _ = writeln!(
            md,
            "| detector | positives | precision | recall | F1 | false-positive rate | TP / FP / FN / TN |\n|---|---|---|---|---|---|---|"
        );
        for p in &report.pairs {
            let m = &p.metrics;
            let _ = writeln!(
                md,
                "| {} | label ≥ {} | {:.3} | {:.3} | {:.3} | {:.1}% | {} / {} / {} / {} |",
                p.detector,
                p.positive_from,
                m.precision,
                m.recall,
                m.f1,
                100.0 * m.false_positive_rate,
                m.true_positives,
                m.false_positives,
                m.false_negatives,
                m.true_negatives
            );
        }
    }
    std::fs::write(out.join("report.md"), md).map_err(|e| data_error(&out.join("report.md"), e.to_string()))?;
    Ok(())
}

fn heatmap(report: &ReplicaReport, path: &Path) -> Result<(), String> {
    use plotters::prelude::*;
    let root = SVGBackend::new(path, (1100, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let panels = root.split_evenly((1, report.sweeps.len().max(1)));
    for (panel, sweep) in panels.iter().zip(&report.sweeps) {
        let source = match sweep.source {
            TextSource::Topic => "topic content",
            TextSource::Raw => "raw page text",
        };
        let mut chart = ChartBuilder::on(panel)
            .caption(format!("hit rate (hits/errors), {source}"), ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(40)
            .build_cartesian_2d(0.5f64..10.5, 10.5f64..0.5)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(10)
            .y_labels(10)
            .x_label_formatter(&|x| format!("{:.0}%", x * 10.0))
            .y_label_formatter(&|y| format!("I={y:.0}"))
            .x_desc("Percentage")
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, row) in sweep.rates.iter().enumerate() {
            for (p, rate) in row.iter().enumerate() {
                let (x, y) = ((p + 1) as f64, (i + 1) as f64);
                // White for 0, deep blue for a 100% hit rate.
                let shade = (255.0 * (1.0 - rate.hit_rate)) as u8;
                let fill = RGBColor(shade, shade, 255);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                        fill.filled(),
                    )))
                    .map_err(|e| e.to_string())?;
                let ink = if rate.hit_rate > 0.6 { WHITE } else { BLACK };
                chart
                    .draw_series(std::iter::once(Text::new(
                        format!("{}/{}", rate.hits, rate.errors),
                        (x - 0.35, y - 0.15),
                        ("sans-serif", 11).into_font().color(&ink),
                    )))
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    root.present().map_err(|e| e.to_string())
}
