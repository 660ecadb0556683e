use crate::commands::prelude::*;

#[derive(Args)]
pub struct EvalReplicasArgs {
    /// The replica test set (a WARC file or a folder of pages).
    pub input: Option<PathBuf>,
    /// The truth file (url, set, base_url).
    #[arg(long, value_name = "FILE")]
    pub truth: Option<PathBuf>,
    /// Judged pairs (webis copycat JSON Lines).
    #[arg(long, value_name = "FILE")]
    pub pairs: Option<PathBuf>,
    /// An evaluation config (eval/replicas.toml) giving all of the above and --report.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Where to write report.md, report.json and the heatmap.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Reproduce Table 2 (Percentage × Interval) for the keyword fingerprint.
    #[arg(long)]
    pub sweep: bool,
    /// Measure a grid of MinHash rules (shingle size, resemblance, containment, size ratio) on
    /// the judged pairs, for pages of one site and of two, and name the rules chosen under each
    /// selection criterion (how the defaults were chosen on the replica benchmark).
    #[arg(long)]
    pub rule_sweep: bool,
    /// Replica settings to measure: a build configuration (TOML, as for `indexer build
    /// --config`) whose [replicas] section overrides the defaults.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: EvalReplicasArgs) -> Result<ExitCode> {
    use indexer::eval::replicas::{
        PairSites, RULE_CRITERIA, ReplicaEvalConfig, ReplicaReport, choose_rules, evaluate_pairs, evaluate_replica_set,
        read_truth, sweep_pair_rules, write_replica_report,
    };
    let config = args.config.as_deref().map(ReplicaEvalConfig::from_file).transpose()?;
    let input = args.input.or_else(|| config.as_ref().map(|c| c.input.clone())).context("give INPUT or --config")?;
    let truth = args.truth.or_else(|| config.as_ref().map(|c| c.truth.clone())).context("give --truth or --config")?;
    let pairs = args.pairs.or_else(|| config.as_ref().map(|c| c.pairs.clone()));
    let report_dir = args.report.or_else(|| config.as_ref().map(|c| c.report.clone()));
    let settings = load_config(args.settings.as_deref())?;
    let (pages, detectors, sweeps) = evaluate_replica_set(&input, &read_truth(&truth)?, &settings, args.sweep)?;
    let (pairs, pair_rules) = match pairs {
        Some(path) if path.exists() => (
            evaluate_pairs(&path, &settings.replicas)?,
            if args.rule_sweep { sweep_pair_rules(&path, &settings.replicas)? } else { Vec::new() },
        ),
        Some(path) => bail!("{}: no such file", path.display()),
        None => (Vec::new(), Vec::new()),
    };
    let report = ReplicaReport { pages, detectors, sweeps, pairs, pair_rules, settings: settings.replicas };
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        for d in &report.detectors {
            outln!(
                "{:<8} {:<6} hit rate {:5.1}%  error rate {:4.1}%",
                d.detector,
                format!("{:?}", d.source).to_lowercase(),
                100.0 * d.rates.hit_rate,
                100.0 * d.rates.error_rate
            );
        }
        for p in &report.pairs {
            let m = &p.metrics;
            outln!(
                "{:<8} pairs (label ≥ {}): P {:.3} R {:.3} F1 {:.3} FPR {:.1}%",
                p.detector,
                p.positive_from,
                m.precision,
                m.recall,
                m.f1,
                100.0 * m.false_positive_rate
            );
        }
        for (name, min_precision, max_fpr) in RULE_CRITERIA {
            if report.pair_rules.is_empty() {
                break;
            }
            let Some((k, same, cross)) = choose_rules(&report.pair_rules, min_precision, max_fpr) else {
                outln!("no MinHash rule of the grid reaches {name}");
                continue;
            };
            for (sites, rule) in [(PairSites::SameSite, same), (PairSites::CrossSite, cross)] {
                match rule {
                    Some(r) => outln!(
                        "best at {name}, {k}-word shingles, {}: J ≥ {:.2} or C ≥ {:.2} at size ratio ≥ {:.1}: P {:.3} R {:.3} FPR {:.1}%",
                        sites.name(),
                        r.resemblance,
                        r.containment,
                        r.min_ratio,
                        r.metrics.precision,
                        r.metrics.recall,
                        100.0 * r.metrics.false_positive_rate
                    ),
                    None => outln!("best at {name}, {k}-word shingles, {}: no rule reaches it", sites.name()),
                }
            }
        }
    }
    if let Some(dir) = report_dir {
        write_replica_report(&report, &dir, &command_line())?;
        if !args.json {
            outln!("report written to {}", dir.join("report.md").display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
