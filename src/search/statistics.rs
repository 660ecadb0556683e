//! Collection statistics for BM25 over several shards.
//!
//! BM25 weighs a term by its inverse document frequency and normalises a field's term
//! frequency by the average field length. Each shard alone knows only its own document
//! count, document frequencies and token totals, so raw scores from different shards are not
//! comparable. [`Bm25Statistics`] gathers them for the terms of one query from every shard
//! and sums them; scoring every shard with the sums gives the scores one index over all the
//! shards' pages would give (up to float rounding). This is the gather step of a distributed
//! search: in a cluster, each shard would send its partial statistics over the network.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use tantivy::query::{Bm25StatisticsProvider, Query};
use tantivy::schema::Field;
use tantivy::{Searcher, TantivyError, Term};

/// Document count, token totals per field and document frequencies per term, for the terms
/// of one query, summed over shards.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bm25Statistics {
    documents: u64,
    tokens: HashMap<Field, u64>,
    doc_freqs: HashMap<Term, u64>,
}

impl Bm25Statistics {
    /// One shard's statistics for the terms of `query`.
    ///
    /// Deleted documents count, as they do in Tantivy's own statistics: `indexer replicas
    /// merge` merges the segments it deletes from, so a merged shard has none. A field's
    /// token total comes from `token_totals` when it is there (the exact totals a merge
    /// recounts), else from Tantivy.
    pub fn of_shard(
        searcher: &Searcher,
        query: &dyn Query,
        token_totals: &HashMap<Field, u64>,
    ) -> tantivy::Result<Bm25Statistics> {
        let mut terms: Vec<Term> = Vec::new();
        query.query_terms(&mut |term, _| terms.push(term.clone()));
        let mut statistics = Bm25Statistics {
            documents: Bm25StatisticsProvider::total_num_docs(searcher)?,
            ..Bm25Statistics::default()
        };
        for term in terms {
            let field = term.field();
            if let Entry::Vacant(entry) = statistics.tokens.entry(field) {
                entry.insert(match token_totals.get(&field) {
                    Some(&total) => total,
                    None => searcher.total_num_tokens(field)?,
                });
            }
            if let Entry::Vacant(entry) = statistics.doc_freqs.entry(term) {
                let doc_freq = searcher.doc_freq(entry.key())?;
                entry.insert(doc_freq);
            }
        }
        Ok(statistics)
    }

    /// The statistics of `query` over all shards, each a searcher and its exact token
    /// totals (the shards must share one schema).
    pub fn gather(shards: &[(Searcher, &HashMap<Field, u64>)], query: &dyn Query) -> tantivy::Result<Bm25Statistics> {
        let mut total = Bm25Statistics::default();
        for (searcher, token_totals) in shards {
            total.add(&Bm25Statistics::of_shard(searcher, query, token_totals)?);
        }
        Ok(total)
    }

    /// Adds another shard's statistics.
    pub fn add(&mut self, other: &Bm25Statistics) {
        self.documents += other.documents;
        for (field, tokens) in &other.tokens {
            *self.tokens.entry(*field).or_default() += tokens;
        }
        for (term, doc_freq) in &other.doc_freqs {
            *self.doc_freqs.entry(term.clone()).or_default() += doc_freq;
        }
    }

    /// The number of documents over all shards.
    pub fn documents(&self) -> u64 {
        self.documents
    }
}

impl Bm25StatisticsProvider for Bm25Statistics {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        self.tokens.get(&field).copied().ok_or_else(|| missing(format!("field {}", field.field_id())))
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        Ok(self.documents)
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        self.doc_freqs.get(term).copied().ok_or_else(|| missing(format!("term {term:?}")))
    }
}

