//! A trained model: one or more linear scorers ("members") over one vocabulary of hashed
//! features, with the scheme and the feature settings it was trained with, and its file
//! format.
//!
//! Every algorithm we train gives linear members: multinomial Naive Bayes scores a class by
//! its log prior plus Σ count × log P(term | class), the SVMs by a bias plus
//! Σ tf-idf × weight. Only the input weighting differs (raw counts, or sublinear tf × idf,
//! L2-normalised). A member's probabilities are softmax(β × scores), β calibrated per
//! member; a model's probabilities are the mean of its members' (one member for
//! `naive-bayes`, `linear-svm` and `nb-svm`; NB-SVM and Naive Bayes for `nb-svm+nb`).
//!
//! Only buckets seen in training are stored (sorted, looked up by binary search): a feature
//! never seen in training carries no evidence, and is ignored as a vocabulary-based
//! vectorizer would. File format (little-endian): the magic `DVCLASS2`, a u32 length and
//! a JSON header (scheme, features, algorithm, and per member its weighting, class biases
//! and β), a u32 bucket count n, n u32 buckets, n f32 idf values when a member's weighting
//! is tf-idf, then for each member n × classes f32 weights, bucket-major.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::features::{FeatureSettings, SparseVector};
use super::{Category, CategoryScheme, ClassifyError};

const MAGIC: &[u8; 8] = b"DVCLASS2";

/// How a term count becomes an input value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Weighting {
    /// The raw counts (multinomial Naive Bayes).
    Counts,
    /// (1 + ln tf) × idf, the vector L2-normalised (the SVMs).
    TfIdf,
}

pub use crate::config::Algorithm;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Header {
    scheme: CategoryScheme,
    features: FeatureSettings,
    algorithm: Algorithm,
    /// Training documents per class (for the record).
    documents: Vec<usize>,
    members: Vec<MemberHeader>,
}

/// What a member's file header records; its weights follow the buckets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct MemberHeader {
    weighting: Weighting,
    bias: Vec<f32>,
    /// β of the member's probabilities softmax(β × scores), fitted on held-out predictions
    /// (temperature scaling, see `train::calibrate`).
    sharpness: f32,
}

/// One linear scorer of a model, as training produces it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Member {
    pub weighting: Weighting,
    /// One bias per class.
    pub bias: Vec<f32>,
    /// vocabulary × classes weights, bucket-major.
    pub weights: Vec<f32>,
}

/// A category and how sure the model is of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prediction {
    pub code: String,
    /// The softmax of the class scores, sharpened or softened by the model's calibrated β,
    /// at the chosen class: an estimate of the probability that the code is right.
    pub confidence: f32,
}

/// A trained classifier.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    header: Header,
    buckets: Vec<u32>,
    /// Per bucket; empty when no member weighs by tf-idf.
    idf: Vec<f32>,
    /// Per member, vocabulary × classes, bucket-major.
    weights: Vec<Vec<f32>>,
}

impl Model {
    /// A model of `members` (at least one) over the vocabulary `buckets`, each β = 1.
    pub(crate) fn new(
        scheme: CategoryScheme,
        features: FeatureSettings,
        algorithm: Algorithm,
        documents: Vec<usize>,
        buckets: Vec<u32>,
        idf: Vec<f32>,
        members: Vec<Member>,
    ) -> Model {
        let (members, weights) = members
            .into_iter()
            .map(|m| (MemberHeader { weighting: m.weighting, bias: m.bias, sharpness: 1.0 }, m.weights))
            .unzip();
        let header = Header { scheme, features, algorithm, documents, members };
        Model { header, buckets, idf, weights }
    }

    /// The number of linear members.
    pub(crate) fn members(&self) -> usize {
        self.header.members.len()
    }

    pub(crate) fn set_sharpness(&mut self, member: usize, sharpness: f32) {
        if let Some(m) = self.header.members.get_mut(member) {
            m.sharpness = sharpness;
        }
    }

    /// β of each member's probabilities softmax(β × scores).
    pub fn sharpness(&self) -> Vec<f32> {
        self.header.members.iter().map(|m| m.sharpness).collect()
    }

    pub fn scheme(&self) -> &CategoryScheme {
        &self.header.scheme
    }

    pub fn features(&self) -> FeatureSettings {
        self.header.features
    }

    pub fn algorithm(&self) -> Algorithm {
        self.header.algorithm
    }

    /// Training documents per class of the scheme.
    pub fn documents(&self) -> &[usize] {
        &self.header.documents
    }

    /// Buckets with a weight.
    pub fn vocabulary_size(&self) -> usize {
        self.buckets.len()
    }

