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

use super::{Bm25Statistics, Collection, IndexChoice, SearchError, SearchHit};
use crate::index::{IndexKind, current_build};

/// Shard builds searched as one collection.
pub struct Shards {
    /// (build folder as given, its collection), in the order given.
    shards: Vec<(String, Collection)>,
}

impl Shards {
    /// Opens the current build of every shard folder.
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
        Ok(Shards { shards })
    }

    /// The top `n` results for `query` over all shards (among the pages of one content
    /// category when `category` is given), ranked 1..=n. Each hit names its shard.
    pub fn search_in_category(
        &self,
        query: &str,
        choice: IndexChoice,
        n: usize,
        category: Option<&str>,
    ) -> Result<Vec<SearchHit>, SearchError> {
        super::search_choice(choice, n, |kind, n, exclude| self.search_index(kind, query, n, exclude, category))
    }

    /// The collection statistics of one index for a query, summed over the shards; `None`
    /// when the query has no searchable term.
    pub fn statistics(
        &self,
        kind: IndexKind,
        query: &str,
        category: Option<&str>,
    ) -> Result<Option<Bm25Statistics>, SearchError> {
        let Some((_, first)) = self.shards.first() else { return Ok(None) };
        // The shards share the schemas compiled into the binary, so one shard's query has
        // every shard's terms.
        let Some(full_query) = first.index(kind).full_query(query, category)? else { return Ok(None) };
        let shards: Vec<(Searcher, &HashMap<Field, u64>)> =
            self.shards.iter().map(|(_, c)| (c.index(kind).reader.searcher(), &c.index(kind).token_totals)).collect();
        Ok(Some(Bm25Statistics::gather(&shards, full_query.as_ref())?))
    }

    /// One index of every shard, scored with the global statistics, merged by score. Ties
    /// keep the shards' order, then each shard's own order.
    fn search_index(
        &self,
        kind: IndexKind,
        query: &str,
        n: usize,
        skip: &HashSet<String>,
        category: Option<&str>,
    ) -> Result<Vec<SearchHit>, SearchError> {
        let Some(statistics) = self.statistics(kind, query, category)? else { return Ok(Vec::new()) };
        let mut hits = Vec::new();
        for (name, collection) in &self.shards {
            for mut hit in collection.index(kind).search(query, n, skip, category, Some(&statistics))? {
                hit.shard = Some(name.clone());
                hits.push(hit);
            }
        }
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(n);
        Ok(hits)
    }
}
