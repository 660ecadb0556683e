//! BM25F: one term over several fields of a document, saturated once.
//!
//! Summing one BM25 per field (what [`super::Bm25TermQuery`] clauses do) saturates each
//! field's term frequency on its own, so a word found in two fields that hold the same text
//! (the full-text index's raw page text and its topic content; the abstract index's title and
//! abstract) counts nearly twice, however often it occurs. Robertson, Zaragoza and Taylor
//! ("Simple BM25 extension to multiple weighted fields", CIKM 2004, §3) and Robertson and
//! Zaragoza (2009, §3.5, eq. 3.26-3.28) combine the fields before the saturation:
//!
//! tf' = Σ_f w_f · tf_f / (1 − b + b · len_f / avglen_f), score = w · idf · (k1 + 1) · tf' / (k1 + tf')
//!
//! with one k1 and b for the index, each field normalised by its own average length, and one
//! idf for the term. The document frequency of the term in the document (any field) is not
//! in the index; the largest of its fields' document frequencies stands for it (a lower bound
//! of the union, and equal to it where one field holds the others' text, as the full-text
//! index's raw page text does).

use std::sync::Arc;

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

use super::bm25::{
    Bm25Params, average_length, explain_document, idf, length_normalisations, scorer_or_empty, term_postings,
};

/// One word in several fields (one term per field, each with its field weight), scored by
/// BM25F with `params`, times `weight`.
#[derive(Debug, Clone)]
pub struct Bm25fTermQuery {
    fields: Vec<(Term, f32)>,
    weight: f32,
    params: Bm25Params,
}

impl Bm25fTermQuery {
    pub fn new(fields: Vec<(Term, f32)>, weight: f32, params: Bm25Params) -> Bm25fTermQuery {
        Bm25fTermQuery { fields, weight, params }
    }
}

/// What scoring needs: w · idf · (k1 + 1), k1, and per field its weight divided by the length
/// normalisation, for each of the 256 field-norm codes.
#[derive(Clone)]
struct Scoring {
    factor: f32,
    k1: f32,
    per_field: Vec<Arc<[f32; 256]>>,
}

impl Query for Bm25fTermQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let scoring = match enable_scoring {
            EnableScoring::Enabled { statistics_provider, .. } => {
                let documents = statistics_provider.total_num_docs()?;
                let mut doc_freq = 0;
                let mut per_field = Vec::with_capacity(self.fields.len());
                for (term, field_weight) in &self.fields {
                    doc_freq = doc_freq.max(statistics_provider.doc_freq(term)?.min(documents));
                    let average_length = average_length(statistics_provider, term.field(), documents)?;
                    let weights = length_normalisations(self.params.b, average_length).map(|norm| field_weight / norm);
                    per_field.push(Arc::new(weights));
                }
                let k1 = self.params.k1;
                Some(Scoring { factor: self.weight * idf(documents, doc_freq) * (k1 + 1.0), k1, per_field })
            }
            EnableScoring::Disabled { .. } => None,
        };
        Ok(Box::new(Bm25fWeight { terms: self.fields.iter().map(|(t, _)| t.clone()).collect(), scoring }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for (term, _) in &self.fields {
            visitor(term, false);
        }
    }
}

struct Bm25fWeight {
    terms: Vec<Term>,
    scoring: Option<Scoring>,
}

/// One field's postings of the term, its field norms and its weights by norm code.
struct FieldPostings {
    postings: SegmentPostings,
    fieldnorms: FieldNormReader,
    weights: Option<Arc<[f32; 256]>>,
}

impl Bm25fWeight {
    fn fields_scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Option<Bm25fScorer>> {
        let mut fields = Vec::new();
        for (i, term) in self.terms.iter().enumerate() {
            let Some((postings, fieldnorms)) = term_postings(reader, term, self.scoring.is_some())? else { continue };
            let weights = self.scoring.as_ref().map(|s| s.per_field[i].clone());
            fields.push(FieldPostings { postings, fieldnorms, weights });
        }
        if fields.is_empty() {
            return Ok(None);
        }
        let scoring = self.scoring.as_ref().map(|s| (s.factor * boost, s.k1));
        let doc = fields.iter().map(|f| f.postings.doc()).min().unwrap_or(TERMINATED);
        Ok(Some(Bm25fScorer { fields, scoring, doc }))
    }
}

impl Weight for Bm25fWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(scorer_or_empty(self.fields_scorer(reader, boost)?))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        explain_document(self.fields_scorer(reader, 1.0)?, doc, "BM25F over the index's fields")
    }
}