    /// A member's input vector of a feature vector: (row in the model, value), features
    /// unseen in training dropped.
    fn input(&self, weighting: Weighting, counts: &SparseVector) -> Vec<(usize, f32)> {
        let mut out: Vec<(usize, f32)> = counts
            .iter()
            .filter_map(|&(bucket, count)| self.buckets.binary_search(&bucket).ok().map(|row| (row, count)))
            .collect();
        if weighting == Weighting::TfIdf {
            let idf = |row: usize| self.idf.get(row).copied().unwrap_or(1.0);
            weigh_tf_idf(&mut out, idf);
        }
        out
    }

    /// The score of every class by member `member`, a linear function of its input.
    pub(crate) fn member_scores(&self, member: usize, counts: &SparseVector) -> Vec<f32> {
        let (Some(head), Some(weights)) = (self.header.members.get(member), self.weights.get(member)) else {
            return Vec::new();
        };
        let classes = head.bias.len();
        let mut scores = head.bias.clone();
        for (row, value) in self.input(head.weighting, counts) {
            if let Some(weights) = weights.get(row * classes..(row + 1) * classes) {
                for (score, w) in scores.iter_mut().zip(weights) {
                    *score += value * w;
                }
            }
        }
        scores
    }

    /// The probability of every class (in scheme order): the mean over the members of
    /// softmax(β × scores).
    pub fn probabilities(&self, counts: &SparseVector) -> Vec<f32> {
        let classes = self.header.scheme.len();
        let mut mean = vec![0f32; classes];
        for (member, head) in self.header.members.iter().enumerate() {
            let scores = self.member_scores(member, counts);
            for (p, q) in mean.iter_mut().zip(softmax(&scores, head.sharpness)) {
                *p += q / self.header.members.len() as f32;
            }
        }
        mean
    }

    /// The category of a text (its feature vector is extracted with the model's settings).
    pub fn classify_text(&self, text: &str) -> Option<Prediction> {
        self.classify(&self.header.features.extract(text))
    }

    /// The best category of a feature vector; `None` only for a model without classes.
    pub fn classify(&self, counts: &SparseVector) -> Option<Prediction> {
        let probabilities = self.probabilities(counts);
        let best = best_index(&probabilities)?;
        let code = self.header.scheme.categories.get(best)?.code.clone();
        Some(Prediction { code, confidence: probabilities[best] })
    }

    /// Every category with its confidence, most likely first.
    pub fn confidences(&self, counts: &SparseVector) -> Vec<(&Category, f32)> {
        let mut out: Vec<(&Category, f32)> =
            self.header.scheme.categories.iter().zip(self.probabilities(counts)).collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }

    /// The index of the best class of a feature vector (evaluation).
    pub fn predict_index(&self, counts: &SparseVector) -> usize {
        best_index(&self.probabilities(counts)).unwrap_or(0)
    }

    /// The model in its file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = serde_json::to_vec(&self.header).unwrap_or_default();
        let floats = self.idf.len() + self.weights.iter().map(Vec::len).sum::<usize>();
        let mut out = Vec::with_capacity(16 + header.len() + 4 * (self.buckets.len() + floats));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&(self.buckets.len() as u32).to_le_bytes());
        for b in &self.buckets {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for x in self.idf.iter().chain(self.weights.iter().flatten()) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// Reads a model from its file format; `origin` names it in errors.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<Model, ClassifyError> {
        let invalid = |message: &str| ClassifyError::Model { origin: origin.to_string(), message: message.to_string() };
        let mut reader = Reader { bytes, at: 0 };
        match reader.take(MAGIC.len()) {
            Some(magic) if magic == MAGIC.as_slice() => {}
            Some(b"DVCLASS1") => {
                return Err(invalid("a model of an older format: train it again with `indexer classify train`"));
            }
            _ => return Err(invalid("not a classifier model (train one with `indexer classify train`)")),
        }
        let header_len = reader.u32().ok_or_else(|| invalid("truncated header"))? as usize;
        let header_bytes = reader.take(header_len).ok_or_else(|| invalid("truncated header"))?;
        let header: Header = serde_json::from_slice(header_bytes).map_err(|e| invalid(&format!("bad header: {e}")))?;
        let classes = header.scheme.len();
        if classes == 0 || header.members.is_empty() || header.members.iter().any(|m| m.bias.len() != classes) {
            return Err(invalid("the header's members do not match its scheme"));
        }
        let n = reader.u32().ok_or_else(|| invalid("truncated bucket count"))? as usize;
        let buckets = (0..n).map(|_| reader.u32()).collect::<Option<Vec<u32>>>().ok_or_else(|| invalid("truncated"))?;
        if buckets.windows(2).any(|w| w[0] >= w[1]) {
            return Err(invalid("buckets are not sorted"));
        }
        let mut floats = |count: usize| {
            // Checked against the bytes left first, so that a huge count in a short file is
            // an error rather than an allocation.
            if count.checked_mul(4).is_none_or(|len| len > reader.bytes.len() - reader.at) {
                return Err(invalid("truncated"));
            }
            (0..count).map(|_| reader.f32()).collect::<Option<Vec<f32>>>().ok_or_else(|| invalid("truncated"))
        };
        let tf_idf = header.members.iter().any(|m| m.weighting == Weighting::TfIdf);
        let idf = floats(if tf_idf { n } else { 0 })?;
        let weights_len = n.checked_mul(classes).ok_or_else(|| invalid("too large"))?;
        let weights = header.members.iter().map(|_| floats(weights_len)).collect::<Result<Vec<_>, _>>()?;
        if reader.at != bytes.len() {
            return Err(invalid("trailing bytes after the weights"));
        }
        Ok(Model { header, buckets, idf, weights })
    }

    /// Reads a model file.
    pub fn from_file(path: &Path) -> Result<Model, ClassifyError> {
        let bytes =
            std::fs::read(path).map_err(|source| ClassifyError::Io { path: path.display().to_string(), source })?;
        Self::from_bytes(&bytes, &path.display().to_string())
    }

    /// Writes a model file.
    pub fn write(&self, path: &Path) -> Result<(), ClassifyError> {
        std::fs::write(path, self.to_bytes())
            .map_err(|source| ClassifyError::Io { path: path.display().to_string(), source })
    }
}

