//! The settings of search: BM25's k1 and b per index, field boosts, how the tiered search
//! fuses the two indexes, and pseudo-relevance feedback. The shipped values are in
//! `src/search/settings.toml` (compiled in), each with how it was chosen; `search
//! --settings FILE` and `eval run --settings FILE` read another file of the same form.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::bm25::Bm25Params;

/// The shipped settings file.
pub const DEFAULT_SETTINGS: &str = include_str!("settings.toml");

/// Everything a search is parameterised by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSettings {
    /// How the values were chosen, and on what data.
    pub chosen_by: String,
    #[serde(rename = "abstract")]
    pub abstract_index: IndexSettings,
    pub fulltext: IndexSettings,
    pub tiered: FusionSettings,
    pub feedback: FeedbackSettings,
    /// How a query's words weigh (absent in older files: each distinct word once).
    #[serde(default)]
    pub query: QuerySettings,
}

/// How the words of a query are weighed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuerySettings {
    /// BM25's query-term saturation k3 (Robertson and Zaragoza 2009, §3.3): a word the query
    /// has `qtf` times weighs (k3 + 1) · qtf / (k3 + qtf). 0 weighs each distinct word once;
    /// a large k3 (1000) weighs it as often as the query repeats it, as Anserini's
    /// bag-of-words queries do.
    pub k3: f32,
}

impl QuerySettings {
    /// The weight of a word the query has `count` times.
    pub fn term_weight(&self, count: f32) -> f32 {
        (self.k3 + 1.0) * count / (self.k3 + count)
    }
}

/// BM25 parameters of one index, and field boosts that replace the schema's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexSettings {
    pub k1: f32,
    pub b: f32,
    /// How a word's scores in the fields become one (absent in older files: per field,
    /// summed).
    #[serde(default)]
    pub fields: FieldCombination,
    /// Field name → boost, replacing the schema's `search_boost` of those fields (empty: the
    /// schema's boosts). A name that is not a searched field of the index is an error.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub boosts: BTreeMap<String, f32>,
}

/// How the searched fields of an index combine for one query word.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldCombination {
    /// One BM25 per field, the boosted scores summed: each field's term frequency saturates on
    /// its own.
    #[default]
    PerField,
    /// BM25F (Robertson, Zaragoza and Taylor, CIKM 2004): the boosted, length-normalised term
    /// frequencies of the fields summed, then saturated once (`search::bm25f`).
    Bm25f,
}

impl FieldCombination {
    pub fn name(self) -> &'static str {
        match self {
            FieldCombination::PerField => "per_field",
            FieldCombination::Bm25f => "bm25f",
        }
    }
}

impl IndexSettings {
    pub fn bm25(&self) -> Bm25Params {
        Bm25Params { k1: self.k1, b: self.b }
    }
}

/// How two ranked lists become one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FusionMethod {
    /// Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): Σ wᵢ / (k + rankᵢ).
    Rrf,
    /// CombSUM (Fox and Shaw, TREC-2 1994) of min-max normalised scores (Lee, SIGIR 1997):
    /// w · abstract + (1 − w) · full text, a page missing from a list scoring 0 there.
    Combsum,
    /// CombSUM of z-scores (Montague and Aslam, CIKM 2001: "standard" normalisation): each
    /// list's scores less their mean, over their standard deviation, so one outlying top score
    /// does not squeeze the rest of its list towards 0 as min-max does; a page missing from a
    /// list scores that list's lowest z-score there.
    CombsumZ,
}

impl FusionMethod {
    pub const NAMES: &'static [&'static str] = &["rrf", "combsum", "combsum_z"];

    pub fn name(self) -> &'static str {
        match self {
            FusionMethod::Rrf => "rrf",
            FusionMethod::Combsum => "combsum",
            FusionMethod::CombsumZ => "combsum_z",
        }
    }
}

