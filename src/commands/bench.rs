use crate::commands::prelude::*;

pub const LONG_ABOUT: &str = "Measure the pipeline on your own data, in one run:\n\n\
        - each stage (read, decode, parse, tag tree, clean, DocView, classify, fingerprint, \
        replica check, index) on one thread, as pages/s and MB/s of HTML;\n\
        - the whole `indexer build` on each thread count of --threads, each in its own \
        process (its own peak RSS), pinned to as many CPUs with taskset;\n\
        - the floor reference on the same pages and thread counts: html5ever parsing, visible \
        text, Tantivy indexing of that text in one field with our analyzer — the least any \
        such indexer must do — three times: parsed into an RcDom, into the arena DOM the build \
        parses into, and with html5ever's tokenizer alone (no tree), the lowest floor; and the \
        ratios build / each floor and 2 threads / 1 thread;\n\
        - with --baseline EXECUTABLE, whole builds of another indexer (a previous version) \
        beside ours, and the ratio;\n\
        - with --scale N, builds of the input written N times under other URLs (exact copies, \
        and distinct copies with suffixed words) for memory against corpus size.\n\n\
        Writes report.md, report.json and throughput.svg to --report DIR.\n\n\
        Example:\n  indexer bench ../shared/data/ir-web/cacm/pages.warc.gz --threads 1,2 --scale 10 \
        --report eval/reports/performance/cacm";

#[derive(Args)]
pub struct BenchArgs {
    /// Folders of pages, WARC files, or JSON Lines files (as for `indexer build`).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Thread counts of the whole builds and floor runs.
    #[arg(long, value_name = "N,N…", value_delimiter = ',', default_value = "1,2")]
    pub threads: Vec<usize>,
    /// Only the per-stage timings on one thread (fast; no child builds).
    #[arg(long)]
    pub stages: bool,
    /// At most this many pages for the per-stage timings (they are held in memory).
    #[arg(long, value_name = "N", default_value_t = 5000)]
    pub stage_pages: usize,
    /// Also build the input repeated N times under other URLs, for peak RSS against size.
    #[arg(long, value_name = "N")]
    pub scale: Option<usize>,
    /// Where report.md, report.json and throughput.svg go (beside the default build folder,
    /// so a bench run leaves nothing else in the current folder).
    #[arg(long, value_name = "DIR", default_value = "indexer-data/bench")]
    pub report: PathBuf,
    /// A TOML file overriding any parameter (see `indexer config`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Internal: run only the floor reference in this process and print it as JSON.
    #[arg(long, hide = true)]
    pub floor_run: bool,
    /// Also run whole builds of this other `indexer` executable (e.g. the previous version),
    /// on the same pages and thread counts, for a before/after in one run. It runs with its
    /// own defaults (an older version refuses parameters it does not know), not --config.
    #[arg(long, value_name = "EXECUTABLE")]
    pub baseline: Option<PathBuf>,
    /// Internal: the floor run's parse, `rcdom`, `arena` or `tokenizer`.
    #[arg(long, hide = true, value_name = "KIND", default_value = "rcdom")]
    pub floor_kind: String,
    /// Internal: the folder of the floor run's index.
    #[arg(long, hide = true, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
}

pub fn run(args: BenchArgs) -> Result<ExitCode> {
    use indexer::bench::{BenchOptions, FloorKind, run_bench, run_floor};

    let config = load_config(args.config.as_deref())?;
    if args.floor_run {
        let Some(kind) = FloorKind::parse(&args.floor_kind) else {
            bail!("--floor-kind {}: unknown; use rcdom, arena or tokenizer", args.floor_kind);
        };
        let threads = args.threads.first().copied().unwrap_or(1).max(1);
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .context("cannot set the number of threads")?;
        let work_dir = args.work_dir.unwrap_or_else(std::env::temp_dir);
        let run = run_floor(&args.inputs, &config, &work_dir, kind)?;
        outln!("{}", serde_json::to_string(&run)?);
        return Ok(ExitCode::SUCCESS);
    }
    if args.threads.contains(&0) {
        bail!("--threads: a thread count must be at least 1");
    }
    let work_dir =
        tempfile::Builder::new().prefix("indexer-bench-").tempdir().context("cannot create a temporary folder")?;
    let options = BenchOptions {
        inputs: args.inputs,
        config,
        thread_counts: args.threads,
        stages_only: args.stages,
        stage_pages: args.stage_pages.max(1),
        scale: args.scale.filter(|&n| n > 1),
        indexer: std::env::current_exe().context("cannot find the indexer executable for the child builds")?,
        baseline: args.baseline,
        work_dir: work_dir.path().to_path_buf(),
    };
    let report = run_bench(&options, &|step| eprintln!("indexer bench: {step}"))?;
    indexer::bench::write_report(&report, &args.report, &command_line())?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    for run in &report.runs {
        outln!(
            "{} thread(s): build {:.0} pages/s ({:.2} MB/s, peak {:.0} MiB), RcDom floor {:.0} pages/s, build / floor \
             {:.2}; arena floor {:.0} pages/s, build / floor {:.2}; tokenizer floor {:.0} pages/s, build / floor {:.2}",
            run.threads,
            run.build_throughput.pages_per_second,
            run.build_throughput.mb_per_second,
            run.build.peak_rss_bytes.unwrap_or(0) as f64 / 1048576.0,
            run.floor_throughput.pages_per_second,
            run.build_over_floor,
            run.arena_floor_throughput.pages_per_second,
            run.build_over_arena_floor,
            run.tokenizer_floor_throughput.pages_per_second,
            run.build_over_tokenizer_floor
        );
        if let Some(baseline) = &run.baseline {
            outln!(
                "{} thread(s): baseline {} {:.0} pages/s (peak {:.0} MiB): build / baseline {:.2}",
                run.threads,
                baseline.executable,
                baseline.throughput.pages_per_second,
                baseline.build.peak_rss_bytes.unwrap_or(0) as f64 / 1048576.0,
                baseline.speedup
            );
        }
    }
    if let Some(scaling) = report.build_scaling {
        outln!("thread scaling of the build: {scaling:.2}x");
    }
    for run in &report.scale {
        outln!(
            "{}x {}: {} pages, peak RSS {:.0} MiB",
            run.copies,
            run.kind.as_str(),
            run.input.pages,
            run.build.peak_rss_bytes.unwrap_or(0) as f64 / 1048576.0
        );
    }
    outln!(
        "stages on one thread: {:.0} pages/s, {:.2} MB/s; report written to {}",
        report.stages.total.pages_per_second,
        report.stages.total.mb_per_second,
        args.report.join("report.md").display()
    );
    Ok(ExitCode::SUCCESS)
}
