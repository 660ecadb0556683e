//! Training: multinomial Naive Bayes, a one-vs-rest linear SVM (dual coordinate descent),
//! the SVM over Naive Bayes log-count ratios (NB-SVM), and NB-SVM with Naive Bayes beside
//! it (their calibrated probabilities averaged), all over sparse hashed features.
//!
//! Why not a crate: linfa-bayes' `MultinomialNb`, linfa-svm, linfa-logistic and smartcore's
//! `MultinomialNB` all take dense matrices (ndarray `Array2` / smartcore `Array2`), which
//! for 10,000 documents × 2^20 hashed features would be 40 GB of f32; none takes the
//! sparse rows text classification needs. Both algorithms are short over sparse vectors.

use super::features::SparseVector;
use super::model::{Algorithm, Member, Model, Weighting, weigh_tf_idf};
use super::{CategoryScheme, ClassifyError};
use crate::config::ClassifyConfig;

/// A training document: its feature vector and its class (index in the scheme).
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub features: SparseVector,
    pub class: usize,
}

/// Trains a model of `scheme` on `examples` with the parameters of `config`, and calibrates
/// its confidence (see `calibrate`).
pub fn train(scheme: &CategoryScheme, examples: &[Example], config: &ClassifyConfig) -> Result<Model, ClassifyError> {
    let mut model = fit(scheme, examples, config)?;
    if let Some(sharpness) = calibrate(scheme, examples, config)? {
        for (member, beta) in sharpness.into_iter().enumerate() {
            model.set_sharpness(member, beta);
        }
    }
    Ok(model)
}

/// Confidence calibration by temperature scaling (Guo et al., ICML 2017), per member: a
/// member's probabilities are softmax(β × scores), with the one β that minimises the log
/// loss of its held-out predictions, obtained by `calibration_folds`-fold cross-validation
/// on the training set. Raw SVM margins lie around ±1, so with β = 1 twelve classes all get
/// about 1/12; Naive Bayes scores, sums of hundreds of log-probabilities, are
/// over-confident. The log loss is convex in β, so a ternary search over ln β finds it. A
/// one-member model's chosen code is unchanged by β; a several-member model's mean needs
/// each member calibrated to weigh them fairly. `None` when there are too few examples to
/// hold any out.
fn calibrate(
    scheme: &CategoryScheme,
    examples: &[Example],
    config: &ClassifyConfig,
) -> Result<Option<Vec<f32>>, ClassifyError> {
    let folds = config.calibration_folds;
    if folds < 2 || examples.len() < 2 * folds {
        return Ok(None);
    }
    let mut order: Vec<usize> = (0..examples.len()).collect();
    shuffle(&mut order, &mut SplitMix64(config.seed ^ 0xca1b));
    // Per member, (scores, true class) of every held-out example whose class the fold's
    // model knows.
    let mut held_out: Vec<Vec<(Vec<f32>, usize)>> = Vec::new();
    for fold in 0..folds {
        let (mut training, mut testing) = (Vec::new(), Vec::new());
        for (position, &i) in order.iter().enumerate() {
            if position % folds == fold { testing.push(&examples[i]) } else { training.push(examples[i].clone()) }
        }
        let Ok(model) = fit(scheme, &training, config) else { continue };
        held_out.resize(model.members(), Vec::new());
        for example in testing {
            if model.documents().get(example.class).is_some_and(|&n| n > 0) {
                for (member, scores) in held_out.iter_mut().enumerate() {
                    scores.push((model.member_scores(member, &example.features), example.class));
                }
            }
        }
    }
    if held_out.iter().all(Vec::is_empty) {
        return Ok(None);
    }
    Ok(Some(held_out.iter().map(|member| temperature(member)).collect()))
}

