//! Whole builds and floor runs in child processes: each has its own peak RSS (VmHWM), and a
//! run on N threads is confined to N CPUs, so that "one thread" cannot borrow a second core
//! for its reader or index-writer threads.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use super::{BenchError, BenchOptions};
use crate::config::Config;

/// How child runs are confined to their CPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pinning {
    /// `taskset -c 0..N-1`: a run on N threads has N CPUs.
    Taskset,
    /// No `taskset` on this machine: runs may use every CPU whatever their thread count.
    None,
}

impl Pinning {
    /// `taskset` when it runs here.
    pub fn available() -> Pinning {
        match Command::new("taskset").arg("--version").output() {
            Ok(output) if output.status.success() => Pinning::Taskset,
            _ => Pinning::None,
        }
    }

    fn command(self, program: &Path, threads: usize) -> Command {
        let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        match self {
            Pinning::Taskset if threads <= cpus => {
                let mut command = Command::new("taskset");
                command.arg("-c").arg(format!("0-{}", threads.max(1) - 1)).arg(program);
                command
            }
            _ => Command::new(program),
        }
    }
}

/// What one child process reported.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ChildRun {
    pub threads: usize,
    /// The run's own timing (from its first input read to its published output).
    pub seconds: f64,
    pub peak_rss_bytes: Option<u64>,
    pub pages_read: usize,
    pub pages_indexed: usize,
    pub replicas_removed: usize,
    /// The command, for the report.
    pub command: String,
}

/// The parts of `indexer build --json`'s summary a benchmark reads.
#[derive(Debug, Deserialize)]
struct BuildSummaryJson {
    pages_read: usize,
    pages_indexed: usize,
    elapsed_seconds: f64,
    peak_rss_bytes: Option<u64>,
    replicas: ReplicaCountsJson,
}

#[derive(Debug, Deserialize)]
struct ReplicaCountsJson {
    exact: usize,
    near: usize,
}

/// The configuration of a run on `threads` threads: Tantivy's writer threads follow the pool.
pub(super) fn config_file(options: &BenchOptions, threads: usize) -> Result<PathBuf, BenchError> {
    let mut config: Config = options.config.clone();
    config.index.writer_threads = threads.max(1);
    let path = options.work_dir.join(format!("config-{threads}t.toml"));
    std::fs::write(&path, config.to_toml()).map_err(BenchError::io(&path))?;
    Ok(path)
}

fn run(mut command: Command) -> Result<(String, String), BenchError> {
    let shown = describe(&command);
    let output = command.output().map_err(|e| BenchError::Child { command: shown.clone(), message: e.to_string() })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("").to_string();
        return Err(BenchError::Child { command: shown, message: format!("{}: {last}", output.status) });
    }
    Ok((String::from_utf8_lossy(&output.stdout).into_owned(), shown))
}

fn describe(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The configuration of a baseline executable's run on `threads` threads: its own defaults
/// but for the writer threads, since a previous version does not know every parameter of this
/// one (it refuses unknown keys).
pub(super) fn baseline_config_file(options: &BenchOptions, threads: usize) -> Result<PathBuf, BenchError> {
    let path = options.work_dir.join(format!("baseline-config-{threads}t.toml"));
    let toml = format!("[index]\nwriter_threads = {}\n", threads.max(1));
    std::fs::write(&path, toml).map_err(BenchError::io(&path))?;
    Ok(path)
}

/// `indexer build` of `inputs` by the executable `indexer` with the configuration file
/// `config` into a fresh folder, on `threads` threads.
pub(super) fn run_build(
    options: &BenchOptions,
    (indexer, config): (&Path, &Path),
    inputs: &[PathBuf],
    threads: usize,
    name: &str,
    pinning: Pinning,
) -> Result<ChildRun, BenchError> {
    let dir = options.work_dir.join(name);
    let mut command = pinning.command(indexer, threads);
    command
        .arg("build")
        .args(inputs)
        .arg("--dir")
        .arg(&dir)
        .arg("--config")
        .arg(config)
        .arg("--threads")
        .arg(threads.to_string())
        .args(["--json", "--quiet"]);
    let (stdout, shown) = run(command)?;
    let summary: BuildSummaryJson = serde_json::from_str(stdout.trim())
        .map_err(|e| BenchError::Child { command: shown.clone(), message: format!("unreadable summary: {e}") })?;
    // The build is not needed any more, and the next one should not share its page cache.
    let _ = std::fs::remove_dir_all(&dir);
    Ok(ChildRun {
        threads,
        seconds: summary.elapsed_seconds,
        peak_rss_bytes: summary.peak_rss_bytes,
        pages_read: summary.pages_read,
        pages_indexed: summary.pages_indexed,
        replicas_removed: summary.replicas.exact + summary.replicas.near,
        command: shown,
    })
}

/// The floor reference of `kind` (`indexer bench --floor-run --floor-kind KIND`) on `threads`
/// threads.
pub(super) fn run_floor_child(
    options: &BenchOptions,
    threads: usize,
    pinning: Pinning,
    kind: super::FloorKind,
) -> Result<ChildRun, BenchError> {
    let config = config_file(options, threads)?;
    let mut command = pinning.command(&options.indexer, threads);
    command
        .arg("bench")
        .args(&options.inputs)
        .arg("--floor-run")
        .args(["--floor-kind", kind.as_str()])
        .arg("--config")
        .arg(&config)
        .arg("--threads")
        .arg(threads.to_string())
        .arg("--work-dir")
        .arg(&options.work_dir);
    let (stdout, shown) = run(command)?;
    let floor: super::FloorRun = serde_json::from_str(stdout.trim())
        .map_err(|e| BenchError::Child { command: shown.clone(), message: format!("unreadable floor run: {e}") })?;
    Ok(ChildRun {
        threads: floor.threads,
        seconds: floor.seconds,
        peak_rss_bytes: floor.peak_rss_bytes,
        pages_read: floor.pages,
        pages_indexed: floor.pages,
        replicas_removed: 0,
        command: shown,
    })
}