/// The tiered search: the hits of both indexes, fused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FusionSettings {
    pub method: FusionMethod,
    /// The abstract index's weight w; the full-text index's is 1 − w.
    pub abstract_weight: f32,
    /// RRF's rank offset k (unused by CombSUM).
    pub rrf_k: f32,
    /// Hits taken from each index before fusing (at least the number asked for).
    pub depth: usize,
}

/// RM3 pseudo-relevance feedback (Abdul-Jaleel et al., UMass at TREC 2004, §2; the relevance
/// model of Lavrenko and Croft, SIGIR 2001), as Anserini implements it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeedbackSettings {
    /// Top-ranked pages taken as relevant (fbDocs).
    pub docs: usize,
    /// Expansion terms kept (fbTerms).
    pub terms: usize,
    /// The original query's weight against the relevance model's.
    pub original_weight: f32,
    /// Words on more than this share of the pages are no feedback terms, as in Anserini's RM3
    /// (which drops words of more than 10% of the documents): a collection's own stop words,
    /// on every page of the topic, would otherwise lead the relevance model. 1 keeps every
    /// word (absent in older files: 1).
    #[serde(default = "every_page")]
    pub max_page_share: f32,
    /// Whether every query is expanded, or only one whose expansion keeps its top pages as
    /// clear (absent in older files: every query).
    #[serde(default)]
    pub selective: FeedbackSelection,
    /// The ranking whose top pages are the feedback documents (absent in older files: the
    /// searched one).
    #[serde(default)]
    pub documents_from: FeedbackIndex,
    /// Which text of a feedback page the relevance model's P(w|d) is taken from (absent in
    /// older files: the DocView record).
    #[serde(default)]
    pub words_from: FeedbackText,
    /// The indexes the expanded query searches; the others search the original query (absent
    /// in older files: every index the search reads).
    #[serde(default)]
    pub expands: FeedbackIndex,
    /// The expanded query's ranking's weight in the answer, fused (CombSUM of z-scores, as the
    /// tiered search fuses its two indexes) with the original query's ranking at 1 minus it:
    /// RM3 mixes the query's words, this mixes the two rankings' scores, so a page the original
    /// query ranks high keeps part of its score when the expansion drifts. 1: the expanded
    /// ranking alone, as Anserini's RM3 answers (absent in older files: 1).
    #[serde(default = "expanded_alone")]
    pub expanded_weight: f32,
    /// A learned linear fusion of the rankings a search with feedback reads, in place of the
    /// expanded ranking (absent: the expanded ranking, fused with the original one as
    /// `expanded_weight` says).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linear: Option<LinearFusion>,
}

/// The answer of a search with feedback as a linear model over four features of a page: its
/// z-score (as CombSUM of z-scores computes it, Montague and Aslam, CIKM 2001) in the abstract
/// index's and the full text's ranking of the original query and of the expanded one, each
/// weighted; a page missing from a ranking scores that ranking's lowest. A search reads only
/// the rankings of its indexes (the abstract search: the abstract index's two). The weights
/// are learned by coordinate ascent (Metzler and Croft, "Linear feature-based models for
/// information retrieval", IR Journal 2007, §4.1; RankLib's CoordinateAscent) with `indexer
/// eval tune --stages linear-fusion`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearFusion {
    pub abstract_original: f32,
    pub fulltext_original: f32,
    pub abstract_expanded: f32,
    pub fulltext_expanded: f32,
}

impl LinearFusion {
    /// The weights in the order of [`LinearFusion::NAMES`].
    pub fn weights(&self) -> [f32; 4] {
        [self.abstract_original, self.fulltext_original, self.abstract_expanded, self.fulltext_expanded]
    }

