//! Exact token totals of an index's fields, kept beside a build whose indexes had pages
//! deleted.
//!
//! BM25 divides a field's length by the average length, the field's token total over the
//! document count. Tantivy keeps an exact total per segment, but when it merges a segment
//! with deleted documents it estimates the survivors' total from the documents' field
//! norms, which are rounded; rankings of shards would then drift from those of one build.
//! After deleting pages (`indexer replicas merge`) the totals are recounted exactly — each
//! posting's term frequency summed — and written to [`TOKEN_TOTALS_FILE`], which search
//! prefers to Tantivy's own totals.

use std::collections::HashMap;
use std::path::Path;

use tantivy::postings::Postings;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocSet, Index, TERMINATED};

use super::{IndexError, IndexKind, IndexSchema};

/// The file in a build folder holding the exact totals: `{"<index>": {"<field>": tokens}}`.
pub const TOKEN_TOTALS_FILE: &str = "token-totals.json";

/// Every indexed field's token total, counted from the postings.
pub fn count_token_totals(index: &Index, schema: &IndexSchema) -> Result<HashMap<String, u64>, IndexError> {
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
    Ok(totals)
}

/// Writes the totals of both indexes into a build folder.
pub fn write_token_totals(build: &Path, totals: &HashMap<String, HashMap<String, u64>>) -> Result<(), IndexError> {
    let path = build.join(TOKEN_TOTALS_FILE);
    let text = serde_json::to_string_pretty(totals).unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    std::fs::write(&path, text + "\n").map_err(|source| IndexError::Io { path: path.display().to_string(), source })
}

/// The exact totals of one index of a build, by field; empty when the build has none (no
/// pages were deleted: Tantivy's totals are exact) or the file cannot be read.
pub fn read_token_totals(build: &Path, kind: IndexKind, schema: &IndexSchema) -> HashMap<Field, u64> {
    let Ok(text) = std::fs::read_to_string(build.join(TOKEN_TOTALS_FILE)) else { return HashMap::new() };
    let Ok(mut all) = serde_json::from_str::<HashMap<String, HashMap<String, u64>>>(&text) else {
        return HashMap::new();
    };
    let Some(by_name) = all.remove(kind.name()) else { return HashMap::new() };
    by_name.into_iter().filter_map(|(name, total)| schema.schema.get_field(&name).ok().map(|f| (f, total))).collect()
}
