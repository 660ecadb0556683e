//! The fingerprints of §5.

use std::collections::HashMap;

use md5::{Digest, Md5};

/// An MD5 digest: 16 bytes, as in the paper.
pub type Fingerprint = [u8; 16];

fn md5_of(parts: impl IntoIterator<Item = impl AsRef<[u8]>>) -> Fingerprint {
    let mut hasher = Md5::new();
    for part in parts {
        hasher.update(part.as_ref());
        // A separator, so that ["ab", "c"] and ["a", "bc"] differ.
        hasher.update(b"\n");
    }
    hasher.finalize().into()
}

/// The keyword fingerprint of §5, from the term frequencies of the topic content (stop
/// words already removed):
///
/// 1. the feature words (Sum1 of them),
/// 2. sorted by decreasing term frequency, ties alphabetically;
/// 3. the first Sum2 = ⌊Sum1 × Percentage⌋ are selected,
/// 4. sorted alphabetically;
/// 5. the first Sum3 = (Sum2 div Interval) × Interval of them are kept,
/// 6. and MD5 is applied to them.
///
/// `None` when Sum3 is 0: the page is too short for a near-replica fingerprint.
pub fn keyword_fingerprint(tf: &HashMap<String, u32>, percentage: f64, interval: usize) -> Option<Fingerprint> {
    let mut words: Vec<(&str, u32)> = tf.iter().map(|(w, &n)| (w.as_str(), n)).collect();
    words.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let sum2 = (words.len() as f64 * percentage).floor() as usize;
    let mut selected: Vec<&str> = words.into_iter().take(sum2).map(|(w, _)| w).collect();
    selected.sort_unstable();
    let interval = interval.max(1);
    let sum3 = sum2 / interval * interval;
    (sum3 > 0).then(|| md5_of(&selected[..sum3]))
}

/// The exact-copy fingerprint: MD5 of the cleaned text with white space normalised. `None`
/// for text without a single letter or digit.
pub fn exact_fingerprint(text: &str) -> Option<Fingerprint> {
    if !text.chars().any(char::is_alphanumeric) {
        return None;
    }
    Some(md5_of(text.split_whitespace()))
}

/// Lower-case hex of a fingerprint.
pub fn to_hex(fingerprint: &Fingerprint) -> String {
    fingerprint.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tf(pairs: &[(&str, u32)]) -> HashMap<String, u32> {
        pairs.iter().map(|(w, n)| (w.to_string(), *n)).collect()
    }

    #[test]
    fn md5_matches_the_reference_digest() {
        // RFC 1321 test suite: MD5("abc").
        let mut hasher = Md5::new();
        hasher.update(b"abc");
        let digest: Fingerprint = hasher.finalize().into();
        assert_eq!(to_hex(&digest), "900150983cd24fb0d6963f7d28e17f72");
    }

    #[test]
    fn fingerprint_takes_the_most_frequent_words_by_interval() {
        // 10 words, P = 0.4 → Sum2 = 4 (w9, w8, w7, w6 by tf), I = 2 → Sum3 = 4.
        let words: Vec<(String, u32)> = (0..10).map(|i| (format!("w{i}"), i as u32 + 1)).collect();
        let tf: HashMap<String, u32> = words.into_iter().collect();
        let expected = md5_of(["w6", "w7", "w8", "w9"]);
        assert_eq!(keyword_fingerprint(&tf, 0.4, 2), Some(expected));
        // I = 3 → Sum3 = 3: the alphabetically first three of the selected four.
        assert_eq!(keyword_fingerprint(&tf, 0.4, 3), Some(md5_of(["w6", "w7", "w8"])));
    }

    #[test]
    fn ties_break_alphabetically_and_small_pages_get_none() {
        let a = keyword_fingerprint(&tf(&[("b", 1), ("a", 1), ("c", 1), ("d", 1), ("e", 1)]), 0.4, 1);
        assert_eq!(a, Some(md5_of(["a", "b"])));
        assert_eq!(keyword_fingerprint(&tf(&[("a", 1), ("b", 1)]), 0.4, 5), None);
        assert_eq!(keyword_fingerprint(&HashMap::new(), 0.4, 5), None);
    }

    #[test]
    fn near_replicas_with_small_edits_share_the_fingerprint() {
        let base: Vec<(String, u32)> = (0..40).map(|i| (format!("term{i:02}"), 50 - i as u32)).collect();
        let mut edited: HashMap<String, u32> = base.iter().cloned().collect();
        edited.insert("rareword".into(), 1);
        let base: HashMap<String, u32> = base.into_iter().collect();
        assert_eq!(keyword_fingerprint(&base, 0.4, 5), keyword_fingerprint(&edited, 0.4, 5));
    }

    #[test]
    fn exact_fingerprint_ignores_white_space_only() {
        assert_eq!(exact_fingerprint("a  b\nc"), exact_fingerprint("a b c"));
        assert_ne!(exact_fingerprint("a b c"), exact_fingerprint("a b d"));
        assert_eq!(exact_fingerprint(" … "), None);
    }
}
