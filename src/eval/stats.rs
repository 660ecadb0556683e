//! Index statistics, as in Table 3 of the paper: the sum of terms indexed and the size on
//! disk of each index, and their ratios; and how much of each topic page's text its abstract
//! keeps (§6: an abstract summarizes, it does not repeat the page).

use std::path::Path;

use serde::Serialize;

use crate::index::{IndexError, IndexKind, current_build};
use crate::pipeline::dir_size;
use crate::search::{Collection, SearchError};
use crate::text::{split_sentences, terms};

/// One index's figures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct IndexStatistics {
    pub documents: u64,
    /// Tokens indexed over the searched fields (the paper's "sum of terms").
    pub sum_of_terms: u64,
    /// Bytes of the index folder.
    pub bytes: u64,
}

/// Both indexes and their ratios (abstract / full text).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct StatisticsReport {
    #[serde(rename = "abstract")]
    pub abstract_index: IndexStatistics,
    pub fulltext: IndexStatistics,
    pub terms_ratio: f64,
    pub size_ratio: f64,
    /// Abstract terms against topic-content terms, over the build's topic pages.
    pub abstract_coverage: AbstractCoverage,
}

/// Topic pages whose topic content has at least this many sentences are "long" in
/// [`AbstractCoverage`]: a short text may keep most of its sentences in its abstract.
pub const LONG_PAGE_SENTENCES: usize = 20;

/// How much of the topic content the abstracts hold, in terms (the one tokenizer), over the
/// topic pages of a build (`docview.jsonl`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct AbstractCoverage {
    pub topic_pages: usize,
    /// Σ abstract terms / Σ topic-content terms over all topic pages.
    pub terms_ratio: f64,
    /// Topic pages whose abstract holds at least 90% of their topic content's terms.
    pub pages_at_least_90_percent: usize,
    /// Topic pages with at least [`LONG_PAGE_SENTENCES`] sentences of topic content.
    pub long_pages: usize,
    /// Σ abstract terms / Σ topic-content terms over the long pages.
    pub long_terms_ratio: f64,
}

/// Measures [`AbstractCoverage`] from a build's `docview.jsonl`.
pub fn abstract_coverage(build: &Path) -> Result<AbstractCoverage, std::io::Error> {
    #[derive(serde::Deserialize)]
    struct Record {
        #[serde(rename = "type")]
        page_type: String,
        #[serde(rename = "abstract")]
        summary: String,
        topic_content: String,
    }
    let text = std::fs::read_to_string(build.join("docview.jsonl"))?;
    let (mut all, mut long) = ((0usize, 0usize), (0usize, 0usize));
    let mut coverage = AbstractCoverage::default();
    for line in text.lines() {
        let Ok(record) = serde_json::from_str::<Record>(line) else { continue };
        if record.page_type != "topic" {
            continue;
        }
        let summary = terms(&record.summary).len();
        let content = terms(&record.topic_content).len();
        coverage.topic_pages += 1;
        all = (all.0 + summary, all.1 + content);
        if content > 0 && summary * 10 >= content * 9 {
            coverage.pages_at_least_90_percent += 1;
        }
        if split_sentences(&record.topic_content).len() >= LONG_PAGE_SENTENCES {
            coverage.long_pages += 1;
            long = (long.0 + summary, long.1 + content);
        }
    }
    let ratio = |(a, b): (usize, usize)| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    coverage.terms_ratio = ratio(all);
    coverage.long_terms_ratio = ratio(long);
    Ok(coverage)
}

/// Measures both indexes of the build in `dir`.
pub fn index_statistics(dir: &Path, collection: &Collection) -> Result<StatisticsReport, SearchError> {
    let build = current_build(dir)?;
    let one = |kind: IndexKind| -> Result<IndexStatistics, SearchError> {
        let searcher = collection.searcher(kind);
        let mut sum_of_terms = 0;
        for &(field, _) in &collection.schema(kind).search_fields {
            for segment in searcher.segment_readers() {
                sum_of_terms += segment.inverted_index(field)?.total_num_tokens();
            }
        }
        Ok(IndexStatistics { documents: searcher.num_docs(), sum_of_terms, bytes: dir_size(&build.join(kind.name())) })
    };
    let abstract_index = one(IndexKind::Abstract)?;
    let fulltext = one(IndexKind::Fulltext)?;
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let abstract_coverage = abstract_coverage(&build).map_err(|source| {
        SearchError::Index(IndexError::Io { path: build.join("docview.jsonl").display().to_string(), source })
    })?;
    Ok(StatisticsReport {
        abstract_coverage,
        terms_ratio: ratio(abstract_index.sum_of_terms, fulltext.sum_of_terms),
        size_ratio: ratio(abstract_index.bytes, fulltext.bytes),
        abstract_index,
        fulltext,
    })
}
