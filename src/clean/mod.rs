//! Web page cleaning (§3.2 and §4): block weights (Algorithm 1), the feature vector
//! (Formula 2), the page type from the central area (§4.1), and the topic content (§4.2).
//!
//! Two cleaners live here, selected by `cleaning.cleaner`:
//! - `docview-paper`: §4.2 as published. Topic pages keep every block left after pruning hub
//!   and image blocks from the tree.
//! - `docview` (default): the same, then restricted to the central area and to the topic root
//!   found by a paragraph-score search (see [`topic_content`]), because pruning alone keeps
//!   every text block of the template (copyright lines, teasers, disclaimers).

mod block_weight;
mod features;
mod page_type;
mod topic_content;

pub use block_weight::{BlockWeights, block_weights};
pub use features::{FeatureVector, feature_vector, term_frequencies};
pub use page_type::{page_type, type_of_area};
pub use topic_content::{TopicContent, clean_page};

/// The cleaners `--cleaner` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CleanerKind {
    DocView,
    DocViewPaper,
}

impl CleanerKind {
    pub const NAMES: &'static [&'static str] = &["docview", "docview-paper"];

    pub fn from_name(name: &str) -> Option<CleanerKind> {
        match name {
            "docview" => Some(CleanerKind::DocView),
            "docview-paper" => Some(CleanerKind::DocViewPaper),
            _ => None,
        }
    }
}
