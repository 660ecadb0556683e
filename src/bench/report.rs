//! The benchmark report: report.md (tables and verdicts), report.json (every figure), and
//! throughput.svg (MB/s of HTML per stage, beside the whole build and the floor reference).

use std::fmt::Write as _;
use std::path::Path;

use plotters::prelude::*;

use super::{BenchError, BenchReport};

/// The targets of issue #5.
const BUILD_OVER_FLOOR_TARGET: f64 = 0.5;
const TWO_THREAD_SCALING_TARGET: f64 = 1.8;

/// Writes report.md, report.json and throughput.svg into `out`. `command` is what produced it.
pub fn write_report(report: &BenchReport, out: &Path, command: &str) -> Result<(), BenchError> {
    std::fs::create_dir_all(out).map_err(BenchError::io(out))?;
    let path = out.join("report.json");
    let json = serde_json::to_string_pretty(report)
        .map_err(|e| BenchError::Io { path: path.display().to_string(), source: e.into() })?;
    std::fs::write(&path, json + "\n").map_err(BenchError::io(&path))?;
    let path = out.join("report.md");
    std::fs::write(&path, markdown(report, command)).map_err(BenchError::io(&path))?;
    let path = out.join("throughput.svg");
    throughput_chart(report, &path).map_err(|message| BenchError::Chart { path: path.display().to_string(), message })
}

fn mib(bytes: Option<u64>) -> String {
    bytes.map_or("?".into(), |b| format!("{:.0} MiB", b as f64 / (1024.0 * 1024.0)))
}

fn verdict(value: f64, target: f64) -> &'static str {
    if value >= target { "met" } else { "not met" }
}

