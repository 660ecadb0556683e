//! `indexer bench`: throughput and memory of the pipeline, measured on the user's own data.
//!
//! One run measures, on the same pages:
//! - [`stages`]: each per-page stage on one thread, in process (pages/s and MB/s of HTML);
//! - whole builds: the real `indexer build`, one child process per thread count, so that each
//!   build's peak RSS (VmHWM) is its own;
//! - [`floor`]: the floor reference — html5ever parsing, visible text, Tantivy indexing of that
//!   text into one field — the least any such indexer must do, also one child per thread count;
//!   three times: parsed into an RcDom, parsed into the arena DOM the build parses into, and
//!   tokenized alone (no tree), the lowest floor;
//! - optionally, whole builds of a previous `indexer` executable (`--baseline`), for a
//!   before/after of one change measured in the same run;
//! - [`scale`] (optional): builds of the input repeated N times under other URLs, for memory
//!   growth with corpus size.
//!
//! [`report`] writes report.md, report.json and the throughput chart.

pub mod floor;
pub mod report;
pub mod scale;
pub mod stages;

mod child;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::classify::ClassifyError;
use crate::clean::CleanerError;
use crate::config::Config;
use crate::index::IndexError;
use crate::input::{ByteCounter, InputError, InputEvent, Source};

pub use child::{ChildRun, Pinning};
pub use floor::{FloorKind, FloorRun, run_floor};
pub use report::write_report;
pub use scale::{CopyKind, write_scaled_warc};
pub use stages::{StageReport, StageTiming, measure_stages};

/// A benchmark that could not run or be written.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Classifier(#[from] ClassifyError),
    #[error(transparent)]
    Cleaner(#[from] CleanerError),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{command}: {message}")]
    Child { command: String, message: String },
    #[error("chart {path}: {message}")]
    Chart { path: String, message: String },
    #[error("no HTML page in the input: nothing to measure")]
    NoPages,
}

impl BenchError {
    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BenchError + '_ {
        move |source| BenchError::Io { path: path.display().to_string(), source }
    }
}

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    pub inputs: Vec<PathBuf>,
    /// The configuration every measurement uses (`index.writer_threads` is set per run).
    pub config: Config,
    /// Rayon pool sizes of the whole builds and floor runs, e.g. `[1, 2]`.
    pub thread_counts: Vec<usize>,
    /// Only the per-stage measurement (no child builds).
    pub stages_only: bool,
    /// The per-stage measurement reads at most this many pages (they are held in memory).
    pub stage_pages: usize,
    /// Copies of the input for the memory-growth measurement; `None` skips it.
    pub scale: Option<usize>,
    /// The `indexer` executable the child builds run.
    pub indexer: PathBuf,
    /// Another `indexer` executable (a previous version) whose whole builds run beside ours.
    pub baseline: Option<PathBuf>,
    /// Where the child builds and generated inputs go (a temporary folder).
    pub work_dir: PathBuf,
}

/// The pages of the input, which every throughput is measured against.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct InputSize {
    /// HTML pages read (records the reader skips, such as non-HTML responses, are not counted).
    pub pages: usize,
    /// Their bytes of HTML, before decoding.
    pub html_bytes: u64,
    /// Records the reader skipped.
    pub skipped_records: usize,
    /// Bytes of the input files on disk.
    pub bytes_on_disk: u64,
}

/// Counts the pages and bytes of HTML in the input.
pub fn input_size(inputs: &[PathBuf], config: &Config) -> Result<InputSize, BenchError> {
    let mut size = InputSize::default();
    for path in inputs {
        let source = Source::from_path(path)?;
        size.bytes_on_disk += source.size_on_disk();
        source.visit(config.input.max_page_bytes, &ByteCounter::default(), &mut |event| {
            match event {
                InputEvent::Page(page) => {
                    size.pages += 1;
                    size.html_bytes += page.bytes.len() as u64;
                }
                InputEvent::Skipped(_) => size.skipped_records += 1,
            }
            true
        })?;
    }
    Ok(size)
}

/// A throughput: pages and megabytes (10⁶ bytes) of HTML per second.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Throughput {
    pub pages_per_second: f64,
    pub mb_per_second: f64,
}

impl Throughput {
    pub fn of(pages: usize, bytes: u64, seconds: f64) -> Throughput {
        let seconds = seconds.max(1e-9);
        Throughput { pages_per_second: pages as f64 / seconds, mb_per_second: bytes as f64 / 1e6 / seconds }
    }
}

/// One whole build or floor run on a number of threads.
#[derive(Debug, Clone, Serialize)]
pub struct ThreadRun {
    pub threads: usize,
    pub build: ChildRun,
    pub build_throughput: Throughput,
    /// The RcDom floor.
    pub floor: ChildRun,
    pub floor_throughput: Throughput,
    /// Whole build / RcDom floor, in pages per second (target ≥ 0.5).
    pub build_over_floor: f64,
    /// The tokenizer floor (html5ever's tokenizer alone, no tree).
    pub tokenizer_floor: ChildRun,
    pub tokenizer_floor_throughput: Throughput,
    /// Whole build / tokenizer floor, in pages per second.
    pub build_over_tokenizer_floor: f64,
    /// The arena floor (html5ever's tree builder into the arena DOM a build parses into).
    pub arena_floor: ChildRun,
    pub arena_floor_throughput: Throughput,
    /// Whole build / arena floor, in pages per second.
    pub build_over_arena_floor: f64,
    /// The baseline executable's whole build on as many threads, when one was given.
    pub baseline: Option<BaselineRun>,
}

/// A whole build by the baseline executable.
#[derive(Debug, Clone, Serialize)]
pub struct BaselineRun {
    pub executable: String,
    pub build: ChildRun,
    pub throughput: Throughput,
    /// Our build / the baseline's, in pages per second.
    pub speedup: f64,
}

