//! `indexer eval tune`: the search settings chosen by leave-one-collection-out.
//!
//! Each collection in turn is held out; every setting is chosen on the others alone (the
//! mean over them of the mean of P@10, MAP and nDCG@10) and then scored on the held-out
//! collection, which had no say in it. The shipped setting is then chosen the same way on all
//! the collections together: its figure on any one of them is in-sample, the held-out figures
//! are the honest estimate. The choice goes in stages, each given the ones before it: how
//! repeated query words weigh (BM25's k3, scored on the tiered search); the abstract index's BM25 k1, b
//! and field boosts; the full-text index's; the tiered search's fusion; feedback for the
//! tiered search. A later run can choose only some stages again (`--stages`), each fold
//! starting from the settings an earlier run chose for it (`--from-report`), which keeps the
//! held-out collection out of every choice.
//!
//! Known-item collections (`--keep-answers`: our own sample corpus, its queries judged by
//! construction) bound the choice in every fold: a candidate is admissible only if it keeps as
//! many of their queries' answers first, on the abstract, full-text and tiered searches (and,
//! in the feedback stage, the tiered search with feedback), as the best candidate of its stage
//! does (all of them when any candidate keeps them all); the
//! objective chooses among the admissible ones. The ir-web collections hold one document per
//! page in a template and no listing pages, so their objective cannot weigh a listing page
//! against its articles; the known items can. They are never held out: the held-out figures
//! stay those of collections that scored no candidate.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use serde::Serialize;

use crate::eval::run::{Topic, write_run};
use crate::eval::score::{EvalOptions, Measures, Qrels, Run, ScoreError, evaluate};
use crate::search::{
    Candidate, Collection, FeedbackIndex, FeedbackSelection, FeedbackText, FieldCombination, FusionMethod, IndexChoice,
    IndexSettings, LinearFusion, LinearPage, SearchError, SearchRequest, SearchSettings, linear_pages, rank_linear,
};

/// One collection to tune on.
pub struct TuneCollection {
    pub name: String,
    pub collection: Collection,
    pub topics: Vec<Topic>,
    pub qrels: Qrels,
}

/// The searches whose answers known-item collections check: the three indexes, and the
/// tiered search with feedback, which only its own stage changes (so an earlier stage is not
/// bounded by the feedback settings it starts from).
const ANSWERING: [Stage; 4] = [Stage::Abstract, Stage::Fulltext, Stage::Fusion, Stage::Feedback];

/// The searches whose known-item answers bound a stage's choice.
fn answering(stage: Stage) -> &'static [Stage] {
    if stage.search() == Stage::Feedback { &ANSWERING } else { &ANSWERING[..3] }
}

/// A tuning failure.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error(transparent)]
    Score(#[from] ScoreError),
    #[error("leave-one-collection-out needs at least two collections, got {0}")]
    TooFew(usize),
    #[error(
        "{0} is both tuned on (--config) and a known-item bound (--keep-answers): a bound is applied in every fold, so its judgments would reach the fold that holds it out; give the bound another collection"
    )]
    KnownIsTuned(String),
    #[error(
        "known-item collection {0} has no query judged with a relevant page (check that its topics' ids match its qrels): it would bound nothing"
    )]
    KnownJudgesNothing(String),
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

/// P@10, MAP and nDCG@10 of one search on one collection.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Scores {
    pub p_10: f64,
    pub map: f64,
    pub ndcg_10: f64,
}

impl Scores {
    fn of(m: &Measures) -> Scores {
        Scores { p_10: m.p_10, map: m.map, ndcg_10: m.ndcg_cut_10 }
    }

    /// What the choice maximises: the mean of the three.
    pub fn objective(&self) -> f64 {
        (self.p_10 + self.map + self.ndcg_10) / 3.0
    }
}

/// The searches a stage chooses for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Stage {
    /// How repeated query words weigh (BM25's k3), for every search (scored on the tiered
    /// search).
    Query,
    Abstract,
    /// The abstract index's k1 and b again, over a wider grid, its field combination and
    /// boosts kept (the full grid's k1 and b are nested with the boosts, so widening them there
    /// multiplies its size).
    AbstractBm25,
    Fulltext,
    /// The full-text index's k1 and b again, over the wider grid.
    FulltextBm25,
    Fusion,
    Feedback,
    /// How feedback is used, its other values kept: which ranking gives it its documents,
    /// which indexes the expanded query searches, and the expanded ranking's share of the
    /// answer.
    FeedbackUse,
    /// A learned linear fusion of the four rankings of the search with feedback (the original
    /// and the expanded query's on each index, `search::LinearFusion`), its weights chosen by
    /// coordinate ascent rather than from a grid.
    LinearFusion,
}