/// The markdown report.
pub fn markdown(report: &BenchReport, command: &str) -> String {
    let mut md = String::new();
    let input = &report.input;
    let _ = writeln!(md, "# Performance: {}\n", report.inputs.join(", "));
    let _ = writeln!(md, "Produced by `{command}`.\n");
    let _ = writeln!(
        md,
        "Input: {} HTML pages, {:.1} MB of HTML ({:.1} MB on disk; {} records skipped by the reader). \
         Machine: {} CPUs; child runs pinned with {}.\n",
        input.pages,
        input.html_bytes as f64 / 1e6,
        input.bytes_on_disk as f64 / 1e6,
        input.skipped_records,
        report.cpus,
        match report.pinning {
            super::Pinning::Taskset => "`taskset -c 0..N-1` (a run on N threads has N CPUs)",
            super::Pinning::None => "nothing (no `taskset`: runs may use every CPU)",
        }
    );
    let _ =
        writeln!(md, "Throughputs count the input's HTML pages and their bytes before decoding (MB = 10⁶ bytes).\n");

    if !report.runs.is_empty() {
        let _ = writeln!(md, "## Whole build against the floor reference\n");
        let _ = writeln!(
            md,
            "The whole build is the real `indexer build` in a child process; the floor reference is \
             html5ever parsing + visible text + Tantivy indexing of that text into one field (our \
             full-text analyzer, writer memory and threads), read and batched as the build does, also \
             in a child process. `index.writer_threads` follows the thread count in both. The floor \
             runs three times: html5ever's tree builder into an RcDom (`Rc<RefCell<…>>` nodes, what \
             the build parsed into before issue #23), into the arena DOM the build parses into, and \
             html5ever's tokenizer alone with no tree (the *tokenizer floor*, switched into raw text \
             for scripts, styles and titles as the tree builder switches it), the lowest floor.\n"
        );
        let _ = writeln!(
            md,
            "| threads | build pages/s | build MB/s | build peak RSS | RcDom floor pages/s | floor MB/s | floor peak RSS | build / RcDom floor | arena floor pages/s | build / arena floor | tokenizer floor pages/s | build / tokenizer floor |"
        );
        let _ = writeln!(md, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for run in &report.runs {
            let _ = writeln!(
                md,
                "| {} | {:.0} | {:.2} | {} | {:.0} | {:.2} | {} | {:.2} (target ≥ {BUILD_OVER_FLOOR_TARGET}: {}) | {:.0} | {:.2} | {:.0} | {:.2} |",
                run.threads,
                run.build_throughput.pages_per_second,
                run.build_throughput.mb_per_second,
                mib(run.build.peak_rss_bytes),
                run.floor_throughput.pages_per_second,
                run.floor_throughput.mb_per_second,
                mib(run.floor.peak_rss_bytes),
                run.build_over_floor,
                verdict(run.build_over_floor, BUILD_OVER_FLOOR_TARGET),
                run.arena_floor_throughput.pages_per_second,
                run.build_over_arena_floor,
                run.tokenizer_floor_throughput.pages_per_second,
                run.build_over_tokenizer_floor,
            );
        }
        if report.runs.iter().any(|r| r.baseline.is_some()) {
            let _ = writeln!(
                md,
                "\nThe baseline: whole builds of another `indexer` executable (`--baseline`) on the same \
                 pages, thread counts and configuration, in the same run.\n"
            );
            let _ = writeln!(
                md,
                "| threads | baseline | baseline pages/s | baseline peak RSS | build pages/s | build peak RSS | build / baseline |"
            );
            let _ = writeln!(md, "|---:|---|---:|---:|---:|---:|---:|");
            for run in &report.runs {
                if let Some(baseline) = &run.baseline {
                    let _ = writeln!(
                        md,
                        "| {} | `{}` | {:.0} | {} | {:.0} | {} | {:.2}× |",
                        run.threads,
                        baseline.executable,
                        baseline.throughput.pages_per_second,
                        mib(baseline.build.peak_rss_bytes),
                        run.build_throughput.pages_per_second,
                        mib(run.build.peak_rss_bytes),
                        baseline.speedup,
                    );
                }
            }
        }
        let _ = writeln!(md);
        if let (Some(build), Some(floor)) = (report.build_scaling, report.floor_scaling) {
            let most = report.runs.iter().map(|r| r.threads).max().unwrap_or(1);
            let _ = writeln!(
                md,
                "Thread scaling, {most} threads / 1 thread: whole build **{build:.2}×** (target ≥ {TWO_THREAD_SCALING_TARGET}×: {}), floor {floor:.2}×.\n",
                verdict(build, TWO_THREAD_SCALING_TARGET),
            );
        }
        let pages: Vec<String> = report
            .runs
            .iter()
            .map(|r| format!("{} threads: {} read, {} indexed", r.threads, r.build.pages_read, r.build.pages_indexed))
            .collect();
        let _ = writeln!(md, "Build records: {}.\n", pages.join("; "));
    }

    let stages = &report.stages;
    let _ = writeln!(md, "## Stages, one thread\n");
    let _ = writeln!(
        md,
        "Each stage timed on its own in one process on one thread, over the first {} pages ({:.1} MB of HTML). \
         A stage counts the pages that reached it (pages without text stop after cleaning; only pages kept \
         after the replica check are indexed).\n",
        stages.pages,
        stages.html_bytes as f64 / 1e6
    );
    let _ = writeln!(md, "| stage | pages | seconds | pages/s | MB/s | share | what it times |");
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---|");
    for stage in &stages.stages {
        let _ = writeln!(
            md,
            "| {} | {} | {:.3} | {:.0} | {:.2} | {:.1}% | {} |",
            stage.stage,
            stage.pages,
            stage.seconds,
            stage.throughput.pages_per_second,
            stage.throughput.mb_per_second,
            100.0 * stage.seconds / stages.total_seconds.max(1e-9),
            stage.what
        );
    }
    let _ = writeln!(
        md,
        "| **all stages** | {} | {:.3} | {:.0} | {:.2} | 100% | one thread's whole work per page |\n",
        stages.pages, stages.total_seconds, stages.total.pages_per_second, stages.total.mb_per_second
    );

    if !report.scale.is_empty() {
        let _ = writeln!(md, "## Memory against corpus size\n");
        let _ = writeln!(
            md,
            "The input written N times into one gzipped WARC, copy K under URLs with `?copy=K`. *Exact* \
             copies are the same pages (the replica detector removes them: the build still reads, parses \
             and fingerprints each); *distinct* copies have every ASCII word suffixed with the copy's \
             letters, so they are different pages with their own vocabulary, and are indexed. Each build \
             runs in its own process.\n"
        );
        let _ = writeln!(md, "| input | pages | MB of HTML | pages indexed | replicas removed | pages/s | peak RSS |");
        let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|");
        for run in &report.scale {
            let _ = writeln!(
                md,
                "| {}× {} | {} | {:.1} | {} | {} | {:.0} | {} |",
                run.copies,
                if run.copies == 1 { "(the input)" } else { run.kind.as_str() },
                run.input.pages,
                run.input.html_bytes as f64 / 1e6,
                run.build.pages_indexed,
                run.build.replicas_removed,
                run.throughput.pages_per_second,
                mib(run.build.peak_rss_bytes)
            );
        }
        let _ = writeln!(md);
        for (kind, growth) in &report.scale_rss_growth {
            let copies = report.scale.iter().map(|s| s.copies).max().unwrap_or(1);
            let _ = writeln!(md, "Peak RSS at {copies}× ({} copies) / at 1×: **{growth:.2}**.", kind.as_str());
        }
        let _ = writeln!(md);
    }
    let _ = writeln!(md, "![throughput per stage](throughput.svg)\n");
    let _ =
        writeln!(md, "Every figure is in report.json. Timings on a shared machine are noisy; rerun on a quiet one.");
    md
}

/// Bars of MB/s of HTML (log scale): each stage on one thread, then the whole build and the
/// floor on each thread count.
fn throughput_chart(report: &BenchReport, path: &Path) -> Result<(), String> {
    let stage_color = RGBColor(31, 119, 180);
    let build_color = RGBColor(255, 127, 14);
    let floor_color = RGBColor(44, 160, 44);
    let mut bars: Vec<(String, f64, RGBColor)> = report
        .stages
        .stages
        .iter()
        .filter(|s| s.pages > 0)
        .map(|s| (s.stage.to_string(), s.throughput.mb_per_second, stage_color))
        .collect();
    bars.push(("all stages".into(), report.stages.total.mb_per_second, stage_color));
    for run in &report.runs {
        bars.push((format!("build {}t", run.threads), run.build_throughput.mb_per_second, build_color));
        if let Some(baseline) = &run.baseline {
            bars.push((format!("baseline {}t", run.threads), baseline.throughput.mb_per_second, build_color));
        }
        bars.push((format!("floor {}t", run.threads), run.floor_throughput.mb_per_second, floor_color));
        let arena = run.arena_floor_throughput.mb_per_second;
        bars.push((format!("arena floor {}t", run.threads), arena, floor_color));
        let tokenizer = run.tokenizer_floor_throughput.mb_per_second;
        bars.push((format!("tokenizer floor {}t", run.threads), tokenizer, floor_color));
    }
    let positive = bars.iter().map(|b| b.1).filter(|v| *v > 0.0);
    let low = positive.clone().fold(f64::INFINITY, f64::min).min(1.0) / 2.0;
    let high = positive.fold(1.0, f64::max) * 2.0;

    // Horizontal bars, the first stage on top.
    bars.reverse();
    let root = SVGBackend::new(path, (900, 460)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption("Throughput per stage (one thread) and of whole builds — MB/s of HTML, log scale", ("sans-serif", 17))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(130)
        .build_cartesian_2d((low..high).log_scale(), (0..bars.len().saturating_sub(1)).into_segmented())
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(bars.len())
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .x_desc("MB/s of HTML")
        .draw()
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(bars.iter().enumerate().map(|(i, (_, value, color))| {
            let mut bar = Rectangle::new(
                [(low, SegmentValue::Exact(i)), (value.max(low), SegmentValue::Exact(i + 1))],
                color.filled(),
            );
            bar.set_margin(3, 3, 0, 0);
            bar
        }))
        .map_err(|e| e.to_string())?;
    for (label, color) in
        [("stage, 1 thread", stage_color), ("whole build", build_color), ("floor reference", floor_color)]
    {
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, SegmentValue<usize>)>>())
            .map_err(|e| e.to_string())?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 11))
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
