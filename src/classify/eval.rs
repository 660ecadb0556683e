//! Evaluation on public labelled sets: accuracy and macro-F1 (the paper's F1, Formula 6,
//! averaged over classes), with the protocols of `../shared/data/classify/README.md`:
//!
//! - THUCNews titles (Chinese, 10 classes): train on `dev.txt`, test on `test.txt`;
//! - AG News test (English, 4 classes): 5-fold cross-validation.
//!
//! Training time counts feature extraction of the training texts and the fit.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::features::SparseVector;
use super::train::{Example, SplitMix64, shuffle, train};
use super::{Category, CategoryScheme, ClassifyError, Model};
use crate::config::ClassifyConfig;

/// Texts with their classes.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub scheme: CategoryScheme,
    pub texts: Vec<String>,
    pub classes: Vec<usize>,
}

/// Accuracy and macro-F1 of one prediction run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scores {
    pub accuracy: f64,
    /// Mean over classes of F1 = 2PR / (P + R) (§7.1, Formulas 4–6); a class never
    /// predicted and never present is left out, one never predicted has F1 0.
    pub macro_f1: f64,
    /// Mean confidence of the predictions: close to the accuracy when the confidence is
    /// calibrated.
    pub mean_confidence: f64,
}

/// The result of one protocol on one set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalResult {
    pub set: String,
    pub protocol: String,
    pub algorithm: String,
    pub train_documents: usize,
    pub test_documents: usize,
    pub accuracy: f64,
    /// Standard deviation of the accuracy over folds (0 for a single split).
    pub accuracy_std: f64,
    pub macro_f1: f64,
    /// Mean confidence of the predictions (compare with the accuracy).
    pub mean_confidence: f64,
    /// Seconds per training (feature extraction + fit), mean over folds.
    pub train_seconds: f64,
    /// Seconds per test pass (feature extraction + prediction), mean over folds.
    pub test_seconds: f64,
}

/// Accuracy and macro-F1 of predictions against the truth.
pub fn scores(truth: &[usize], predicted: &[usize], classes: usize) -> Scores {
    scores_with_confidence(truth, predicted, &[], classes)
}

/// [`scores`], with the mean of the predictions' confidences.
pub fn scores_with_confidence(truth: &[usize], predicted: &[usize], confidences: &[f32], classes: usize) -> Scores {
    let mut true_positive = vec![0usize; classes];
    let mut predicted_count = vec![0usize; classes];
    let mut actual_count = vec![0usize; classes];
    for (&t, &p) in truth.iter().zip(predicted) {
        if t < classes && p < classes {
            actual_count[t] += 1;
            predicted_count[p] += 1;
            true_positive[t] += usize::from(t == p);
        }
    }
    let correct: usize = true_positive.iter().sum();
    let accuracy = if truth.is_empty() { 0.0 } else { correct as f64 / truth.len() as f64 };
    let f1s: Vec<f64> = (0..classes)
        .filter(|&c| actual_count[c] + predicted_count[c] > 0)
        .map(|c| {
            let tp = true_positive[c] as f64;
            let (p, r) = (tp / predicted_count[c].max(1) as f64, tp / actual_count[c].max(1) as f64);
            if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 }
        })
        .collect();
    let macro_f1 = if f1s.is_empty() { 0.0 } else { f1s.iter().sum::<f64>() / f1s.len() as f64 };
    let mean_confidence = if confidences.is_empty() {
        0.0
    } else {
        confidences.iter().map(|&c| f64::from(c)).sum::<f64>() / confidences.len() as f64
    };
    Scores { accuracy, macro_f1, mean_confidence }
}

fn extract_all(texts: &[&str], config: &ClassifyConfig) -> Vec<SparseVector> {
    let settings = config.feature_settings();
    texts.par_iter().map(|t| settings.extract(t)).collect()
}

