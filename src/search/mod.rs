//! Search over a published build: BM25 over the abstract index, the full-text index, or both
//! in tiers.
//!
//! Queries are analyzed with each field's own analyzer (our tokenizer, so Chinese is
//! segmented by jieba) and turned into a disjunction of boosted term queries. We do not use
//! Tantivy's query parser: it turns an unquoted Chinese word into a phrase query, and its
//! syntax errors are no use to a search box. Any text is a valid query.
//!
//! Several shard builds are searched together by [`Shards`], scored with collection
//! statistics summed over the shards ([`Bm25Statistics`]).

mod shards;
mod statistics;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Serialize;
use tantivy::collector::TopDocs;
use tantivy::directory::MmapDirectory;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::{Directory, Index, IndexReader, ReloadPolicy, Searcher, TantivyDocument, Term};

use crate::index::{IndexError, IndexKind, IndexSchema, current_build, read_token_totals, register_tokenizers};
use crate::text::split_sentences;

pub use shards::Shards;
pub use statistics::Bm25Statistics;

/// Which index answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum IndexChoice {
    Abstract,
    Fulltext,
    /// The paper's hierarchical index (§7.3): the abstract index first, then the full-text
    /// index fills the rest of the top k without duplicates.
    Tiered,
}

impl IndexChoice {
    pub const NAMES: &'static [&'static str] = &["abstract", "fulltext", "tiered"];

    pub fn from_name(name: &str) -> Option<IndexChoice> {
        match name {
            "abstract" => Some(IndexChoice::Abstract),
            "fulltext" => Some(IndexChoice::Fulltext),
            "tiered" => Some(IndexChoice::Tiered),
            _ => None,
        }
    }
}

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    pub rank: usize,
    pub score: f32,
    pub url: String,
    pub title: String,
    pub snippet: String,
    /// The index that found it (`abstract` or `fulltext`).
    pub index: &'static str,
    /// The page's content classification code, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The build folder (shard) the page is in, when several are searched together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

/// A search failure.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error("search failed: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error("{dir} is given twice: its pages would count twice in the statistics; give each shard once")]
    SameShardTwice { dir: String },
}

struct OpenIndex {
    schema: IndexSchema,
    index: Index,
    reader: IndexReader,
    /// Exact token totals by field, for a build whose pages were deleted after indexing
    /// (empty otherwise: Tantivy's own totals are exact).
    token_totals: HashMap<Field, u64>,
}

impl OpenIndex {
    fn open(
        build: &Path,
        kind: IndexKind,
        wrap: &dyn Fn(IndexKind, Box<dyn Directory>) -> Box<dyn Directory>,
    ) -> Result<OpenIndex, SearchError> {
        let path = build.join(kind.name());
        let tantivy_error = |source| IndexError::Tantivy { path: path.display().to_string(), source };
        let directory = MmapDirectory::open(&path).map_err(|e| tantivy_error(e.into()))?;
        let index = Index::open(wrap(kind, Box::new(directory))).map_err(tantivy_error)?;
        register_tokenizers(&index);
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let schema = IndexSchema::load(kind).map_err(IndexError::from)?;
        let token_totals = read_token_totals(build, &index, &schema);
        Ok(OpenIndex { schema, index, reader, token_totals })
    }

