//! RM3 pseudo-relevance feedback: the query is expanded with the words of the top-ranked
//! pages' DocView records (title, keywords, abstract), weighted by a relevance model.
//!
//! As in Anserini's RM3 (after Abdul-Jaleel et al., "UMass at TREC 2004", §2, and Lavrenko
//! and Croft's relevance model, SIGIR 2001): each feedback document's term distribution
//! P(w|d) = tf / |d| is weighted by the document's first-pass score and summed; the
//! `terms` heaviest words, normalised to sum 1, are the relevance model; the original query's
//! term distribution (counts normalised to sum 1) is mixed in with `original_weight`. Words on
//! more than `max_page_share` of the pages are left out of the documents before (Anserini's
//! document-frequency filter, castorini/anserini#289).

use std::collections::HashMap;

use super::WeightedTerms;
use super::settings::FeedbackSettings;

/// The expanded query: `query` (analyzed tokens, repeats kept) mixed with the relevance model
/// of `documents` (first-pass score, analyzed tokens). Terms are in order of weight, ties by
/// term, so the query is deterministic.
pub fn expand_query(query: &[String], documents: &[(f32, Vec<String>)], settings: &FeedbackSettings) -> WeightedTerms {
    let mut model: HashMap<&str, f64> = HashMap::new();
    for (score, tokens) in documents {
        if tokens.is_empty() {
            continue;
        }
        let share = f64::from(*score) / tokens.len() as f64;
        for token in tokens {
            *model.entry(token.as_str()).or_default() += share;
        }
    }
    let mut model: Vec<(&str, f64)> = model.into_iter().filter(|(_, w)| *w > 0.0).collect();
    model.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    model.truncate(settings.terms);
    let model_total: f64 = model.iter().map(|(_, w)| w).sum();

    let original = f64::from(settings.original_weight);
    let mut mixed: HashMap<&str, f64> = HashMap::new();
    for token in query {
        *mixed.entry(token.as_str()).or_default() += original / query.len() as f64;
    }
    if model_total > 0.0 {
        for (term, weight) in model {
            *mixed.entry(term).or_default() += (1.0 - original) * weight / model_total;
        }
    }
    let mut out: Vec<(String, f32)> =
        mixed.into_iter().filter(|(_, w)| *w > 0.0).map(|(t, w)| (t.to_string(), w as f32)).collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    fn settings(terms: usize, original_weight: f32) -> FeedbackSettings {
        FeedbackSettings { docs: 10, terms, original_weight, max_page_share: 1.0 }
    }

    #[test]
    fn expansion_mixes_the_query_with_the_feedback_documents_words() {
        let query = tokens("ocean");
        let documents = [(2.0, tokens("ocean tide tide moon")), (1.0, tokens("ocean salt"))];
        let expanded = expand_query(&query, &documents, &settings(2, 0.5));
        // Model before cutting: ocean 2/4 + 1/2 = 1, tide 1, moon 0.5, salt 0.5; the two
        // heaviest are kept (ocean and tide, tied at 1: both kept), each 0.5 of the model.
        assert_eq!(expanded.len(), 2, "{expanded:?}");
        let weight = |t: &str| expanded.iter().find(|(x, _)| x == t).map(|(_, w)| *w).unwrap();
        assert!((weight("ocean") - 0.75).abs() < 1e-6);
        assert!((weight("tide") - 0.25).abs() < 1e-6);
        assert_eq!(expanded[0].0, "ocean");
    }

    #[test]
    fn original_weight_one_keeps_the_query_and_no_documents_change_nothing() {
        let query = tokens("a b b");
        let expanded = expand_query(&query, &[(1.0, tokens("c d"))], &settings(10, 1.0));
        assert_eq!(expanded.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(), ["b", "a"]);
        let unchanged = expand_query(&query, &[], &settings(10, 0.5));
        assert_eq!(unchanged.len(), 2);
        assert!((unchanged[0].1 - 1.0 / 3.0).abs() < 1e-6);
    }
}