/// Builds of the input at 1× and N× its size.
#[derive(Debug, Clone, Serialize)]
pub struct ScaleRun {
    pub copies: usize,
    pub kind: CopyKind,
    pub input: InputSize,
    pub build: ChildRun,
    pub throughput: Throughput,
}

/// Everything one `indexer bench` run measured.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    pub inputs: Vec<String>,
    pub input: InputSize,
    /// The machine, for reading the figures.
    pub cpus: usize,
    pub pinning: Pinning,
    pub stages: StageReport,
    pub runs: Vec<ThreadRun>,
    /// Whole build on the most threads / on one thread (target ≥ 1.8 on two).
    pub build_scaling: Option<f64>,
    pub floor_scaling: Option<f64>,
    pub scale: Vec<ScaleRun>,
    /// Peak RSS of the largest scale run / that of the 1× run of the same kind (the target: it
    /// does not grow, i.e. close to 1).
    pub scale_rss_growth: Vec<(CopyKind, f64)>,
}

/// Runs every measurement of `options`; `progress` gets one line per step.
pub fn run_bench(options: &BenchOptions, progress: &dyn Fn(&str)) -> Result<BenchReport, BenchError> {
    let config = &options.config;
    progress("counting the input's pages");
    let input = input_size(&options.inputs, config)?;
    if input.pages == 0 {
        return Err(BenchError::NoPages);
    }
    progress(&format!("per-stage timings on one thread (up to {} pages)", options.stage_pages));
    let stages = measure_stages(&options.inputs, config, options.stage_pages, &options.work_dir)?;
    let pinning = Pinning::available();
    let mut runs = Vec::new();
    let mut scale = Vec::new();
    if !options.stages_only {
        for &threads in &options.thread_counts {
            progress(&format!("whole build on {threads} thread(s)"));
            let config = child::config_file(options, threads)?;
            let build = child::run_build(
                options,
                (&options.indexer, &config),
                &options.inputs,
                threads,
                &format!("build-{threads}t"),
                pinning,
            )?;
            let throughput = |run: &ChildRun| Throughput::of(input.pages, input.html_bytes, run.seconds);
            let build_throughput = throughput(&build);
            let baseline = match &options.baseline {
                Some(executable) => {
                    progress(&format!("whole build of the baseline {} on {threads} thread(s)", executable.display()));
                    let name = format!("baseline-{threads}t");
                    let config = child::baseline_config_file(options, threads)?;
                    let build =
                        child::run_build(options, (executable, &config), &options.inputs, threads, &name, pinning)?;
                    let baseline_throughput = throughput(&build);
                    Some(BaselineRun {
                        executable: executable.display().to_string(),
                        speedup: build_throughput.pages_per_second / baseline_throughput.pages_per_second.max(1e-9),
                        build,
                        throughput: baseline_throughput,
                    })
                }
                None => None,
            };
            progress(&format!("floor reference (RcDom) on {threads} thread(s)"));
            let floor = child::run_floor_child(options, threads, pinning, FloorKind::RcDom)?;
            progress(&format!("floor reference (arena DOM) on {threads} thread(s)"));
            let arena_floor = child::run_floor_child(options, threads, pinning, FloorKind::Arena)?;
            progress(&format!("floor reference (tokenizer alone) on {threads} thread(s)"));
            let tokenizer_floor = child::run_floor_child(options, threads, pinning, FloorKind::Tokenizer)?;
            let floor_throughput = throughput(&floor);
            let tokenizer_floor_throughput = throughput(&tokenizer_floor);
            let arena_floor_throughput = throughput(&arena_floor);
            let over = |floor: Throughput| build_throughput.pages_per_second / floor.pages_per_second.max(1e-9);
            runs.push(ThreadRun {
                threads,
                build_over_floor: over(floor_throughput),
                build_over_tokenizer_floor: over(tokenizer_floor_throughput),
                build_over_arena_floor: over(arena_floor_throughput),
                build,
                build_throughput,
                floor,
                floor_throughput,
                tokenizer_floor,
                tokenizer_floor_throughput,
                arena_floor,
                arena_floor_throughput,
                baseline,
            });
        }
        if let Some(copies) = options.scale {
            scale = scale::run_scale(options, copies, pinning, progress)?;
        }
    }
    let scaling = |rate: fn(&ThreadRun) -> f64| {
        let one = runs.iter().find(|r| r.threads == 1)?;
        let most = runs.iter().filter(|r| r.threads > 1).max_by_key(|r| r.threads)?;
        Some(rate(most) / rate(one).max(1e-9))
    };
    let build_scaling = scaling(|r| r.build_throughput.pages_per_second);
    let floor_scaling = scaling(|r| r.floor_throughput.pages_per_second);
    let scale_rss_growth = [CopyKind::Exact, CopyKind::Distinct]
        .into_iter()
        .filter_map(|kind| {
            let of_kind: Vec<&ScaleRun> = scale.iter().filter(|s| s.kind == kind || s.copies == 1).collect();
            let base = of_kind.iter().find(|s| s.copies == 1)?.build.peak_rss_bytes? as f64;
            let largest = of_kind.iter().filter(|s| s.kind == kind && s.copies > 1).max_by_key(|s| s.copies)?;
            Some((kind, largest.build.peak_rss_bytes? as f64 / base.max(1.0)))
        })
        .collect();
    Ok(BenchReport {
        inputs: options.inputs.iter().map(|p| p.display().to_string()).collect(),
        input,
        cpus: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        pinning,
        stages,
        runs,
        build_scaling,
        floor_scaling,
        scale,
        scale_rss_growth,
    })
}