    /// The query's terms per searched field, boosted; `None` if no term survives analysis.
    fn query(&self, text: &str) -> Result<Option<BooleanQuery>, SearchError> {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let mut seen = HashSet::new();
        for &(field, boost) in &self.schema.search_fields {
            let mut analyzer = self.index.tokenizer_for_field(field)?;
            let mut stream = analyzer.token_stream(text);
            while stream.advance() {
                let term = Term::from_field_text(field, &stream.token().text);
                if seen.insert(term.clone()) {
                    let query = TermQuery::new(term, IndexRecordOption::WithFreqs);
                    clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(query), boost))));
                }
            }
        }
        Ok((!clauses.is_empty()).then(|| BooleanQuery::new(clauses)))
    }

    /// The query's analyzed terms (for snippets).
    fn query_terms(&self, text: &str) -> Result<HashSet<String>, SearchError> {
        let Some(&(field, _)) = self.schema.search_fields.first() else {
            return Ok(HashSet::new());
        };
        let mut analyzer = self.index.tokenizer_for_field(field)?;
        let mut stream = analyzer.token_stream(text);
        let mut out = HashSet::new();
        while stream.advance() {
            out.insert(stream.token().text.clone());
        }
        Ok(out)
    }

    /// The text query, restricted to one content category when `category` is given; `None`
    /// when nothing can match (no term survives analysis, or the index has no category).
    fn full_query(&self, text: &str, category: Option<&str>) -> Result<Option<Box<dyn Query>>, SearchError> {
        let Some(text_query) = self.query(text)? else {
            return Ok(None);
        };
        // A category facet: the text query must match and the category term must be there.
        Ok(match category {
            None => Some(Box::new(text_query)),
            Some(code) => {
                let Some(field) = self.schema.category else { return Ok(None) };
                let facet = TermQuery::new(Term::from_field_text(field, code), IndexRecordOption::Basic);
                Some(Box::new(BooleanQuery::new(vec![
                    (Occur::Must, Box::new(text_query)),
                    (Occur::Must, Box::new(facet)),
                ])))
            }
        })
    }

    /// The top `limit` hits, skipping the URLs in `skip`, scored with `statistics` (summed
    /// over shards) or, without them, with this index's own.
    fn search(
        &self,
        text: &str,
        limit: usize,
        skip: &HashSet<String>,
        category: Option<&str>,
        statistics: Option<&Bm25Statistics>,
    ) -> Result<Vec<SearchHit>, SearchError> {
        let Some(query) = self.full_query(text, category)? else {
            return Ok(Vec::new());
        };
        let searcher = self.reader.searcher();
        // Fetch enough to fill `limit` after skipping URLs already shown by an earlier tier.
        let fetch = limit.saturating_add(skip.len()).max(1);
        let collector = TopDocs::with_limit(fetch).order_by_score();
        let own;
        let statistics = match statistics {
            None if !self.token_totals.is_empty() => {
                own = Bm25Statistics::of_shard(&searcher, query.as_ref(), &self.token_totals)?;
                Some(&own)
            }
            given => given,
        };
        let top = match statistics {
            Some(statistics) => searcher.search_with_statistics_provider(&query, &collector, statistics)?,
            None => searcher.search(&query, &collector)?,
        };
        let terms = self.query_terms(text)?;
        let mut hits = Vec::new();
        for (score, address) in top {
            let doc: TantivyDocument = searcher.doc(address)?;
            let url = stored_text(&doc, Some(self.schema.url));
            if skip.contains(&url) {
                continue;
            }
            let summary = stored_text(&doc, self.schema.summary);
            hits.push(SearchHit {
                rank: 0,
                score,
                url,
                title: stored_text(&doc, self.schema.title),
                snippet: self.snippet(&summary, &terms)?,
                index: self.schema.kind.name(),
                category: self
                    .schema
                    .category
                    .and_then(|f| doc.get_first(f))
                    .and_then(|v| v.as_str().map(str::to_string)),
                shard: None,
            });
            if hits.len() == limit {
                break;
            }
        }
        Ok(hits)
    }

    /// The abstract sentence with the most query terms, shortened.
    fn snippet(&self, summary: &str, terms: &HashSet<String>) -> Result<String, SearchError> {
        let mut best = ("", 0usize);
        if let (Some(field), false) = (self.schema.search_fields.first().map(|f| f.0), terms.is_empty()) {
            let mut analyzer = self.index.tokenizer_for_field(field)?;
            for sentence in split_sentences(summary) {
                let mut stream = analyzer.token_stream(sentence);
                let mut matches = 0;
                while stream.advance() {
                    matches += usize::from(terms.contains(&stream.token().text));
                }
                if matches > best.1 {
                    best = (sentence, matches);
                }
            }
        }
        let text = if best.1 > 0 { best.0 } else { summary };
        Ok(shorten(text, 240))
    }
}

fn stored_text(doc: &TantivyDocument, field: Option<tantivy::schema::Field>) -> String {
    field.and_then(|f| doc.get_first(f)).and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn shorten(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_string(),
        Some((cut, _)) => {
            let cut = text[..cut].rfind(' ').filter(|&i| i > cut / 2).unwrap_or(cut);
            format!("{}…", &text[..cut])
        }
    }
}

