//! What the replica detector knows, saved with every build, so that `indexer build --append`
//! checks new pages against the pages already indexed.
//!
//! - `signatures.bin`: a header line (`indexer-signatures 1 ` and the `[replicas]` settings as
//!   JSON), then one binary record per kept page, in the order the pages were kept: the URL,
//!   the exact-copy fingerprint, the near-replica signature. Little-endian, lengths as `u32`.
//!   About 560 bytes a page with MinHash's 128 hashes (and the page's count of distinct
//!   shingles, for the containment rule), 50 with the keyword fingerprint.
//! - `seen-urls.bin`: the 16-byte MD5 of every URL read, for the duplicate-URL check.
//!
//! Both files are only ever appended to: an append copies them into its staging build first.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use md5::{Digest, Md5};
use serde::{Deserialize, Serialize};

use super::{DetectorKind, Fingerprint, NearSignature, PageFingerprints, ReplicaDetector};
use crate::config::ReplicaConfig;

/// The signatures of a build's kept pages.
pub const SIGNATURES_FILE: &str = "signatures.bin";
/// The MD5 digests of every URL a build read.
pub const SEEN_URLS_FILE: &str = "seen-urls.bin";

const MAGIC: &str = "indexer-signatures";
const FORMAT: u32 = 1;
/// Bounds that no real record reaches, so a corrupt length cannot ask for gigabytes.
const MAX_URL_BYTES: u32 = 1 << 20;
const MAX_MINHASH_VALUES: u32 = 1 << 16;

const NEAR_NONE: u8 = 0;
const NEAR_KEYWORD: u8 = 1;
const NEAR_MINHASH: u8 = 2;
const NEAR_SIMHASH: u8 = 3;
/// MinHash values with the page's count of distinct shingles; kind 2 (values alone) is still
/// read, as a count of 0 (unknown).
const NEAR_MINHASH_COUNTED: u8 = 4;

/// The saved detector state cannot be written or used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: {message}; rebuild without --append")]
    Corrupt { path: String, message: String },
    #[error(
        "{path}: the build was made with other replica settings ({built}); append with the same [replicas] settings (see the build's config.toml), or rebuild without --append"
    )]
    Settings { path: String, built: String },
}

#[derive(Serialize, Deserialize)]
struct Header {
    replicas: ReplicaConfig,
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io { path: path.display().to_string(), source }
}

/// Appends kept pages to `signatures.bin`.
pub struct SignatureWriter {
    out: BufWriter<File>,
    path: PathBuf,
}

impl SignatureWriter {
    /// A new file for signatures made with `config`.
    pub fn create(path: &Path, config: &ReplicaConfig) -> Result<SignatureWriter, StoreError> {
        let file = File::create(path).map_err(io_error(path))?;
        let mut out = BufWriter::new(file);
        let header = serde_json::to_string(&Header { replicas: config.clone() })
            .map_err(|e| StoreError::Io { path: path.display().to_string(), source: e.into() })?;
        writeln!(out, "{MAGIC} {FORMAT} {header}").map_err(io_error(path))?;
        Ok(SignatureWriter { out, path: path.to_path_buf() })
    }

    /// An existing file (checked by [`load_detector`] first), to add pages at its end.
    pub fn append(path: &Path) -> Result<SignatureWriter, StoreError> {
        let file = OpenOptions::new().append(true).open(path).map_err(io_error(path))?;
        Ok(SignatureWriter { out: BufWriter::new(file), path: path.to_path_buf() })
    }

    /// Records a kept page.
    pub fn write(&mut self, url: &str, fingerprints: &PageFingerprints) -> Result<(), StoreError> {
        let mut record = Vec::with_capacity(64 + url.len());
        record.extend_from_slice(&(url.len() as u32).to_le_bytes());
        record.extend_from_slice(url.as_bytes());
        match &fingerprints.exact {
            Some(f) => {
                record.push(1);
                record.extend_from_slice(f);
            }
            None => record.push(0),
        }
        match &fingerprints.near {
            NearSignature::None => record.push(NEAR_NONE),
            NearSignature::Keyword(f) => {
                record.push(NEAR_KEYWORD);
                record.extend_from_slice(f);
            }
            NearSignature::MinHash { values, shingles } => {
                record.push(NEAR_MINHASH_COUNTED);
                record.extend_from_slice(&shingles.to_le_bytes());
                record.extend_from_slice(&(values.len() as u32).to_le_bytes());
                for v in values {
                    record.extend_from_slice(&v.to_le_bytes());
                }
            }
            NearSignature::SimHash(v) => {
                record.push(NEAR_SIMHASH);
                record.extend_from_slice(&v.to_le_bytes());
            }
        }
        self.out.write_all(&record).map_err(io_error(&self.path))
    }

    /// Writes out what is buffered.
    pub fn finish(mut self) -> Result<(), StoreError> {
        self.out.flush().map_err(io_error(&self.path))
    }
}

/// Checks that the signatures in `path` were made with `config`, before anything is copied.
pub fn check_settings(path: &Path, config: &ReplicaConfig) -> Result<(), StoreError> {
    let file = File::open(path).map_err(io_error(path))?;
    read_header(&mut BufReader::new(file), path, config)
}

