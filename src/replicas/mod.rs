//! Replica removal (§5): exact copies by a hash of the cleaned text, near replicas by a
//! signature of the topic content — the paper's keyword MD5 fingerprint, or MinHash or
//! SimHash over word shingles ([`Signer`]).
//!
//! Detection streams over the pages in input order and keeps the first page of each group:
//! each page is looked up among the pages kept so far, and kept if nothing matches. Lookups
//! are near-linear: a hash join on the 16-byte fingerprints (the paper sorts them; a hash map
//! gives the same groups in one pass), LSH bands for MinHash, block permutations for SimHash;
//! never all pairs. Memory holds signatures and one URL per kept page, never pages.

mod fingerprint;
mod signature;
mod store;

use std::collections::HashMap;

use gaoya::minhash::{MinHashIndex, SmallVecContainer, calculate_minhash_params};
use gaoya::simhash::SimHashIndex;
use serde::Serialize;

use crate::config::ReplicaConfig;

pub use fingerprint::{Fingerprint, exact_fingerprint, keyword_fingerprint, to_hex};
pub use signature::{DetectorKind, NearSignature, Signer, shingles};
pub use store::{
    SEEN_URLS_FILE, SIGNATURES_FILE, SeenUrls, SignatureWriter, StoreError, check_settings, load_detector,
};

/// How a removed page relates to the kept one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReplicaKind {
    Exact,
    Near,
}

impl ReplicaKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ReplicaKind::Exact => "exact",
            ReplicaKind::Near => "near",
        }
    }
}

/// The detector's answer for one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// First of its group: index it.
    Unique,
    /// A replica of the page with this URL: drop it.
    Replica { kept_url: String, kind: ReplicaKind },
}

/// The signatures of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageFingerprints {
    /// `None` for a page without text.
    pub exact: Option<Fingerprint>,
    pub near: NearSignature,
}

/// The kept pages of one LSH bucket of one MinHash band: most buckets hold a single page.
/// gaoya's default container is a `HashSet` per bucket, which costs a heap allocation per page
/// and band (16 bands with the default settings) and serves removals, which the detector
/// never makes. A small vector holds up to 4 pages inline, in the bucket's table slot.
type BandBucket = SmallVecContainer<u32, 4>;

/// Where near signatures are looked up.
enum NearIndex {
    Keyword(HashMap<Fingerprint, u32>),
    /// The index and the signature length it takes: gaoya's bands × band width, which for
    /// some thresholds is a little under the hashes signed (126 of 128 at 0.55); its index
    /// asserts the length, so signatures are cut to it.
    MinHash(Box<MinHashIndex<u32, u32, BandBucket>>, usize),
    SimHash {
        index: Box<SimHashIndex<u64, u32>>,
    },
    Off,
}

/// Streaming replica detection: feed pages in input order.
pub struct ReplicaDetector {
    exact: HashMap<Fingerprint, u32>,
    near: NearIndex,
    kept_urls: Vec<String>,
}

impl ReplicaDetector {
    /// A detector for signatures made by a [`Signer`] of `kind` with `config`.
    pub fn new(kind: DetectorKind, config: &ReplicaConfig) -> ReplicaDetector {
        let near = match kind {
            DetectorKind::DocView => NearIndex::Keyword(HashMap::new()),
            DetectorKind::MinHash => {
                let (bands, width) = calculate_minhash_params(config.minhash_threshold, config.minhash_hashes);
                NearIndex::MinHash(
                    Box::new(MinHashIndex::new_index(bands, width, config.minhash_threshold)),
                    bands * width,
                )
            }
            DetectorKind::SimHash => {
                // k + 2 blocks: pages within k bits share at least 2 whole blocks.
                let distance = config.simhash_max_distance;
                NearIndex::SimHash { index: Box::new(SimHashIndex::new(distance + 2, distance)) }
            }
            DetectorKind::Off => NearIndex::Off,
        };
        ReplicaDetector { exact: HashMap::new(), near, kept_urls: Vec::new() }
    }

