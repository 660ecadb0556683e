//! `indexer eval report`: everything §7.3 measures, for one collection — effectiveness of the
//! abstract, full-text and tiered searches and of the tiered search with feedback, the default
//! (trec_eval measures), the index statistics of Table 3, and the disk access of Figure 6 —
//! written as report.md, report.json and SVG charts.

use std::fmt::Write as _;
use std::path::Path;

use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::eval::disk::{DiskReport, GroupAccess, TieredAccess, measure_disk, sample_terms};
use crate::eval::run::{Topic, run_topics};
use crate::eval::score::{EvalOptions, Qrels, Run, ScoreError, Summary, evaluate};
use crate::eval::stats::{StatisticsReport, index_statistics};
use crate::search::SearchRequest;
use crate::search::{Collection, IndexChoice, SearchError, SearchSettings};

/// Reference P@10 figures to print beside ours (from the collection's README).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// What produced them.
    pub description: String,
    /// BM25 over the clean documents (perfect cleaning).
    pub clean_p10: Option<f64>,
    /// BM25 over all visible text of the noisy pages.
    pub full_page_p10: Option<f64>,
}

/// What a report measures.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    pub name: String,
    /// Results per topic in the runs.
    pub depth: usize,
    /// Single-term queries for the disk measurement: given, or sampled.
    pub terms: Option<(Vec<String>, String)>,
    pub sampled_terms: usize,
    pub group_size: usize,
    pub seed: u64,
    pub reference: Option<Reference>,
    /// A folder of TREC runs of a peer system (`*.run`, e.g. eval/peer/pyserini.sh's), scored
    /// and shown beside ours when it exists.
    pub peer_runs: Option<std::path::PathBuf>,
}

/// One search's effectiveness.
#[derive(Debug, Clone, Serialize)]
pub struct Effectiveness {
    pub index: &'static str,
    pub summary: Summary,
}

/// A peer system's run, scored.
#[derive(Debug, Clone, Serialize)]
pub struct PeerEffectiveness {
    /// The run file's stem (e.g. `pyserini-bm25-clean`).
    pub run: String,
    pub summary: Summary,
}

/// The report of one collection.
#[derive(Debug, Clone, Serialize)]
pub struct CollectionReport {
    pub name: String,
    pub documents: u64,
    /// The cleaner the build's pages went through (its `config.toml`); `None` for a build
    /// made before builds recorded their configuration.
    pub cleaner: Option<String>,
    pub topics: usize,
    pub depth: usize,
    /// How the measures are averaged.
    pub averaging: &'static str,
    pub effectiveness: Vec<Effectiveness>,
    /// The peer system's runs, scored the same way (empty when there are none).
    pub peers: Vec<PeerEffectiveness>,
    /// Where peer runs were looked for, and whether they were found.
    pub peer_note: Option<String>,
    /// The search settings of our rows, with how they were chosen.
    pub settings: SearchSettings,
    pub statistics: StatisticsReport,
    pub disk: DiskReport,
    pub reference: Option<Reference>,
}

/// A report that could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error(transparent)]
    Score(#[from] ScoreError),
    #[error("cannot write {path}: {message}")]
    Write { path: String, message: String },
}

/// Our searches in the report: the three indexes, and the tiered search with feedback.
const SEARCHES: [(IndexChoice, bool, &str); 4] = [
    (IndexChoice::Abstract, false, "abstract"),
    (IndexChoice::Fulltext, false, "fulltext"),
    (IndexChoice::Tiered, false, "tiered"),
    (IndexChoice::Tiered, true, "tiered+feedback"),
];