/// The β minimising the log loss of softmax(β × scores) over `held_out` (scores, class).
fn temperature(held_out: &[(Vec<f32>, usize)]) -> f32 {
    let log_loss = |beta: f64| -> f64 {
        held_out
            .iter()
            .map(|(scores, class)| {
                let top = scores.iter().fold(f64::NEG_INFINITY, |m, &s| m.max(beta * f64::from(s)));
                let sum: f64 = scores.iter().map(|&s| (beta * f64::from(s) - top).exp()).sum();
                top + sum.ln() - beta * f64::from(scores[*class])
            })
            .sum()
    };
    let (mut low, mut high) = ((1e-4f64).ln(), (1e4f64).ln());
    for _ in 0..80 {
        let (a, b) = (low + (high - low) / 3.0, high - (high - low) / 3.0);
        if log_loss(a.exp()) <= log_loss(b.exp()) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp() as f32
}

/// Fits the model, without calibration.
fn fit(scheme: &CategoryScheme, examples: &[Example], config: &ClassifyConfig) -> Result<Model, ClassifyError> {
    let algorithm = config.algorithm;
    let classes = scheme.len();
    let mut documents = vec![0usize; classes];
    for example in examples {
        let count = documents.get_mut(example.class).ok_or_else(|| ClassifyError::Training {
            message: format!("example of class {} outside the scheme's {classes}", example.class),
        })?;
        *count += 1;
    }
    if documents.iter().filter(|&&n| n > 0).count() < 2 {
        return Err(ClassifyError::Training { message: "training needs examples of at least two classes".into() });
    }

    // The vocabulary: buckets in at least `min_document_frequency` training documents.
    let mut document_frequency: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for example in examples {
        for &(bucket, _) in &example.features {
            *document_frequency.entry(bucket).or_default() += 1;
        }
    }
    let min_df = config.min_document_frequency.max(1) as u32;
    let mut buckets: Vec<u32> = document_frequency.iter().filter(|&(_, &df)| df >= min_df).map(|(&b, _)| b).collect();
    buckets.sort_unstable();
    let rows = |vector: &SparseVector| -> Vec<(usize, f32)> {
        vector.iter().filter_map(|&(b, v)| buckets.binary_search(&b).ok().map(|row| (row, v))).collect()
    };

    let naive_bayes_member = || {
        let inputs: Vec<(Vec<(usize, f32)>, usize)> = examples.iter().map(|e| (rows(&e.features), e.class)).collect();
        let (bias, weights) = naive_bayes(&inputs, &documents, buckets.len(), config.nb_alpha as f32);
        Member { weighting: Weighting::Counts, bias, weights }
    };
    // Smoothed idf, as scikit-learn's TfidfTransformer: ln((1 + n) / (1 + df)) + 1.
    let n = examples.len() as f32;
    let idf: Vec<f32> = buckets.iter().map(|b| ((1.0 + n) / (1.0 + document_frequency[b] as f32)).ln() + 1.0).collect();
    let svm_member = |nb_ratio: bool| {
        let inputs: Vec<(Vec<(usize, f32)>, usize)> = examples
            .iter()
            .map(|e| {
                let mut input = rows(&e.features);
                weigh_tf_idf(&mut input, |row| idf[row]);
                (input, e.class)
            })
            .collect();
        let (bias, weights) = linear_svm(&inputs, &documents, buckets.len(), config, nb_ratio);
        Member { weighting: Weighting::TfIdf, bias, weights }
    };
    let members = match algorithm {
        Algorithm::NaiveBayes => vec![naive_bayes_member()],
        Algorithm::LinearSvm => vec![svm_member(false)],
        Algorithm::NbSvm => vec![svm_member(true)],
        Algorithm::NbSvmPlusNb => vec![svm_member(true), naive_bayes_member()],
    };
    let idf = if members.iter().any(|m| m.weighting == Weighting::TfIdf) { idf } else { Vec::new() };
    Ok(Model::new(scheme.clone(), config.feature_settings(), algorithm, documents, buckets, idf, members))
}

/// Log-probability of a class that has no training document: never chosen.
const ABSENT_CLASS: f32 = -1.0e9;

/// Multinomial Naive Bayes: bias = ln P(class), weight = ln P(term | class) with additive
/// smoothing α over the vocabulary. Returns (bias per class, weights bucket-major).
fn naive_bayes(
    inputs: &[(Vec<(usize, f32)>, usize)],
    documents: &[usize],
    vocabulary: usize,
    alpha: f32,
) -> (Vec<f32>, Vec<f32>) {
    let classes = documents.len();
    let mut counts = vec![0f32; vocabulary * classes];
    let mut totals = vec![0f32; classes];
    for (input, class) in inputs {
        for &(row, value) in input {
            counts[row * classes + class] += value;
            totals[*class] += value;
        }
    }
    let all: usize = documents.iter().sum();
    let bias = documents.iter().map(|&n| if n == 0 { ABSENT_CLASS } else { (n as f32 / all as f32).ln() }).collect();
    let alpha = alpha.max(1e-6);
    for (i, weight) in counts.iter_mut().enumerate() {
        let class = i % classes;
        *weight = ((*weight + alpha) / (totals[class] + alpha * vocabulary as f32)).ln();
    }
    (bias, counts)
}

/// One-vs-rest linear SVM with the squared hinge loss, min ½‖w‖² + C Σ max(0, 1 − y w·x)²,
/// solved by dual coordinate descent (Hsieh et al., ICML 2008: the algorithm of LIBLINEAR
/// and scikit-learn's `LinearSVC`). The bias is the weight of a constant feature 1, as in
/// LIBLINEAR. Each pass visits the examples in a seeded random order and costs their
/// non-zeros; `svm_epochs` passes at most, fewer once no dual variable moves by more than
/// a tolerance.
///
/// With `nb_ratio` (NB-SVM, Wang & Manning, ACL 2012), each class's SVM sees its inputs
/// scaled by the Naive Bayes log-count ratio r = ln((p / ‖p‖₁) / (q / ‖q‖₁)), p and q the
/// α-smoothed feature sums over the class's examples and the others': features typical of
/// one class weigh more before the SVM starts. The model stays linear in the unscaled
/// input, with weights w ∘ r. On both public sets it beats plain NB and the plain SVM
/// (README, "Content classification").
fn linear_svm(
    inputs: &[(Vec<(usize, f32)>, usize)],
    documents: &[usize],
    vocabulary: usize,
    config: &ClassifyConfig,
    nb_ratio: bool,
) -> (Vec<f32>, Vec<f32>) {
    let classes = documents.len();
    let c_param = config.svm_c.max(1e-12);
    // Squared hinge: the dual's diagonal gains 1 / (2C) and α has no upper bound.
    let diagonal = 1.0 / (2.0 * c_param);
    let mut weights = vec![0f32; vocabulary * classes];
    let mut out_bias = vec![ABSENT_CLASS; classes];
    let mut rng = SplitMix64(config.seed);
    for c in (0..classes).filter(|&c| documents[c] > 0) {
        let ratio = if nb_ratio { log_count_ratio(inputs, c, vocabulary, config.nb_alpha) } else { Vec::new() };
        let scale = |j: usize| ratio.get(j).copied().unwrap_or(1.0);
        let scaled: Vec<(Vec<(usize, f64)>, f64)> = inputs
            .iter()
            .map(|(x, class)| {
                let y = if *class == c { 1.0 } else { -1.0 };
                (x.iter().map(|&(j, v)| (j, f64::from(v) * scale(j))).collect(), y)
            })
            .collect();
        // ‖x‖² + 1 (the bias feature) + the diagonal: the dual's curvature per example.
        let curvature: Vec<f64> =
            scaled.iter().map(|(x, _)| x.iter().map(|&(_, v)| v * v).sum::<f64>() + 1.0 + diagonal).collect();
        let mut w = vec![0f64; vocabulary];
        let mut bias = 0f64;
        let mut alpha = vec![0f64; inputs.len()];
        let mut order: Vec<usize> = (0..inputs.len()).collect();
        for _ in 0..config.svm_epochs.max(1) {
            shuffle(&mut order, &mut rng);
            let mut largest_step = 0f64;
            for &i in &order {
                let (x, y) = &scaled[i];
                let dot: f64 = x.iter().map(|&(j, v)| w[j] * v).sum::<f64>() + bias;
                let gradient = y * dot - 1.0 + diagonal * alpha[i];
                let updated = (alpha[i] - gradient / curvature[i]).max(0.0);
                let step = updated - alpha[i];
                if step != 0.0 {
                    alpha[i] = updated;
                    for &(j, v) in x {
                        w[j] += step * y * v;
                    }
                    bias += step * y;
                    largest_step = largest_step.max(step.abs());
                }
            }
            if largest_step < 1e-3 {
                break;
            }
        }
        out_bias[c] = bias as f32;
        for (j, value) in w.into_iter().enumerate() {
            weights[j * classes + c] = (value * scale(j)) as f32;
        }
    }
    (out_bias, weights)
}

/// The NB log-count ratio of class `c` against the rest, per vocabulary row.
fn log_count_ratio(inputs: &[(Vec<(usize, f32)>, usize)], c: usize, vocabulary: usize, alpha: f64) -> Vec<f64> {
    let alpha = alpha.max(1e-6);
    let (mut p, mut q) = (vec![alpha; vocabulary], vec![alpha; vocabulary]);
    for (x, class) in inputs {
        let sums = if *class == c { &mut p } else { &mut q };
        for &(j, v) in x {
            sums[j] += f64::from(v);
        }
    }
    let (p_total, q_total): (f64, f64) = (p.iter().sum(), q.iter().sum());
    p.iter().zip(&q).map(|(pj, qj)| ((pj / p_total) / (qj / q_total)).ln()).collect()
}

/// A small seeded generator (SplitMix64): shuffles must be the same on every run.
pub(crate) struct SplitMix64(pub u64);

impl SplitMix64 {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Fisher–Yates.
pub(crate) fn shuffle<T>(items: &mut [T], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::Category;

    fn scheme() -> CategoryScheme {
        let categories = [("sport", "Sport"), ("food", "Food"), ("tech", "Technology"), ("unused", "Never labelled")]
            .iter()
            .map(|(code, name)| Category { code: code.to_string(), name: name.to_string() })
            .collect();
        CategoryScheme { categories }
    }

    const TRAINING: &[(&str, usize)] = &[
        ("the team won the football match with a late goal", 0),
        ("the striker scored twice and the team won the league", 0),
        ("tennis final won in straight sets by the champion", 0),
        ("marathon runners finished the race in record time", 0),
        ("球队在比赛最后时刻进球赢得冠军", 0),
        ("bake the bread in a hot oven until the crust is golden", 1),
        ("simmer the soup with lentils onions and cumin", 1),
        ("whisk eggs and sugar then fold in flour for the cake", 1),
        ("a recipe for roast chicken with garlic and lemon", 1),
        ("把面粉和鸡蛋揉成面团再放进烤箱烤面包", 1),
        ("the new laptop has a faster processor and more memory", 2),
        ("install the software update to fix the security bug", 2),
        ("the browser runs web applications written in javascript", 2),
        ("programmers compile the code and deploy it to the server", 2),
        ("新版软件修复了浏览器的安全漏洞", 2),
    ];

    fn examples(config: &ClassifyConfig) -> Vec<Example> {
        let settings = config.feature_settings();
        TRAINING.iter().map(|&(text, class)| Example { features: settings.extract(text), class }).collect()
    }

    #[test]
    fn every_algorithm_learns_the_tiny_set() {
        for algorithm in Algorithm::NAMES {
            let algorithm = Algorithm::from_name(algorithm).unwrap();
            let config = ClassifyConfig { algorithm, ..ClassifyConfig::default() };
            let model = train(&scheme(), &examples(&config), &config).unwrap();
            for (text, code) in [
                ("the champion won the tennis match", "sport"),
                ("bake a lemon cake in the oven", "food"),
                ("a security update for the web browser software", "tech"),
                ("烤面包用的面团", "food"),
            ] {
                let prediction = model.classify_text(text).unwrap();
                assert_eq!(prediction.code, code, "{algorithm}: {text}");
                assert!(prediction.confidence > 0.0 && prediction.confidence <= 1.0);
            }
            // A class without examples is never chosen, whatever the text.
            assert_ne!(model.classify_text("").unwrap().code, "unused");
            assert_eq!(model.documents(), [5, 5, 5, 0]);
        }
    }

    #[test]
    fn training_is_deterministic_and_the_file_round_trips() {
        let config = ClassifyConfig::default();
        let a = train(&scheme(), &examples(&config), &config).unwrap();
        let b = train(&scheme(), &examples(&config), &config).unwrap();
        assert_eq!(a.to_bytes(), b.to_bytes());
        let back = Model::from_bytes(&a.to_bytes(), "test").unwrap();
        assert_eq!(back, a);
        assert!(a.sharpness().iter().all(|&beta| beta > 0.0 && beta != 1.0), "calibrated: {:?}", a.sharpness());
    }

    #[test]
    fn calibration_is_skipped_when_there_are_too_few_examples() {
        let config = ClassifyConfig { calibration_folds: 10, ..ClassifyConfig::default() };
        let model = train(&scheme(), &examples(&config), &config).unwrap();
        assert_eq!(model.sharpness(), [1.0, 1.0], "two members, neither calibrated");
    }

    #[test]
    fn the_ensemble_averages_its_members_probabilities() {
        let config = ClassifyConfig { algorithm: Algorithm::NbSvmPlusNb, ..ClassifyConfig::default() };
        let both = train(&scheme(), &examples(&config), &config).unwrap();
        assert_eq!(both.sharpness().len(), 2);
        let alone = |algorithm: Algorithm| {
            let config = ClassifyConfig { algorithm, ..config.clone() };
            train(&scheme(), &examples(&config), &config).unwrap()
        };
        let (svm, nb) = (alone(Algorithm::NbSvm), alone(Algorithm::NaiveBayes));
        let text = both.features().extract("a new browser for the web, and a cake recipe");
        let mean: Vec<f32> =
            svm.probabilities(&text).iter().zip(nb.probabilities(&text)).map(|(a, b)| (a + b) / 2.0).collect();
        for (p, q) in both.probabilities(&text).iter().zip(&mean) {
            assert!((p - q).abs() < 1e-6, "{p} against {q}");
        }
        assert!((both.probabilities(&text).iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn bad_training_sets_are_errors() {
        let config = ClassifyConfig::default();
        let one_class: Vec<Example> = examples(&config).into_iter().filter(|e| e.class == 0).collect();
        assert!(train(&scheme(), &one_class, &config).unwrap_err().to_string().contains("two classes"));
        let outside = vec![Example { features: vec![(1, 1.0)], class: 9 }];
        assert!(train(&scheme(), &outside, &config).is_err());
    }
}
