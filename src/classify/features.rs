//! The feature vector a classifier sees: hashed term counts of a text.
//!
//! The paper classifies "the feature vector of topic content" (§6, Content category): the
//! terms of the topic content, segmented by our one tokenizer ([`for_each_token`]: jieba
//! for CJK runs, Unicode words otherwise, lower-cased), without stop words as in the
//! paper's feature vector (§3.2; `skip_stop_words`). To that we add word bigrams (phrases
//! like "interest rate" or "world cup" carry the category better than their words) and, in
//! CJK runs, character 1- and 2-grams: Chinese titles are short, and characters recover
//! what a segmentation error or an out-of-vocabulary name loses (on THUCNews titles,
//! character n-grams are the strong baseline).
//!
//! Features are hashed (FNV-1a, 64 bits, folded) into `2^hash_bits` buckets, so a model's
//! size and the memory of training are bounded whatever the vocabulary, and no vocabulary
//! has to be stored. The hash is fixed: a model's buckets mean the same on every platform.

use serde::{Deserialize, Serialize};

use crate::text::{for_each_token, generic_stop_words, is_cjk};

/// What features are extracted; recorded in every model, so that prediction extracts
/// exactly what training did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureSettings {
    /// Features are hashed into 2^hash_bits buckets.
    pub hash_bits: u32,
    /// Pairs of consecutive terms are features too.
    pub word_bigrams: bool,
    /// Character n-grams of CJK runs, n = 1..=this (0: none).
    pub cjk_char_ngrams: usize,
    /// Terms of the generic stop-word lists are left out (bigrams join the terms around them).
    #[serde(default)]
    pub skip_stop_words: bool,
}

impl crate::config::ClassifyConfig {
    /// The feature settings a model trained with this configuration records.
    pub fn feature_settings(&self) -> FeatureSettings {
        FeatureSettings {
            hash_bits: self.hash_bits,
            word_bigrams: self.word_bigrams,
            cjk_char_ngrams: self.cjk_char_ngrams,
            skip_stop_words: self.skip_stop_words,
        }
    }
}

/// A sparse vector: (bucket, value) sorted by bucket, buckets distinct.
pub type SparseVector = Vec<(u32, f32)>;

/// Kinds of feature, hashed in so that a word and a character n-gram never share a key.
const WORD: u8 = 1;
const WORD_BIGRAM: u8 = 2;
const CHAR_NGRAM: u8 = 3;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

impl FeatureSettings {
    fn bucket(&self, hash: u64) -> u32 {
        let folded = hash ^ (hash >> 32);
        let bits = self.hash_bits.clamp(1, 31);
        (folded & ((1u64 << bits) - 1)) as u32
    }

    /// The hashed term counts of `text`.
    pub fn extract(&self, text: &str) -> SparseVector {
        let mut buckets: Vec<u32> = Vec::new();
        let mut previous: Option<String> = None;
        let stop_words = generic_stop_words();
        for_each_token(text, |token| {
            let term = token.text.as_ref();
            if self.skip_stop_words && stop_words.contains(term) {
                return;
            }
            buckets.push(self.bucket(fnv(fnv(FNV_OFFSET, &[WORD]), term.as_bytes())));
            if self.word_bigrams {
                if let Some(prev) = &previous {
                    let hash = fnv(fnv(fnv(fnv(FNV_OFFSET, &[WORD_BIGRAM]), prev.as_bytes()), &[0]), term.as_bytes());
                    buckets.push(self.bucket(hash));
                }
                previous = Some(term.to_string());
            }
        });
        if self.cjk_char_ngrams > 0 {
            self.cjk_ngrams(text, &mut buckets);
        }
        count(buckets)
    }

    /// Character n-grams (n = 1..=cjk_char_ngrams) inside each run of CJK characters.
    fn cjk_ngrams(&self, text: &str, buckets: &mut Vec<u32>) {
        let mut run: Vec<char> = Vec::new();
        let mut flush = |run: &mut Vec<char>| {
            for n in 1..=self.cjk_char_ngrams {
                for gram in run.windows(n) {
                    let mut hash = fnv(FNV_OFFSET, &[CHAR_NGRAM]);
                    let mut utf8 = [0u8; 4];
                    for c in gram {
                        hash = fnv(hash, c.encode_utf8(&mut utf8).as_bytes());
                    }
                    buckets.push(self.bucket(hash));
                }
            }
            run.clear();
        };
        for c in text.chars() {
            if is_cjk(c) {
                run.push(c);
            } else if !run.is_empty() {
                flush(&mut run);
            }
        }
        flush(&mut run);
    }
}

/// Sorted (bucket, count) pairs of a list of buckets.
fn count(mut buckets: Vec<u32>) -> SparseVector {
    buckets.sort_unstable();
    let mut out: SparseVector = Vec::new();
    for b in buckets {
        match out.last_mut() {
            Some((last, n)) if *last == b => *n += 1.0,
            _ => out.push((b, 1.0)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: FeatureSettings =
        FeatureSettings { hash_bits: 20, word_bigrams: true, cjk_char_ngrams: 2, skip_stop_words: false };

    fn total(v: &SparseVector) -> f32 {
        v.iter().map(|(_, n)| n).sum()
    }

    #[test]
    fn words_and_bigrams_are_counted() {
        let v = SETTINGS.extract("Interest rates rise; interest rates fall.");
        // 6 words + 5 bigrams.
        assert_eq!(total(&v), 11.0);
        // "interest", "rates" and "interest rates" occur twice each.
        assert_eq!(v.iter().filter(|(_, n)| *n == 2.0).count(), 3);
        assert!(v.windows(2).all(|w| w[0].0 < w[1].0), "sorted, distinct buckets");
        let unigrams = FeatureSettings { word_bigrams: false, ..SETTINGS }.extract("Interest rates rise");
        assert_eq!(total(&unigrams), 3.0);
    }

    #[test]
    fn chinese_gets_character_ngrams() {
        let text = "股市上涨";
        let words = FeatureSettings { cjk_char_ngrams: 0, ..SETTINGS }.extract(text);
        let with_chars = SETTINGS.extract(text);
        // 4 characters + 3 character bigrams on top of the jieba words.
        assert_eq!(total(&with_chars) - total(&words), 7.0);
        // The same text always hashes to the same buckets.
        assert_eq!(SETTINGS.extract(text), with_chars);
    }

    #[test]
    fn buckets_stay_in_range_and_empty_text_has_none() {
        let small = FeatureSettings { hash_bits: 4, ..SETTINGS };
        assert!(small.extract("many different words make many buckets 很多词").iter().all(|(b, _)| *b < 16));
        assert!(SETTINGS.extract("").is_empty());
        assert!(SETTINGS.extract(" — ！ ").is_empty());
    }
}