/// The indexes of a published build, opened for searching.
pub struct Collection {
    abstract_index: OpenIndex,
    fulltext: OpenIndex,
}

impl Collection {
    /// Opens the current build of a build folder.
    pub fn open(dir: &Path) -> Result<Collection, SearchError> {
        Self::open_with(dir, &|_, directory| directory)
    }

    /// Opens the current build with each index's directory wrapped by `wrap` (the disk-access
    /// measurement counts reads this way).
    pub fn open_with(
        dir: &Path,
        wrap: &dyn Fn(IndexKind, Box<dyn Directory>) -> Box<dyn Directory>,
    ) -> Result<Collection, SearchError> {
        let build = current_build(dir)?;
        Ok(Collection {
            abstract_index: OpenIndex::open(&build, IndexKind::Abstract, wrap)?,
            fulltext: OpenIndex::open(&build, IndexKind::Fulltext, wrap)?,
        })
    }

    /// The schema of one index.
    pub fn schema(&self, kind: IndexKind) -> &IndexSchema {
        &self.index(kind).schema
    }

    fn index(&self, kind: IndexKind) -> &OpenIndex {
        match kind {
            IndexKind::Abstract => &self.abstract_index,
            IndexKind::Fulltext => &self.fulltext,
        }
    }

    /// The top `n` results of one index for a query, without snippets or stored fields:
    /// the index access a search costs, for the disk-access measurement.
    pub fn rank(&self, kind: IndexKind, query: &str, n: usize) -> Result<usize, SearchError> {
        let index = self.index(kind);
        let Some(query) = index.query(query)? else { return Ok(0) };
        let searcher = index.reader.searcher();
        Ok(searcher.search(&query, &TopDocs::with_limit(n.max(1)).order_by_score())?.len())
    }

    /// The top `n` results for `query`, ranked 1..=n.
    pub fn search(&self, query: &str, choice: IndexChoice, n: usize) -> Result<Vec<SearchHit>, SearchError> {
        self.search_in_category(query, choice, n, None)
    }

    /// The top `n` results for `query` among the pages of one content category (when
    /// `category` is given), ranked 1..=n.
    pub fn search_in_category(
        &self,
        query: &str,
        choice: IndexChoice,
        n: usize,
        category: Option<&str>,
    ) -> Result<Vec<SearchHit>, SearchError> {
        search_choice(choice, n, |kind, n, exclude| self.index(kind).search(query, n, exclude, category, None))
    }

    /// The searcher of one index (for statistics and evaluation).
    pub fn searcher(&self, kind: IndexKind) -> Searcher {
        match kind {
            IndexKind::Abstract => self.abstract_index.reader.searcher(),
            IndexKind::Fulltext => self.fulltext.reader.searcher(),
        }
    }
}

/// The hits of `choice`, ranked 1..=n, given how one index answers (`search(kind, n,
/// exclude)`): the tiered search answers from the abstract index first and fills the rest
/// from the full-text index, leaving out the pages already shown. One build and a set of
/// shards differ only in how one index answers.
pub(crate) fn search_choice(
    choice: IndexChoice,
    n: usize,
    search: impl Fn(IndexKind, usize, &HashSet<String>) -> Result<Vec<SearchHit>, SearchError>,
) -> Result<Vec<SearchHit>, SearchError> {
    let none = HashSet::new();
    let mut hits = match choice {
        IndexChoice::Abstract => search(IndexKind::Abstract, n, &none)?,
        IndexChoice::Fulltext => search(IndexKind::Fulltext, n, &none)?,
        IndexChoice::Tiered => {
            let mut hits = search(IndexKind::Abstract, n, &none)?;
            if hits.len() < n {
                let shown: HashSet<String> = hits.iter().map(|h| h.url.clone()).collect();
                hits.extend(search(IndexKind::Fulltext, n - hits.len(), &shown)?);
            }
            hits
        }
    };
    for (i, hit) in hits.iter_mut().enumerate() {
        hit.rank = i + 1;
    }
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_cuts_at_a_word() {
        assert_eq!(shorten("short", 10), "short");
        assert_eq!(shorten("one two three four", 10), "one two…");
        assert_eq!(shorten("汉字汉字汉字", 4), "汉字汉字…");
    }
}