/// A term the statistics were not gathered for: scoring it with a guess would rank shards
/// inconsistently, so it is an error.
fn missing(what: String) -> TantivyError {
    TantivyError::InvalidArgument(format!("no collection statistics gathered for {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::TopDocs;
    use tantivy::query::TermQuery;
    use tantivy::schema::{IndexRecordOption, STORED, Schema, TEXT, Value};
    use tantivy::{Index, TantivyDocument};

    fn index(schema: &Schema, texts: &[&str]) -> Index {
        let index = Index::create_in_ram(schema.clone());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        let field = schema.get_field("text").unwrap();
        for text in texts {
            let mut doc = TantivyDocument::default();
            doc.add_text(field, *text);
            writer.add_document(doc).unwrap();
        }
        writer.commit().unwrap();
        index
    }

    /// (text, score) of every hit, best first.
    fn scores(index: &Index, query: &TermQuery, statistics: Option<&Bm25Statistics>) -> Vec<(String, f32)> {
        let searcher = index.reader().unwrap().searcher();
        let collector = TopDocs::with_limit(10).order_by_score();
        let top = match statistics {
            Some(s) => searcher.search_with_statistics_provider(query, &collector, s).unwrap(),
            None => searcher.search(query, &collector).unwrap(),
        };
        let field = index.schema().get_field("text").unwrap();
        top.into_iter()
            .map(|(score, address)| {
                let doc: TantivyDocument = searcher.doc(address).unwrap();
                (doc.get_first(field).and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(), score)
            })
            .collect()
    }

    #[test]
    fn shards_scored_with_summed_statistics_score_as_one_index() {
        let mut builder = Schema::builder();
        let field = builder.add_text_field("text", TEXT | STORED);
        let schema = builder.build();
        let first = ["apple pie", "apple apple tart with a long crust", "pear"];
        let second = ["apple", "plum cake", "plum", "a very long text about plum and apple and more"];
        let all: Vec<&str> = first.iter().chain(&second).copied().collect();
        let (a, b, whole) = (index(&schema, &first), index(&schema, &second), index(&schema, &all));
        let query = TermQuery::new(Term::from_field_text(field, "apple"), IndexRecordOption::WithFreqs);

        let searchers = [a.reader().unwrap().searcher(), b.reader().unwrap().searcher()];
        let none = HashMap::new();
        let shards: Vec<(Searcher, &HashMap<Field, u64>)> = searchers.iter().map(|s| (s.clone(), &none)).collect();
        let statistics = Bm25Statistics::gather(&shards, &query).unwrap();
        let whole_statistics = Bm25Statistics::of_shard(&whole.reader().unwrap().searcher(), &query, &none).unwrap();
        assert_eq!(statistics, whole_statistics);
        assert_eq!(statistics.documents(), 7);

        let mut merged: Vec<(String, f32)> =
            [&a, &b].iter().flat_map(|i| scores(i, &query, Some(&statistics))).collect();
        merged.sort_by(|x, y| y.1.total_cmp(&x.1));
        let expected = scores(&whole, &query, None);
        assert_eq!(merged.len(), expected.len());
        for ((text, score), (expected_text, expected_score)) in merged.iter().zip(&expected) {
            assert_eq!(text, expected_text);
            assert!((score - expected_score).abs() < 1e-5, "{merged:?} {expected:?}");
        }
        // A shard's own statistics score differently: why the gather step is needed.
        let own = scores(&b, &query, None);
        assert!(own.iter().any(|(t, s)| merged.iter().any(|(u, m)| u == t && (s - m).abs() > 1e-3)));
    }

    #[test]
    fn exact_token_totals_replace_tantivys_and_unknown_terms_are_errors() {
        let mut builder = Schema::builder();
        let field = builder.add_text_field("text", TEXT | STORED);
        let schema = builder.build();
        let a = index(&schema, &["apple pie", "pear"]);
        let query = TermQuery::new(Term::from_field_text(field, "apple"), IndexRecordOption::WithFreqs);
        let totals = HashMap::from([(field, 100)]);
        let statistics = Bm25Statistics::of_shard(&a.reader().unwrap().searcher(), &query, &totals).unwrap();
        assert_eq!(statistics.total_num_tokens(field).unwrap(), 100);
        assert!(statistics.doc_freq(&Term::from_field_text(field, "pear")).is_err());
    }
}
