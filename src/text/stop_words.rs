//! Stop words: the generic lists (English and Chinese, ours, on every page), the list of the
//! page's language, plus the paper's aggressive list learned from corpus document frequency
//! (§3.2).
//!
//! The per-language lists are Stopwords ISO's, from the stop-words crate (58 languages). They
//! are broad: beyond function words they hold frequent adverbs, numerals and a few common
//! nouns, which suits keywords and keyword fingerprints (a page's most telling terms) and
//! contains every word of NLTK's (Snowball's) narrower lists but a dozen. English and
//! Chinese keep our lists (`stopwords/`), with which the retrieval figures were measured.
//! The indexes use Snowball's narrow lists instead (see `index::analyzer`): a query for a
//! common noun must find it.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, LazyLock};

use fnv::FnvHashSet;

/// The lists are looked up once per term of every page: FNV hashes a short word in a few steps, where the
/// standard library's DoS-resistant SipHash takes several times as long (the list is ours, not
/// input, so no adversary chooses its keys).
static GENERIC: LazyLock<FnvHashSet<&'static str>> = LazyLock::new(|| {
    include_str!("stopwords/en.txt")
        .lines()
        .chain(include_str!("stopwords/zh.txt").lines())
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
});

/// The generic ("safe") stop words of every language we ship a list for.
pub fn generic_stop_words() -> &'static FnvHashSet<&'static str> {
    &GENERIC
}

/// The list of every language the stop-words crate has, lower-cased (the tokenizer's terms are).
static BY_LANGUAGE: LazyLock<HashMap<&'static str, FnvHashSet<String>>> = LazyLock::new(|| {
    stop_words::available_languages()
        .iter()
        .filter_map(|&code| Some((code, stop_words::lookup(code)?.iter().map(|w| w.to_lowercase()).collect())))
        .collect()
});

/// The stop list of a language (a BCP 47 primary subtag), beyond the generic lists; `None`
/// for English and Chinese (the generic lists are theirs) and for languages without a list.
pub fn language_stop_words(lang: &str) -> Option<&'static FnvHashSet<String>> {
    let code = match lang {
        "en" | "zh" => return None,
        // Bokmål and Nynorsk: the lists have Norwegian.
        "nb" | "nn" => "no",
        other => other,
    };
    BY_LANGUAGE.get(code)
}

/// The stop words of one build (the generic lists plus the terms learned from the corpus),
/// and, once [`StopWords::for_language`] names it, those of one page's language.
#[derive(Debug, Clone, Default)]
pub struct StopWords {
    learned: Arc<FnvHashSet<String>>,
    language: Option<&'static FnvHashSet<String>>,
    /// The page is Japanese: a term written in hiragana alone is a particle, an auxiliary or
    /// an inflection (the tokenizer cuts Japanese where the script changes), not a topic.
    hiragana_is_grammar: bool,
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
        StopWords { learned: Arc::new(learned), ..StopWords::default() }
    }

    /// Rebuilds a list written by [`StopWords::learned_sorted`].
    pub fn from_learned<I: IntoIterator<Item = String>>(learned: I) -> StopWords {
        StopWords { learned: Arc::new(learned.into_iter().collect()), ..StopWords::default() }
    }

    /// These stop words plus the list of `lang` (a BCP 47 primary subtag; `None`, or a
    /// language without a list, adds nothing). Cheap: the lists are shared.
    pub fn for_language(&self, lang: Option<&str>) -> StopWords {
        StopWords {
            learned: Arc::clone(&self.learned),
            language: lang.and_then(language_stop_words),
            hiragana_is_grammar: lang == Some("ja"),
        }
    }

    /// Whether `term` (already lower-cased) carries no topical meaning. Single letters of an
    /// alphabet or syllabary (Latin, Cyrillic, kana: "и", "w", "の") and bare numbers are
    /// treated as stop words too: they never make good keywords. A single Han ideograph can
    /// be a word ("猫") and is kept.
    pub fn is_stop(&self, term: &str) -> bool {
        if GENERIC.contains(term)
            || self.learned.contains(term)
            || self.language.is_some_and(|list| list.contains(term))
        {
            return true;
        }
        let mut chars = term.chars();
        let first = chars.next();
        let single_letter = matches!(first, Some(c) if c.is_alphabetic() && !is_han(c)) && chars.next().is_none();
        let hiragana = self.hiragana_is_grammar && term.chars().all(|c| matches!(c as u32, 0x3040..=0x309F));
        single_letter || hiragana || term.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    }

    /// The term a keyword or fingerprint counts for `term`, or `None` for a stop word. An
    /// elided article or preposition of the page's language is dropped first
    /// (`l'association` → `association`, `dell'alba` → `alba`): UAX #29 keeps the apostrophe
    /// inside the word, and the elided part is a function word of the language.
    pub fn content_term<'t>(&self, term: &'t str) -> Option<&'t str> {
        if self.is_stop(term) {
            return None;
        }
        let term = match (self.language, term.find(['\'', '’'])) {
            (Some(list), Some(at)) if list.contains(&term[..at]) => {
                let rest = &term[at..];
                &rest[rest.chars().next().map_or(0, char::len_utf8)..]
            }
            _ => term,
        };
        (!term.is_empty() && !self.is_stop(term)).then_some(term)
    }

    /// The learned terms, sorted (written to the build output for inspection).
    pub fn learned_sorted(&self) -> Vec<&str> {
        let mut terms: Vec<&str> = self.learned.iter().map(String::as_str).collect();
        terms.sort_unstable();
        terms
    }
}