/// Measures the build in `dir` on `topics` judged by `qrels`.
pub fn collection_report(
    dir: &Path,
    topics: &[Topic],
    qrels: &Qrels,
    options: &ReportOptions,
) -> Result<CollectionReport, ReportError> {
    let collection = Collection::open(dir)?;
    collection.preload_urls()?;
    let mut effectiveness = Vec::new();
    for (choice, feedback, name) in SEARCHES {
        let request = SearchRequest { choice, limit: options.depth, category: None, feedback };
        let run = Run::parse(&run_topics(&collection, topics, &request, name)?)?;
        // trec_eval -c: a topic the search answers with nothing counts as 0, not as absent.
        let evaluation = evaluate(qrels, &run, EvalOptions { complete: true })?;
        effectiveness.push(Effectiveness { index: name, summary: evaluation.all });
    }
    let (peers, peer_note) = match &options.peer_runs {
        None => (Vec::new(), None),
        Some(folder) => score_peer_runs(folder, qrels)?,
    };
    let settings = collection.settings().clone();
    let statistics = index_statistics(dir, &collection)?;
    let (terms, source) = match &options.terms {
        Some((terms, source)) => (terms.clone(), source.clone()),
        None => (
            sample_terms(&collection, options.sampled_terms, options.seed)?,
            format!(
                "{} terms sampled from the full-text vocabulary, Zipf-like by document frequency (seed {})",
                options.sampled_terms, options.seed
            ),
        ),
    };
    drop(collection);
    let disk = measure_disk(dir, &terms, &source, options.group_size, Some(topics))?;
    Ok(CollectionReport {
        name: options.name.clone(),
        documents: statistics.fulltext.documents,
        cleaner: build_cleaner(dir),
        topics: topics.len(),
        depth: options.depth,
        averaging: "mean over all judged topics; topics without results count as 0 (trec_eval -c)",
        effectiveness,
        peers,
        peer_note,
        settings,
        statistics,
        disk,
        reference: options.reference.clone(),
    })
}

/// Scores every `*.run` file of a peer's folder, in name order; a missing folder is no error
/// (the peer is optional), and the note says so.
fn score_peer_runs(folder: &Path, qrels: &Qrels) -> Result<(Vec<PeerEffectiveness>, Option<String>), ReportError> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        let note = format!("no peer runs in {} (run eval/peer/pyserini.sh to make them)", folder.display());
        return Ok((Vec::new(), Some(note)));
    };
    let mut paths: Vec<std::path::PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "run"))
        .collect();
    paths.sort();
    let mut peers = Vec::new();
    for path in &paths {
        let run = Run::from_path(path)?;
        let evaluation = evaluate(qrels, &run, EvalOptions { complete: true })?;
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        peers.push(PeerEffectiveness { run: name, summary: evaluation.all });
    }
    let note = format!("{} peer runs from {}", peers.len(), folder.display());
    Ok((peers, Some(note)))
}

