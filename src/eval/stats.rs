//! Index statistics, as in Table 3 of the paper: the sum of terms indexed and the size on
//! disk of each index, and their ratios.

use std::path::Path;

use serde::Serialize;

use crate::build::dir_size;
use crate::index::{IndexKind, current_build};
use crate::search::{Collection, SearchError};

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
    Ok(StatisticsReport {
        terms_ratio: ratio(abstract_index.sum_of_terms, fulltext.sum_of_terms),
        size_ratio: ratio(abstract_index.bytes, fulltext.bytes),
        abstract_index,
        fulltext,
    })
}