/// softmax(β × scores).
fn softmax(scores: &[f32], beta: f32) -> Vec<f32> {
    let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = scores.iter().map(|s| (beta * (s - top)).exp()).collect();
    let sum: f32 = exps.iter().sum();
    exps.into_iter().map(|e| if sum > 0.0 { e / sum } else { 0.0 }).collect()
}

/// The index of the largest value; the first of equals.
fn best_index(values: &[f32]) -> Option<usize> {
    values.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0))).map(|(i, _)| i)
}

/// (1 + ln tf) × idf, then L2 normalisation (scikit-learn's `sublinear_tf` tf-idf).
pub(crate) fn weigh_tf_idf(vector: &mut [(usize, f32)], idf: impl Fn(usize) -> f32) {
    for (row, value) in vector.iter_mut() {
        *value = (1.0 + value.ln()) * idf(*row);
    }
    let norm = vector.iter().map(|(_, v)| v * v).sum::<f32>().sqrt();
    if norm > 0.0 {
        for (_, value) in vector.iter_mut() {
            *value /= norm;
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn f32(&mut self) -> Option<f32> {
        Some(f32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Model {
        let scheme = CategoryScheme::parse("a\tA\nb\tB\n", "test").unwrap();
        let features =
            FeatureSettings { hash_bits: 20, word_bigrams: false, cjk_char_ngrams: 0, skip_stop_words: false };
        let bucket = |word: &str| features.extract(word)[0].0;
        let mut buckets = vec![bucket("apple"), bucket("banana")];
        buckets.sort_unstable();
        // "apple" votes for a, "banana" for b.
        let weights: Vec<f32> =
            buckets.iter().flat_map(|&b| if b == bucket("apple") { [1.0, -1.0] } else { [-1.0, 1.0] }).collect();
        let member = Member { weighting: Weighting::Counts, bias: vec![0.0, 0.1], weights };
        Model::new(scheme, features, Algorithm::LinearSvm, vec![1, 1], buckets, Vec::new(), vec![member])
    }

    #[test]
    fn scores_are_linear_and_unknown_words_are_ignored() {
        let model = tiny();
        assert_eq!(model.classify_text("apple apple banana").unwrap().code, "a");
        assert_eq!(model.classify_text("banana").unwrap().code, "b");
        // No known feature: the bias decides.
        let empty = model.classify_text("cherry").unwrap();
        assert_eq!(empty.code, "b");
        assert!(empty.confidence > 0.5 && empty.confidence < 0.6, "{}", empty.confidence);
        assert_eq!(model.member_scores(0, &model.features().extract("apple")), [1.0, -0.9]);
    }

    #[test]
    fn broken_files_are_errors_not_panics() {
        let bytes = tiny().to_bytes();
        assert_eq!(Model::from_bytes(&bytes, "m").unwrap(), tiny());
        for cut in [0, 4, 8, 11, 12, 40, bytes.len() - 1] {
            assert!(Model::from_bytes(&bytes[..cut], "m").is_err(), "cut at {cut}");
        }
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert!(Model::from_bytes(&trailing, "m").unwrap_err().to_string().contains("trailing"));
        let old_format = [b"DVCLASS1".as_slice(), &bytes[8..]].concat();
        assert!(Model::from_bytes(&old_format, "m").unwrap_err().to_string().contains("older format"));
        let message = Model::from_bytes(b"code\tname\n", "scheme.tsv").unwrap_err().to_string();
        assert!(message.contains("scheme.tsv") && message.contains("not a classifier model"), "{message}");
        // A huge bucket count in a short file: cut before the count (2 buckets, 4 weights).
        let mut huge = bytes[..bytes.len() - 4 * 4 - 2 * 4 - 4].to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(Model::from_bytes(&huge, "m").is_err());
    }
}
