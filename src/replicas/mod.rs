//! Replica removal (§5): exact copies by a hash of the cleaned text, near replicas by the
//! keyword MD5 fingerprint over the topic content.
//!
//! Detection is a hash join on 16-byte fingerprints (the paper sorts them; a hash map gives
//! the same groups in one streaming pass): O(n) time, 16 bytes plus the kept URL per group in
//! memory, never pages. The first page of a group, in input order, is kept.

mod fingerprint;

use std::collections::HashMap;

use serde::Serialize;

pub use fingerprint::{Fingerprint, exact_fingerprint, keyword_fingerprint, to_hex};

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

/// The fingerprints of one page. `None` where the page has too little content to compare.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageFingerprints {
    pub exact: Option<Fingerprint>,
    pub near: Option<Fingerprint>,
}

/// Streaming replica detection: feed pages in input order.
#[derive(Debug, Default)]
pub struct ReplicaDetector {
    exact: HashMap<Fingerprint, u32>,
    near: HashMap<Fingerprint, u32>,
    kept_urls: Vec<String>,
}

impl ReplicaDetector {
    pub fn new() -> ReplicaDetector {
        ReplicaDetector::default()
    }

    /// Checks a page against every page kept so far, and remembers it if it is kept.
    pub fn check(&mut self, url: &str, fingerprints: PageFingerprints) -> Verdict {
        if let Some(&kept) = fingerprints.exact.and_then(|f| self.exact.get(&f)) {
            return self.replica_of(kept, ReplicaKind::Exact);
        }
        if let Some(&kept) = fingerprints.near.and_then(|f| self.near.get(&f)) {
            return self.replica_of(kept, ReplicaKind::Near);
        }
        let ordinal = self.kept_urls.len() as u32;
        self.kept_urls.push(url.to_string());
        if let Some(f) = fingerprints.exact {
            self.exact.insert(f, ordinal);
        }
        if let Some(f) = fingerprints.near {
            self.near.insert(f, ordinal);
        }
        Verdict::Unique
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

    #[test]
    fn first_page_of_a_group_is_kept() {
        let mut d = ReplicaDetector::new();
        assert_eq!(d.check("a", PageFingerprints { exact: fp(1), near: fp(9) }), Verdict::Unique);
        assert_eq!(d.check("b", PageFingerprints { exact: fp(2), near: fp(8) }), Verdict::Unique);
        assert_eq!(
            d.check("c", PageFingerprints { exact: fp(1), near: fp(7) }),
            Verdict::Replica { kept_url: "a".into(), kind: ReplicaKind::Exact }
        );
        assert_eq!(
            d.check("d", PageFingerprints { exact: fp(3), near: fp(8) }),
            Verdict::Replica { kept_url: "b".into(), kind: ReplicaKind::Near }
        );
    }

    #[test]
    fn pages_without_fingerprints_are_never_replicas() {
        let mut d = ReplicaDetector::new();
        assert_eq!(d.check("a", PageFingerprints::default()), Verdict::Unique);
        assert_eq!(d.check("b", PageFingerprints::default()), Verdict::Unique);
    }
}