/// Trains on one part and tests on another; returns the scores and the two timings.
fn train_and_test(
    scheme: &CategoryScheme,
    train_set: (&[&str], &[usize]),
    test_set: (&[&str], &[usize]),
    config: &ClassifyConfig,
) -> Result<(Scores, f64, f64), ClassifyError> {
    let started = Instant::now();
    let examples: Vec<Example> = extract_all(train_set.0, config)
        .into_iter()
        .zip(train_set.1)
        .map(|(features, &class)| Example { features, class })
        .collect();
    let model = train(scheme, &examples, config)?;
    let train_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let (predicted, confidences) = predict_all(&model, test_set.0);
    let test_seconds = started.elapsed().as_secs_f64();
    Ok((scores_with_confidence(test_set.1, &predicted, &confidences, scheme.len()), train_seconds, test_seconds))
}

/// The class index and confidence of each text.
fn predict_all(model: &Model, texts: &[&str]) -> (Vec<usize>, Vec<f32>) {
    let settings = model.features();
    texts
        .par_iter()
        .map(|t| {
            let features = settings.extract(t);
            let confidence = model.classify(&features).map_or(0.0, |p| p.confidence);
            (model.predict_index(&features), confidence)
        })
        .unzip()
}

/// Trains on `train_set`, tests on `test_set`.
pub fn holdout(
    set: &str,
    train_set: &Dataset,
    test_set: &Dataset,
    config: &ClassifyConfig,
) -> Result<EvalResult, ClassifyError> {
    let train_texts: Vec<&str> = train_set.texts.iter().map(String::as_str).collect();
    let test_texts: Vec<&str> = test_set.texts.iter().map(String::as_str).collect();
    let (s, train_seconds, test_seconds) = train_and_test(
        &train_set.scheme,
        (&train_texts, &train_set.classes),
        (&test_texts, &test_set.classes),
        config,
    )?;
    Ok(EvalResult {
        set: set.to_string(),
        protocol: "train on dev.txt, test on test.txt".into(),
        algorithm: config.algorithm.clone(),
        train_documents: train_texts.len(),
        test_documents: test_texts.len(),
        accuracy: s.accuracy,
        accuracy_std: 0.0,
        macro_f1: s.macro_f1,
        mean_confidence: s.mean_confidence,
        train_seconds,
        test_seconds,
    })
}

/// k-fold cross-validation: the documents are shuffled (seeded) and dealt into k folds.
pub fn cross_validate(
    set: &str,
    data: &Dataset,
    folds: usize,
    config: &ClassifyConfig,
) -> Result<EvalResult, ClassifyError> {
    let folds = folds.max(2);
    let mut order: Vec<usize> = (0..data.texts.len()).collect();
    shuffle(&mut order, &mut SplitMix64(config.seed));
    let mut fold_scores = Vec::new();
    let (mut train_seconds, mut test_seconds) = (0.0, 0.0);
    let (mut train_documents, mut test_documents) = (0, 0);
    for fold in 0..folds {
        let (mut train_texts, mut train_classes, mut test_texts, mut test_classes) = (vec![], vec![], vec![], vec![]);
        for (position, &i) in order.iter().enumerate() {
            if position % folds == fold {
                test_texts.push(data.texts[i].as_str());
                test_classes.push(data.classes[i]);
            } else {
                train_texts.push(data.texts[i].as_str());
                train_classes.push(data.classes[i]);
            }
        }
        let (s, train_s, test_s) =
            train_and_test(&data.scheme, (&train_texts, &train_classes), (&test_texts, &test_classes), config)?;
        fold_scores.push(s);
        train_seconds += train_s;
        test_seconds += test_s;
        train_documents = train_texts.len();
        test_documents = test_texts.len();
    }
    let n = folds as f64;
    let accuracy = fold_scores.iter().map(|s| s.accuracy).sum::<f64>() / n;
    let variance = fold_scores.iter().map(|s| (s.accuracy - accuracy).powi(2)).sum::<f64>() / n;
    Ok(EvalResult {
        set: set.to_string(),
        protocol: format!("{folds}-fold cross-validation"),
        algorithm: config.algorithm.clone(),
        train_documents,
        test_documents,
        accuracy,
        accuracy_std: variance.sqrt(),
        macro_f1: fold_scores.iter().map(|s| s.macro_f1).sum::<f64>() / n,
        mean_confidence: fold_scores.iter().map(|s| s.mean_confidence).sum::<f64>() / n,
        train_seconds: train_seconds / n,
        test_seconds: test_seconds / n,
    })
}

