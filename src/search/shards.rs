//! Searching several shard builds together: every shard is scored with the collection
//! statistics of all of them, and the hits are merged by score.
//!
//! With global statistics a page's score does not depend on which shard holds it, so the
//! merged ranking is the ranking of one build over all the shards' pages — once replicas
//! are removed across shards too (`indexer replicas merge`).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use tantivy::Searcher;
use tantivy::schema::Field;

use super::{
    Bm25Statistics, Candidate, Collection, FeedbackText, IndexRanking, Ranker, SearchError, SearchHit, SearchSettings,
    StaleAnalysis,
};
use crate::index::{IndexKind, current_build};

/// Shard builds searched as one collection ([`Ranker`]); each hit names its shard.
pub struct Shards {
    /// (build folder as given, its collection), in the order given.
    shards: Vec<(String, Collection)>,
    settings: SearchSettings,
}

impl Shards {
    /// The pages by language of all shards together.
    fn languages(&self) -> super::LanguageCounts {
        let mut languages = super::LanguageCounts::default();
        for (_, collection) in &self.shards {
            languages.add(&collection.abstract_index.languages);
        }
        languages
    }

    /// Opens the current build of every shard folder, with the shipped search settings.
    pub fn open(dirs: &[PathBuf]) -> Result<Shards, SearchError> {
        let mut builds = Vec::new();
        let mut shards = Vec::new();
        for dir in dirs {
            let build = current_build(dir)?;
            let build = build.canonicalize().unwrap_or(build);
            if builds.contains(&build) {
                return Err(SearchError::SameShardTwice { dir: dir.display().to_string() });
            }
            builds.push(build);
            shards.push((dir.display().to_string(), Collection::open(dir)?));
        }
        Ok(Shards { shards, settings: SearchSettings::shipped() })
    }

    /// The shards (as given) whose term analysis is another than this release's.
    pub fn stale_analyses(&self) -> Vec<(&str, StaleAnalysis)> {
        self.shards.iter().filter_map(|(dir, c)| Some((dir.as_str(), c.stale_analysis()?))).collect()
    }

    /// Searches with other settings from now on.
    pub fn set_settings(&mut self, settings: SearchSettings) -> Result<(), SearchError> {
        for (_, collection) in &mut self.shards {
            collection.set_settings(settings.clone())?;
        }
        self.settings = settings;
        Ok(())
    }

    /// The collection statistics of one index for a query's terms, summed over the shards;
    /// `None` when the query has no searchable term.
    pub fn statistics(
        &self,
        kind: IndexKind,
        terms: &[(String, f32)],
        category: Option<&str>,
    ) -> Result<Option<Bm25Statistics>, SearchError> {
        let Some((_, first)) = self.shards.first() else { return Ok(None) };
        // The shards share the schemas compiled into the binary, so one shard's query has
        // every shard's terms.
        let Some(full_query) = first.index(kind).full_query(terms, self.settings.of_index(kind), category)? else {
            return Ok(None);
        };
        let shards: Vec<(Searcher, &HashMap<Field, u64>)> =
            self.shards.iter().map(|(_, c)| (c.index(kind).reader.searcher(), &c.index(kind).token_totals)).collect();
        Ok(Some(Bm25Statistics::gather(&shards, full_query.as_ref())?))
    }
}

impl Ranker for Shards {
    fn settings(&self) -> &SearchSettings {
        &self.settings
    }

    fn analyze(&self, text: &str) -> Result<Vec<String>, SearchError> {
        Ok(self.languages().analyze(text))
    }

    fn analyze_query(&self, query: &str) -> Result<Vec<String>, SearchError> {
        Ok(self.languages().analyze_query(query))
    }

    /// One index of every shard, scored with the global statistics, merged by score. Ties
    /// keep the shards' order, then each shard's own order.
    fn rank(&self, request: IndexRanking) -> Result<Vec<Candidate>, SearchError> {
        let IndexRanking { kind, terms, limit, category } = request;
        let Some(statistics) = self.statistics(kind, terms, category)? else { return Ok(Vec::new()) };
        let mut hits = Vec::new();
        for (shard, (_, collection)) in self.shards.iter().enumerate() {
            let index = collection.index(kind);
            hits.extend(index.rank(terms, self.settings.of_index(kind), limit, category, Some(&statistics), shard)?);
        }
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(limit);
        Ok(hits)
    }

    fn feedback_text(&self, candidate: &Candidate, from: FeedbackText) -> Result<String, SearchError> {
        self.shards[candidate.shard].1.feedback_text(candidate, from)
    }

    /// Pages counted over all the shards.
    fn page_counts(&self, from: FeedbackText, term: &str) -> Result<(u64, Vec<u64>), SearchError> {
        let mut pages = 0;
        let mut counts: Vec<u64> = Vec::new();
        for (_, collection) in &self.shards {
            let (shard_pages, shard_counts) = collection.index(from.index()).page_counts(from, term)?;
            pages += shard_pages;
            counts.resize(shard_counts.len(), 0);
            counts.iter_mut().zip(shard_counts).for_each(|(total, n)| *total += n);
        }
        Ok((pages, counts))
    }

    fn hit(&self, candidate: &Candidate, terms: &HashSet<String>) -> Result<SearchHit, SearchError> {
        let (name, collection) = &self.shards[candidate.shard];
        let mut hit = collection.hit(candidate, terms)?;
        hit.shard = Some(name.clone());
        Ok(hit)
    }
}
