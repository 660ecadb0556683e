//! What a shard build (`indexer build --shard`) hands to a global replica join.
//!
//! A shard build removes no replica: it keeps every page whose URL it had not read before and
//! writes each page's replica signatures to `signatures.jsonl`, one row a page, so that a job
//! joining every shard's rows (the Spark job in `spark/`) can decide which pages one build over
//! all the inputs would have removed, and remove them with `indexer replicas apply`.
//!
//! The join needs the order one build would have read the pages in: `shard.json` lists the
//! shard's inputs with the number of records each held, and the read settings that order
//! depends on (`input.batch_size`, `input.parallel_files`: see [`crate::pipeline::read_batches`]).
//! A row names its page by its input and its record number within that input.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use gaoya::minhash::calculate_minhash_params;
use md5::{Digest, Md5};
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::replicas::{DetectorKind, Fingerprint, NearRule, NearSignature, PageFingerprints, to_hex};

/// One row per page read and processed by a shard build.
pub const SHARD_SIGNATURES_FILE: &str = "signatures.jsonl";
/// The shard's inputs, their record counts, and the settings the join needs.
pub const SHARD_MANIFEST_FILE: &str = "shard.json";
/// The version of both files; a join refuses others.
pub const SHARD_FORMAT: u32 = 1;

/// The replica signatures of one page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRow {
    /// The input it came from: an index into [`ShardManifest::sources`].
    pub source: usize,
    /// Its record number within that input, from 0, counting skipped records too.
    pub record: usize,
    pub url: String,
    /// MD5 of the URL, hex: the duplicate-URL check's key.
    pub url_digest: String,
    /// The exact-copy fingerprint (title and topic content), hex; none without text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
    /// The keyword fingerprint of §5 (detector `docview`), hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// The MinHash signature (detector `minhash`): banded by the join as the build's LSH index
    /// bands it, and compared in full to the threshold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minhash: Option<Vec<u32>>,
    /// The page's number of distinct shingles, with `minhash`: the containment rule's sizes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shingles: Option<u32>,
    /// The shard had read this URL before: the page is not indexed, as in any build.
    pub duplicate_url: bool,
}

impl ShardRow {
    pub fn new(source: usize, record: usize, url: &str, fingerprints: &PageFingerprints, duplicate_url: bool) -> Self {
        let (keyword, minhash, shingles) = match &fingerprints.near {
            NearSignature::Keyword(f) => (Some(to_hex(f)), None, None),
            NearSignature::MinHash { values, shingles } => (None, Some(values.clone()), Some(*shingles)),
            NearSignature::SimHash(_) | NearSignature::None => (None, None, None),
        };
        let url_digest: Fingerprint = Md5::digest(url.as_bytes()).into();
        ShardRow {
            source,
            record,
            url: url.to_string(),
            url_digest: to_hex(&url_digest),
            exact: fingerprints.exact.as_ref().map(to_hex),
            keyword,
            minhash,
            shingles,
            duplicate_url,
        }
    }
}

/// One input of a shard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSource {
    pub path: String,
    /// Records read from it, pages and skipped records alike.
    pub records: usize,
}

/// `shard.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardManifest {
    pub format: u32,
    /// The near-replica detector the signatures are of: `minhash`, `docview` or `off`.
    pub detector: String,
    pub minhash_threshold: f64,
    /// The containment rule ([`crate::replicas::NearRule`]); a manifest without them (an
    /// older shard) leaves the resemblance alone to decide.
    #[serde(default = "no_containment")]
    pub containment_threshold: f64,
    #[serde(default = "no_containment")]
    pub containment_min_ratio: f64,
    /// The rule between pages of two sites (`replicas.cross_site_*`); an older shard has none,
    /// and its one rule holds across sites too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_site_minhash_threshold: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_site_containment_threshold: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_site_containment_min_ratio: Option<f64>,
    /// The LSH bands of the build's MinHash index (at the rule's candidate threshold), and the
    /// hashes in each.
    pub minhash_bands: usize,
    pub minhash_band_width: usize,
    pub batch_size: usize,
    pub parallel_files: usize,
    pub sources: Vec<ShardSource>,
}

fn no_containment() -> f64 {
    1.0
}

/// A detector a shard build cannot hand to the join: SimHash's lookup (block permutations)
/// has no row form here.
#[derive(Debug, thiserror::Error)]
#[error(
    "a shard build hands the minhash, docview or off detector's signatures to the join, not {detector}; set [replicas] detector to one of these"
)]
pub struct UnsupportedDetector {
    pub detector: String,
}

/// Checks that a shard build can be made with `config`.
pub fn check_shard_config(config: &Config) -> Result<(), UnsupportedDetector> {
    match config.replicas.detector {
        DetectorKind::MinHash | DetectorKind::DocView | DetectorKind::Off => Ok(()),
        DetectorKind::SimHash => Err(UnsupportedDetector { detector: config.replicas.detector.name().to_string() }),
    }
}