/// Writes report.md, report.json, effectiveness.svg and disk-access.svg into `out`.
pub fn write_report(report: &CollectionReport, out: &Path, command: &str) -> Result<(), ReportError> {
    let write_error = |path: &Path, message: String| ReportError::Write { path: path.display().to_string(), message };
    std::fs::create_dir_all(out).map_err(|e| write_error(out, e.to_string()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| write_error(out, e.to_string()))? + "\n";
    let path = out.join("report.json");
    std::fs::write(&path, json).map_err(|e| write_error(&path, e.to_string()))?;
    let path = out.join("report.md");
    std::fs::write(&path, markdown(report, command)).map_err(|e| write_error(&path, e.to_string()))?;
    let path = out.join("effectiveness.svg");
    effectiveness_chart(report, &path).map_err(|e| write_error(&path, e))?;
    let path = out.join("disk-access.svg");
    disk_chart(report, &path).map_err(|e| write_error(&path, e))?;
    Ok(())
}

/// The cleaner recorded in the published build's `config.toml`, so that a report's figures say
/// which cleaning they were measured on.
fn build_cleaner(dir: &Path) -> Option<String> {
    let build = crate::index::current_build(dir).ok()?;
    let config = crate::config::Config::from_toml_file(&build.join("config.toml")).ok()?;
    Some(config.cleaning.cleaner.name().to_string())
}

fn markdown(report: &CollectionReport, command: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Evaluation: {}\n", report.name);
    let _ = writeln!(md, "Made by `{command}`.\n");
    let _ = writeln!(
        md,
        "{} pages indexed (cleaner: {}), {} topics, runs of depth {}; {}.\n",
        report.documents,
        report.cleaner.as_deref().unwrap_or("not recorded in the build"),
        report.topics,
        report.depth,
        report.averaging
    );
    let _ = writeln!(md, "## Effectiveness\n");
    let _ =
        writeln!(md, "| search | P@5 | P@10 | P@20 | R-prec | MAP | nDCG@10 | recall@100 | MRR | relevant retrieved |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|");
    let row = |md: &mut String, name: &str, m: &crate::eval::score::Measures| {
        let _ = writeln!(
            md,
            "| {} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} | {} / {} |",
            name,
            m.p_5,
            m.p_10,
            m.p_20,
            m.r_prec,
            m.map,
            m.ndcg_cut_10,
            m.recall_100,
            m.recip_rank,
            m.num_rel_ret,
            m.num_rel
        );
    };
    for e in &report.effectiveness {
        row(&mut md, e.index, &e.summary.measures);
    }
    for p in &report.peers {
        row(&mut md, &format!("peer: {}", p.run), &p.summary.measures);
    }
    if let Some(note) = &report.peer_note {
        let _ = writeln!(
            md,
            "\nPeer: {note}. The peer rows are Pyserini (Anserini on Lucene) runs: BM25 and BM25+RM3 over the clean documents of ../shared/data/ir, BM25 over the pages' visible text; their settings are in eval/peer/pyserini.sh."
        );
    }
    let s = &report.settings;
    let boosts = |boosts: &std::collections::BTreeMap<String, f32>| {
        let listed: Vec<String> = boosts.iter().map(|(field, boost)| format!("{field} {boost}")).collect();
        if listed.is_empty() { String::new() } else { format!(" (boosts: {})", listed.join(", ")) }
    };
    let _ = writeln!(
        md,
        "\nSearch settings: query k3 {}; abstract BM25 ({}) k1 {} b {}{}, full text BM25 ({}) k1 {} b {}{}; tiered: {} (abstract weight {}, rrf k {}, depth {}); \
         feedback: RM3, {} documents, {} terms, original weight {}, max page share {}, selection {}, documents from {}, expanding {}, expanded weight {}. Chosen: {}",
        s.query.k3,
        s.abstract_index.fields.name(),
        s.abstract_index.k1,
        s.abstract_index.b,
        boosts(&s.abstract_index.boosts),
        s.fulltext.fields.name(),
        s.fulltext.k1,
        s.fulltext.b,
        boosts(&s.fulltext.boosts),
        s.tiered.method.name(),
        s.tiered.abstract_weight,
        s.tiered.rrf_k,
        s.tiered.depth,
        s.feedback.docs,
        s.feedback.terms,
        s.feedback.original_weight,
        s.feedback.max_page_share,
        s.feedback.selective.name(),
        s.feedback.documents_from.name(),
        s.feedback.expands.name(),
        s.feedback.expanded_weight,
        s.chosen_by
    );
    if let Some(reference) = &report.reference {
        let _ = writeln!(md, "\nReference P@10 ({}):", reference.description);
        if let Some(p) = reference.clean_p10 {
            let _ = writeln!(md, "clean documents {p:.3},");
        }
        if let Some(p) = reference.full_page_p10 {
            let _ = writeln!(md, "full visible page text {p:.3}.");
        }
    }
    let _ = writeln!(md, "\n![effectiveness](effectiveness.svg)\n");
    let s = &report.statistics;
    let _ = writeln!(md, "## Index statistics (Table 3)\n");
    let _ = writeln!(md, "| | abstract | full text | ratio (abstract / full text) |");
    let _ = writeln!(md, "|---|---|---|---|");
    let _ = writeln!(
        md,
        "| sum of terms | {} | {} | {:.4} |",
        s.abstract_index.sum_of_terms, s.fulltext.sum_of_terms, s.terms_ratio
    );
    let _ = writeln!(
        md,
        "| size of index (bytes) | {} | {} | {:.4} |",
        s.abstract_index.bytes, s.fulltext.bytes, s.size_ratio
    );
    let _ = writeln!(md, "\nThe paper reports 0.3528 and 0.4140.\n");
    let c = &s.abstract_coverage;
    let _ = writeln!(
        md,
        "Abstract terms / topic-content terms (DocView records of the topic pages): {:.4} over all {} topic pages \
         ({} of them with an abstract of at least 90% of their topic content); {:.4} over the {} pages whose topic \
         content has at least {} sentences.\n",
        c.terms_ratio,
        c.topic_pages,
        c.pages_at_least_90_percent,
        c.long_terms_ratio,
        c.long_pages,
        crate::eval::stats::LONG_PAGE_SENTENCES
    );
    let d = &report.disk;
    let _ = writeln!(md, "## Disk access (Figure 6)\n");
    let _ = writeln!(
        md,
        "Single-term queries: {}; groups of {}. Each query fetches its top 10 by BM25; reads are counted through a \
         wrapper of Tantivy's directory after the indexes are open (the term dictionaries are memory-resident). \
         Pages are distinct 4 KiB pages per group. The ratios compare the inverted files (postings and positions), \
         as the paper does; over every read (which adds the field norms BM25 reads for each searched field on every \
         query, one byte per document) they are given last.\n",
        d.terms_source, d.group_size
    );
    let _ = writeln!(
        md,
        "Mean ratio abstract / full text over {} groups, inverted file: **bytes {:.3}, reads {:.3}, pages {:.3}** \
         (the paper: about 0.45); every read: bytes {:.3}, reads {:.3}, pages {:.3}.\n",
        d.groups.len(),
        d.mean_ratio.bytes,
        d.mean_ratio.reads,
        d.mean_ratio.pages,
        d.mean_ratio_all.bytes,
        d.mean_ratio_all.reads,
        d.mean_ratio_all.pages
    );
    if let Some(t) = &d.topics {
        let _ = writeln!(
            md,
            "The {} topic queries, inverted file: abstract {} bytes, {} reads, {} pages; full text {} bytes, {} reads, \
             {} pages; ratios bytes {:.3}, reads {:.3}, pages {:.3}.\n",
            t.queries,
            t.abstract_index.postings.bytes,
            t.abstract_index.postings.reads,
            t.abstract_index.postings.pages,
            t.fulltext.postings.bytes,
            t.fulltext.postings.reads,
            t.fulltext.postings.pages,
            t.ratio.bytes,
            t.ratio.reads,
            t.ratio.pages
        );
    }
    if let Some(t) = &d.tiered_topics {
        let search = format!(
            "The tiered search, the same {} topic queries (both indexes ranked to depth {} and fused)",
            t.queries, t.depth
        );
        tiered_access_paragraph(&mut md, &search, t);
    }
    if let Some(t) = &d.tiered_feedback_topics {
        let search = format!(
            "The tiered search with feedback, the same {} topic queries (the first pass and the expanded query's)",
            t.queries
        );
        tiered_access_paragraph(&mut md, &search, t);
    }
    let _ = writeln!(md, "![disk access](disk-access.svg)\n");
    let _ = writeln!(
        md,
        "| group | abstract postings bytes | full-text postings bytes | bytes ratio | reads ratio | pages ratio |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for g in &d.groups {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.3} | {:.3} | {:.3} |",
            g.group,
            g.abstract_index.postings.bytes,
            g.fulltext.postings.bytes,
            g.ratio.bytes,
            g.ratio.reads,
            g.ratio.pages
        );
    }
    md
}