/// Reads the header line and compares its settings with `config`.
fn read_header(input: &mut impl BufRead, path: &Path, config: &ReplicaConfig) -> Result<(), StoreError> {
    let mut header = String::new();
    input.read_line(&mut header).map_err(io_error(path))?;
    let built = header
        .strip_prefix(MAGIC)
        .and_then(|rest| rest.trim().strip_prefix(&format!("{FORMAT} ")))
        .and_then(|json| serde_json::from_str::<Header>(json).ok())
        .ok_or_else(|| StoreError::Corrupt {
            path: path.display().to_string(),
            message: format!("not a signature file of format {FORMAT}"),
        })?;
    if built.replicas != *config {
        return Err(StoreError::Settings {
            path: path.display().to_string(),
            built: format!("detector {}", built.replicas.detector),
        });
    }
    Ok(())
}

/// A detector that knows every page of `signatures.bin`, for new pages signed with `config`.
pub fn load_detector(path: &Path, kind: DetectorKind, config: &ReplicaConfig) -> Result<ReplicaDetector, StoreError> {
    let file = File::open(path).map_err(io_error(path))?;
    let mut input = BufReader::new(file);
    let corrupt = |message: String| StoreError::Corrupt { path: path.display().to_string(), message };
    read_header(&mut input, path, config)?;
    let mut detector = ReplicaDetector::new(kind, config);
    let mut record = 0usize;
    while let Some(url_len) = read_u32_or_end(&mut input).map_err(io_error(path))? {
        record += 1;
        let truncated = |_| corrupt(format!("record {record} is truncated"));
        if url_len > MAX_URL_BYTES {
            return Err(corrupt(format!("record {record} has a URL of {url_len} bytes")));
        }
        let mut url = vec![0u8; url_len as usize];
        input.read_exact(&mut url).map_err(truncated)?;
        let url = String::from_utf8(url).map_err(|_| corrupt(format!("record {record}: the URL is not UTF-8")))?;
        let exact = match read_byte(&mut input).map_err(truncated)? {
            0 => None,
            _ => Some(read_fingerprint(&mut input).map_err(truncated)?),
        };
        let near = match read_byte(&mut input).map_err(truncated)? {
            NEAR_NONE => NearSignature::None,
            NEAR_KEYWORD => NearSignature::Keyword(read_fingerprint(&mut input).map_err(truncated)?),
            kind @ (NEAR_MINHASH | NEAR_MINHASH_COUNTED) => {
                let shingles = if kind == NEAR_MINHASH_COUNTED { read_u32(&mut input).map_err(truncated)? } else { 0 };
                let n = read_u32(&mut input).map_err(truncated)?;
                if n > MAX_MINHASH_VALUES {
                    return Err(corrupt(format!("record {record} has {n} MinHash values")));
                }
                let values = (0..n).map(|_| read_u32(&mut input)).collect::<Result<Vec<_>, _>>().map_err(truncated)?;
                NearSignature::MinHash { values, shingles }
            }
            NEAR_SIMHASH => {
                let mut bytes = [0u8; 8];
                input.read_exact(&mut bytes).map_err(truncated)?;
                NearSignature::SimHash(u64::from_le_bytes(bytes))
            }
            other => return Err(corrupt(format!("record {record} has an unknown signature kind {other}"))),
        };
        detector.keep(&url, &PageFingerprints { exact, near });
    }
    Ok(detector)
}

fn read_byte(input: &mut impl Read) -> std::io::Result<u8> {
    let mut byte = [0u8; 1];
    input.read_exact(&mut byte)?;
    Ok(byte[0])
}

fn read_u32(input: &mut impl Read) -> std::io::Result<u32> {
    let mut bytes = [0u8; 4];
    input.read_exact(&mut bytes)?;
    Ok(u32::from_le_bytes(bytes))
}

fn read_fingerprint(input: &mut impl Read) -> std::io::Result<Fingerprint> {
    let mut f = [0u8; 16];
    input.read_exact(&mut f)?;
    Ok(f)
}

/// The next `u32`, or `None` at the very end of the file (a clean end between records).
fn read_u32_or_end(input: &mut impl BufRead) -> std::io::Result<Option<u32>> {
    if input.fill_buf()?.is_empty() {
        return Ok(None);
    }
    match read_u32(input) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => {
            Err(std::io::Error::new(ErrorKind::InvalidData, "the file ends inside a record"))
        }
        Err(e) => Err(e),
    }
}

/// Every URL read so far (as MD5 digests), saved as it grows.
pub struct SeenUrls {
    digests: HashSet<Fingerprint>,
    out: BufWriter<File>,
    path: PathBuf,
}

impl SeenUrls {
    /// An empty set, saved to a new file at `path`.
    pub fn create(path: &Path) -> Result<SeenUrls, StoreError> {
        let file = File::create(path).map_err(io_error(path))?;
        Ok(SeenUrls { digests: HashSet::new(), out: BufWriter::new(file), path: path.to_path_buf() })
    }

