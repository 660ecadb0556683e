//! A BM25 term query whose k1 and b are parameters.
//!
//! Tantivy's own `TermQuery` scores with BM25 at fixed k1 = 1.2 and b = 0.75. Robertson and
//! Zaragoza ("The Probabilistic Relevance Framework: BM25 and Beyond", 2009, §3.5) show that
//! the best k1 and b depend on the collection's document lengths, and the Lucene-style
//! baselines we compare with use k1 = 0.9, b = 0.4; so the parameters are chosen by
//! cross-validation (`indexer eval tune`) and this query applies them. The formula is
//! Lucene's: idf = ln(1 + (N − n + 0.5) / (n + 0.5)), score = w · idf · (k1 + 1) · tf /
//! (tf + k1 · (1 − b + b · dl / avgdl)), with Tantivy's one-byte field norms for dl (as
//! Lucene's). The weight `w` carries the field boost and the term's weight in the query
//! (pseudo-relevance feedback weighs expansion terms).

use std::sync::Arc;

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{Bm25StatisticsProvider, EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, SegmentReader, TantivyError, Term};

/// BM25's term-frequency saturation `k1` and length normalisation `b`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bm25Params {
    pub k1: f32,
    pub b: f32,
}

impl Bm25Params {
    /// Whether the parameters are in BM25's range (k1 ≥ 0, 0 ≤ b ≤ 1).
    pub fn is_valid(self) -> bool {
        self.k1 >= 0.0 && (0.0..=1.0).contains(&self.b) && self.k1.is_finite()
    }
}

/// One term of one field, scored by BM25 with `params`, times `weight`.
#[derive(Debug, Clone)]
pub struct Bm25TermQuery {
    term: Term,
    weight: f32,
    params: Bm25Params,
}

impl Bm25TermQuery {
    pub fn new(term: Term, weight: f32, params: Bm25Params) -> Bm25TermQuery {
        Bm25TermQuery { term, weight, params }
    }
}

impl Query for Bm25TermQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let scoring = match enable_scoring {
            EnableScoring::Enabled { statistics_provider, .. } => {
                let documents = statistics_provider.total_num_docs()?;
                let doc_freq = statistics_provider.doc_freq(&self.term)?.min(documents);
                let average_length = average_length(statistics_provider, self.term.field(), documents)?;
                let k1 = self.params.k1;
                let norms = length_normalisations(self.params.b, average_length).map(|norm| k1 * norm);
                Some(Scoring { factor: self.weight * idf(documents, doc_freq) * (k1 + 1.0), norms: Arc::new(norms) })
            }
            EnableScoring::Disabled { .. } => None,
        };
        Ok(Box::new(Bm25TermWeight { term: self.term.clone(), scoring }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        visitor(&self.term, false);
    }
}

/// What scoring needs for one term: idf · (k1 + 1) · weight, and the denominator's length
/// part for each of the 256 field-norm codes.
#[derive(Clone)]
struct Scoring {
    factor: f32,
    norms: Arc<[f32; 256]>,
}

struct Bm25TermWeight {
    term: Term,
    scoring: Option<Scoring>,
}

impl Bm25TermWeight {
    fn term_scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Option<Bm25TermScorer>> {
        let Some((postings, fieldnorms)) = term_postings(reader, &self.term, self.scoring.is_some())? else {
            return Ok(None);
        };
        let scoring = self.scoring.clone().map(|s| Scoring { factor: s.factor * boost, norms: s.norms });
        Ok(Some(Bm25TermScorer { postings, fieldnorms, scoring }))
    }
}

impl Weight for Bm25TermWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(scorer_or_empty(self.term_scorer(reader, boost)?))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        explain_document(self.term_scorer(reader, 1.0)?, doc, "BM25 with the index's k1 and b")
    }
}

struct Bm25TermScorer {
    postings: SegmentPostings,
    fieldnorms: FieldNormReader,
    scoring: Option<Scoring>,
}

impl DocSet for Bm25TermScorer {
    fn advance(&mut self) -> DocId {
        self.postings.advance()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        self.postings.seek(target)
    }

    fn doc(&self) -> DocId {
        self.postings.doc()
    }

    fn size_hint(&self) -> u32 {
        self.postings.size_hint()
    }
}

impl Scorer for Bm25TermScorer {
    fn score(&mut self) -> Score {
        let Some(scoring) = &self.scoring else { return 1.0 };
        let tf = self.postings.term_freq() as f32;
        let norm = scoring.norms[usize::from(self.fieldnorms.fieldnorm_id(self.postings.doc()))];
        scoring.factor * tf / (tf + norm)
    }
}

// What BM25 and BM25F (`super::bm25f`) compute alike, per field of a term.

/// The average length of `field`'s values over the collection's `documents` (1 when empty).
pub(super) fn average_length(
    statistics: &dyn Bm25StatisticsProvider,
    field: Field,
    documents: u64,
) -> tantivy::Result<f32> {
    let tokens = statistics.total_num_tokens(field)?;
    Ok(if documents == 0 { 1.0 } else { (tokens as f32 / documents as f32).max(1e-6) })
}

/// Lucene's idf of a term in `doc_freq` of `documents`: ln(1 + (N − n + 0.5) / (n + 0.5)).
pub(super) fn idf(documents: u64, doc_freq: u64) -> f32 {
    (1.0 + ((documents - doc_freq) as f32 + 0.5) / (doc_freq as f32 + 0.5)).ln()
}

