//! Our tokenizer inside Tantivy, so that the indexes and the queries segment text exactly as
//! cleaning, keywords and fingerprints do (jieba for CJK, UAX #29 words otherwise).
//!
//! The analyzer registered under [`TOKENIZER_NAME`] adds two filters on top: the generic stop
//! words (function words carry no ranking signal) and the English Snowball stemmer (the
//! retrieval baselines of the test collections stem; Han text passes through unchanged).

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

/// Registers our analyzer on an index (needed after every create or open).
pub fn register_tokenizers(index: &Index) {
    index.tokenizers().register(TOKENIZER_NAME, docview_analyzer());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(text: &str) -> Vec<String> {
        let mut analyzer = docview_analyzer();
        let mut stream = analyzer.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            out.push(stream.token().text.clone());
        }
        out
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
