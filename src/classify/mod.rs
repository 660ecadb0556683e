//! Content classification (§2 "content classification code", §6 "Content category", §7.1):
//! a trained classifier assigns every DocView record a category of a classification scheme.
//!
//! - [`scheme`]: the scheme, a `code<TAB>name` file; the default is the paper's 12 top
//!   categories (Table 1), codes 01–12.
//! - [`features`]: the feature vector of the topic content — the terms of our tokenizer
//!   without stop words, word bigrams, and character 1–2-grams in Chinese — hashed into 2^k
//!   buckets.
//! - [`model`]: a linear model over those features, with the scheme and feature settings it
//!   was trained with, and its file format.
//! - [`train`]: multinomial Naive Bayes, a one-vs-rest linear SVM (dual coordinate
//!   descent) and NB-SVM, alone or NB-SVM with Naive Bayes beside it, written here
//!   because the Rust ML crates want dense matrices (see the module).
//! - [`labels`]: training sets: `url-or-path<TAB>code` files or a folder per class.
//! - [`eval`]: accuracy and macro-F1 on THUCNews titles and AG News; cross-validation by
//!   group of a training set and its confidence thresholds (`indexer classify cv`).
//!
//! The default model (`data/default-model.bin`) is compiled in, so a build classifies with
//! no setup; it is trained on our own labelled set and WordNet glosses by
//! `indexer classify train --labels eval/classify/sample-labels.tsv --labels eval/classify/extra
//! --labels eval/classify/wordnet --pages eval/sample-corpus/pages
//! --config eval/classify/default-model.toml --out src/classify/data/default-model.bin`
//! (README, "Content classification").

pub mod eval;
pub mod features;
pub mod labels;
pub mod model;
pub mod scheme;
pub mod train;

use std::sync::LazyLock;

pub use features::{FeatureSettings, SparseVector};
pub use model::{Algorithm, Model, Prediction};
pub use scheme::{Category, CategoryScheme};

/// The default model, trained on `eval/classify/` (see the module doc for the command).
const DEFAULT_MODEL: &[u8] = include_bytes!("data/default-model.bin");

static DEFAULT: LazyLock<Result<Model, String>> =
    LazyLock::new(|| Model::from_bytes(DEFAULT_MODEL, "built-in default model").map_err(|e| e.to_string()));

/// The built-in default model (Table 1's categories).
pub fn default_model() -> Result<&'static Model, ClassifyError> {
    DEFAULT
        .as_ref()
        .map_err(|message| ClassifyError::Model { origin: "built-in default model".into(), message: message.clone() })
}

/// A classification failure.
#[derive(Debug, thiserror::Error)]
pub enum ClassifyError {
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("category scheme {origin}: {message}")]
    Scheme { origin: String, message: String },
    #[error("classifier model {origin}: {message}")]
    Model { origin: String, message: String },
    #[error("labels {origin}: {message}")]
    Labels { origin: String, message: String },
    #[error("data {origin}: {message}")]
    Data { origin: String, message: String },
    #[error("training: {message}")]
    Training { message: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_model_has_table_1_and_classifies_new_texts() {
        let model = default_model().unwrap();
        assert_eq!(model.scheme(), &CategoryScheme::table1());
        assert_eq!(model.algorithm(), Algorithm::NbSvm, "eval/classify/default-model.toml");
        assert!(model.documents().iter().all(|&n| n > 0), "every category has training texts");
        // Texts written for this test, not in the training set.
        for (text, code) in [
            ("The patient saw a doctor about chest pain; the hospital ran blood tests and prescribed medicine.", "11"),
            ("The programming language compiles to fast code, and the web server handles thousands of requests.", "05"),
            ("科学家观测到星系中心的黑洞，研究发现宇宙中的物质比预想的更多。", "08"),
            // Research prose of computing and of medicine, which the nine sample sites lack
            // (issue 21: the 298-text model coded most computing papers 07 or 08).
            (
                "A recursive procedure sorts the records of a file on magnetic tape; its running time is compared with a merge method.",
                "05",
            ),
            (
                "The interpreter stores each identifier in a hash table and allocates storage for arrays at run time.",
                "05",
            ),
            ("Serum enzyme levels and kidney lesions were measured in rats given the antibiotic for ten days.", "11"),
        ] {
            assert_eq!(model.classify_text(text).unwrap().code, code, "{text}");
        }
    }
}