    /// The set saved at `path`, to be extended.
    pub fn open(path: &Path) -> Result<SeenUrls, StoreError> {
        let bytes = std::fs::read(path).map_err(io_error(path))?;
        if bytes.len() % 16 != 0 {
            return Err(StoreError::Corrupt {
                path: path.display().to_string(),
                message: format!("{} bytes is not a whole number of 16-byte digests", bytes.len()),
            });
        }
        let digests = bytes.chunks_exact(16).filter_map(|chunk| Fingerprint::try_from(chunk).ok()).collect();
        let file = OpenOptions::new().append(true).open(path).map_err(io_error(path))?;
        Ok(SeenUrls { digests, out: BufWriter::new(file), path: path.to_path_buf() })
    }

    /// Adds a URL; `false` if it was seen before.
    pub fn insert(&mut self, url: &str) -> Result<bool, StoreError> {
        let digest: Fingerprint = Md5::digest(url.as_bytes()).into();
        if !self.digests.insert(digest) {
            return Ok(false);
        }
        self.out.write_all(&digest).map_err(io_error(&self.path))?;
        Ok(true)
    }

    /// Writes out what is buffered.
    pub fn finish(mut self) -> Result<(), StoreError> {
        self.out.flush().map_err(io_error(&self.path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replicas::{ReplicaKind, Signer, Verdict};
    use std::collections::HashMap;

    fn words(prefix: &str) -> Vec<String> {
        (0..200).map(|i| format!("{prefix}{i}")).collect()
    }

    #[test]
    fn a_reloaded_detector_finds_replicas_of_saved_pages() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SIGNATURES_FILE);
        for kind in [DetectorKind::MinHash, DetectorKind::DocView, DetectorKind::SimHash, DetectorKind::Off] {
            let config = ReplicaConfig { detector: kind, ..ReplicaConfig::default() };
            let signer = Signer::new(kind, &config);
            let page = |exact: u8, prefix: &str| {
                let terms = words(prefix);
                let tf: HashMap<String, u32> =
                    terms.iter().enumerate().map(|(i, w)| (w.clone(), i as u32 % 7 + 1)).collect();
                PageFingerprints { exact: Some([exact; 16]), near: signer.sign(&terms, &tf) }
            };
            let mut writer = SignatureWriter::create(&path, &config).unwrap();
            writer.write("https://a.example/", &page(1, "w")).unwrap();
            writer.write("https://b.example/", &PageFingerprints::default()).unwrap();
            writer.finish().unwrap();
            let mut writer = SignatureWriter::append(&path).unwrap();
            writer.write("https://c.example/", &page(3, "v")).unwrap();
            writer.finish().unwrap();

            let mut detector = load_detector(&path, kind, &config).unwrap();
            assert_eq!(detector.kept(), 3, "{kind:?}");
            assert_eq!(
                detector.check("https://copy.example/", &page(3, "x")),
                Verdict::Replica { kept_url: "https://c.example/".into(), kind: ReplicaKind::Exact },
                "{kind:?}"
            );
            let near = detector.check("https://near.example/", &page(9, "w"));
            let expected = match kind {
                DetectorKind::Off => Verdict::Unique,
                _ => Verdict::Replica { kept_url: "https://a.example/".into(), kind: ReplicaKind::Near },
            };
            assert_eq!(near, expected, "{kind:?}");
        }
    }

    #[test]
    fn other_settings_and_damaged_files_are_refused_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SIGNATURES_FILE);
        let config = ReplicaConfig::default();
        let mut writer = SignatureWriter::create(&path, &config).unwrap();
        writer
            .write(
                "https://a.example/",
                &PageFingerprints {
                    exact: Some([1; 16]),
                    near: NearSignature::MinHash { values: vec![7; 128], shingles: 200 },
                },
            )
            .unwrap();
        writer.finish().unwrap();

        let mut other = config.clone();
        other.minhash_threshold = 0.5;
        assert!(matches!(load_detector(&path, DetectorKind::MinHash, &other), Err(StoreError::Settings { .. })));

        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
        let error = load_detector(&path, DetectorKind::MinHash, &config).err().unwrap();
        assert!(error.to_string().contains("record 1 is truncated"), "{error}");
        std::fs::write(&path, b"something else\n").unwrap();
        assert!(matches!(load_detector(&path, DetectorKind::MinHash, &config), Err(StoreError::Corrupt { .. })));
    }

    #[test]
    fn seen_urls_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SEEN_URLS_FILE);
        let mut seen = SeenUrls::create(&path).unwrap();
        assert!(seen.insert("https://a.example/").unwrap());
        assert!(!seen.insert("https://a.example/").unwrap());
        seen.finish().unwrap();
        let mut seen = SeenUrls::open(&path).unwrap();
        assert!(!seen.insert("https://a.example/").unwrap());
        assert!(seen.insert("https://b.example/").unwrap());
        seen.finish().unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 32);
        std::fs::write(&path, [0u8; 17]).unwrap();
        assert!(matches!(SeenUrls::open(&path), Err(StoreError::Corrupt { .. })));
    }
}