    /// The features' names.
    pub const NAMES: [&'static str; 4] =
        ["abstract_original", "fulltext_original", "abstract_expanded", "fulltext_expanded"];

    /// The fusion of these weights.
    pub fn from_weights(w: [f32; 4]) -> LinearFusion {
        LinearFusion {
            abstract_original: w[0],
            fulltext_original: w[1],
            abstract_expanded: w[2],
            fulltext_expanded: w[3],
        }
    }
}

/// An index side of feedback: where it takes its documents from (`documents_from`), and which
/// indexes the expanded query searches (`expands`; the others search the original query).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeedbackIndex {
    /// What the search reads: its own first pass gives the documents (the tiered search: the
    /// fused list), and the expanded query searches every index it reads.
    #[default]
    Searched,
    /// The full-text index. As the source: the top pages of its first pass, the pages whose
    /// cleaned text holds the query's words, not only their records (the tiered search's fused
    /// list may lean on the abstract index's ranking for its top pages). As the target: the
    /// tiered search fuses the abstract index's ranking of the original query with the full
    /// text's of the expanded one (the short records match few of the expansion words, which
    /// then add noise to the abstract side's scores); the abstract search with feedback is
    /// then the search without it.
    Fulltext,
}

impl FeedbackIndex {
    pub fn name(self) -> &'static str {
        match self {
            FeedbackIndex::Searched => "searched",
            FeedbackIndex::Fulltext => "fulltext",
        }
    }
}

/// The text of a feedback page whose words make its P(w|d) in the relevance model, and whose
/// pages count a word's page share (`max_page_share`) and its collection frequency (clarity).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeedbackText {
    /// The page's DocView record (title, keywords, abstract), as the abstract index holds it:
    /// the abstract is a bounded share of the page's sentences, so the model sees part of it.
    #[default]
    Record,
    /// The page's topic content (§4.2: its text without the template), as the full-text
    /// index's `topic` field stores it: the whole document, as Anserini's RM3 reads it.
    Topic,
}

impl FeedbackText {
    pub const NAMES: &'static [&'static str] = &["record", "topic"];

    pub fn name(self) -> &'static str {
        match self {
            FeedbackText::Record => "record",
            FeedbackText::Topic => "topic",
        }
    }

    /// The index that holds this text.
    pub fn index(self) -> crate::index::IndexKind {
        match self {
            FeedbackText::Record => crate::index::IndexKind::Abstract,
            FeedbackText::Topic => crate::index::IndexKind::Fulltext,
        }
    }
}

/// Which queries feedback expands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeedbackSelection {
    /// Every query.
    #[default]
    Always,
    /// Selective query expansion by clarity (Cronen-Townsend, Zhou and Croft, CIKM 2004, §3):
    /// the expanded ranking is kept only if the language model of its top pages is at least
    /// as far (relative entropy) from the collection's as the original ranking's; an expansion
    /// that drifts to the collection's common words is dropped (`search::feedback::clarity`).
    Clarity,
}

impl FeedbackSelection {
    pub fn name(self) -> &'static str {
        match self {
            FeedbackSelection::Always => "always",
            FeedbackSelection::Clarity => "clarity",
        }
    }
}

fn every_page() -> f32 {
    1.0
}

fn expanded_alone() -> f32 {
    1.0
}

/// Settings that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read search settings {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("search settings {path}: {message}")]
    Invalid { path: String, message: String },
}

impl SearchSettings {
    /// The shipped settings.
    pub fn shipped() -> SearchSettings {
        Self::parse(DEFAULT_SETTINGS, "src/search/settings.toml").expect("the shipped search settings are valid")
    }

