//! Near-replica signatures: the paper's keyword fingerprint (§5), and two detectors from the
//! near-duplicate literature that compare pages by their word shingles — MinHash (Broder
//! 1997), an estimate of the Jaccard resemblance of the shingle sets, and SimHash (Charikar
//! 2002, Manku et al. 2007), a 64-bit sketch compared by Hamming distance. Both come from the
//! `gaoya` crate, with its LSH indexes for near-linear lookups.
//!
//! A MinHash signature also carries its page's number of distinct shingles, so that a pair's
//! containment (Broder 1997: the share of one set inside the other) can be estimated from the
//! resemblance without the texts: [`NearRule`].

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

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
    /// The MinHash values and the page's number of distinct shingles (0: not known, for
    /// signatures saved before it was recorded).
    MinHash {
        values: Vec<u32>,
        shingles: u32,
    },
    SimHash(u64),
}

/// One MinHash pair decision. Two pages are replicas when their estimated Jaccard resemblance
/// J reaches `resemblance`, or when the estimated containment of the smaller shingle set in
/// the larger, C = |A ∩ B| / min(|A|, |B|), reaches `containment` and the smaller set has at
/// least `min_ratio` of the larger's shingles. With the set sizes a ≤ b,
/// |A ∩ B| = J (a + b) / (1 + J), so C = J (a + b) / ((1 + J) a).
///
/// Resemblance falls as soon as one copy carries text the other lacks (a credit box, a
/// trimmed paragraph, template lines left in); containment does not, and the size ratio keeps
/// a short text that happens to sit inside a long page (a teaser on a hub) from counting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairRule {
    pub resemblance: f64,
    pub containment: f64,
    pub min_ratio: f64,
}

impl PairRule {
    /// The lowest resemblance of a pair the rule accepts. At containment c and size ratio r,
    /// J = c r / (1 + r − c r).
    pub fn lowest_resemblance(&self) -> f64 {
        let (c, r) = (self.containment, self.min_ratio);
        let lowest = c * r / (1.0 + r - c * r);
        if lowest.is_finite() { self.resemblance.min(lowest) } else { self.resemblance }
    }

    /// Whether a pair with estimated resemblance `resemblance` and `a`, `b` distinct shingles
    /// is a replica; a count of 0 (unknown) leaves the resemblance alone to decide.
    pub fn accepts(&self, resemblance: f64, a: u32, b: u32) -> bool {
        if resemblance >= self.resemblance {
            return true;
        }
        let (small, large) = (f64::from(a.min(b)), f64::from(a.max(b)));
        if small == 0.0 || resemblance <= 0.0 {
            return false;
        }
        let containment = (resemblance * (small + large) / ((1.0 + resemblance) * small)).min(1.0);
        containment >= self.containment && small / large >= self.min_ratio
    }
}

/// The MinHash detector's decision: one [`PairRule`] for two pages of one site, another for
/// pages of different sites.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearRule {
    pub same_site: PairRule,
    pub cross_site: PairRule,
}

impl NearRule {
    pub fn new(config: &ReplicaConfig) -> NearRule {
        NearRule {
            same_site: PairRule {
                resemblance: config.minhash_threshold,
                containment: config.containment_threshold,
                min_ratio: config.containment_min_ratio,
            },
            cross_site: PairRule {
                resemblance: config.cross_site_minhash_threshold,
                containment: config.cross_site_containment_threshold,
                min_ratio: config.cross_site_containment_min_ratio,
            },
        }
    }

    /// The threshold the LSH index looks candidates up at: the lowest resemblance either
    /// rule accepts.
    pub fn candidate_threshold(&self) -> f64 {
        self.same_site.lowest_resemblance().min(self.cross_site.lowest_resemblance())
    }

    pub fn accepts(&self, same_site: bool, resemblance: f64, a: u32, b: u32) -> bool {
        if same_site { &self.same_site } else { &self.cross_site }.accepts(resemblance, a, b)
    }
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
                NearSignature::MinHash {
                    values: self.minhasher.create_signature(shingles(terms, self.shingle)),
                    shingles: distinct_shingles(terms, self.shingle),
                }
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

/// The number of distinct shingles (by a 64-bit hash of each), saturating at `u32::MAX`.
fn distinct_shingles(terms: &[String], k: usize) -> u32 {
    let hasher = fnv::FnvBuildHasher::default();
    let distinct: HashSet<u64> = shingles(terms, k)
        .map(|shingle| {
            let mut state = hasher.build_hasher();
            shingle.hash(&mut state);
            std::hash::Hasher::finish(&state)
        })
        .collect();
    u32::try_from(distinct.len()).unwrap_or(u32::MAX)
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
        let (NearSignature::MinHash { values: a, .. }, NearSignature::MinHash { values: b, .. }) =
            (signer.sign(&words(&base), &HashMap::new()), signer.sign(&words(&edited), &HashMap::new()))
        else {
            panic!("no signature")
        };
        let agree = a.iter().zip(&b).filter(|(x, y)| x == y).count() as f64 / a.len() as f64;
        assert!(agree > 0.9, "{agree}");
        let other: String = (0..300).map(|i| format!("v{i} ")).collect();
        let NearSignature::MinHash { values: c, .. } = signer.sign(&words(&other), &HashMap::new()) else { panic!() };
        assert!(a.iter().zip(&c).filter(|(x, y)| x == y).count() < 5);
    }

    #[test]
    fn distinct_shingles_count_repeated_text_once() {
        assert_eq!(distinct_shingles(&words("a b c a b c a b c"), 3), 3);
        assert_eq!(distinct_shingles(&words("a b"), 3), 1);
    }

    #[test]
    fn the_rule_accepts_contained_copies_of_similar_size_only() {
        let rule = PairRule { resemblance: 0.85, containment: 0.8, min_ratio: 0.5 };
        // A copy with a box of a tenth of its size added: J = 100 / 110.
        assert!(rule.accepts(100.0 / 110.0, 100, 110));
        // A story cut to 60%: J 0.6, C 1.0, ratio 0.6.
        assert!(rule.accepts(0.6, 60, 100));
        // A teaser of 20 shingles inside a page of 100: C 1.0 but ratio 0.2.
        assert!(!rule.accepts(0.2, 20, 100));
        // Two pages of one size sharing half their shingles: J 1/3, C 0.5.
        assert!(!rule.accepts(1.0 / 3.0, 100, 100));
        // Unknown sizes: the resemblance alone.
        assert!(!rule.accepts(0.6, 0, 100) && rule.accepts(0.9, 0, 0));
        // The lowest resemblance it accepts: C 0.8 at ratio 0.5, J = 0.4 / 1.1.
        assert!((rule.lowest_resemblance() - 0.4 / 1.1).abs() < 1e-12);
        assert!(rule.accepts(0.4 / 1.1 + 1e-9, 50, 100));
        let off = PairRule { resemblance: 0.85, containment: 1.0, min_ratio: 1.0 };
        assert_eq!(off.lowest_resemblance(), 0.85);
        let near = NearRule { same_site: off, cross_site: rule };
        assert_eq!(near.candidate_threshold(), rule.lowest_resemblance());
        assert!(near.accepts(false, 0.6, 60, 100) && !near.accepts(true, 0.6, 60, 100));
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