/// How a chart reads one value of a row.
type Measure<T> = fn(&T) -> f64;

const COLORS: [RGBColor; 3] = [RGBColor(31, 119, 180), RGBColor(255, 127, 14), RGBColor(44, 160, 44)];

/// One paragraph of a tiered search's disk access: what both indexes read for `search`,
/// against the full-text search alone.
fn tiered_access_paragraph(md: &mut String, search: &str, t: &TieredAccess) {
    let _ = writeln!(
        md,
        "{search}, inverted file: abstract {} bytes, {} pages; full text {} bytes, {} pages; together / the \
         full-text search alone: bytes {:.3}, reads {:.3}, pages {:.3}.\n",
        t.abstract_index.postings.bytes,
        t.abstract_index.postings.pages,
        t.fulltext.postings.bytes,
        t.fulltext.postings.pages,
        t.ratio_to_fulltext.bytes,
        t.ratio_to_fulltext.reads,
        t.ratio_to_fulltext.pages
    );
}

fn effectiveness_chart(report: &CollectionReport, path: &Path) -> Result<(), String> {
    let root = SVGBackend::new(path, (760, 360)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let panels = root.split_evenly((1, 2));
    let measures: [(&str, Measure<Summary>); 2] =
        [("P@10", |s| s.measures.p_10), ("nDCG@10", |s| s.measures.ndcg_cut_10)];
    let names: Vec<&str> = report.effectiveness.iter().map(|e| e.index).collect();
    let top = report.effectiveness.iter().flat_map(|e| measures.iter().map(|(_, f)| f(&e.summary))).fold(0.1, f64::max);
    for (panel, (label, value)) in panels.iter().zip(measures) {
        let mut chart = ChartBuilder::on(panel)
            .caption(format!("{} — {}", report.name, label), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(45)
            // Headroom above the tallest bar for the legend, so that it never covers a bar.
            .build_cartesian_2d((0..names.len().saturating_sub(1)).into_segmented(), 0.0..(top * 1.6))
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i).copied().unwrap_or("").to_string(),
                _ => String::new(),
            })
            .draw()
            .map_err(|e| e.to_string())?;
        // One rectangle a bar, in the searches' order: plotters' `Histogram` sums its data in
        // a `HashMap` and draws the bars in that map's (random) order, so the SVG's bytes
        // changed from run to run.
        let bars = report.effectiveness.iter().enumerate().map(|(i, e)| {
            let next = if i + 1 < names.len() { SegmentValue::Exact(i + 1) } else { SegmentValue::Last };
            let mut bar = Rectangle::new(
                [(SegmentValue::Exact(i), value(&e.summary)), (next, 0.0)],
                COLORS[i % COLORS.len()].filled(),
            );
            bar.set_margin(0, 0, 18, 18);
            bar
        });
        chart.draw_series(bars).map_err(|e| e.to_string())?;
        let references = report.reference.iter().flat_map(|r| {
            [(r.clean_p10, "clean documents"), (r.full_page_p10, "full page text")]
                .into_iter()
                .filter_map(|(p, what)| p.map(|p| (p, what)))
        });
        if label == "P@10" {
            for (i, (p, what)) in references.enumerate() {
                let style = [BLACK, RGBColor(150, 150, 150)][i % 2];
                let ends = [SegmentValue::Exact(0), SegmentValue::Last];
                chart
                    .draw_series(LineSeries::new(ends.into_iter().map(|x| (x, p)), style.stroke_width(1)))
                    .map_err(|e| e.to_string())?
                    .label(format!("BM25 reference, {what}: {p:.3}"))
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style.stroke_width(1)));
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .label_font(("sans-serif", 11))
                .draw()
                .map_err(|e| e.to_string())?;
        }
    }
    root.present().map_err(|e| e.to_string())
}

