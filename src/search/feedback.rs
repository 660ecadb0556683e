//! RM3 pseudo-relevance feedback: the query is expanded with the words of the top-ranked
//! pages' DocView records (title, keywords, abstract) or, with `words_from = "topic"`, of
//! their whole topic content (as Anserini's RM3 reads the whole document), weighted by a
//! relevance model.
//!
//! As in Anserini's RM3 (after Abdul-Jaleel et al., "UMass at TREC 2004", §2, and Lavrenko
//! and Croft's relevance model, SIGIR 2001): each feedback document's term distribution
//! P(w|d) = tf / |d| is weighted by the document's first-pass score and summed; the
//! `terms` heaviest words, normalised to sum 1, are the relevance model; the original query's
//! term distribution (counts normalised to sum 1) is mixed in with `original_weight`. Words on
//! more than `max_page_share` of the pages are left out of the documents before (Anserini's
//! document-frequency filter, castorini/anserini#289).

use std::collections::HashMap;

use super::settings::FeedbackSettings;
use super::{WeightedTerms, split_language_term};

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
    // A term kept to a minority language's pages is another reading of a query word, on other
    // pages: it weighs as a word of the query without taking its share from the others.
    let read_everywhere = query.iter().filter(|t| split_language_term(t).0.is_none()).count().max(1);
    let mut mixed: HashMap<&str, f64> = HashMap::new();
    for token in query {
        *mixed.entry(token.as_str()).or_default() += original / read_everywhere as f64;
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

/// The clarity of a ranking's top pages (Cronen-Townsend, Croft, SIGIR 2002, §2; used to
/// choose between the original and the expanded query in Cronen-Townsend, Zhou and Croft, CIKM
/// 2004): the relative entropy Σ P(w|R) log(P(w|R) / P(w|C)) of their language model (each
/// page's P(w|d) = tf / |d|, weighted by its first-pass score as in the relevance model) from
/// the collection's. `frequency` gives a word's P(w|C) up to a constant factor (the pages that
/// have it): the factor adds the same constant to every ranking's clarity, so two rankings of
/// one collection compare as with the true model. No words: minus infinity.
pub fn clarity<E>(
    documents: &[(f32, Vec<String>)],
    mut frequency: impl FnMut(&str) -> Result<f64, E>,
) -> Result<f64, E> {
    let documents: Vec<&(f32, Vec<String>)> = documents.iter().filter(|(_, tokens)| !tokens.is_empty()).collect();
    let total: f64 = documents.iter().map(|(score, _)| f64::from(score.max(0.0))).sum();
    let mut model: HashMap<&str, f64> = HashMap::new();
    for (score, tokens) in &documents {
        // Pages of score 0 (or all of them, if all score 0) weigh alike.
        let weight = if total > 0.0 { f64::from(score.max(0.0)) / total } else { 1.0 / documents.len() as f64 };
        for token in tokens {
            *model.entry(token.as_str()).or_default() += weight / tokens.len() as f64;
        }
    }
    if model.is_empty() {
        return Ok(f64::NEG_INFINITY);
    }
    let mut words: Vec<(&str, f64)> = model.into_iter().filter(|(_, p)| *p > 0.0).collect();
    // A fixed order, so the sum is the same bytes every time.
    words.sort_by(|a, b| a.0.cmp(b.0));
    let mut sum = 0.0;
    for (word, p) in words {
        sum += p * (p / frequency(word)?).ln();
    }
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    fn settings(terms: usize, original_weight: f32) -> FeedbackSettings {
        FeedbackSettings {
            docs: 10,
            terms,
            original_weight,
            max_page_share: 1.0,
            selective: Default::default(),
            documents_from: Default::default(),
            words_from: Default::default(),
            expands: Default::default(),
            expanded_weight: 1.0,
            linear: None,
        }
    }

    #[test]
    fn a_term_kept_to_a_languages_pages_takes_no_share_from_the_query_words() {
        let documents = [(1.0, tokens("tide moon harbour"))];
        let plain = expand_query(&tokens("tide moon"), &documents, &settings(3, 0.5));
        let mut query = tokens("tide moon");
        query.push(super::super::language_term("tr", "tid"));
        let with_turkish = expand_query(&query, &documents, &settings(3, 0.5));
        for (term, weight) in &plain {
            assert!(with_turkish.contains(&(term.clone(), *weight)), "{term}: {with_turkish:?}");
        }
        let turkish = super::super::language_term("tr", "tid");
        let weight = |terms: &WeightedTerms, t: &str| terms.iter().find(|(w, _)| w == t).map(|&(_, w)| w);
        assert_eq!(weight(&with_turkish, &turkish), Some(0.25));
    }

    #[test]
    fn pages_of_rare_words_are_clearer_than_pages_of_common_ones() {
        // "the" is on every page, "tide" and "moon" on one each: a model of rare words is
        // further from the collection's.
        let frequency = |w: &str| -> Result<f64, ()> { Ok(if w == "the" { 100.0 } else { 1.0 }) };
        let rare = clarity(&[(1.0, tokens("tide moon")), (1.0, tokens("tide the"))], frequency).unwrap();
        let common = clarity(&[(1.0, tokens("the the")), (1.0, tokens("tide the"))], frequency).unwrap();
        assert!(rare > common, "{rare} {common}");
        // A constant factor on the collection model shifts every clarity alike.
        let scaled = |w: &str| frequency(w).map(|f| f * 7.0);
        let shift = clarity(&[(1.0, tokens("tide moon"))], scaled).unwrap()
            - clarity(&[(1.0, tokens("tide moon"))], frequency).unwrap();
        assert!((shift + 7f64.ln()).abs() < 1e-9);
        assert_eq!(clarity(&[(1.0, Vec::new())], frequency).unwrap(), f64::NEG_INFINITY);
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