fn read(path: &Path) -> Result<String, ClassifyError> {
    std::fs::read_to_string(path).map_err(|source| ClassifyError::Io { path: path.display().to_string(), source })
}

fn bad_data(path: &Path, line: usize, message: &str) -> ClassifyError {
    ClassifyError::Data { origin: format!("{}:{line}", path.display()), message: message.to_string() }
}

/// At most `limit` items, evenly spaced over the whole list: `test.txt` is sorted by class,
/// so its first lines would be one or two classes only.
fn spread<T>(items: Vec<T>, limit: Option<usize>) -> Vec<T> {
    match limit {
        Some(limit) if limit < items.len() => {
            let total = items.len();
            let mut keep = (0..limit).map(|i| i * total / limit).peekable();
            items
                .into_iter()
                .enumerate()
                .filter_map(|(i, item)| (keep.peek() == Some(&i)).then(|| keep.next()).map(|_| item))
                .collect()
        }
        _ => items,
    }
}

/// The THUCNews title set: `class.txt` (one class name per line, ids from 0) and a split
/// (`dev.txt`, `test.txt`) of `title<TAB>id` lines; at most `limit` lines, evenly spaced.
pub fn read_thucnews(dir: &Path, split: &str, limit: Option<usize>) -> Result<Dataset, ClassifyError> {
    let names = read(&dir.join("class.txt"))?;
    let categories: Vec<Category> = names
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(i, name)| Category { code: i.to_string(), name: name.to_string() })
        .collect();
    let scheme = CategoryScheme { categories };
    let path = dir.join(split);
    let text = read(&path)?;
    let (mut texts, mut classes) = (Vec::new(), Vec::new());
    for (number, line) in spread(text.lines().enumerate().collect(), limit) {
        let (title, id) = line.rsplit_once('\t').ok_or_else(|| bad_data(&path, number + 1, "expected title<TAB>id"))?;
        let class =
            scheme.index_of(id.trim()).ok_or_else(|| bad_data(&path, number + 1, "class id not in class.txt"))?;
        texts.push(title.to_string());
        classes.push(class);
    }
    Ok(Dataset { scheme, texts, classes })
}

/// The AG News CSV (`label,title,description`, header line, labels 1–4): the text of a
/// row is its title and description; at most `limit` rows, evenly spaced.
pub fn read_ag_news(path: &Path, limit: Option<usize>) -> Result<Dataset, ClassifyError> {
    let names = ["World", "Sports", "Business", "Sci/Tech"];
    let categories =
        names.iter().enumerate().map(|(i, n)| Category { code: (i + 1).to_string(), name: n.to_string() }).collect();
    let scheme = CategoryScheme { categories };
    let text = read(path)?;
    let (mut texts, mut classes) = (Vec::new(), Vec::new());
    for (number, row) in spread(csv_rows(&text).into_iter().enumerate().skip(1).collect(), limit) {
        let [label, title, description] = row.as_slice() else {
            return Err(bad_data(path, number + 1, "expected label,title,description"));
        };
        let class = scheme.index_of(label.trim()).ok_or_else(|| bad_data(path, number + 1, "label is not 1-4"))?;
        // The set writes line breaks in descriptions as a backslash.
        texts.push(format!("{title}\n{}", description.replace('\\', " ")));
        classes.push(class);
    }
    Ok(Dataset { scheme, texts, classes })
}

/// RFC 4180 rows: fields separated by commas, quoted fields may hold commas, line breaks
/// and doubled quotes.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// Both protocols on the shared data folder (`../shared/data/classify`); at most `limit`
/// documents of each file, evenly spaced (for quick runs and tests).
pub fn evaluate_shared(
    data: &Path,
    config: &ClassifyConfig,
    limit: Option<usize>,
) -> Result<Vec<EvalResult>, ClassifyError> {
    let thuc = data.join("thucnews-titles-10class");
    let dev = read_thucnews(&thuc, "dev.txt", limit)?;
    let test = read_thucnews(&thuc, "test.txt", limit)?;
    let ag = read_ag_news(&data.join("ag_news-test/test.csv"), limit)?;
    Ok(vec![holdout("THUCNews titles", &dev, &test, config)?, cross_validate("AG News test", &ag, 5, config)?])
}