fn disk_chart(report: &CollectionReport, path: &Path) -> Result<(), String> {
    let groups = &report.disk.groups;
    let root = SVGBackend::new(path, (760, 360)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let top = groups.iter().flat_map(|g| [g.ratio.bytes, g.ratio.pages]).fold(0.5, f64::max) * 1.15;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{} — inverted-file access, abstract / full text, per query group", report.name),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(45)
        .build_cartesian_2d(1usize..groups.len().max(2), 0.0..top)
        .map_err(|e| e.to_string())?;
    chart.configure_mesh().x_desc("query group").y_desc("ratio").draw().map_err(|e| e.to_string())?;
    let series: [(&str, Measure<GroupAccess>, RGBColor); 2] =
        [("bytes", |g| g.ratio.bytes, COLORS[0]), ("4 KiB pages", |g| g.ratio.pages, COLORS[1])];
    for (label, value, color) in series {
        chart
            .draw_series(LineSeries::new(groups.iter().map(|g| (g.group, value(g))), color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    let mean = report.disk.mean_ratio.bytes;
    chart
        .draw_series(LineSeries::new([(1, mean), (groups.len().max(2), mean)], BLACK.stroke_width(1)))
        .map_err(|e| e.to_string())?
        .label(format!("mean bytes ratio {mean:.3}"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(1)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// An evaluation configuration (`eval/<collection>.toml`): where a collection's crawl, topics
/// and judgments are. Paths are relative to the file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalConfig {
    pub name: String,
    /// The crawl to build when the build folder has no build yet.
    pub input: std::path::PathBuf,
    pub topics: std::path::PathBuf,
    pub qrels: std::path::PathBuf,
    /// Where the report goes.
    pub report: std::path::PathBuf,
    #[serde(default)]
    pub reference: Option<Reference>,
    /// The folder of a peer system's runs of this collection (eval/peer/pyserini.sh writes
    /// them); scored beside ours when present.
    #[serde(default)]
    pub peer_runs: Option<std::path::PathBuf>,
    /// What a record may be to be a page when the collection is built (`input.accept`;
    /// `["text"]` for a JSON Lines file of text documents); empty: the build's default.
    #[serde(default)]
    pub accept: Vec<crate::input::PageFormat>,
}

impl EvalConfig {
    /// The configuration the collection is built with: the default, with `accept` if given.
    pub fn build_config(&self) -> crate::config::Config {
        let mut config = crate::config::Config::default();
        if !self.accept.is_empty() {
            config.input.accept = self.accept.clone();
        }
        config
    }

    /// Reads a configuration and resolves its paths against the file's folder.
    pub fn from_file(path: &Path) -> Result<EvalConfig, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut config: EvalConfig = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        super::resolve_relative_to(
            path,
            [&mut config.input, &mut config.topics, &mut config.qrels, &mut config.report]
                .into_iter()
                .chain(config.peer_runs.as_mut()),
        );
        Ok(config)
    }
}
