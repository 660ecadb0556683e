//! The summary printed at the end of a build and written to `summary.json`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::input::SkipReason;

/// Replicas removed, by kind.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReplicaCounts {
    pub exact: usize,
    pub near: usize,
}

/// Non-fatal problems, by kind.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WarningCounts {
    pub depth_capped: usize,
}

/// What the last `indexer build --append` added; the other counts of its summary are of the
/// whole collection, earlier builds included.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AppendCounts {
    pub pages_read: usize,
    pub pages_indexed: usize,
    pub skipped: usize,
    pub replicas: ReplicaCounts,
    pub input_page_bytes: u64,
}

/// What a build did. After an append, the counts are of the whole collection (the published
/// build it added to, and the pages added), and `appended` says what the append added; the
/// time, speed and memory are of the last run.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildSummary {
    /// Records read: pages, and records that were skipped.
    pub pages_read: usize,
    pub pages_indexed: usize,
    pub skipped: BTreeMap<SkipReason, usize>,
    pub replicas: ReplicaCounts,
    pub page_types: BTreeMap<String, usize>,
    pub warnings: WarningCounts,
    pub learned_stop_words: usize,
    /// Bytes read from disk (compressed, for gzip inputs).
    pub input_bytes: u64,
    /// Bytes of the pages themselves (decompressed HTML).
    pub input_page_bytes: u64,
    pub abstract_index_bytes: u64,
    pub fulltext_index_bytes: u64,
    pub elapsed_seconds: f64,
    pub peak_rss_bytes: Option<u64>,
    pub threads: usize,
    /// The published build folder.
    pub output: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appended: Option<AppendCounts>,
}

impl BuildSummary {
    pub fn skipped_total(&self) -> usize {
        self.skipped.values().sum()
    }

    /// Records read per second by the last run.
    pub fn pages_per_second(&self) -> f64 {
        let read = self.appended.as_ref().map_or(self.pages_read, |a| a.pages_read);
        read as f64 / self.elapsed_seconds.max(1e-9)
    }

    /// Adds the counts of `earlier`, the build this one was appended to, and records this
    /// run's own counts in `appended`.
    pub fn add_earlier(&mut self, earlier: &BuildSummary) {
        self.appended = Some(AppendCounts {
            pages_read: self.pages_read,
            pages_indexed: self.pages_indexed,
            skipped: self.skipped_total(),
            replicas: self.replicas.clone(),
            input_page_bytes: self.input_page_bytes,
        });
        self.pages_read += earlier.pages_read;
        self.pages_indexed += earlier.pages_indexed;
        for (reason, n) in &earlier.skipped {
            *self.skipped.entry(*reason).or_default() += n;
        }
        self.replicas.exact += earlier.replicas.exact;
        self.replicas.near += earlier.replicas.near;
        for (page_type, n) in &earlier.page_types {
            *self.page_types.entry(page_type.clone()).or_default() += n;
        }
        self.warnings.depth_capped += earlier.warnings.depth_capped;
        self.input_bytes += earlier.input_bytes;
        self.input_page_bytes += earlier.input_page_bytes;
    }

    /// Abstract index size / full-text index size (the paper's Table 3 ratio).
    pub fn index_size_ratio(&self) -> f64 {
        self.abstract_index_bytes as f64 / (self.fulltext_index_bytes.max(1)) as f64
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

impl fmt::Display for BuildSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "pages read      {}", self.pages_read)?;
        writeln!(f, "pages indexed   {}", self.pages_indexed)?;
        let types: Vec<String> = self.page_types.iter().map(|(t, n)| format!("{t} {n}")).collect();
        if !types.is_empty() {
            writeln!(f, "  by type       {}", types.join(", "))?;
        }
        write!(f, "skipped         {}", self.skipped_total())?;
        let reasons: Vec<String> = self.skipped.iter().map(|(r, n)| format!("{r} {n}")).collect();
        if !reasons.is_empty() {
            write!(f, " ({})", reasons.join(", "))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "replicas        {} removed ({} exact, {} near)",
            self.replicas.exact + self.replicas.near,
            self.replicas.exact,
            self.replicas.near
        )?;
        if let Some(a) = &self.appended {
            writeln!(
                f,
                "appended        {} read, {} indexed, {} skipped, {} replicas ({} exact, {} near)",
                a.pages_read,
                a.pages_indexed,
                a.skipped,
                a.replicas.exact + a.replicas.near,
                a.replicas.exact,
                a.replicas.near
            )?;
        }
        if self.warnings.depth_capped > 0 {
            writeln!(f, "warnings        {} pages nested too deep (flattened)", self.warnings.depth_capped)?;
        }
        writeln!(
            f,
            "indexes         abstract {:.1} MiB, fulltext {:.1} MiB (ratio {:.3})",
            mib(self.abstract_index_bytes),
            mib(self.fulltext_index_bytes),
            self.index_size_ratio()
        )?;
        write!(
            f,
            "time            {:.1} s, {:.0} pages/s, {:.1} MB/s of HTML on {} threads",
            self.elapsed_seconds,
            self.pages_per_second(),
            self.appended.as_ref().map_or(self.input_page_bytes, |a| a.input_page_bytes) as f64
                / 1e6
                / self.elapsed_seconds.max(1e-9),
            self.threads
        )?;
        if let Some(rss) = self.peak_rss_bytes {
            write!(f, ", peak memory {:.0} MiB", mib(rss))?;
        }
        writeln!(f)?;
        write!(f, "output          {}", self.output)
    }
}

/// Total size of the files under `path`.
pub fn dir_size(path: &Path) -> u64 {
    walkdir::WalkDir::new(path)
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// The process's peak resident memory (Linux: VmHWM), if the platform tells.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