/// The tuning protocol: 5-fold cross-validation inside THUCNews `dev.txt`, so that
/// parameters are chosen without reading `test.txt`. (AG News has no split to tune on: its
/// protocol is already cross-validation over the whole file.)
pub fn evaluate_tuning(
    data: &Path,
    config: &ClassifyConfig,
    limit: Option<usize>,
) -> Result<Vec<EvalResult>, ClassifyError> {
    let dev = read_thucnews(&data.join("thucnews-titles-10class"), "dev.txt", limit)?;
    Ok(vec![cross_validate("THUCNews dev", &dev, 5, config)?])
}

/// One held-out prediction of [`cross_validate_grouped`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HeldOut {
    pub truth: usize,
    pub predicted: usize,
    pub confidence: f32,
}

/// The group of a labelled text for cross-validation: a page's site (the host of its URL),
/// since the pages of one site share their template and topics and would otherwise teach
/// the model the held-out site; anything else (a text file) is its own group.
pub fn group_of(origin: &str) -> String {
    url::Url::parse(origin)
        .ok()
        .and_then(|url| url.host_str().map(str::to_string))
        .unwrap_or_else(|| origin.to_string())
}

/// k-fold cross-validation with whole groups held out (see [`group_of`]): the groups are
/// shuffled (seeded) and dealt into `folds` folds, a model is trained on the other folds,
/// and every example gets its held-out prediction, in input order.
pub fn cross_validate_grouped(
    scheme: &CategoryScheme,
    examples: &[Example],
    groups: &[String],
    folds: usize,
    config: &ClassifyConfig,
) -> Result<Vec<HeldOut>, ClassifyError> {
    let folds = folds.max(2);
    let mut names: Vec<&str> = groups.iter().map(String::as_str).collect();
    names.sort_unstable();
    names.dedup();
    shuffle(&mut names, &mut SplitMix64(config.seed));
    let fold_of: std::collections::HashMap<&str, usize> =
        names.iter().enumerate().map(|(i, &name)| (name, i % folds)).collect();
    let mut out: Vec<Option<HeldOut>> = vec![None; examples.len()];
    for fold in 0..folds {
        let in_fold = |i: usize| groups.get(i).and_then(|g| fold_of.get(g.as_str())) == Some(&fold);
        let training: Vec<Example> =
            examples.iter().enumerate().filter(|&(i, _)| !in_fold(i)).map(|(_, e)| e.clone()).collect();
        if training.is_empty() {
            continue;
        }
        let model = train(scheme, &training, config)?;
        for (i, example) in examples.iter().enumerate().filter(|&(i, _)| in_fold(i)) {
            let confidence = model.classify(&example.features).map_or(0.0, |p| p.confidence);
            out[i] =
                Some(HeldOut { truth: example.class, predicted: model.predict_index(&example.features), confidence });
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// What a confidence threshold does to held-out predictions: a prediction below it leaves
/// the code empty.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ThresholdRow {
    pub min_confidence: f32,
    /// Predictions kept (coded).
    pub coded: usize,
    /// Of those, right.
    pub right: usize,
    /// Of those, wrong.
    pub wrong: usize,
}

/// [`ThresholdRow`]s at thresholds 0, 0.05, …, 0.95.
pub fn threshold_table(held_out: &[HeldOut]) -> Vec<ThresholdRow> {
    (0..20)
        .map(|step| {
            let min_confidence = step as f32 * 0.05;
            let coded: Vec<&HeldOut> = held_out.iter().filter(|h| h.confidence >= min_confidence).collect();
            let right = coded.iter().filter(|h| h.truth == h.predicted).count();
            ThresholdRow { min_confidence, coded: coded.len(), right, wrong: coded.len() - right }
        })
        .collect()
}

/// The threshold that maximises right minus wrong codes (a wrong code misleads a reader and
/// a `--category` filter as much as a right one helps; an empty code does neither); the
/// lowest such threshold on ties.
pub fn best_threshold(table: &[ThresholdRow]) -> Option<ThresholdRow> {
    table.iter().copied().max_by(|a, b| {
        let net = |r: &ThresholdRow| r.right as i64 - r.wrong as i64;
        net(a).cmp(&net(b)).then(b.min_confidence.total_cmp(&a.min_confidence))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accuracy_and_macro_f1() {
        let s = scores(&[0, 0, 1, 1], &[0, 1, 1, 1], 2);
        assert_eq!(s.accuracy, 0.75);
        // Class 0: P 1, R 0.5, F1 2/3; class 1: P 2/3, R 1, F1 0.8.
        assert!((s.macro_f1 - (2.0 / 3.0 + 0.8) / 2.0).abs() < 1e-12);
        assert_eq!(scores(&[], &[], 3).accuracy, 0.0);
    }

    #[test]
    fn limits_spread_over_the_whole_list() {
        assert_eq!(spread((0..10).collect(), Some(3)), [0, 3, 6]);
        assert_eq!(spread((0..4).collect(), Some(10)), [0, 1, 2, 3]);
        assert_eq!(spread((0..4).collect::<Vec<i32>>(), None).len(), 4);
    }

    #[test]
    fn csv_quotes_commas_and_doubled_quotes() {
        let rows = csv_rows("label,title\n1,\"a, b\"\n2,\"say \"\"hi\"\"\"\r\n3,plain");
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[1], ["1", "a, b"]);
        assert_eq!(rows[2], ["2", "say \"hi\""]);
        assert_eq!(rows[3], ["3", "plain"]);
    }

    #[test]
    fn groups_are_sites_for_pages_and_files_alone() {
        assert_eq!(group_of("https://www.techwire.example/news/1.html"), "www.techwire.example");
        assert_eq!(group_of("https://www.techwire.example/reviews/2.html"), "www.techwire.example");
        assert_eq!(
            group_of("eval/classify/extra/05/compiler-design-en.txt"),
            "eval/classify/extra/05/compiler-design-en.txt"
        );
    }

    #[test]
    fn the_threshold_maximises_right_minus_wrong() {
        let held = |truth, predicted, confidence| HeldOut { truth, predicted, confidence };
        // Two sure right codes, two unsure wrong ones and one unsure right one.
        let held_out = [held(0, 0, 0.9), held(1, 1, 0.8), held(0, 1, 0.3), held(1, 0, 0.35), held(1, 1, 0.32)];
        let table = threshold_table(&held_out);
        assert_eq!(table[0], ThresholdRow { min_confidence: 0.0, coded: 5, right: 3, wrong: 2 });
        let best = best_threshold(&table).unwrap();
        // At 0.40 the three unsure codes go: 2 right, 0 wrong (net 2 against 1 at 0).
        assert_eq!((best.coded, best.right, best.wrong), (2, 2, 0));
        assert!((best.min_confidence - 0.4).abs() < 1e-6, "{best:?}");
        assert_eq!(best_threshold(&[]), None);
    }

    #[test]
    fn grouped_cross_validation_predicts_every_text_from_other_groups() {
        let scheme = CategoryScheme::parse("a\tA\nb\tB\n", "test").unwrap();
        let config = ClassifyConfig { calibration_folds: 0, ..ClassifyConfig::default() };
        let settings = config.feature_settings();
        let texts = [
            ("site-1", "football match goal league team", 0),
            ("site-1", "football team wins league match", 0),
            ("site-2", "tennis match final set team", 0),
            ("site-3", "bake bread dough oven loaf", 1),
            ("site-3", "soup lentils onions oven bread", 1),
            ("site-4", "cake flour sugar oven bake", 1),
        ];
        let examples: Vec<Example> =
            texts.iter().map(|&(_, text, class)| Example { features: settings.extract(text), class }).collect();
        let groups: Vec<String> = texts.iter().map(|&(group, _, _)| group.to_string()).collect();
        let held_out = cross_validate_grouped(&scheme, &examples, &groups, 2, &config).unwrap();
        assert_eq!(held_out.len(), texts.len());
        assert_eq!(held_out.iter().map(|h| h.truth).collect::<Vec<_>>(), vec![0, 0, 0, 1, 1, 1]);
        assert!(held_out.iter().filter(|h| h.truth == h.predicted).count() >= 4, "{held_out:?}");
        assert!(held_out.iter().all(|h| (0.0..=1.0).contains(&h.confidence)));
    }
}
