//! Near-replica signatures: the paper's keyword fingerprint (§5), and two detectors from the
//! near-duplicate literature that compare pages by their word shingles — MinHash (Broder
//! 1997), an estimate of the Jaccard resemblance of the shingle sets, and SimHash (Charikar
//! 2002, Manku et al. 2007), a 64-bit sketch compared by Hamming distance. Both come from the
//! `gaoya` crate, with its LSH indexes for near-linear lookups.

use std::collections::HashMap;

use gaoya::minhash::{MinHasher, MinHasher32};
use gaoya::simhash::{SimHash, SimSipHasher64};

use super::fingerprint::{Fingerprint, keyword_fingerprint};
use crate::config::ReplicaConfig;

pub use crate::config::DetectorKind;

/// A page's near-replica signature.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum NearSignature {
    /// Too little content to compare, or detection off.
    #[default]
    None,
    Keyword(Fingerprint),
    MinHash(Vec<u32>),
    SimHash(u64),
}

/// Computes signatures; built once per build and shared by the worker threads.
pub struct Signer {
    kind: DetectorKind,
    percentage: f64,
    interval: usize,
    shingle: usize,
    min_terms: usize,
    minhasher: MinHasher32<fnv::FnvBuildHasher>,
    simhasher: SimHash<SimSipHasher64, u64, 64>,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signer").field("kind", &self.kind).field("shingle", &self.shingle).finish()
    }
}

impl Signer {
    pub fn new(kind: DetectorKind, config: &ReplicaConfig) -> Signer {
        Signer {
            kind,
            percentage: config.percentage,
            interval: config.interval,
            shingle: config.shingle_words.max(1),
            min_terms: config.near_min_terms,
            // gaoya seeds its hash functions with a constant: signatures are reproducible.
            minhasher: MinHasher32::new(config.minhash_hashes.max(1)),
            simhasher: SimHash::new(SimSipHasher64::new(1, 2)),
        }
    }

    pub fn kind(&self) -> DetectorKind {
        self.kind
    }

    /// The signature of a page from its terms in order (shingles) and their frequencies
    /// without stop words (the keyword fingerprint).
    pub fn sign(&self, terms: &[String], tf: &HashMap<String, u32>) -> NearSignature {
        if terms.len() < self.min_terms {
            return NearSignature::None;
        }
        match self.kind {
            DetectorKind::Off => NearSignature::None,
            DetectorKind::DocView => keyword_fingerprint(tf, self.percentage, self.interval)
                .map_or(NearSignature::None, NearSignature::Keyword),
            DetectorKind::MinHash => {
                if terms.is_empty() {
                    return NearSignature::None;
                }
                NearSignature::MinHash(self.minhasher.create_signature(shingles(terms, self.shingle)))
            }
            DetectorKind::SimHash => {
                if terms.is_empty() {
                    return NearSignature::None;
                }
                NearSignature::SimHash(self.simhasher.create_signature(shingles(terms, self.shingle)))
            }
        }
    }
}

/// Word shingles: every run of `k` consecutive terms (one shingle of all terms if fewer).
pub fn shingles(terms: &[String], k: usize) -> impl Iterator<Item = &[String]> {
    let k = k.min(terms.len()).max(1);
    terms.windows(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn shingles_cover_short_texts() {
        let t = words("a b c d");
        assert_eq!(shingles(&t, 3).count(), 2);
        assert_eq!(shingles(&words("a b"), 3).count(), 1);
    }

    #[test]
    fn minhash_signatures_of_near_copies_agree_mostly() {
        let config = ReplicaConfig::default();
        let signer = Signer::new(DetectorKind::MinHash, &config);
        let base: String = (0..300).map(|i| format!("w{} ", i % 97 * 7 + i)).collect();
        let edited = base.replacen("w7 ", "changed ", 1);
        let (NearSignature::MinHash(a), NearSignature::MinHash(b)) =
            (signer.sign(&words(&base), &HashMap::new()), signer.sign(&words(&edited), &HashMap::new()))
        else {
            panic!("no signature")
        };
        let agree = a.iter().zip(&b).filter(|(x, y)| x == y).count() as f64 / a.len() as f64;
        assert!(agree > 0.9, "{agree}");
        let other: String = (0..300).map(|i| format!("v{i} ")).collect();
        let NearSignature::MinHash(c) = signer.sign(&words(&other), &HashMap::new()) else { panic!() };
        assert!(a.iter().zip(&c).filter(|(x, y)| x == y).count() < 5);
    }

    #[test]
    fn empty_and_short_pages_have_no_signature() {
        for kind in [DetectorKind::SimHash, DetectorKind::MinHash] {
            let signer = Signer::new(kind, &ReplicaConfig::default());
            assert_eq!(signer.sign(&[], &HashMap::new()), NearSignature::None);
            assert_eq!(signer.sign(&words("glossary of computer terminology"), &HashMap::new()), NearSignature::None);
        }
    }
}