    /// Reads a settings file.
    pub fn from_file(path: &Path) -> Result<SearchSettings, SettingsError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| SettingsError::Io { path: path.display().to_string(), source })?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Parses and checks settings text (`path` names it in errors).
    pub fn parse(text: &str, path: &str) -> Result<SearchSettings, SettingsError> {
        let invalid = |message: String| SettingsError::Invalid { path: path.to_string(), message };
        let settings: SearchSettings = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
        settings.check().map_err(invalid)?;
        Ok(settings)
    }

    /// The settings of one index.
    pub fn of_index(&self, kind: crate::index::IndexKind) -> &IndexSettings {
        match kind {
            crate::index::IndexKind::Abstract => &self.abstract_index,
            crate::index::IndexKind::Fulltext => &self.fulltext,
        }
    }

    /// Whether every value is in its range; `Err` says which is not.
    pub fn check(&self) -> Result<(), String> {
        for (name, index) in [("abstract", &self.abstract_index), ("fulltext", &self.fulltext)] {
            if !index.bm25().is_valid() {
                return Err(format!("[{name}] needs k1 >= 0 and b in [0, 1]"));
            }
            if let Some((field, _)) = index.boosts.iter().find(|(_, b)| !(b.is_finite() && **b >= 0.0)) {
                return Err(format!("[{name}] boost of {field} must be a number >= 0"));
            }
        }
        let t = &self.tiered;
        let usable = (0.0..=1.0).contains(&t.abstract_weight) && t.rrf_k.is_finite() && t.rrf_k >= 0.0;
        if !usable || t.depth == 0 {
            return Err("[tiered] needs abstract_weight in [0, 1], rrf_k >= 0 and depth >= 1".into());
        }
        if !(self.query.k3.is_finite() && self.query.k3 >= 0.0) {
            return Err("[query] needs k3 >= 0".into());
        }
        let f = &self.feedback;
        let share = f.max_page_share > 0.0 && f.max_page_share <= 1.0;
        let weights = (0.0..=1.0).contains(&f.original_weight) && (0.0..=1.0).contains(&f.expanded_weight);
        if f.docs == 0 || f.terms == 0 || !weights || !share {
            return Err(
                "[feedback] needs docs >= 1, terms >= 1, original_weight and expanded_weight in [0, 1] and max_page_share in (0, 1]".into(),
            );
        }
        if let Some(linear) = &f.linear {
            let w = linear.weights();
            if !w.iter().all(|w| w.is_finite() && *w >= 0.0) || w.iter().sum::<f32>() <= 0.0 {
                return Err("[feedback.linear] needs weights >= 0, not all 0".into());
            }
            if f.selective != FeedbackSelection::Always || f.expanded_weight < 1.0 {
                return Err("[feedback.linear] replaces the selection and expanded_weight: it needs selective = \"always\" and expanded_weight = 1".into());
            }
        }
        Ok(())
    }
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings::shipped()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_settings_parse_and_round_trip() {
        let settings = SearchSettings::shipped();
        assert!(!settings.chosen_by.is_empty());
        let text = toml::to_string(&settings).unwrap();
        assert_eq!(SearchSettings::parse(&text, "round trip").unwrap(), settings);
    }

    #[test]
    fn out_of_range_and_unknown_values_are_errors() {
        let mut text = toml::to_string(&SearchSettings::shipped()).unwrap();
        text = text.replacen("method = ", "method = \"borda\"\nx = ", 1);
        assert!(SearchSettings::parse(&text, "f").is_err());
        let mut settings = SearchSettings::shipped();
        settings.abstract_index.b = 2.0;
        assert!(settings.check().unwrap_err().contains("abstract"));
        let mut settings = SearchSettings::shipped();
        settings.feedback.docs = 0;
        assert!(settings.check().unwrap_err().contains("feedback"));
        // A linear fusion replaces the selection: both at once is an error, as are weights all 0.
        let mut settings = SearchSettings::shipped();
        settings.feedback.linear = Some(LinearFusion::from_weights([0.0; 4]));
        assert!(settings.check().unwrap_err().contains("linear"));
        settings.feedback.linear = Some(LinearFusion::from_weights([0.5, 0.0, 0.0, 1.0]));
        assert!(settings.check().is_ok());
        let text = toml::to_string(&settings).unwrap();
        assert_eq!(SearchSettings::parse(&text, "round trip").unwrap(), settings);
        settings.feedback.selective = FeedbackSelection::Clarity;
        assert!(settings.check().unwrap_err().contains("linear"));
    }
}
