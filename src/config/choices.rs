//! The named choices of the configuration: each an enum, parsed once where the configuration
//! is read (TOML or the command line), so an unknown name is an error naming the allowed
//! ones and no stage ever sees a name it does not know. The stages re-export the enum they
//! act on (`clean::CleanerKind`, `replicas::DetectorKind`, `classify::Algorithm`,
//! `input::PageFormat`); this module depends on no stage.

use std::fmt;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The cleaners `--cleaner` and `cleaning.cleaner` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CleanerKind {
    /// The DocView cleaner with its topic-root search.
    #[serde(rename = "docview")]
    DocView,
    /// The DocView cleaner as the paper states it.
    #[serde(rename = "docview-paper")]
    DocViewPaper,
    /// The Site Style Tree of Yi, Liu & Li (`clean::site_style_tree`).
    #[serde(rename = "sst")]
    SiteStyleTree,
    /// Satisfiable sub-tree heuristics (Qi & Sun): `clean::satisfiable_subtree`.
    #[serde(rename = "satisfiable")]
    Satisfiable,
    /// HTML tag priority blocks (Kabir, Kabir & Amin): `clean::tag_priority_blocks`.
    #[serde(rename = "pab")]
    Pab,
    /// The Mountain Model of Bing et al. (`clean::mountain_model`).
    #[serde(rename = "mountain")]
    Mountain,
    /// The learned block classifier over the DocView blocks (`clean::block_classifier`); the
    /// default.
    #[serde(rename = "blocks")]
    Blocks,
}

impl CleanerKind {
    pub const NAMES: &'static [&'static str] =
        &["docview", "docview-paper", "sst", "satisfiable", "pab", "mountain", "blocks"];

    pub fn from_name(name: &str) -> Option<CleanerKind> {
        match name {
            "docview" => Some(CleanerKind::DocView),
            "docview-paper" => Some(CleanerKind::DocViewPaper),
            "satisfiable" => Some(CleanerKind::Satisfiable),
            "pab" => Some(CleanerKind::Pab),
            "sst" => Some(CleanerKind::SiteStyleTree),
            "mountain" => Some(CleanerKind::Mountain),
            "blocks" => Some(CleanerKind::Blocks),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CleanerKind::DocView => "docview",
            CleanerKind::DocViewPaper => "docview-paper",
            CleanerKind::Satisfiable => "satisfiable",
            CleanerKind::Pab => "pab",
            CleanerKind::SiteStyleTree => "sst",
            CleanerKind::Mountain => "mountain",
            CleanerKind::Blocks => "blocks",
        }
    }
}

impl fmt::Display for CleanerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which near-replica detector (`--replicas`, `replicas.detector`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DetectorKind {
    /// The keyword MD5 fingerprint of §5: equal fingerprints are replicas.
    DocView,
    /// MinHash over word shingles: estimated Jaccard ≥ `minhash_threshold`.
    MinHash,
    /// SimHash over word shingles: Hamming distance ≤ `simhash_max_distance`.
    SimHash,
    /// Exact copies only.
    Off,
}

impl DetectorKind {
    pub const NAMES: &'static [&'static str] = &["docview", "minhash", "simhash", "off"];

    pub fn from_name(name: &str) -> Option<DetectorKind> {
        match name {
            "docview" => Some(DetectorKind::DocView),
            "minhash" => Some(DetectorKind::MinHash),
            "simhash" => Some(DetectorKind::SimHash),
            "off" => Some(DetectorKind::Off),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DetectorKind::DocView => "docview",
            DetectorKind::MinHash => "minhash",
            DetectorKind::SimHash => "simhash",
            DetectorKind::Off => "off",
        }
    }
}

