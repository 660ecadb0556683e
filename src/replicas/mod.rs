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

use crate::clean::site_of;
use crate::config::ReplicaConfig;

pub use fingerprint::{Fingerprint, exact_fingerprint, keyword_fingerprint, to_hex};
pub use signature::{DetectorKind, NearRule, NearSignature, PairRule, Signer, shingles};
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
    /// The index (at the rule's candidate threshold), the signature length it takes (gaoya's
    /// bands × band width, which for some thresholds is a little under the hashes signed: 126
    /// of 128 at 0.55; its index asserts the length, so signatures are cut to it), the pair
    /// decision, and each kept page's number of distinct shingles and site.
    MinHash {
        index: Box<MinHashIndex<u32, u32, BandBucket>>,
        len: usize,
        rule: NearRule,
        shingles: Vec<u32>,
        sites: Sites,
    },
    SimHash {
        index: Box<SimHashIndex<u64, u32>>,
    },
    Off,
}

/// The site (host) of each kept page, as a small number per distinct site.
#[derive(Default)]
struct Sites {
    ids: HashMap<String, u32>,
    of_page: Vec<u32>,
}

impl Sites {
    /// The site of `url`, if any page of it was kept.
    fn find(&self, url: &str) -> Option<u32> {
        self.ids.get(&site_of(url)).copied()
    }

    fn push(&mut self, ordinal: u32, url: &str) {
        let next = self.ids.len() as u32;
        let id = *self.ids.entry(site_of(url)).or_insert(next);
        self.of_page.resize(ordinal as usize, u32::MAX);
        self.of_page.push(id);
    }
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
                let rule = NearRule::new(config);
                let threshold = rule.candidate_threshold();
                let (bands, width) = calculate_minhash_params(threshold, config.minhash_hashes);
                NearIndex::MinHash {
                    index: Box::new(MinHashIndex::new_index(bands, width, threshold)),
                    len: bands * width,
                    rule,
                    shingles: Vec::new(),
                    sites: Sites::default(),
                }
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
            // The most similar kept page the rule accepts, ties to the earliest: gaoya's own
            // `query_one` breaks ties by hash-set order, which varies between runs.
            (
                NearIndex::MinHash { index, len, rule, shingles, sites },
                NearSignature::MinHash { values, shingles: count },
            ) => {
                let site = sites.find(url);
                index
                    .query_owned_return_similarity(&values[..(*len).min(values.len())])
                    .into_iter()
                    .filter(|&(id, resemblance)| {
                        let same_site = site == Some(sites.of_page[id as usize]);
                        rule.accepts(same_site, resemblance, shingles[id as usize], *count)
                    })
                    .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
                    .map(|(id, _)| id)
            }
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
            (
                NearIndex::MinHash { index, len, shingles, sites, .. },
                NearSignature::MinHash { values, shingles: count },
            ) => {
                index.insert(ordinal, values[..(*len).min(values.len())].to_vec());
                shingles.resize(ordinal as usize, 0);
                shingles.push(*count);
                sites.push(ordinal, url);
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
    fn pages_of_two_sites_need_less_resemblance_than_pages_of_one() {
        let config =
            ReplicaConfig { minhash_threshold: 0.85, cross_site_minhash_threshold: 0.4, ..ReplicaConfig::default() };
        let signer = Signer::new(DetectorKind::MinHash, &config);
        let sign = |terms: &[String]| PageFingerprints { exact: None, near: signer.sign(terms, &HashMap::new()) };
        // The article, and a copy with as much text again added (a credit box, a comment
        // thread): resemblance about 0.5.
        let article = words(300, "w");
        let mut copy = article.clone();
        copy.extend(words(300, "extra"));
        let mut d = ReplicaDetector::new(DetectorKind::MinHash, &config);
        assert_eq!(d.check("https://a.example/story", &sign(&article)), Verdict::Unique);
        assert_eq!(d.check("https://a.example/story?page=all", &sign(&copy)), Verdict::Unique);
        assert_eq!(
            d.check("https://b.example/reprint", &sign(&copy)),
            Verdict::Replica { kept_url: "https://a.example/story?page=all".into(), kind: ReplicaKind::Near }
        );
        let mut d = ReplicaDetector::new(DetectorKind::MinHash, &config);
        assert_eq!(d.check("https://a.example/story", &sign(&article)), Verdict::Unique);
        assert_eq!(
            d.check("https://b.example/reprint", &sign(&copy)),
            Verdict::Replica { kept_url: "https://a.example/story".into(), kind: ReplicaKind::Near }
        );
    }

    #[test]
    fn containment_finds_a_trimmed_copy_and_the_size_ratio_keeps_a_teaser_out() {
        let config = ReplicaConfig {
            minhash_threshold: 0.85,
            containment_threshold: 0.9,
            containment_min_ratio: 0.5,
            ..ReplicaConfig::default()
        };
        let signer = Signer::new(DetectorKind::MinHash, &config);
        let sign = |terms: &[String]| PageFingerprints { exact: None, near: signer.sign(terms, &HashMap::new()) };
        let article = words(400, "w");
        let mut d = ReplicaDetector::new(DetectorKind::MinHash, &config);
        assert_eq!(d.check("https://a.example/story", &sign(&article)), Verdict::Unique);
        // Cut to its first 60%: resemblance 0.6, containment 1.
        assert_eq!(
            d.check("https://a.example/story-short", &sign(&article[..240])),
            Verdict::Replica { kept_url: "https://a.example/story".into(), kind: ReplicaKind::Near }
        );
        // Its first fifth as a teaser: contained, but a fifth of the size.
        assert_eq!(d.check("https://a.example/teaser", &sign(&article[..80])), Verdict::Unique);
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
