use crate::commands::prelude::*;

#[derive(Subcommand)]
pub enum ClassifyCommand {
    /// Train a classifier on labelled texts and pages and write the model file.
    #[command(long_about = "Train a classifier and write the model file (for `indexer build \
        --classifier MODEL`).\n\n\
        --labels is a file of url-or-path<TAB>code lines (a URL names a page of the crawl \
        given with --pages; a path a .txt or .html file relative to the labels file) or a \
        folder with one sub-folder per code. Pages are cleaned first: the model learns from \
        their DocView topic content, as the build classifies it. Give --labels several times \
        to combine sets.\n\n\
        The default model is retrained with:\n  indexer classify train --labels \
        eval/classify/sample-labels.tsv --labels eval/classify/extra --labels \
        eval/classify/wordnet --pages eval/sample-corpus/pages --config \
        eval/classify/default-model.toml --out src/classify/data/default-model.bin")]
    Train(ClassifyTrainArgs),
    /// Cross-validated accuracy of a training recipe, and the confidence threshold it
    /// supports.
    #[command(long_about = "Cross-validate a training recipe on its own labelled set: the \
        texts are dealt into folds by group (a page's site, since the pages of one site share \
        template and topics; a text file alone), each fold is classified by a model trained \
        on the others with the same --config, and the held-out predictions are scored.\n\n\
        Prints the accuracy and macro-F1, then for each confidence threshold how many codes \
        a build would keep and how many of them are right, and the threshold that maximises \
        right minus wrong codes (for `classify.min_confidence`). Takes the options of \
        `classify train` except --out.")]
    Cv(ClassifyCvArgs),
    /// Accuracy and macro-F1 on THUCNews titles (dev → test) and AG News (5-fold CV).
    Eval(ClassifyEvalArgs),
    /// Classify a text: every category's confidence, best first.
    Text(ClassifyTextArgs),
}

#[derive(Args)]
pub struct ClassifyTextArgs {
    /// The text (`-`: read it from stdin).
    pub text: String,
    /// A model file [default: the built-in model].
    #[arg(long, value_name = "MODEL")]
    pub classifier: Option<PathBuf>,
}

#[derive(Args)]
pub struct ClassifyTrainArgs {
    /// A labels file (url-or-path<TAB>code lines) or a folder per class; repeatable.
    #[arg(long, required = true, value_name = "FILE|DIR")]
    pub labels: Vec<PathBuf>,
    /// The crawl holding the labelled URLs (folder with urls.tsv, WARC, JSON Lines); repeatable.
    #[arg(long, value_name = "INPUT")]
    pub pages: Vec<PathBuf>,
    /// The category scheme (code<TAB>name lines) [default: the paper's Table 1, 01–12].
    #[arg(long, value_name = "FILE")]
    pub scheme: Option<PathBuf>,
    /// A TOML file overriding parameters ([classify] section; see `indexer config`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Where to write the model.
    #[arg(long, value_name = "MODEL")]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct ClassifyCvArgs {
    /// A labels file (url-or-path<TAB>code lines) or a folder per class; repeatable.
    #[arg(long, required = true, value_name = "FILE|DIR")]
    pub labels: Vec<PathBuf>,
    /// The crawl holding the labelled URLs (folder with urls.tsv, WARC, JSON Lines); repeatable.
    #[arg(long, value_name = "INPUT")]
    pub pages: Vec<PathBuf>,
    /// The category scheme (code<TAB>name lines) [default: the paper's Table 1, 01–12].
    #[arg(long, value_name = "FILE")]
    pub scheme: Option<PathBuf>,
    /// A TOML file overriding parameters ([classify] section; see `indexer config`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Number of folds.
    #[arg(long, default_value_t = 5, value_name = "K")]
    pub folds: usize,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ClassifyEvalArgs {
    /// The folder of the shared classification sets.
    #[arg(long, default_value = "../shared/data/classify", value_name = "DIR")]
    pub data: PathBuf,
    /// A TOML file overriding parameters ([classify] section).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Only N documents of each file, evenly spaced (a quick run).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Print one JSON object per set (JSON Lines).
    #[arg(long)]
    pub json: bool,
    /// The tuning protocol: 5-fold cross-validation inside THUCNews dev.txt only (test.txt
    /// is not read), for choosing parameters without looking at the test split.
    #[arg(long)]
    pub tuning: bool,
}

/// The labelled examples of `classify train` and `classify cv`, with each one's origin.
fn labelled_examples(
    labels: &[PathBuf],
    pages: &[PathBuf],
    scheme: &indexer::classify::CategoryScheme,
    config: &Config,
) -> Result<(Vec<indexer::classify::train::Example>, Vec<String>)> {
    use indexer::classify::labels::read_labels;
    use indexer::classify::train::Example;

    let mut labelled = Vec::new();
    for path in labels {
        labelled.extend(read_labels(path, pages, config)?);
    }
    let settings = config.classify.feature_settings();
    let mut examples = Vec::new();
    let mut origins = Vec::new();
    for item in labelled {
        let class = scheme
            .index_of(&item.code)
            .with_context(|| format!("{}: code {:?} is not in the category scheme", item.origin, item.code))?;
        examples.push(Example { features: settings.extract(&item.text), class });
        origins.push(item.origin);
    }
    Ok((examples, origins))
}

fn scheme_of(path: Option<&Path>) -> Result<indexer::classify::CategoryScheme> {
    Ok(match path {
        Some(path) => indexer::classify::CategoryScheme::from_file(path)?,
        None => indexer::classify::CategoryScheme::table1(),
    })
}

fn train(args: ClassifyTrainArgs) -> Result<ExitCode> {
    use indexer::classify::train::train;

    let config = load_config(args.config.as_deref())?;
    let scheme = scheme_of(args.scheme.as_deref())?;
    let started = std::time::Instant::now();
    let (examples, _) = labelled_examples(&args.labels, &args.pages, &scheme, &config)?;
    let model = train(&scheme, &examples, &config.classify)?;
    model.write(&args.out)?;
    let per_class: Vec<String> = scheme
        .categories
        .iter()
        .zip(model.documents())
        .map(|(category, n)| format!("{} {}", category.code, n))
        .collect();
    outln!(
        "trained {} on {} texts ({}) in {:.2} s: {} features; model written to {}",
        config.classify.algorithm,
        examples.len(),
        per_class.join(", "),
        started.elapsed().as_secs_f64(),
        model.vocabulary_size(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn cv(args: ClassifyCvArgs) -> Result<ExitCode> {
    use indexer::classify::eval::{best_threshold, cross_validate_grouped, group_of, scores, threshold_table};

    let config = load_config(args.config.as_deref())?;
    let scheme = scheme_of(args.scheme.as_deref())?;
    let (examples, origins) = labelled_examples(&args.labels, &args.pages, &scheme, &config)?;
    let groups: Vec<String> = origins.iter().map(|o| group_of(o)).collect();
    let held_out = cross_validate_grouped(&scheme, &examples, &groups, args.folds, &config.classify)?;
    let truth: Vec<usize> = held_out.iter().map(|h| h.truth).collect();
    let predicted: Vec<usize> = held_out.iter().map(|h| h.predicted).collect();
    let s = scores(&truth, &predicted, scheme.len());
    let table = threshold_table(&held_out);
    let best = best_threshold(&table);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let value = serde_json::json!({
            "folds": args.folds.max(2),
            "examples": held_out.len(),
            "accuracy": s.accuracy,
            "macro_f1": s.macro_f1,
            "thresholds": table,
            "best_min_confidence": best.map(|b| b.min_confidence),
        });
        writeln!(out, "{value}")?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{}-fold cross-validation by group on {} texts: accuracy {:.1}%, macro-F1 {:.1}%",
        args.folds.max(2),
        held_out.len(),
        100.0 * s.accuracy,
        100.0 * s.macro_f1
    )?;
    writeln!(out, "min_confidence  coded  right  wrong  right-wrong")?;
    for row in &table {
        writeln!(
            out,
            "{:>14.2}  {:>5}  {:>5}  {:>5}  {:>11}",
            row.min_confidence,
            row.coded,
            row.right,
            row.wrong,
            row.right as i64 - row.wrong as i64
        )?;
    }
    if let Some(best) = best {
        writeln!(out, "most right minus wrong codes at min_confidence = {:.2}", best.min_confidence)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn text(args: ClassifyTextArgs) -> Result<ExitCode> {
    let loaded = args.classifier.as_deref().map(indexer::classify::Model::from_file).transpose()?;
    let model = match &loaded {
        Some(model) => model,
        None => indexer::classify::default_model()?,
    };
    let text = if args.text == "-" { std::io::read_to_string(std::io::stdin())? } else { args.text };
    let features = model.features().extract(&text);
    if features.is_empty() {
        bail!(
            "nothing to classify: {text:?} has no word the model reads (it is empty, or only stop words and \
             punctuation); give the text to classify"
        );
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (category, confidence) in model.confidences(&features) {
        writeln!(out, "{}\t{:.3}\t{}", category.code, confidence, category.name)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn eval(args: ClassifyEvalArgs) -> Result<ExitCode> {
    let config = load_config(args.config.as_deref())?;
    let results = if args.tuning {
        indexer::classify::eval::evaluate_tuning(&args.data, &config.classify, args.limit)?
    } else {
        indexer::classify::eval::evaluate_shared(&args.data, &config.classify, args.limit)?
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for r in &results {
        if args.json {
            writeln!(out, "{}", serde_json::to_string(r)?)?;
        } else {
            let spread = if r.accuracy_std > 0.0 { format!(" ±{:.1}", 100.0 * r.accuracy_std) } else { String::new() };
            writeln!(
                out,
                "{:<16} {:<34} accuracy {:.1}%{}  macro-F1 {:.1}%  mean confidence {:.1}%  train {:.2} s ({} docs)  test {:.2} s ({} docs)",
                r.set,
                r.protocol,
                100.0 * r.accuracy,
                spread,
                100.0 * r.macro_f1,
                100.0 * r.mean_confidence,
                r.train_seconds,
                r.train_documents,
                r.test_seconds,
                r.test_documents
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(command: ClassifyCommand) -> Result<ExitCode> {
    match command {
        ClassifyCommand::Train(args) => train(args),
        ClassifyCommand::Cv(args) => cv(args),
        ClassifyCommand::Text(args) => text(args),
        ClassifyCommand::Eval(args) => eval(args),
    }
}
