//! Web page cleaning (§3.2 and §4): block weights (Algorithm 1), the feature vector
//! (Formula 2), the page type from the central area (§4.1), and the topic content (§4.2).
//!
//! Two cleaners of the DocView paper live here, selected by `cleaning.cleaner`:
//! - `docview-paper`: §4.2 as published. Topic pages keep every block left after pruning hub
//!   and image blocks from the tree.
//! - `docview` (default): the same, then restricted to the central area and to the topic root
//!   found by a paragraph-score search (see [`topic_content`]), because pruning alone keeps
//!   every text block of the template (copyright lines, teasers, disclaimers).
//!
//! - `mountain`: the Mountain Model of primary content (Bing et al. 2008), in
//!   [`mountain_model`]: cells, ridges and a learned ridge classifier.
//!
//! The cleaners of the other papers each have a module of their own and are reached through
//! [`Cleaner`], which every caller (build, extract, eval clean) uses: some learn before they
//! clean (the site style tree needs a pass over each site's pages first).

mod block_weight;
mod features;
pub mod mountain_model;
mod page_type;
mod topic_content;

pub use block_weight::{BlockWeights, block_weights};
pub use features::{FeatureVector, feature_vector, term_frequencies};
pub use page_type::{page_type, type_of_area};
pub use topic_content::{TopicContent, clean_page};

use std::sync::Arc;

use crate::config::Config;
use crate::tagtree::TagTree;
use mountain_model::{RidgeModel, clean_mountain};

/// The cleaners `--cleaner` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CleanerKind {
    DocView,
    DocViewPaper,
    Mountain,
}

impl CleanerKind {
    pub const NAMES: &'static [&'static str] = &["docview", "docview-paper", "mountain"];

    pub fn from_name(name: &str) -> Option<CleanerKind> {
        match name {
            "docview" => Some(CleanerKind::DocView),
            "docview-paper" => Some(CleanerKind::DocViewPaper),
            "mountain" => Some(CleanerKind::Mountain),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CleanerKind::DocView => "docview",
            CleanerKind::DocViewPaper => "docview-paper",
            CleanerKind::Mountain => "mountain",
        }
    }
}

/// A cleaner that cannot start (a model file that cannot be read).
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct CleanerError {
    pub path: String,
    pub message: String,
}

/// A cleaner ready for pages: its kind and whatever it learned before the first page.
///
/// The protocol, the same for every caller:
/// 1. [`Cleaner::new`];
/// 2. if [`Cleaner::learns_from_sites`], every page of the input goes through
///    [`Cleaner::observe`] (in input order), then [`Cleaner::finish_learning`] once;
/// 3. [`Cleaner::clean`] for each page, from any thread.
///
/// A learning cleaner asked to clean before (or without) its learning pass treats every page
/// as the only page of its site; it never fails.
#[derive(Debug, Clone)]
pub struct Cleaner {
    kind: CleanerKind,
    /// The Mountain Model's ridge classifier (`mountain` only).
    ridge_model: Option<Arc<RidgeModel>>,
}

impl Cleaner {
    pub fn new(kind: CleanerKind, config: &Config) -> Result<Cleaner, CleanerError> {
        let ridge_model = match kind {
            CleanerKind::Mountain => {
                let path = &config.mountain.model;
                let model = RidgeModel::load(path).map_err(|e| CleanerError {
                    path: if path.is_empty() { "built-in ridge model".into() } else { path.clone() },
                    message: e.to_string(),
                })?;
                Some(Arc::new(model))
            }
            CleanerKind::DocView | CleanerKind::DocViewPaper => None,
        };
        Ok(Cleaner { kind, ridge_model })
    }

    /// The default cleaner, which needs nothing to start.
    pub fn docview() -> Cleaner {
        Cleaner { kind: CleanerKind::DocView, ridge_model: None }
    }

    /// The cleaner named by `config.cleaning.cleaner`.
    pub fn from_config(config: &Config) -> Result<Cleaner, CleanerError> {
        let kind = CleanerKind::from_name(&config.cleaning.cleaner).ok_or_else(|| CleanerError {
            path: "cleaning.cleaner".into(),
            message: format!("unknown cleaner; use one of {:?}", CleanerKind::NAMES),
        })?;
        Cleaner::new(kind, config)
    }

    pub fn kind(&self) -> CleanerKind {
        self.kind
    }

    /// Whether [`Cleaner::observe`] must see the input's pages before the first
    /// [`Cleaner::clean`]: a two-pass cleaner.
    pub fn learns_from_sites(&self) -> bool {
        false
    }

    /// One page of the learning pass. `site` groups the pages of one site ([`site_of`]).
    pub fn observe(&mut self, _site: &str, _tree: &TagTree) {}

    /// Ends the learning pass.
    pub fn finish_learning(&mut self) {}

    /// The gold pages (`<set-name>/<stem>`) a learned model was trained on, which an
    /// evaluation must leave out; empty for cleaners without one.
    pub fn training_pages(&self) -> &[String] {
        self.ridge_model.as_deref().map_or(&[], |m| m.training_pages.as_slice())
    }

    /// The topic content of one page of `site`.
    pub fn clean(&self, _site: &str, tree: &TagTree, weights: &BlockWeights, config: &Config) -> TopicContent {
        match self.kind {
            CleanerKind::DocView | CleanerKind::DocViewPaper => clean_page(tree, weights, self.kind, config),
            CleanerKind::Mountain => match &self.ridge_model {
                Some(model) => clean_mountain(tree, model, config),
                // Only `new` makes a mountain cleaner, and it always loads a model.
                None => clean_page(tree, weights, CleanerKind::DocView, config),
            },
        }
    }
}

/// The site a page belongs to, for cleaners that learn per site: the URL's host in lower
/// case, or the whole URL when it has none (a local file is a site of its own).
pub fn site_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) => match parsed.host_str() {
            Some(host) if !host.is_empty() => host.to_ascii_lowercase(),
            _ => url.to_string(),
        },
        Err(_) => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in CleanerKind::NAMES {
            assert_eq!(CleanerKind::from_name(name).map(CleanerKind::name), Some(*name));
        }
    }

    #[test]
    fn sites_are_hosts_and_files_are_their_own_site() {
        assert_eq!(site_of("https://News.Example.com/a/b.html"), "news.example.com");
        assert_eq!(site_of("file:///tmp/x/1.html"), "file:///tmp/x/1.html");
        assert_eq!(site_of("not a url"), "not a url");
    }
}
