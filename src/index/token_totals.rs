//! Exact token totals of an index's fields, kept beside a build whose indexes had pages
//! deleted.
//!
//! BM25 divides a field's length by the average length, the field's token total over the
//! document count. Tantivy keeps an exact total per segment, but when it merges a segment
//! with deleted documents it estimates the survivors' total from the documents' field
//! norms, which are rounded; rankings of shards would then drift from those of one build.
//! After deleting pages (`indexer replicas merge`) the totals are recounted exactly — each
//! posting's term frequency summed — and written to [`TOKEN_TOTALS_FILE`], which search
//! prefers to Tantivy's own totals. The totals name the segments they were counted on: once
//! the index has other segments (pages added later), they no longer apply and are ignored.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use tantivy::postings::Postings;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocSet, Index, TERMINATED};

use super::{IndexError, IndexSchema};

/// The file in a build folder holding the exact totals, by index name.
pub const TOKEN_TOTALS_FILE: &str = "token-totals.json";

/// The exact token totals of one index.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenTotals {
    /// The segments counted, sorted.
    pub segments: Vec<String>,
    /// Tokens by field name.
    pub tokens: HashMap<String, u64>,
}

fn segment_names(index: &Index) -> Option<Vec<String>> {
    let mut names: Vec<String> = index.searchable_segment_ids().ok()?.into_iter().map(|id| id.uuid_string()).collect();
    names.sort();
    Some(names)
}

/// Every indexed field's token total, counted from the postings.
pub fn count_token_totals(index: &Index, schema: &IndexSchema) -> Result<TokenTotals, IndexError> {
    let tantivy_error = |source| IndexError::Tantivy { path: schema.kind.name().to_string(), source };
    let reader = index.reader().map_err(tantivy_error)?;
    let searcher = reader.searcher();
    let mut totals = HashMap::new();
    for &(field, _) in &schema.fields {
        let entry = schema.schema.get_field_entry(field);
        if !entry.is_indexed() {
            continue;
        }
        let mut total = 0u64;
        for segment in searcher.segment_readers() {
            let inverted = segment.inverted_index(field).map_err(tantivy_error)?;
            let mut terms = inverted.terms().stream().map_err(|e| tantivy_error(e.into()))?;
            while terms.advance() {
                let mut postings = inverted
                    .read_postings_from_terminfo(terms.value(), IndexRecordOption::WithFreqs)
                    .map_err(|e| tantivy_error(e.into()))?;
                while postings.doc() != TERMINATED {
                    // Fields indexed without frequencies count one per document.
                    total += u64::from(postings.term_freq().max(1));
                    postings.advance();
                }
            }
        }
        totals.insert(entry.name().to_string(), total);
    }
    Ok(TokenTotals { segments: segment_names(index).unwrap_or_default(), tokens: totals })
}

/// Writes the totals of both indexes into a build folder.
pub fn write_token_totals(build: &Path, totals: &HashMap<String, TokenTotals>) -> Result<(), IndexError> {
    let path = build.join(TOKEN_TOTALS_FILE);
    let text = serde_json::to_string_pretty(totals).unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    std::fs::write(&path, text + "\n").map_err(|source| IndexError::Io { path: path.display().to_string(), source })
}

/// The exact totals of one index of a build, by field; empty when the build has none (no
/// pages were deleted: Tantivy's totals are exact), when they were counted on other
/// segments than the index has now, or when the file cannot be read.
pub fn read_token_totals(build: &Path, index: &Index, schema: &IndexSchema) -> HashMap<Field, u64> {
    let Ok(text) = std::fs::read_to_string(build.join(TOKEN_TOTALS_FILE)) else { return HashMap::new() };
    let Ok(mut all) = serde_json::from_str::<HashMap<String, TokenTotals>>(&text) else {
        return HashMap::new();
    };
    let Some(totals) = all.remove(schema.kind.name()) else { return HashMap::new() };
    if segment_names(index).as_ref() != Some(&totals.segments) {
        return HashMap::new();
    }
    totals
        .tokens
        .into_iter()
        .filter_map(|(name, total)| schema.schema.get_field(&name).ok().map(|f| (f, total)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{IndexKind, register_tokenizers};
    use tantivy::{IndexWriter, TantivyDocument, Term};

    fn add(writer: &IndexWriter, schema: &IndexSchema, url: &str, title: &str) {
        let mut doc = TantivyDocument::default();
        doc.add_text(schema.url, url);
        if let Some(field) = schema.title {
            doc.add_text(field, title);
        }
        writer.add_document(doc).unwrap();
    }

    #[test]
    fn totals_are_exact_after_deletions_and_ignored_once_segments_change() {
        let dir = tempfile::tempdir().unwrap();
        let schema = IndexSchema::load(IndexKind::Abstract).unwrap();
        let index = Index::create_in_dir(dir.path(), schema.schema.clone()).unwrap();
        register_tokenizers(&index);
        let mut writer: IndexWriter = index.writer_with_num_threads(1, 15_000_000).unwrap();
        // Long titles: their field norms are rounded, which is what Tantivy's estimate uses.
        let long = "glacier melt river valley farmer summer drone measure ice record ".repeat(7);
        add(&writer, &schema, "a", &long);
        add(&writer, &schema, "b", "glacier");
        add(&writer, &schema, "c", &format!("{long} extra words here"));
        writer.commit().unwrap();
        writer.delete_term(Term::from_field_text(schema.url, "c"));
        writer.commit().unwrap();
        let segments = index.searchable_segment_ids().unwrap();
        writer.merge(&segments).wait().unwrap();
        writer.wait_merging_threads().unwrap();

        let totals = count_token_totals(&index, &schema).unwrap();
        let title = schema.schema.get_field_name(schema.title.unwrap()).to_string();
        // "glacier melt river valley farmer summer drone measure ice record": 10 terms, no
        // stop word among them, 7 times; plus one.
        assert_eq!(totals.tokens[&title], 71);
        assert_eq!(totals.tokens["url"], 2);
        // Tantivy's own total after the merge is the rounded estimate.
        let searcher = index.reader().unwrap().searcher();
        let estimate = tantivy::query::Bm25StatisticsProvider::total_num_tokens(&searcher, schema.title.unwrap());
        assert_ne!(estimate.unwrap(), 71);

        let mut all = HashMap::new();
        all.insert("abstract".to_string(), totals);
        write_token_totals(dir.path(), &all).unwrap();
        let read = read_token_totals(dir.path(), &index, &schema);
        assert_eq!(read[&schema.title.unwrap()], 71);

        // Pages added later: the counted segments are no longer the index's.
        let mut writer: IndexWriter = index.writer_with_num_threads(1, 15_000_000).unwrap();
        add(&writer, &schema, "d", "more");
        writer.commit().unwrap();
        assert!(read_token_totals(dir.path(), &index, &schema).is_empty());
    }
}