    /// Checks a page against every page kept so far, and remembers it if it is kept.
    pub fn check(&mut self, url: &str, fingerprints: &PageFingerprints) -> Verdict {
        if let Some(&kept) = fingerprints.exact.and_then(|f| self.exact.get(&f)) {
            return self.replica_of(kept, ReplicaKind::Exact);
        }
        let near_match = match (&self.near, &fingerprints.near) {
            (NearIndex::Keyword(map), NearSignature::Keyword(f)) => map.get(f).copied(),
            // The most similar kept page, ties to the earliest: gaoya's own `query_one`
            // breaks ties by hash-set order, which varies between runs.
            (NearIndex::MinHash(index, len), NearSignature::MinHash(signature)) => index
                .query_owned_return_similarity(&signature[..(*len).min(signature.len())])
                .into_iter()
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
                .map(|(id, _)| id),
            (NearIndex::SimHash { index }, NearSignature::SimHash(signature)) => index
                .query_return_distance(signature)
                .into_iter()
                .min_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))
                .map(|(id, _)| id),
            _ => None,
        };
        if let Some(kept) = near_match {
            return self.replica_of(kept, ReplicaKind::Near);
        }
        self.keep(url, fingerprints);
        Verdict::Unique
    }

    /// Remembers a kept page without checking it: how the pages of an earlier build are
    /// loaded (`indexer build --append`), in the order they were kept.
    pub fn keep(&mut self, url: &str, fingerprints: &PageFingerprints) {
        let ordinal = self.kept_urls.len() as u32;
        self.kept_urls.push(url.to_string());
        if let Some(f) = fingerprints.exact {
            self.exact.insert(f, ordinal);
        }
        match (&mut self.near, &fingerprints.near) {
            (NearIndex::Keyword(map), NearSignature::Keyword(f)) => {
                map.insert(*f, ordinal);
            }
            (NearIndex::MinHash(index, len), NearSignature::MinHash(signature)) => {
                index.insert(ordinal, signature[..(*len).min(signature.len())].to_vec())
            }
            (NearIndex::SimHash { index }, NearSignature::SimHash(signature)) => index.insert(ordinal, *signature),
            _ => {}
        }
    }

    /// Pages kept so far.
    pub fn kept(&self) -> usize {
        self.kept_urls.len()
    }

    fn replica_of(&self, kept: u32, kind: ReplicaKind) -> Verdict {
        Verdict::Replica { kept_url: self.kept_urls[kept as usize].clone(), kind }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(byte: u8) -> Option<Fingerprint> {
        Some([byte; 16])
    }

    fn keyword(exact: u8, near: u8) -> PageFingerprints {
        PageFingerprints { exact: fp(exact), near: NearSignature::Keyword([near; 16]) }
    }

    #[test]
    fn first_page_of_a_group_is_kept() {
        let mut d = ReplicaDetector::new(DetectorKind::DocView, &ReplicaConfig::default());
        assert_eq!(d.check("a", &keyword(1, 9)), Verdict::Unique);
        assert_eq!(d.check("b", &keyword(2, 8)), Verdict::Unique);
        assert_eq!(d.check("c", &keyword(1, 7)), Verdict::Replica { kept_url: "a".into(), kind: ReplicaKind::Exact });
        assert_eq!(d.check("d", &keyword(3, 8)), Verdict::Replica { kept_url: "b".into(), kind: ReplicaKind::Near });
    }

    #[test]
    fn pages_without_fingerprints_are_never_replicas() {
        let mut d = ReplicaDetector::new(DetectorKind::DocView, &ReplicaConfig::default());
        assert_eq!(d.check("a", &PageFingerprints::default()), Verdict::Unique);
        assert_eq!(d.check("b", &PageFingerprints::default()), Verdict::Unique);
    }

    fn words(n: usize, prefix: &str) -> Vec<String> {
        (0..n).map(|i| format!("{prefix}{i}")).collect()
    }

    #[test]
    fn every_minhash_threshold_makes_a_working_index() {
        for step in 1..20 {
            let config = ReplicaConfig { minhash_threshold: step as f64 * 0.05, ..ReplicaConfig::default() };
            let signer = Signer::new(DetectorKind::MinHash, &config);
            let mut d = ReplicaDetector::new(DetectorKind::MinHash, &config);
            let base = words(200, "w");
            let sign = |terms: &[String]| PageFingerprints { exact: None, near: signer.sign(terms, &HashMap::new()) };
            assert_eq!(d.check("base", &sign(&base)), Verdict::Unique);
            assert_eq!(
                d.check("copy", &sign(&base)),
                Verdict::Replica { kept_url: "base".into(), kind: ReplicaKind::Near },
                "threshold {}",
                config.minhash_threshold
            );
        }
    }

    #[test]
    fn minhash_and_simhash_find_copies_and_nothing_else() {
        for kind in [DetectorKind::MinHash, DetectorKind::SimHash] {
            let config = ReplicaConfig::default();
            let signer = Signer::new(kind, &config);
            let mut d = ReplicaDetector::new(kind, &config);
            let base = words(400, "w");
            // MinHash tolerates an edit; SimHash over unweighted shingles flips many bits for
            // one changed word (its lower hit rate in eval/reports/replicas), so it gets the
            // same text, as a re-templated copy has.
            let mut copy = base.clone();
            if kind == DetectorKind::MinHash {
                copy[200] = "changed".into();
            }
            let other = words(400, "v");
            let sign = |terms: &[String]| PageFingerprints { exact: None, near: signer.sign(terms, &HashMap::new()) };
            assert_eq!(d.check("base", &sign(&base)), Verdict::Unique, "{kind:?}");
            assert_eq!(d.check("other", &sign(&other)), Verdict::Unique, "{kind:?}");
            assert_eq!(
                d.check("copy", &sign(&copy)),
                Verdict::Replica { kept_url: "base".into(), kind: ReplicaKind::Near },
                "{kind:?}"
            );
        }
    }
}
