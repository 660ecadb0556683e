//! Stop words: a generic list per language, plus the paper's aggressive list learned from
//! corpus document frequency (§3.2).

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

static GENERIC: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("stopwords/en.txt")
        .lines()
        .chain(include_str!("stopwords/zh.txt").lines())
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
});

/// The generic ("safe") stop words of every language we ship a list for.
pub fn generic_stop_words() -> &'static HashSet<&'static str> {
    &GENERIC
}

/// The stop words of one build: the generic lists plus the terms learned from the corpus.
#[derive(Debug, Clone, Default)]
pub struct StopWords {
    learned: HashSet<String>,
}

impl StopWords {
    /// Only the generic lists.
    pub fn generic() -> StopWords {
        StopWords::default()
    }

    /// The aggressive list: every term that occurs in more than `max_share` of the sampled
    /// documents. `document_terms` yields each sampled document's set of distinct terms.
    /// Returns the generic list alone when fewer than `min_documents` were sampled.
    pub fn learn<I>(document_terms: I, max_share: f64, min_documents: usize) -> StopWords
    where
        I: IntoIterator<Item = HashSet<String>>,
    {
        let mut df: HashMap<String, usize> = HashMap::new();
        let mut documents = 0usize;
        for terms in document_terms {
            documents += 1;
            for term in terms {
                *df.entry(term).or_default() += 1;
            }
        }
        if documents < min_documents.max(1) {
            return StopWords::generic();
        }
        let limit = max_share * documents as f64;
        let learned = df
            .into_iter()
            .filter(|(term, count)| *count as f64 > limit && !GENERIC.contains(term.as_str()))
            .map(|(term, _)| term)
            .collect();
        StopWords { learned }
    }

    /// Rebuilds a list written by [`StopWords::learned_sorted`].
    pub fn from_learned<I: IntoIterator<Item = String>>(learned: I) -> StopWords {
        StopWords { learned: learned.into_iter().collect() }
    }

    /// Whether `term` (already lower-cased) carries no topical meaning. Single Latin letters
    /// and bare numbers are treated as stop words too: they never make good keywords.
    pub fn is_stop(&self, term: &str) -> bool {
        if GENERIC.contains(term) || self.learned.contains(term) {
            return true;
        }
        let mut chars = term.chars();
        let first = chars.next();
        let single_latin = matches!(first, Some(c) if c.is_ascii_alphabetic()) && chars.next().is_none();
        single_latin || term.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    }

    /// The learned terms, sorted (written to the build output for inspection).
    pub fn learned_sorted(&self) -> Vec<&str> {
        let mut terms: Vec<&str> = self.learned.iter().map(String::as_str).collect();
        terms.sort_unstable();
        terms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(words: &[&str]) -> HashSet<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn generic_lists_cover_english_and_chinese() {
        let stop = StopWords::generic();
        assert!(stop.is_stop("the"));
        assert!(stop.is_stop("的"));
        assert!(stop.is_stop("2024"));
        assert!(stop.is_stop("x"));
        assert!(!stop.is_stop("tantivy"));
        assert!(!stop.is_stop("熊猫"));
    }

    #[test]
    fn terms_above_the_document_share_are_learned() {
        let docs = (0..10).map(|i| if i < 4 { doc(&["copyright", "panda"]) } else { doc(&["copyright"]) });
        let stop = StopWords::learn(docs, 0.5, 5);
        assert!(stop.is_stop("copyright"));
        assert!(!stop.is_stop("panda"));
        assert_eq!(stop.learned_sorted(), ["copyright"]);
    }

    #[test]
    fn too_small_a_sample_learns_nothing() {
        let stop = StopWords::learn((0..3).map(|_| doc(&["copyright"])), 0.5, 5);
        assert!(!stop.is_stop("copyright"));
    }
}