/// The union of the fields' postings; the current document is the smallest of theirs.
struct Bm25fScorer {
    fields: Vec<FieldPostings>,
    /// w · idf · (k1 + 1) times the boost, and k1.
    scoring: Option<(f32, f32)>,
    doc: DocId,
}

impl DocSet for Bm25fScorer {
    fn advance(&mut self) -> DocId {
        let current = self.doc;
        let mut next = TERMINATED;
        for field in &mut self.fields {
            let doc = if field.postings.doc() == current { field.postings.advance() } else { field.postings.doc() };
            next = next.min(doc);
        }
        self.doc = next;
        next
    }

    fn seek(&mut self, target: DocId) -> DocId {
        let mut next = TERMINATED;
        for field in &mut self.fields {
            let doc = if field.postings.doc() < target { field.postings.seek(target) } else { field.postings.doc() };
            next = next.min(doc);
        }
        self.doc = next;
        next
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.fields.iter().map(|f| f.postings.size_hint()).max().unwrap_or(0)
    }
}

impl Scorer for Bm25fScorer {
    fn score(&mut self) -> Score {
        let Some((factor, k1)) = self.scoring else { return 1.0 };
        let doc = self.doc;
        let mut tf = 0f32;
        for field in &self.fields {
            if field.postings.doc() != doc {
                continue;
            }
            if let Some(weights) = &field.weights {
                let code = usize::from(field.fieldnorms.fieldnorm_id(doc));
                tf += field.postings.term_freq() as f32 * weights[code];
            }
        }
        factor * tf / (k1 + tf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Bm25TermQuery;
    use crate::search::bm25::tests::scores;
    use tantivy::schema::{Field, Schema, TEXT};
    use tantivy::{Index, TantivyDocument};

    fn index(docs: &[(&str, &str)]) -> (Index, Field, Field) {
        let mut builder = Schema::builder();
        let a = builder.add_text_field("a", TEXT);
        let b = builder.add_text_field("b", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for (x, y) in docs {
            let mut doc = TantivyDocument::default();
            doc.add_text(a, *x);
            doc.add_text(b, *y);
            writer.add_document(doc).unwrap();
        }
        writer.commit().unwrap();
        (index, a, b)
    }

    const DOCS: [(&str, &str); 4] =
        [("apple pie", "pear"), ("pear", "apple apple tart"), ("apple", "apple"), ("plum", "plum")];
    const PARAMS: Bm25Params = Bm25Params { k1: 1.2, b: 0.75 };

    #[test]
    fn over_one_field_it_scores_as_bm25() {
        let (index, a, _) = index(&DOCS);
        let term = Term::from_field_text(a, "apple");
        let bm25f = scores(&index, &Bm25fTermQuery::new(vec![(term.clone(), 1.0)], 2.0, PARAMS));
        let bm25 = scores(&index, &Bm25TermQuery::new(term, 2.0, PARAMS));
        assert_eq!(bm25f.len(), 2);
        for ((d1, s1), (d2, s2)) in bm25f.iter().zip(&bm25) {
            assert_eq!(d1, d2);
            assert!((s1 - s2).abs() < 1e-5, "{bm25f:?} {bm25:?}");
        }
    }

    #[test]
    fn the_fields_are_saturated_once_and_every_matching_document_is_found() {
        let (index, a, b) = index(&DOCS);
        let fields = vec![(Term::from_field_text(a, "apple"), 1.0), (Term::from_field_text(b, "apple"), 1.0)];
        let bm25f = scores(&index, &Bm25fTermQuery::new(fields.clone(), 1.0, PARAMS));
        // Documents 0, 1 and 2 have "apple" in a, in b, or in both; 3 has none.
        assert_eq!(bm25f.iter().map(|(d, _)| *d).collect::<Vec<_>>(), [0, 1, 2]);
        // Summed per-field BM25 would give document 2 about twice a one-field score; BM25F
        // gives less than twice (one saturation), and never more than idf · (k1 + 1).
        let one_field = scores(&index, &Bm25fTermQuery::new(vec![fields[0].clone()], 1.0, PARAMS));
        let doc2_one = one_field.iter().find(|(d, _)| *d == 2).unwrap().1;
        let doc2_both = bm25f.iter().find(|(d, _)| *d == 2).unwrap().1;
        assert!(doc2_both > doc2_one && doc2_both < 2.0 * doc2_one, "{doc2_one} {doc2_both}");
        // Each field has "apple" in two documents: the term's document frequency is taken as 2.
        let idf = (1.0f32 + (4.0 - 2.0 + 0.5) / (2.0 + 0.5)).ln();
        assert!(doc2_both < idf * (PARAMS.k1 + 1.0));
    }
}
