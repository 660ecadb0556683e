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
            if !statistics.tokens.contains_key(&field) {
                let total = match token_totals.get(&field) {
                    Some(&total) => total,
                    None => searcher.total_num_tokens(field)?,
                };
                statistics.tokens.insert(field, total);
            }
            if !statistics.doc_freqs.contains_key(&term) {
                let doc_freq = searcher.doc_freq(&term)?;
                statistics.doc_freqs.insert(term, doc_freq);
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