/// BM25's length normalisation 1 − b + b · dl / avgdl for each of the 256 field-norm codes
/// (dl decoded from the code, as Lucene's one-byte norms).
pub(super) fn length_normalisations(b: f32, average_length: f32) -> [f32; 256] {
    std::array::from_fn(|id| 1.0 - b + b * FieldNormReader::id_to_fieldnorm(id as u8) as f32 / average_length)
}

/// A term's postings in one segment (with frequencies when scoring) and its field's norms
/// (all 1 when the field keeps none); `None` when the segment lacks the term.
pub(super) fn term_postings(
    reader: &SegmentReader,
    term: &Term,
    with_freqs: bool,
) -> tantivy::Result<Option<(SegmentPostings, FieldNormReader)>> {
    let field = term.field();
    let inverted_index = reader.inverted_index(field)?;
    let Some(term_info) = inverted_index.get_term_info(term)? else { return Ok(None) };
    let option = if with_freqs { IndexRecordOption::WithFreqs } else { IndexRecordOption::Basic };
    let postings = inverted_index.read_postings_from_terminfo(&term_info, option)?;
    let fieldnorms = match reader.fieldnorms_readers().get_field(field)? {
        Some(reader) => reader,
        None => FieldNormReader::constant(reader.max_doc(), 1),
    };
    Ok(Some((postings, fieldnorms)))
}

/// A weight's scorer for a segment, or the empty scorer where the segment has no posting.
pub(super) fn scorer_or_empty(scorer: Option<impl Scorer>) -> Box<dyn Scorer> {
    match scorer {
        Some(scorer) => Box::new(scorer),
        None => Box::new(EmptyScorer),
    }
}

/// A weight's explanation of `doc`: its score, or an error when it does not match.
pub(super) fn explain_document(
    scorer: Option<impl Scorer>,
    doc: DocId,
    description: &'static str,
) -> tantivy::Result<Explanation> {
    let not_found = || TantivyError::InvalidArgument(format!("document #{doc} does not match"));
    let mut scorer = scorer.ok_or_else(not_found)?;
    if scorer.doc() > doc || scorer.seek(doc) != doc {
        return Err(not_found());
    }
    Ok(Explanation::new(description, scorer.score()))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use tantivy::collector::TopDocs;
    use tantivy::query::TermQuery;
    use tantivy::schema::{Schema, TEXT};
    use tantivy::{Index, TantivyDocument};

    fn index(texts: &[&str]) -> (Index, tantivy::schema::Field) {
        let mut builder = Schema::builder();
        let field = builder.add_text_field("text", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for text in texts {
            let mut doc = TantivyDocument::default();
            doc.add_text(field, *text);
            writer.add_document(doc).unwrap();
        }
        writer.commit().unwrap();
        (index, field)
    }

    /// Every matching document's score for `query`, in document order.
    pub(crate) fn scores(index: &Index, query: &dyn Query) -> Vec<(u32, f32)> {
        let searcher = index.reader().unwrap().searcher();
        let mut top: Vec<(u32, f32)> = searcher
            .search(query, &TopDocs::with_limit(10).order_by_score())
            .unwrap()
            .into_iter()
            .map(|(score, address)| (address.doc_id, score))
            .collect();
        top.sort_by_key(|(doc, _)| *doc);
        top
    }

    const TEXTS: [&str; 4] = ["apple pie", "apple apple tart with a long crust", "pear", "apple"];

    #[test]
    fn at_tantivys_constants_it_scores_as_tantivy() {
        let (index, field) = index(&TEXTS);
        let term = Term::from_field_text(field, "apple");
        let ours = scores(&index, &Bm25TermQuery::new(term.clone(), 1.0, Bm25Params { k1: 1.2, b: 0.75 }));
        let theirs = scores(&index, &TermQuery::new(term, IndexRecordOption::WithFreqs));
        assert_eq!(ours.len(), 3);
        for ((d1, s1), (d2, s2)) in ours.iter().zip(&theirs) {
            assert_eq!(d1, d2);
            assert!((s1 - s2).abs() < 1e-5, "{ours:?} {theirs:?}");
        }
    }

    #[test]
    fn b_zero_ignores_length_and_weight_scales() {
        let (index, field) = index(&TEXTS);
        let term = Term::from_field_text(field, "apple");
        let flat = scores(&index, &Bm25TermQuery::new(term.clone(), 1.0, Bm25Params { k1: 0.9, b: 0.0 }));
        // Documents 0 and 3 have tf 1 and different lengths: with b = 0 they score the same.
        assert!((flat[0].1 - flat[2].1).abs() < 1e-6, "{flat:?}");
        let doubled = scores(&index, &Bm25TermQuery::new(term, 2.0, Bm25Params { k1: 0.9, b: 0.0 }));
        assert!((doubled[0].1 - 2.0 * flat[0].1).abs() < 1e-5);
        // With b > 0 the shorter document scores higher.
        let (index, field) = self::index(&TEXTS);
        let normed = scores(
            &index,
            &Bm25TermQuery::new(Term::from_field_text(field, "apple"), 1.0, Bm25Params { k1: 0.9, b: 0.4 }),
        );
        assert!(normed[2].1 > normed[0].1, "{normed:?}");
    }

    #[test]
    fn params_outside_bm25s_range_are_invalid() {
        assert!(Bm25Params { k1: 0.9, b: 0.4 }.is_valid());
        assert!(!Bm25Params { k1: -1.0, b: 0.4 }.is_valid());
        assert!(!Bm25Params { k1: 0.9, b: 1.5 }.is_valid());
    }
}
