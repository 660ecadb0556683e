//! Terms: the one tokenizer used by every stage (cleaning, keywords, fingerprints, both
//! Tantivy indexes and queries), the stop-word lists, and the sentence splitter.
//!
//! Tokenization: CJK runs (Han, kana) are segmented into words by jieba-rs; every other run by
//! Unicode word boundaries (UAX #29). Tokens are lower-cased, and only tokens holding at least
//! one letter or digit are kept, so punctuation never becomes a term.

mod sentences;
mod stop_words;
mod tokenizer;

pub use sentences::split_sentences;
pub use stop_words::{StopWords, generic_stop_words};
pub use tokenizer::{Token, for_each_token, is_cjk, load_dictionary, terms};
