//! Terms: the one tokenizer used by every stage (cleaning, keywords, fingerprints, both
//! Tantivy indexes and queries), the stop-word lists, the sentence splitter, and a page's
//! language.
//!
//! Tokenization: Han runs are segmented into words by jieba-rs; runs with kana (Japanese) by
//! TinySegmenter (`tiniestsegmenter`, its model inside the crate); Thai, Lao, Khmer and Myanmar
//! runs (no spaces between words) by ICU4X's dictionary segmenter; every other run by Unicode
//! word boundaries (UAX #29). Tokens are folded to NFKC and lower-cased, and only tokens
//! holding at least one letter or digit are kept, so punctuation never becomes a term.

mod language;
mod machine_strings;
mod sentences;
mod stop_words;
mod tokenizer;

pub use language::{Identified, bcp47_of, identify, normalize_declared, page_language, script_of_text, scripts_of};
pub use machine_strings::machine_strings;
pub use sentences::split_sentences;
pub use stop_words::{StopWords, generic_stop_words, korean_stem, language_stop_words};
pub use tokenizer::{
    Cut, Token, fold, for_each_token, for_each_token_in, for_each_word, is_cjk, is_folded, is_han, load_dictionary,
    terms,
};