impl fmt::Display for DetectorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The learning algorithm of a content classifier (`classify.algorithm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Multinomial Naive Bayes with additive smoothing.
    NaiveBayes,
    /// One-vs-rest linear SVM (squared hinge loss, L2), on sublinear tf-idf.
    LinearSvm,
    /// The SVM over inputs scaled by Naive Bayes log-count ratios (Wang & Manning 2012).
    NbSvm,
    /// NB-SVM and multinomial Naive Bayes, their calibrated probabilities averaged: the two
    /// err on different texts (the SVM on margins of a few strong features, NB on the sum
    /// of many weak ones).
    #[serde(rename = "nb-svm+nb")]
    NbSvmPlusNb,
}

impl Algorithm {
    pub const NAMES: &'static [&'static str] = &["naive-bayes", "linear-svm", "nb-svm", "nb-svm+nb"];

    pub fn from_name(name: &str) -> Option<Algorithm> {
        match name {
            "naive-bayes" => Some(Algorithm::NaiveBayes),
            "linear-svm" => Some(Algorithm::LinearSvm),
            "nb-svm" => Some(Algorithm::NbSvm),
            "nb-svm+nb" => Some(Algorithm::NbSvmPlusNb),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::NaiveBayes => "naive-bayes",
            Algorithm::LinearSvm => "linear-svm",
            Algorithm::NbSvm => "nb-svm",
            Algorithm::NbSvmPlusNb => "nb-svm+nb",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The content classifier of a build (`--classifier`, `classify.model`): written in TOML as
/// the empty string (the built-in model), `off`, or a model file's path.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ClassifierChoice {
    /// The built-in default model (Table 1's 12 categories).
    #[default]
    BuiltIn,
    /// No classification: records have no code.
    Off,
    /// A model file written by `indexer classify train`.
    File(PathBuf),
}

impl From<String> for ClassifierChoice {
    fn from(name: String) -> ClassifierChoice {
        match name.as_str() {
            "" => ClassifierChoice::BuiltIn,
            "off" => ClassifierChoice::Off,
            _ => ClassifierChoice::File(PathBuf::from(name)),
        }
    }
}

impl From<ClassifierChoice> for String {
    fn from(choice: ClassifierChoice) -> String {
        match choice {
            ClassifierChoice::BuiltIn => String::new(),
            ClassifierChoice::Off => "off".to_string(),
            ClassifierChoice::File(path) => path.display().to_string(),
        }
    }
}

/// What a record's body may be to count as a page (`--accept`, `input.accept`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum PageFormat {
    /// `text/html`.
    Html,
    /// `application/xhtml+xml`.
    Xhtml,
    /// `text/plain` (never `robots.txt`).
    Text,
}

impl PageFormat {
    /// HTML and XHTML: what a search engine's index holds.
    pub const DEFAULT: [PageFormat; 2] = [PageFormat::Html, PageFormat::Xhtml];

    pub fn as_str(self) -> &'static str {
        match self {
            PageFormat::Html => "html",
            PageFormat::Xhtml => "xhtml",
            PageFormat::Text => "text",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_allowed_ones() {
        for name in CleanerKind::NAMES {
            let kind = CleanerKind::from_name(name).unwrap();
            assert_eq!(kind.name(), *name);
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("{name:?}"));
        }
        for name in DetectorKind::NAMES {
            let kind = DetectorKind::from_name(name).unwrap();
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("{name:?}"));
        }
        for name in Algorithm::NAMES {
            let kind = Algorithm::from_name(name).unwrap();
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("{name:?}"));
        }
        let error = serde_json::from_str::<CleanerKind>("\"nope\"").unwrap_err().to_string();
        assert!(error.contains("`docview-paper`") && error.contains("`mountain`"), "{error}");
    }

    #[test]
    fn an_unknown_name_in_a_config_file_is_an_error_naming_the_allowed_ones() {
        for (section, key, allowed) in [
            ("cleaning", "cleaner", "`docview-paper`"),
            ("replicas", "detector", "`simhash`"),
            ("classify", "algorithm", "`nb-svm+nb`"),
            ("blocks", "repeat_scope", "`other-region`"),
        ] {
            let text = format!("[{section}]\n{key} = \"nope\"\n");
            let error = toml::from_str::<super::super::Config>(&text).unwrap_err();
            assert!(error.message().contains("unknown variant `nope`"), "{section}.{key}: {}", error.message());
            assert!(error.message().contains(allowed), "{section}.{key}: {}", error.message());
        }
    }

    #[test]
    fn classifier_choice_is_written_as_before() {
        for (text, choice) in [
            ("", ClassifierChoice::BuiltIn),
            ("off", ClassifierChoice::Off),
            ("m.bin", ClassifierChoice::File(PathBuf::from("m.bin"))),
        ] {
            assert_eq!(ClassifierChoice::from(text.to_string()), choice);
            assert_eq!(String::from(choice), text);
        }
    }
}

/// How `eval train-blocks` labels a block from the page's gold text (`blocks.labels`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BlockLabels {
    /// Content when enough of the block's word trigrams are trigrams of the gold text,
    /// wherever they are in it.
    Trigrams,
    /// Content when enough of the block's tokens are matched, in order, by a longest common
    /// subsequence of the page's tokens (blocks in document order) and the gold's, counting
    /// only matches in runs of at least three tokens (the whole block when it is shorter).
    Aligned,
}

/// Which earlier copy of a block's text makes the repeated-text rule drop the block
/// (`blocks.repeat_scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RepeatScope {
    /// Any earlier kept block of the page.
    Page,
    /// An earlier kept block in another region of the page than the later one
    /// (`block_classifier::other_region`): a template's second rendering, not an author
    /// repeating a line inside the text.
    OtherRegion,
}

/// How `eval train-blocks` weighs a block among its page's examples (`blocks.example_weight`);
/// every page weighs the same either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExampleWeight {
    /// By its tokens, as the token-bag F1 counts them.
    Tokens,
    /// By the square root of its tokens: long blocks count less than their tokens.
    SqrtTokens,
}

/// The learner `eval page-types` fits the hub-page model with (`page_type.learner`); a model
/// file records the learner it was fitted with, and is read as such whatever this says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HubLearner {
    /// Logistic regression on standardised features, fixed settings.
    Logistic,
    /// Gradient-boosted trees (the block classifier's learner, `forust-ml`), their size chosen
    /// by cross-validation inside the training folds.
    Boosted,
}
