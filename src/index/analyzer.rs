//! Our tokenizer inside Tantivy, so that the indexes and the queries segment text exactly as
//! cleaning, keywords and fingerprints do (jieba for CJK, UAX #29 words otherwise).
//!
//! The analyzer registered under [`TOKENIZER_NAME`] adds two filters on top: the generic stop
//! words (function words carry no ranking signal) and the English Snowball stemmer (the
//! retrieval baselines of the test collections stem; Han text passes through unchanged).
//!
//! A page in a language with a Snowball stemmer of its own (German, French, Russian …, see
//! [`snowball_language`]) is analysed by [`analyzer_for`] that language instead: its Snowball
//! stop list and stemmer after the generic stop words. The writer hands such a page's tokens to
//! Tantivy already analysed; a query is analysed for every language of the collection
//! (`search`). Pages of other languages (Chinese, Japanese, Polish …) keep the registered
//! analyzer: the English stemmer leaves CJK terms as they are and stems the English words
//! such pages quote.

use tantivy::Index;
use tantivy::tokenizer::{Language, Stemmer, StopWordFilter, TextAnalyzer, Token, TokenStream, Tokenizer};

use crate::text::{for_each_token, generic_stop_words};

/// The name the schemas in `index-schema/` give the tokenizer.
pub const TOKENIZER_NAME: &str = "docview";

/// [`crate::text::for_each_token`] as a Tantivy tokenizer.
#[derive(Debug, Clone, Default)]
pub struct DocViewTokenizer {
    tokens: Vec<Token>,
}

/// The tokens of one text, handed out one by one.
pub struct DocViewTokenStream<'a> {
    tokens: &'a mut Vec<Token>,
    /// One past the current token (0 before the first `advance`).
    next: usize,
}

impl Tokenizer for DocViewTokenizer {
    type TokenStream<'a> = DocViewTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> DocViewTokenStream<'a> {
        self.tokens.clear();
        let mut position = 0;
        for_each_token(text, |t| {
            self.tokens.push(Token {
                offset_from: t.start,
                offset_to: t.end,
                position,
                text: t.text.into_owned(),
                position_length: 1,
            });
            position += 1;
        });
        DocViewTokenStream { tokens: &mut self.tokens, next: 0 }
    }
}

impl TokenStream for DocViewTokenStream<'_> {
    fn advance(&mut self) -> bool {
        if self.next < self.tokens.len() {
            self.next += 1;
            true
        } else {
            false
        }
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next.saturating_sub(1)]
    }

    fn token_mut(&mut self) -> &mut Token {
        let i = self.next.saturating_sub(1);
        &mut self.tokens[i]
    }
}

/// The analyzer of the `docview` tokenizer name.
pub fn docview_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(DocViewTokenizer::default())
        .filter(StopWordFilter::remove(generic_stop_words().iter().map(|w| w.to_string())))
        .filter(Stemmer::new(Language::English))
        .build()
}

/// The Snowball language of a BCP 47 primary subtag when it is not English and Tantivy has a
/// stemmer for it; `None` for pages the registered analyzer suits (English, languages without
/// a stemmer, no language).
pub fn snowball_language(lang: Option<&str>) -> Option<Language> {
    Some(match lang? {
        "ar" => Language::Arabic,
        "da" => Language::Danish,
        "nl" => Language::Dutch,
        "fi" => Language::Finnish,
        "fr" => Language::French,
        "de" => Language::German,
        "el" => Language::Greek,
        "hu" => Language::Hungarian,
        "it" => Language::Italian,
        "no" | "nb" | "nn" => Language::Norwegian,
        "pt" => Language::Portuguese,
        "ro" => Language::Romanian,
        "ru" => Language::Russian,
        "es" => Language::Spanish,
        "sv" => Language::Swedish,
        "ta" => Language::Tamil,
        "tr" => Language::Turkish,
        _ => return None,
    })
}

/// The analyzer of a page or query in `lang`: the registered one, or for a language with a
/// stemmer of its own, the generic stop words, the language's Snowball stop list (when Tantivy
/// has one) and its stemmer.
pub fn analyzer_for(lang: Option<&str>) -> TextAnalyzer {
    let Some(language) = snowball_language(lang) else { return docview_analyzer() };
    let generic = StopWordFilter::remove(generic_stop_words().iter().map(|w| w.to_string()));
    let builder = TextAnalyzer::builder(DocViewTokenizer::default()).filter(generic).dynamic();
    let builder = match StopWordFilter::new(language) {
        Some(own) => builder.filter_dynamic(own),
        None => builder,
    };
    builder.filter_dynamic(Stemmer::new(language)).build()
}

/// The analysed tokens of `text` (positions and offsets kept), repeats kept.
pub fn analyze_tokens(analyzer: &mut TextAnalyzer, text: &str) -> Vec<Token> {
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        out.push(stream.token().clone());
    }
    out
}

/// Registers our analyzer on an index (needed after every create or open).
pub fn register_tokenizers(index: &Index) {
    index.tokenizers().register(TOKENIZER_NAME, docview_analyzer());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(text: &str) -> Vec<String> {
        analyze_as(None, text)
    }

    fn analyze_as(lang: Option<&str>, text: &str) -> Vec<String> {
        analyze_tokens(&mut analyzer_for(lang), text).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn pages_are_stemmed_and_stopped_in_their_language() {
        assert_eq!(analyze_as(Some("de"), "Die Häuser und das Haus"), ["haus", "haus"]);
        assert_eq!(analyze_as(Some("fr"), "les maisons de la ville"), ["maison", "vill"]);
        assert_eq!(analyze_as(Some("ru"), "книги и книга"), ["книг", "книг"]);
        // English, a language without a stemmer, and no language: the registered analyzer.
        for lang in [Some("en"), Some("pl"), Some("zh"), None] {
            assert_eq!(analyze_as(lang, "The Running of the Computers"), ["run", "comput"], "{lang:?}");
        }
    }

    #[test]
    fn english_is_stemmed_and_stop_words_removed() {
        assert_eq!(analyze("The Running of the Computers"), ["run", "comput"]);
    }

    #[test]
    fn chinese_is_segmented_not_dropped() {
        let tokens = analyze("大熊猫的保护工作");
        assert!(tokens.contains(&"大熊猫".to_string()) || tokens.contains(&"熊猫".to_string()), "{tokens:?}");
        assert!(!tokens.contains(&"的".to_string()));
    }

    #[test]
    fn empty_text_gives_no_tokens() {
        assert!(analyze("").is_empty());
    }
}