/// Han ideographs: the CJK characters that are not kana.
fn is_han(c: char) -> bool {
    crate::text::is_cjk(c) && !matches!(c as u32, 0x3040..=0x30FF)
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
    fn a_page_language_adds_its_list_and_single_letters_of_every_alphabet_are_stop_words() {
        let spanish = StopWords::generic().for_language(Some("es"));
        for word in ["de", "la", "que", "el", "en", "los"] {
            assert!(spanish.is_stop(word), "{word}");
            assert!(!StopWords::generic().is_stop(word) || word == "en", "{word} is no English stop word");
        }
        assert!(!spanish.is_stop("gobierno"));
        let russian = StopWords::generic().for_language(Some("ru"));
        assert!(russian.is_stop("и") && russian.is_stop("что") && !russian.is_stop("правительство"));
        assert!(StopWords::generic().is_stop("の") && !StopWords::generic().is_stop("猫"));
        let japanese = StopWords::generic().for_language(Some("ja"));
        assert!(japanese.is_stop("しています") && !japanese.is_stop("コンピューター") && !japanese.is_stop("東京"));
        assert!(StopWords::generic().for_language(Some("nb")).is_stop("og"));
        // Unknown languages and English add nothing and fail nothing.
        assert!(!StopWords::generic().for_language(Some("xx")).is_stop("casa"));
        assert!(StopWords::generic().for_language(Some("en")).is_stop("the"));
    }

    #[test]
    fn elided_function_words_of_the_page_language_are_dropped() {
        let french = StopWords::generic().for_language(Some("fr"));
        assert_eq!(french.content_term("l'association"), Some("association"));
        assert_eq!(french.content_term("d’habitude"), Some("habitude"));
        assert_eq!(french.content_term("qu'il"), None);
        assert_eq!(StopWords::generic().for_language(Some("it")).content_term("dell'alba"), Some("alba"));
        // English has no elision: the generic lists alone never strip.
        assert_eq!(StopWords::generic().content_term("o'clock"), Some("o'clock"));
        assert_eq!(french.content_term("abeilles"), Some("abeilles"));
    }

    #[test]
    fn the_language_list_keeps_the_learned_terms() {
        let stop = StopWords::from_learned(["copyright".to_string()]).for_language(Some("de"));
        assert!(stop.is_stop("copyright") && stop.is_stop("und"));
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