/// Writes `signatures.jsonl` as pages come, and `shard.json` at the end.
pub struct ShardWriter {
    rows: BufWriter<File>,
    rows_path: PathBuf,
    manifest: ShardManifest,
}

impl ShardWriter {
    /// Empty files in the staging build `staging`, for the inputs `sources` in order.
    pub fn create(staging: &Path, sources: &[PathBuf], config: &Config) -> std::io::Result<ShardWriter> {
        let rows_path = staging.join(SHARD_SIGNATURES_FILE);
        let rows = BufWriter::new(File::create(&rows_path)?);
        let rule = NearRule::new(&config.replicas);
        let (bands, width) = calculate_minhash_params(rule.candidate_threshold(), config.replicas.minhash_hashes);
        let manifest = ShardManifest {
            format: SHARD_FORMAT,
            detector: config.replicas.detector.name().to_string(),
            minhash_threshold: config.replicas.minhash_threshold,
            containment_threshold: config.replicas.containment_threshold,
            containment_min_ratio: config.replicas.containment_min_ratio,
            cross_site_minhash_threshold: Some(config.replicas.cross_site_minhash_threshold),
            cross_site_containment_threshold: Some(config.replicas.cross_site_containment_threshold),
            cross_site_containment_min_ratio: Some(config.replicas.cross_site_containment_min_ratio),
            minhash_bands: bands,
            minhash_band_width: width,
            batch_size: config.input.batch_size.max(1),
            parallel_files: config.input.parallel_files.max(1),
            sources: sources.iter().map(|p| ShardSource { path: p.display().to_string(), records: 0 }).collect(),
        };
        Ok(ShardWriter { rows, rows_path, manifest })
    }

    /// Counts a record of input `source`; returns its record number there.
    pub fn next_record(&mut self, source: usize) -> usize {
        match self.manifest.sources.get_mut(source) {
            Some(s) => {
                s.records += 1;
                s.records - 1
            }
            None => 0,
        }
    }

    pub fn write(&mut self, row: &ShardRow) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.rows, row)?;
        self.rows.write_all(b"\n")
    }

    /// Writes out the rows and `shard.json` beside them.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.rows.flush()?;
        let path = self.rows_path.with_file_name(SHARD_MANIFEST_FILE);
        let text = serde_json::to_string_pretty(&self.manifest)?;
        std::fs::write(path, text + "\n")
    }

    /// The path of the rows, for messages.
    pub fn path(&self) -> &Path {
        &self.rows_path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_carry_the_detectors_signature_and_records_are_counted_per_input() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::default();
        let mut writer =
            ShardWriter::create(dir.path(), &[PathBuf::from("a.warc"), PathBuf::from("b.warc")], &config).unwrap();
        assert_eq!((writer.next_record(1), writer.next_record(1), writer.next_record(0)), (0, 1, 0));
        let minhash = PageFingerprints {
            exact: Some([7; 16]),
            near: NearSignature::MinHash { values: vec![1, 2, 3], shingles: 40 },
        };
        let row = ShardRow::new(1, 1, "https://a.example/", &minhash, false);
        assert_eq!((row.minhash.as_deref(), row.shingles), (Some(&[1, 2, 3][..]), Some(40)));
        assert_eq!(row.exact.as_deref(), Some("07".repeat(16).as_str()));
        assert_eq!(row.url_digest.len(), 32);
        writer.write(&row).unwrap();
        let keyword = PageFingerprints { exact: None, near: NearSignature::Keyword([9; 16]) };
        writer.write(&ShardRow::new(0, 0, "https://b.example/", &keyword, true)).unwrap();
        writer.finish().unwrap();

        let text = std::fs::read_to_string(dir.path().join(SHARD_SIGNATURES_FILE)).unwrap();
        let rows: Vec<ShardRow> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows[0], row);
        assert_eq!((rows[1].keyword.as_deref(), rows[1].exact.as_deref()), (Some("09".repeat(16).as_str()), None));
        assert!(rows[1].duplicate_url);
        let manifest: ShardManifest =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(SHARD_MANIFEST_FILE)).unwrap()).unwrap();
        assert_eq!(manifest.sources.iter().map(|s| s.records).collect::<Vec<_>>(), [1, 2]);
        assert!(manifest.minhash_bands * manifest.minhash_band_width <= config.replicas.minhash_hashes);
        // The join elsewhere (spark/) applies the rule between two sites from the manifest.
        assert_eq!(manifest.cross_site_minhash_threshold, Some(config.replicas.cross_site_minhash_threshold));
        assert_eq!(manifest.batch_size, config.input.batch_size);
    }

    #[test]
    fn simhash_shards_are_refused_with_a_reason() {
        let mut config = Config::default();
        assert!(check_shard_config(&config).is_ok());
        config.replicas.detector = DetectorKind::SimHash;
        let error = check_shard_config(&config).unwrap_err();
        assert!(error.to_string().contains("not simhash"), "{error}");
    }
}