impl Stage {
    /// The stages in the order they choose.
    pub const ALL: [Stage; 9] = [
        Stage::Query,
        Stage::Abstract,
        Stage::AbstractBm25,
        Stage::Fulltext,
        Stage::FulltextBm25,
        Stage::Fusion,
        Stage::Feedback,
        Stage::FeedbackUse,
        Stage::LinearFusion,
    ];
    /// The stages a tuning chooses when not told which: all but the last, `linear-fusion`,
    /// which did not raise the held-out figures (README, *Search settings*).
    pub const DEFAULT: &[Stage] = match Stage::ALL.split_last() {
        Some((_, before_linear_fusion)) => before_linear_fusion,
        None => &[],
    };
    /// The searches reported.
    const SEARCHES: [Stage; 4] = [Stage::Abstract, Stage::Fulltext, Stage::Fusion, Stage::Feedback];

    /// The search a stage's candidates are scored on.
    fn search(self) -> Stage {
        match self {
            Stage::AbstractBm25 => Stage::Abstract,
            Stage::FulltextBm25 => Stage::Fulltext,
            Stage::FeedbackUse | Stage::LinearFusion => Stage::Feedback,
            other => other,
        }
    }

    fn request(self, depth: usize) -> SearchRequest<'static> {
        let choice = match self.search() {
            Stage::Abstract => IndexChoice::Abstract,
            Stage::Fulltext => IndexChoice::Fulltext,
            _ => IndexChoice::Tiered,
        };
        SearchRequest { choice, limit: depth, category: None, feedback: self.search() == Stage::Feedback }
    }

    /// The stage of a name (as [`Stage::name`] gives).
    pub fn from_name(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|stage| stage.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Stage::Query => "query",
            Stage::Abstract => "abstract",
            Stage::AbstractBm25 => "abstract-k1-b",
            Stage::Fulltext => "fulltext",
            Stage::FulltextBm25 => "fulltext-k1-b",
            Stage::Fusion => "tiered",
            Stage::Feedback => "tiered+feedback",
            Stage::FeedbackUse => "feedback-use",
            Stage::LinearFusion => "linear-fusion",
        }
    }

    /// The candidate settings of this stage, each `base` with this stage's values changed.
    fn grid(self, base: &SearchSettings) -> Vec<SearchSettings> {
        let mut out = Vec::new();
        match self {
            Stage::Query => {
                for k3 in [0.0, 1.0, 3.0, 10.0, 1000.0] {
                    let mut s = base.clone();
                    s.query.k3 = k3;
                    out.push(s);
                }
            }
            Stage::Abstract => {
                let boosts = boost_tables("title", &[0.25, 0.5, 1.0], "keywords", &[0.0, 0.25, 0.5], "abstract");
                for index in index_grid(&[0.6, 0.9, 1.2, 1.6, 2.0], &[0.3, 0.5, 0.75, 0.9], &boosts) {
                    let mut s = base.clone();
                    s.abstract_index = index;
                    out.push(s);
                }
            }
            Stage::Fulltext => {
                // The topic content at weight 1; the raw page's text (template included) and
                // the title weighed against it, the raw text 0 to as much.
                let boosts = boost_tables("title", &[0.25, 0.5, 1.0], "body", &[0.0, 0.1, 0.25, 0.5, 1.0], "topic");
                for index in index_grid(&[0.9, 1.2, 1.6, 2.0], &[0.3, 0.5, 0.75], &boosts) {
                    let mut s = base.clone();
                    s.fulltext = index;
                    out.push(s);
                }
            }
            Stage::AbstractBm25 | Stage::FulltextBm25 => {
                for k1 in WIDE_K1 {
                    for b in WIDE_B {
                        let mut s = base.clone();
                        let index = if self == Stage::AbstractBm25 { &mut s.abstract_index } else { &mut s.fulltext };
                        index.k1 = k1;
                        index.b = b;
                        out.push(s);
                    }
                }
            }
            Stage::Fusion => {
                // Weight 0 is the full-text ranking alone, 1 the abstract's.
                for method in [FusionMethod::Rrf, FusionMethod::Combsum, FusionMethod::CombsumZ] {
                    for weight in [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0] {
                        let mut s = base.clone();
                        s.tiered.method = method;
                        s.tiered.abstract_weight = weight;
                        out.push(s);
                    }
                }
            }
            Stage::Feedback => {
                // Original weight 1 is the search without feedback (its other values unused).
                let mut off = base.clone();
                off.feedback.original_weight = 1.0;
                out.push(off);
                // The relevance model from the pages' records or their whole topic content,
                // each with every other value (a longer text spreads P(w|d) over more words).
                for words_from in [FeedbackText::Record, FeedbackText::Topic] {
                    for selective in [FeedbackSelection::Always, FeedbackSelection::Clarity] {
                        for docs in [5, 10] {
                            for terms in [20, 40, 60] {
                                for original_weight in [0.3, 0.5, 0.7, 0.9] {
                                    for max_page_share in [0.2, 1.0] {
                                        let mut s = base.clone();
                                        s.feedback.words_from = words_from;
                                        s.feedback.docs = docs;
                                        s.feedback.terms = terms;
                                        s.feedback.original_weight = original_weight;
                                        s.feedback.max_page_share = max_page_share;
                                        s.feedback.selective = selective;
                                        out.push(s);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            // Chosen by coordinate ascent (`Tuner::ascend`), not from a grid.
            Stage::LinearFusion => out.push(base.clone()),
            Stage::FeedbackUse => {
                for documents_from in [FeedbackIndex::Searched, FeedbackIndex::Fulltext] {
                    for expands in [FeedbackIndex::Searched, FeedbackIndex::Fulltext] {
                        for expanded_weight in [1.0, 0.75, 0.5, 0.25] {
                            let mut s = base.clone();
                            s.feedback.documents_from = documents_from;
                            s.feedback.expands = expands;
                            s.feedback.expanded_weight = expanded_weight;
                            out.push(s);
                        }
                    }
                }
            }
        }
        out
    }
}

/// The k1 and b of the wider grid: past 2.0 and 0.75, where the full grids' choices sat at
/// their edge.
const WIDE_K1: [f32; 8] = [0.6, 0.9, 1.2, 1.6, 2.0, 2.5, 3.0, 4.0];
const WIDE_B: [f32; 5] = [0.3, 0.5, 0.75, 0.9, 1.0];

/// An index's settings to try: each field combination with every k1 and b and every boost
/// table, in that order of nesting.
fn index_grid(k1s: &[f32], bs: &[f32], boosts: &[BTreeMap<String, f32>]) -> Vec<IndexSettings> {
    let mut out = Vec::new();
    for fields in [FieldCombination::PerField, FieldCombination::Bm25f] {
        for &k1 in k1s {
            for &b in bs {
                for boosts in boosts {
                    out.push(IndexSettings { k1, b, fields, boosts: boosts.clone() });
                }
            }
        }
    }
    out
}

/// Boost tables of three fields: every value of the first with every value of the second
/// (in that order of nesting), the third at 1.
fn boost_tables(
    first: &str,
    first_values: &[f32],
    second: &str,
    second_values: &[f32],
    fixed: &str,
) -> Vec<BTreeMap<String, f32>> {
    let mut out = Vec::new();
    for &a in first_values {
        for &b in second_values {
            out.push(BTreeMap::from([(first.to_string(), a), (second.to_string(), b), (fixed.to_string(), 1.0)]));
        }
    }
    out
}

/// Where each choice starts: the settings before tuning, or those of an earlier tuning (each
/// fold its own, chosen without its held-out collection) when only later stages are chosen
/// again.
#[derive(Debug, Clone)]
pub struct TuneStart {
    /// What the start is (the report says it).
    pub description: String,
    /// The start of the choice on all collections.
    pub all: SearchSettings,
    /// The start of each fold by held-out collection (`all` for a collection not named).
    pub folds: BTreeMap<String, SearchSettings>,
}

impl TuneStart {
    /// Every choice starts from the same settings.
    pub fn same(settings: SearchSettings, description: &str) -> TuneStart {
        TuneStart { description: description.to_string(), all: settings, folds: BTreeMap::new() }
    }

    /// Each fold starts from the settings an earlier tuning chose for it (its report.json),
    /// the choice on all collections from that tuning's chosen settings.
    pub fn from_report(json: &str, description: &str) -> Result<TuneStart, String> {
        #[derive(serde::Deserialize)]
        struct Fold {
            collection: String,
            settings: SearchSettings,
        }
        #[derive(serde::Deserialize)]
        struct Earlier {
            folds: Vec<Fold>,
            chosen: SearchSettings,
        }
        let earlier: Earlier = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let folds = earlier.folds.into_iter().map(|f| (f.collection, f.settings)).collect();
        Ok(TuneStart { description: description.to_string(), all: earlier.chosen, folds })
    }

    fn of_fold(&self, held_out: &str) -> &SearchSettings {
        self.folds.get(held_out).unwrap_or(&self.all)
    }
}

/// The held-out figures of one collection.
#[derive(Debug, Clone, Serialize)]
pub struct HeldOut {
    pub collection: String,
    /// The fold's start settings (see [`TuneStart`]), per search.
    pub before: BTreeMap<&'static str, Scores>,
    /// Each search with the settings chosen without this collection.
    pub held_out: BTreeMap<&'static str, Scores>,
    /// Each search with the settings chosen on every collection (in-sample).
    pub in_sample: BTreeMap<&'static str, Scores>,
    /// The settings chosen without this collection.
    pub settings: SearchSettings,
    /// Known-item answers (query × search) the fold's settings keep first, of
    /// [`TuneReport::answers_total`].
    pub answers_kept: usize,
}

/// The result of tuning.
#[derive(Debug, Clone, Serialize)]
pub struct TuneReport {
    pub collections: Vec<String>,
    /// Where the choices started.
    pub start: String,
    /// The stages chosen (the others kept their start values).
    pub stages: Vec<&'static str>,
    pub depth: usize,
    pub objective: &'static str,
    pub folds: Vec<HeldOut>,
    /// The known-item collections that bound every choice (empty: none).
    pub known_items: Vec<String>,
    /// Their queries × the abstract, full-text and tiered searches.
    pub answers_total: usize,
    /// Of those, the answers the shipped settings keep first.
    pub answers_kept: usize,
    /// The settings chosen on every collection: the ones to ship.
    pub chosen: SearchSettings,
    /// Settings scored (distinct settings × collections).
    pub evaluations: usize,
}

struct Tuner<'a> {
    collections: &'a mut [TuneCollection],
    known: &'a mut [TuneCollection],
    depth: usize,
    cache: HashMap<(usize, String), Scores>,
    answers: HashMap<(usize, String), usize>,
    progress: &'a dyn Fn(&str),
}

/// The values each weight of a linear fusion is tried at.
const LINEAR_STEPS: [f32; 7] = [0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0];
/// The most rounds of coordinate ascent over the four weights.
const LINEAR_ROUNDS: usize = 5;

/// Coordinate ascent from `weights`: each weight in turn set to the step that `value` (known
/// answers kept, objective) rates best by [`replaces`], until a round changes none or
/// [`LINEAR_ROUNDS`] are done.
fn ascend_from(
    mut weights: [f32; 4],
    value: &dyn Fn([f32; 4]) -> Result<(usize, f64), TuneError>,
) -> Result<([f32; 4], (usize, f64)), TuneError> {
    let mut top = value(weights)?;
    for _ in 0..LINEAR_ROUNDS {
        let mut changed = false;
        for i in 0..weights.len() {
            for step in LINEAR_STEPS {
                let mut candidate = weights;
                candidate[i] = step;
                if candidate == weights || candidate.iter().sum::<f32>() <= 0.0 {
                    continue;
                }
                let (kept, objective) = value(candidate)?;
                if replaces(kept, objective, top) {
                    top = (kept, objective);
                    weights = candidate;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Ok((weights, top))
}

/// A topic's rankings for a linear fusion, read once.
struct TopicRankings {
    qid: String,
    rankings: Rankings,
}

enum Rankings {
    /// The pages of the four rankings with their evidence.
    Linear(Vec<LinearPage>),
    /// A topic without feedback: its ranking, whatever the weights.
    Fixed(Vec<Candidate>),
}

impl Rankings {
    fn ranked(&self, weights: [f32; 4], limit: usize) -> Vec<Candidate> {
        match self {
            Rankings::Linear(pages) => rank_linear(pages, weights, limit),
            Rankings::Fixed(ranking) => ranking[..ranking.len().min(limit)].to_vec(),
        }
    }
}

/// What a stage's search of `settings` is scored by (the cache's key).
fn cache_key(settings: &SearchSettings, stage: Stage) -> String {
    format!("{}|{}", stage.name(), relevant(settings, stage))
}

/// Whether a candidate keeping `kept` known-item answers first, of objective `value`, replaces
/// the stage's best so far: more answers kept wins outright (the bound), the objective chooses
/// among candidates that keep as many, and a tie keeps the earlier one (grid order).
fn replaces(kept: usize, value: f64, best: (usize, f64)) -> bool {
    kept > best.0 || (kept == best.0 && value > best.1)
}

/// The known-item topics a collection can check: those with a query and a best-judged page.
fn checkable(known: &TuneCollection) -> usize {
    let best = known.qrels.best_judged();
    known.topics.iter().filter(|topic| best.contains_key(topic.qid.as_str())).count()
}

impl Tuner<'_> {
    fn score(&mut self, c: usize, settings: &SearchSettings, stage: Stage) -> Result<Scores, TuneError> {
        let stage = stage.search();
        let request = stage.request(self.depth);
        let key = (c, cache_key(settings, stage));
        if let Some(scores) = self.cache.get(&key) {
            return Ok(*scores);
        }
        let target = &mut self.collections[c];
        target.collection.set_settings(settings.clone())?;
        let mut text = String::new();
        for topic in &target.topics {
            let ranking = target.collection.ranking(&topic.query, &request)?;
            write_run(&mut text, &topic.qid, &ranking, "tune");
        }
        let evaluation = evaluate(&target.qrels, &Run::parse(&text)?, EvalOptions { complete: true })?;
        let scores = Scores::of(&evaluation.all.measures);
        self.cache.insert(key, scores);
        Ok(scores)
    }

    /// The known-item queries of collection `k` whose first result, on `stage`'s search with
    /// `settings`, is one of their best-judged pages.
    fn answered(&mut self, k: usize, settings: &SearchSettings, stage: Stage) -> Result<usize, TuneError> {
        let stage = stage.search();
        let key = (k, cache_key(settings, stage));
        if let Some(&count) = self.answers.get(&key) {
            return Ok(count);
        }
        let target = &mut self.known[k];
        target.collection.set_settings(settings.clone())?;
        let best = target.qrels.best_judged();
        let request = stage.request(1);
        let mut count = 0;
        for topic in &target.topics {
            let Some(answers) = best.get(topic.qid.as_str()) else {
                continue;
            };
            let ranking = target.collection.ranking(&topic.query, &request)?;
            if ranking.first().is_some_and(|top| answers.contains(top.url.as_str())) {
                count += 1;
            }
        }
        self.answers.insert(key, count);
        Ok(count)
    }

    /// The known-item answers `settings` keep first, over every known-item collection and
    /// the searches `searches`.
    fn kept(&mut self, settings: &SearchSettings, searches: &[Stage]) -> Result<usize, TuneError> {
        let mut total = 0;
        for k in 0..self.known.len() {
            for &stage in searches {
                total += self.answered(k, settings, stage)?;
            }
        }
        Ok(total)
    }

    /// The mean objective of a setting over the collections `on`.
    fn mean(&mut self, on: &[usize], settings: &SearchSettings, stage: Stage) -> Result<f64, TuneError> {
        let mut total = 0.0;
        for &c in on {
            total += self.score(c, settings, stage)?.objective();
        }
        Ok(total / on.len() as f64)
    }

    /// Every stage in turn, each keeping the best admissible setting on `on`: of the
    /// candidates that keep the most known-item answers first, the one of the highest
    /// objective (ties: the first in grid order).
    fn choose(
        &mut self,
        on: &[usize],
        start: &SearchSettings,
        stages: &[Stage],
        label: &str,
    ) -> Result<SearchSettings, TuneError> {
        let mut best = start.clone();
        for &stage in stages {
            if stage == Stage::LinearFusion {
                best = self.ascend(on, &best, label)?;
                continue;
            }
            let grid = stage.grid(&best);
            (self.progress)(&format!("{label}: {} ({} settings)", stage.name(), grid.len()));
            let mut top = (0, f64::NEG_INFINITY, best.clone());
            for candidate in grid {
                let kept = self.kept(&candidate, answering(stage))?;
                if kept < top.0 {
                    continue;
                }
                let value = self.mean(on, &candidate, stage)?;
                if replaces(kept, value, (top.0, top.1)) {
                    top = (kept, value, candidate);
                }
            }
            best = top.2;
        }
        Ok(best)
    }

    /// The four rankings of the search with feedback of `target`'s topics under `settings`
    /// (`None` for a topic without feedback, with the ranking it gets instead).
    fn topic_rankings(
        target: &mut TuneCollection,
        settings: &SearchSettings,
        depth: usize,
    ) -> Result<Vec<TopicRankings>, TuneError> {
        target.collection.set_settings(settings.clone())?;
        let request = Stage::Feedback.request(depth);
        let mut out = Vec::with_capacity(target.topics.len());
        for topic in &target.topics {
            let rankings = match target.collection.linear_rankings(&topic.query, &request)? {
                Some([a, b, c, d]) => Rankings::Linear(linear_pages([&a, &b, &c, &d])),
                None => Rankings::Fixed(target.collection.ranking(&topic.query, &request)?),
            };
            out.push(TopicRankings { qid: topic.qid.clone(), rankings });
        }
        Ok(out)
    }

    /// The weights of a linear fusion of the search with feedback, chosen on `on` by
    /// coordinate ascent (Metzler and Croft 2007, §4.1): each weight in turn is set to the value
    /// of [`LINEAR_STEPS`] that best keeps the known-item answers and then raises the objective,
    /// the others held, until a round over the four changes none (at most
    /// [`LINEAR_ROUNDS`]). It starts from `base`'s weights, or the tiered fusion's abstract
    /// weight w on the expanded abstract ranking and 1 − w on the expanded full text's. The rankings are those of `base`, read once; the fusion is scored in memory.
    fn ascend(&mut self, on: &[usize], base: &SearchSettings, label: &str) -> Result<SearchSettings, TuneError> {
        let mut base = base.clone();
        base.feedback.selective = FeedbackSelection::Always;
        base.feedback.expanded_weight = 1.0;
        // The tiered fusion's weights on the expanded rankings: the search with `base`'s
        // feedback (exactly, for CombSUM of z-scores).
        let w = base.tiered.abstract_weight;
        let start = base.feedback.linear.unwrap_or(LinearFusion::from_weights([0.0, 0.0, w, 1.0 - w]));
        base.feedback.linear = Some(start);
        (self.progress)(&format!("{label}: linear-fusion (coordinate ascent from {:?})", start.weights()));
        let depth = self.depth;
        let mut training = Vec::new();
        for &c in on {
            training.push(Self::topic_rankings(&mut self.collections[c], &base, depth)?);
        }
        let mut known = Vec::new();
        for k in 0..self.known.len() {
            known.push(Self::topic_rankings(&mut self.known[k], &base, 1)?);
        }
        let value = |weights: [f32; 4]| -> Result<(usize, f64), TuneError> {
            let mut kept = 0;
            for (k, topics) in known.iter().enumerate() {
                let best = self.known[k].qrels.best_judged();
                for topic in topics {
                    let Some(answers) = best.get(topic.qid.as_str()) else { continue };
                    let top = topic.rankings.ranked(weights, 1);
                    kept += usize::from(top.first().is_some_and(|c| answers.contains(c.url.as_str())));
                }
            }
            let mut total = 0.0;
            for (&c, topics) in on.iter().zip(&training) {
                let mut text = String::new();
                for topic in topics {
                    write_run(&mut text, &topic.qid, &topic.rankings.ranked(weights, depth), "tune");
                }
                let evaluation =
                    evaluate(&self.collections[c].qrels, &Run::parse(&text)?, EvalOptions { complete: true })?;
                total += Scores::of(&evaluation.all.measures).objective();
            }
            Ok((kept, total / on.len() as f64))
        };
        // Two starts, as RankLib restarts coordinate ascent: `start`, and every ranking weighed
        // alike; the better end is kept (the first on a tie).
        let mut best: Option<([f32; 4], (usize, f64))> = None;
        for first in [start.weights(), [1.0; 4]] {
            let (weights, top) = ascend_from(first, &value)?;
            (self.progress)(&format!(
                "{label}: linear-fusion from {first:?}: {weights:?}, training objective {:.4}",
                top.1
            ));
            if best.is_none_or(|(_, b)| replaces(top.0, top.1, b)) {
                best = Some((weights, top));
            }
        }
        let (weights, top) = best.expect("two starts");
        (self.progress)(&format!("{label}: linear-fusion weights {weights:?}, training objective {:.4}", top.1));
        base.feedback.linear = Some(LinearFusion::from_weights(weights));
        Ok(base)
    }

    fn all_searches(
        &mut self,
        c: usize,
        settings: &SearchSettings,
    ) -> Result<BTreeMap<&'static str, Scores>, TuneError> {
        let mut out = BTreeMap::new();
        for stage in Stage::SEARCHES {
            out.insert(stage.name(), self.score(c, settings, stage)?);
        }
        Ok(out)
    }
}

/// The part of the settings a stage's search depends on (so scores are shared between
/// settings that differ only elsewhere).
fn relevant(settings: &SearchSettings, stage: Stage) -> serde_json::Value {
    let s = settings;
    match stage.search() {
        Stage::Abstract => serde_json::json!([s.query, s.abstract_index]),
        Stage::Fulltext => serde_json::json!([s.query, s.fulltext]),
        Stage::Feedback => serde_json::json!([s.query, s.abstract_index, s.fulltext, s.tiered, s.feedback]),
        _ => serde_json::json!([s.query, s.abstract_index, s.fulltext, s.tiered]),
    }
}

/// Chooses the settings by leave-one-collection-out, starting from `start`, with runs of
/// `depth` results per topic; `stages` (in [`Stage::ALL`]'s order) are chosen, the others keep
/// their start values.
pub fn tune(
    collections: &mut [TuneCollection],
    known: &mut [TuneCollection],
    start: &TuneStart,
    stages: &[Stage],
    depth: usize,
    progress: &dyn Fn(&str),
) -> Result<TuneReport, TuneError> {
    let n = collections.len();
    if n < 2 {
        return Err(TuneError::TooFew(n));
    }
    for c in collections.iter().chain(known.iter()) {
        c.collection.preload_urls()?;
    }
    let names: Vec<String> = collections.iter().map(|c| c.name.clone()).collect();
    let known_items: Vec<String> = known.iter().map(|c| c.name.clone()).collect();
    if let Some(name) = known_items.iter().find(|name| names.contains(name)) {
        return Err(TuneError::KnownIsTuned(name.clone()));
    }
    if let Some(empty) = known.iter().find(|c| checkable(c) == 0) {
        return Err(TuneError::KnownJudgesNothing(empty.name.clone()));
    }
    let answers_total = ANSWERING.len() * known.iter().map(checkable).sum::<usize>();
    let mut tuner = Tuner { collections, known, depth, cache: HashMap::new(), answers: HashMap::new(), progress };
    let everything: Vec<usize> = (0..n).collect();
    let mut stages = stages.to_vec();
    stages.sort_by_key(|stage| Stage::ALL.iter().position(|s| s == stage));
    stages.dedup();
    let chosen = tuner.choose(&everything, &start.all, &stages, "all collections")?;
    let mut folds = Vec::new();
    for (held, name) in names.iter().enumerate() {
        let training: Vec<usize> = (0..n).filter(|&c| c != held).collect();
        let fold_start = start.of_fold(name);
        let settings = tuner.choose(&training, fold_start, &stages, &format!("without {name}"))?;
        folds.push(HeldOut {
            collection: name.clone(),
            before: tuner.all_searches(held, fold_start)?,
            held_out: tuner.all_searches(held, &settings)?,
            in_sample: tuner.all_searches(held, &chosen)?,
            answers_kept: tuner.kept(&settings, &ANSWERING)?,
            settings,
        });
    }
    let answers_kept = tuner.kept(&chosen, &ANSWERING)?;
    let evaluations = tuner.cache.len();
    let bound = if known_items.is_empty() {
        String::new()
    } else {
        format!(
            " (in the stages this run chose, {}: among the candidates that keep the most answers of the known-item queries of {} first on the abstract, full-text and tiered searches, and with feedback in its stage; these keep {answers_kept} of {answers_total})",
            stages.iter().map(|s| s.name()).collect::<Vec<_>>().join(", "),
            known_items.join(", ")
        )
    };
    let mut chosen = chosen;
    chosen.chosen_by = format!(
        "leave-one-collection-out over {} (ir-web, noisy pages) with `indexer eval tune`: each value maximises the mean over the collections of (P@10 + MAP + nDCG@10) / 3{bound}, in stages (query-term saturation k3; abstract index field combination (per field or BM25F), k1, b and boosts; full-text index field combination, k1, b, title and raw-text boosts against the topic content's; the tiered search's fusion; feedback on the tiered search); these are the values chosen on all of them, so figures with them on those collections are in-sample; the held-out figures are in the README",
        names.join(", ")
    );
    Ok(TuneReport {
        collections: names,
        start: start.description.clone(),
        stages: stages.iter().map(|s| s.name()).collect(),
        depth,
        objective: "mean over the training collections of (P@10 + MAP + nDCG@10) / 3",
        folds,
        known_items,
        answers_total,
        answers_kept,
        chosen,
        evaluations,
    })
}

/// The report as markdown: per held-out collection and search, before → held out
/// (in-sample), and the settings of each fold.
pub fn markdown(report: &TuneReport, command: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Search settings by leave-one-collection-out\n");
    let _ = writeln!(md, "Made by `{command}`. Runs of depth {}; objective: {}.\n", report.depth, report.objective);
    let _ = writeln!(md, "Stages chosen: {}.\n", report.stages.join(", "));
    if !report.known_items.is_empty() {
        let _ = writeln!(
            md,
            "Known items ({}): in every fold, only candidates that keep the most of their queries' answers first \
             on the abstract, full-text and tiered searches (and the tiered search with feedback, in its stage) were \
             admissible; of {} (queries × the four searches) the shipped \
             settings keep {}, each fold's settings: {}.\n",
            report.known_items.join(", "),
            report.answers_total,
            report.answers_kept,
            report
                .folds
                .iter()
                .map(|f| format!("without {} {}", f.collection, f.answers_kept))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let _ = writeln!(
        md,
        "Before: {}. Held out: settings chosen on the other collections only \
         (this collection never scored a candidate). In-sample: the shipped settings, chosen on all of them.\n",
        report.start
    );
    let _ = writeln!(md, "| collection | search | P@10 before / held out / in-sample | MAP | nDCG@10 |");
    let _ = writeln!(md, "|---|---|---|---|---|");
    for fold in &report.folds {
        for stage in Stage::SEARCHES {
            let name = stage.name();
            let (b, h, i) = (fold.before[name], fold.held_out[name], fold.in_sample[name]);
            let _ = writeln!(
                md,
                "| {} | {} | {:.4} / **{:.4}** / {:.4} | {:.4} / **{:.4}** / {:.4} | {:.4} / **{:.4}** / {:.4} |",
                fold.collection, name, b.p_10, h.p_10, i.p_10, b.map, h.map, i.map, b.ndcg_10, h.ndcg_10, i.ndcg_10
            );
        }
    }
    let _ = writeln!(md, "\n## Settings chosen per fold\n");
    let _ = writeln!(
        md,
        "| held out | query k3 | abstract fields / k1 / b / title / keywords | full text fields / k1 / b / title / body / topic | fusion | feedback words from / docs / terms / original weight / max page share / selection / documents from / expands / expanded weight / linear fusion (abstract, full text; original, expanded) |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    let row = |md: &mut String, label: &str, s: &SearchSettings| {
        let boost =
            |m: &BTreeMap<String, f32>, f: &str| m.get(f).map(|b| b.to_string()).unwrap_or_else(|| "schema".into());
        let _ = writeln!(
            md,
            "| {label} | {} | {} / {} / {} / {} / {} | {} / {} / {} / {} / {} / {} | {} w {} | {} / {} / {} / {} / {} / {} / {} / {} / {} / {} |",
            s.query.k3,
            s.abstract_index.fields.name(),
            s.abstract_index.k1,
            s.abstract_index.b,
            boost(&s.abstract_index.boosts, "title"),
            boost(&s.abstract_index.boosts, "keywords"),
            s.fulltext.fields.name(),
            s.fulltext.k1,
            s.fulltext.b,
            boost(&s.fulltext.boosts, "title"),
            boost(&s.fulltext.boosts, "body"),
            boost(&s.fulltext.boosts, "topic"),
            s.tiered.method.name(),
            s.tiered.abstract_weight,
            s.feedback.words_from.name(),
            s.feedback.docs,
            s.feedback.terms,
            s.feedback.original_weight,
            s.feedback.max_page_share,
            s.feedback.selective.name(),
            s.feedback.documents_from.name(),
            s.feedback.expands.name(),
            s.feedback.expanded_weight,
            s.feedback.linear.map_or_else(|| "none".to_string(), |l| format!("{:?}", l.weights()))
        );
    };
    for fold in &report.folds {
        row(&mut md, &fold.collection, &fold.settings);
    }
    row(&mut md, "none (shipped)", &report.chosen);
    let _ = writeln!(md, "\n{} (setting, collection) pairs scored.", report.evaluations);
    md
}

/// Writes report.md and report.json into `dir` and, when `settings_file` is given, the
/// settings chosen on all collections there (the format of src/search/settings.toml).
pub fn write_tuning_report(
    report: &TuneReport,
    dir: &std::path::Path,
    command: &str,
    settings_file: Option<&std::path::Path>,
) -> Result<(), TuneError> {
    let write = |path: &std::path::Path, text: String| {
        std::fs::write(path, text).map_err(|source| TuneError::Write { path: path.display().to_string(), source })
    };
    std::fs::create_dir_all(dir).map_err(|source| TuneError::Write { path: dir.display().to_string(), source })?;
    write(&dir.join("report.md"), markdown(report, command))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| TuneError::Write {
        path: dir.join("report.json").display().to_string(),
        source: std::io::Error::other(e),
    })?;
    write(&dir.join("report.json"), json + "\n")?;
    if let Some(path) = settings_file {
        let settings = toml::to_string(&report.chosen)
            .map_err(|e| TuneError::Write { path: path.display().to_string(), source: std::io::Error::other(e) })?;
        let text = format!(
            "# Search settings (see src/search/settings.rs), written by `{command} --write-settings`.\n{settings}"
        );
        write(path, text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinate_ascent_climbs_one_weight_at_a_time_and_keeps_the_bound_first() {
        // The objective peaks at weights (1, 0.5, 0, 0); a candidate with a first weight over 2
        // loses a known answer.
        let value = |w: [f32; 4]| -> Result<(usize, f64), TuneError> {
            let kept = if w[0] > 2.0 { 0 } else { 1 };
            Ok((kept, -f64::from((w[0] - 1.0).powi(2) + (w[1] - 0.5).powi(2) + w[2] * w[2] + w[3] * w[3])))
        };
        let (weights, (kept, objective)) = ascend_from([4.0, 4.0, 4.0, 4.0], &value).unwrap();
        assert_eq!(weights, [1.0, 0.5, 0.0, 0.0]);
        assert_eq!((kept, objective), (1, 0.0));
    }

    #[test]
    fn the_default_stages_are_every_stage_but_the_linear_fusion_in_order() {
        let all_but: Vec<Stage> = Stage::ALL.into_iter().filter(|&s| s != Stage::LinearFusion).collect();
        assert_eq!(Stage::DEFAULT.to_vec(), all_but);
    }

    #[test]
    fn a_candidate_keeping_fewer_known_answers_never_replaces_one_keeping_more() {
        // The better objective loses when it keeps fewer answers: the bound comes first.
        assert!(!replaces(74, 0.90, (75, 0.10)));
        assert!(replaces(75, 0.10, (74, 0.90)));
        // Among candidates that keep as many, the objective chooses; a tie keeps the earlier.
        assert!(replaces(75, 0.50, (75, 0.40)));
        assert!(!replaces(75, 0.40, (75, 0.40)));
        // Without known items every candidate keeps 0 and the rule is the objective alone.
        assert!(replaces(0, 0.41, (0, f64::NEG_INFINITY)));
    }
}
