//! Web page cleaning (§3.2 and §4): block weights (Algorithm 1), the feature vector
//! (Formula 2), the page type from the central area (§4.1), and the topic content (§4.2).
//!
//! Two cleaners of the DocView paper live here, selected by `cleaning.cleaner`:
//! - `docview-paper`: §4.2 as published. Topic pages keep every block left after pruning hub
//!   and image blocks from the tree.
//! - `docview`: the same, then restricted to the central area and to the topic root
//!   found by a paragraph-score search (see `topic_content`), because pruning alone keeps
//!   every text block of the template (copyright lines, teasers, disclaimers).
//!
//! - `mountain`: the Mountain Model of primary content (Bing et al. 2008), in
//!   [`mountain_model`]: cells, ridges and a learned ridge classifier.
//! - `blocks` (default): the `docview` cleaner's result corrected block by block by a learned
//!   classifier over the DocView quantities ([`block_classifier`]), chosen by its
//!   cross-validated F1 on the training sets.
//!
//! The cleaners of the other papers each have a module of their own and are reached through
//! [`Cleaner`], which every caller (build, extract, eval clean) uses: some learn before they
//! clean (the site style tree needs a pass over each site's pages first). Per-page ones:
//! - `satisfiable`: Qi & Sun's satisfiable sub-tree heuristics ([`satisfiable_subtree`]);
//! - `pab`: Kabir, Kabir & Amin's HTML tag priority blocks ([`tag_priority_blocks`]).

pub mod block_classifier;
mod block_weight;
mod features;
mod layout;
pub mod logistic;
pub mod mountain_model;
mod page_type;
pub mod satisfiable_subtree;
pub mod site_style_tree;
pub mod site_template;
pub mod tag_priority_blocks;
mod topic_content;

pub use block_weight::{BlockWeights, block_weights};
pub(crate) use features::ordered_sum;
pub use features::{FeatureVector, feature_vector, term_frequencies};
pub use layout::{Layout, TitleHeading};
pub use page_type::{
    BoostedTrees, HubModel, HubModelError, Learned, LearnerSettings, PageFeatures, page_type, retype, type_of_area,
    typing_cleaner,
};
pub use topic_content::{HeadlinePlacement, TopicContent, clean_page};

use std::sync::Arc;

use crate::config::Config;
use crate::input::RawPage;
use crate::tagtree::{BlockType, TagTree};
use block_classifier::{BlockClassifier, BlockModel, clean_blocks};
use mountain_model::{RidgeModel, clean_mountain};
use site_style_tree::SiteStyleTrees;
use site_template::SiteTemplates;

use crate::config::ClassifierChoice;
pub use crate::config::CleanerKind;

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
/// 2. if [`Cleaner::learns_from_sites`]: every page of the input goes through
///    [`Cleaner::count_page`] (its site only), then, in input order, each page for which
///    [`Cleaner::take`] says so through [`Cleaner::observe`] (only those need parsing), then
///    [`Cleaner::finish_learning`] once;
/// 3. [`Cleaner::clean`] for each page, from any thread.
///
/// A learning cleaner asked to clean before (or without) its learning pass treats every page
/// as the only page of its site; it never fails.
#[derive(Debug, Clone)]
pub struct Cleaner {
    kind: CleanerKind,
    /// The site style trees of the `sst` cleaner, shared between clones once learned.
    site_style_trees: Arc<SiteStyleTrees>,
    /// The Mountain Model's ridge classifier (`mountain` only).
    ridge_model: Option<Arc<RidgeModel>>,
    /// The block classifier (`blocks` only).
    block_model: Option<Arc<BlockClassifier>>,
    /// The hub-page model that types the pages of `docview` and `blocks` (`page_type.hub_model`).
    hub_model: Option<Arc<HubModel>>,
    /// The site evidence of the default cleaner ([`site_template`]): empty and finished for
    /// the other cleaners and when `cleaning.site_min_pages` is 0.
    site_templates: Arc<SiteTemplates>,
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
            _ => None,
        };
        let block_model = match kind {
            CleanerKind::Blocks => {
                let path = &config.blocks.model;
                let classifier = if path.is_empty() {
                    BlockClassifier::built_in()
                } else {
                    BlockModel::load(path).map(|model| Arc::new(BlockClassifier::new(model)))
                };
                Some(classifier.map_err(|e| CleanerError {
                    path: if path.is_empty() { "built-in block model".into() } else { path.clone() },
                    message: e.to_string(),
                })?)
            }
            _ => None,
        };
        let site_templates = match kind {
            CleanerKind::DocView | CleanerKind::Blocks => SiteTemplates::new(&config.cleaning),
            _ => SiteTemplates::default(),
        };
        let hub_model = match (kind, &config.page_type.hub_model) {
            (CleanerKind::DocView | CleanerKind::Blocks, choice) => {
                let path = match choice {
                    ClassifierChoice::Off => None,
                    ClassifierChoice::BuiltIn => Some(None),
                    ClassifierChoice::File(path) => Some(Some(path.as_path())),
                };
                match path {
                    None => None,
                    Some(path) => Some(Arc::new(HubModel::load(path, kind).map_err(|e| CleanerError {
                        path: path.map_or("built-in hub-page model".into(), |p| p.display().to_string()),
                        message: e.to_string(),
                    })?)),
                }
            }
            _ => None,
        };
        Ok(Cleaner {
            kind,
            site_style_trees: Arc::new(SiteStyleTrees::new(&config.sst)),
            ridge_model,
            block_model,
            hub_model,
            site_templates: Arc::new(site_templates),
        })
    }

    /// The cleaner named by `config.cleaning.cleaner`.
    pub fn from_config(config: &Config) -> Result<Cleaner, CleanerError> {
        Cleaner::new(config.cleaning.cleaner, config)
    }

    pub fn kind(&self) -> CleanerKind {
        self.kind
    }

    /// Whether [`Cleaner::observe`] must see the input's pages before the first
    /// [`Cleaner::clean`]: a two-pass cleaner.
    pub fn learns_from_sites(&self) -> bool {
        self.kind == CleanerKind::SiteStyleTree || self.site_templates.is_learning()
    }

    /// First pass of learning: one page of `site` ([`site_of`]) is in the input.
    pub fn count_page(&mut self, site: &str) {
        if self.site_templates.is_learning() {
            Arc::make_mut(&mut self.site_templates).count_page(site);
        }
    }

    /// Second pass of learning, in input order: whether this page of `site` must go through
    /// [`Cleaner::observe`]. Pages no cleaner learns from need no parsing.
    pub fn take(&mut self, site: &str) -> bool {
        match self.kind {
            CleanerKind::SiteStyleTree => true,
            _ => self.site_templates.is_learning() && Arc::make_mut(&mut self.site_templates).take(site),
        }
    }

    /// One page of the learning pass. `site` groups the pages of one site ([`site_of`]).
    pub fn observe(&mut self, site: &str, tree: &TagTree) {
        if self.kind == CleanerKind::SiteStyleTree {
            Arc::make_mut(&mut self.site_style_trees).observe(site, tree);
        }
        if self.site_templates.is_learning() {
            Arc::make_mut(&mut self.site_templates).observe(site, tree);
        }
    }

    /// Whether the pages of `site` can be cleaned before learning is over: the cleaner learns
    /// per host (not `sst`, which learns from every page), and the host's sample was all
    /// taken; its template is final once [`Cleaner::finish_site`] was called.
    pub fn site_sample_complete(&self, site: &str) -> bool {
        self.kind != CleanerKind::SiteStyleTree && self.site_templates.sample_complete(site)
    }

    /// Makes the template of `site`, whose sample is complete and observed.
    pub fn finish_site(&mut self, site: &str) {
        if self.site_templates.is_learning() {
            Arc::make_mut(&mut self.site_templates).finish_site(site);
        }
    }

    /// Ends the learning pass.
    pub fn finish_learning(&mut self) {
        if self.kind == CleanerKind::SiteStyleTree {
            Arc::make_mut(&mut self.site_style_trees).finish();
        }
        if self.site_templates.is_learning() {
            Arc::make_mut(&mut self.site_templates).finish();
        }
    }

    /// The whole learning protocol over pages held in memory (an evaluation's set, a
    /// benchmark's sample), in their order; `tree_of` parses a page. Builds stream theirs
    /// instead (`build::learned_cleaner`).
    pub fn learn_from_pages(&mut self, pages: &[RawPage], tree_of: impl Fn(&RawPage) -> TagTree) {
        if !self.learns_from_sites() {
            return;
        }
        for page in pages {
            self.count_page(&site_of(&page.url));
        }
        for page in pages {
            let site = site_of(&page.url);
            if self.take(&site) {
                self.observe(&site, &tree_of(page));
            }
        }
        self.finish_learning();
    }

    /// The site templates the default cleaner uses (learned, or read from a file).
    pub fn site_templates(&self) -> &SiteTemplates {
        &self.site_templates
    }

    /// Uses `templates` (read from a file: `build --site-templates`) instead of learning
    /// them; the default cleaner and `blocks`, which starts from it, only.
    pub fn set_site_templates(&mut self, templates: SiteTemplates) {
        if matches!(self.kind, CleanerKind::DocView | CleanerKind::Blocks) {
            self.site_templates = Arc::new(templates);
        }
    }

    /// The site style trees learned (empty for the other cleaners).
    pub fn site_style_trees(&self) -> &SiteStyleTrees {
        &self.site_style_trees
    }

    /// The gold pages (`<set-name>/<stem>`) a learned model was trained on, which an
    /// evaluation must leave out; empty for cleaners without one.
    pub fn training_pages(&self) -> &[String] {
        self.ridge_model.as_deref().map_or(&[], |m| m.training_pages.as_slice())
    }

    /// The topic content of one page of `site`, typed by the hub-page model when the cleaner
    /// has one ([`retype`]).
    pub fn clean(&self, site: &str, tree: &TagTree, weights: &BlockWeights, config: &Config) -> TopicContent {
        let (mut content, features) = self.clean_by_rules(site, tree, weights, config, self.hub_model.is_some());
        if let (Some(model), Some(features)) = (&self.hub_model, features) {
            content.page_type = retype(content.page_type, &features, model.is_hub(&features), &config.page_type);
        }
        content
    }

    /// The topic content of one page of `site` typed by the rules of §4.1 alone, and, when
    /// `with_features` and the cleaner is `docview` or `blocks`, the features the hub-page
    /// model reads (`indexer eval page-types` trains on them).
    pub fn clean_by_rules(
        &self,
        site: &str,
        tree: &TagTree,
        weights: &BlockWeights,
        config: &Config,
        with_features: bool,
    ) -> (TopicContent, Option<PageFeatures>) {
        let layout = Layout::of(tree, &config.layout);
        let content = match self.kind {
            CleanerKind::DocView | CleanerKind::Blocks => {
                // The site's template blocks are noise (`site_template`): outside the central
                // area (§4.1), weight 0, and not the title heading, so that neither the root
                // search nor the page type sees them. Node ids stay.
                let template = self.site_templates.template_nodes(site, tree);
                let marked = template.as_ref().map(|template| {
                    let mut weights = weights.clone();
                    for id in site_template::marked_ids(template) {
                        weights.0[id] = 0.0;
                    }
                    (layout.with_template(template), weights)
                });
                let (seen, weights) = marked.as_ref().map_or((&layout, weights), |(l, w)| (l, w));
                let mut docview = clean_page(tree, seen, weights, CleanerKind::DocView, config);
                let kept = match &self.block_model {
                    Some(classifier) if block_classifier::has_support(tree, config.blocks.min_page_terms) => {
                        let threshold = config.blocks.min_probability.unwrap_or(classifier.model.threshold);
                        let kept = clean_blocks(
                            tree,
                            seen,
                            weights,
                            &docview,
                            classifier,
                            threshold,
                            block_classifier::RepeatRule::of(&config.blocks),
                        );
                        // The template is noise for the classifier too, as for the root search:
                        // the model was trained on pages alone and never saw this evidence (a
                        // template block reads to it as any margin block it may take back),
                        // and on a short page the template would be most of the record.
                        let kept = match &template {
                            Some(template) => without_template(tree, seen, kept, template),
                            None => kept,
                        };
                        Some(kept).filter(|kept| !kept.nodes.is_empty())
                    }
                    _ => None,
                };
                // A page with content never comes out without any: when the root search and
                // the central area leave nothing, the topic blocks §4.2 keeps stand (the
                // paper's cleaner, every topic block left after pruning hubs and images), and
                // when that is empty too (every block a hub or an image), the central area,
                // typed as §4.1 types it.
                if docview.nodes.is_empty() && docview.page_type != BlockType::Empty {
                    docview = clean_page(tree, seen, weights, CleanerKind::DocViewPaper, config);
                }
                if docview.nodes.is_empty() && docview.page_type != BlockType::Empty {
                    let has_content = |id: usize| tree.nodes[id].own.terms > 0 || tree.nodes[id].own.images > 0;
                    let central: Vec<usize> =
                        (0..tree.nodes.len()).filter(|&id| has_content(id) && !seen.is_margin(id)).collect();
                    docview = kept_content(tree, seen, central, config);
                }
                // Both cleaners type the page on docview's result (`blocks` keeps docview's page
                // type), so the hub-page model reads the same features whichever runs, and the
                // one model fitted on them fits both: blocks' own output drops the linked
                // titles of some listings, which docview's keeps.
                let features = with_features.then(|| PageFeatures::of(tree, seen, &docview));
                // `blocks` falls back to docview's result when it keeps nothing.
                let mut content = kept.unwrap_or(docview);
                // The headline the content reports stays the page's.
                content.title_heading = layout.title_heading();
                return (content, features);
            }
            CleanerKind::DocViewPaper => clean_page(tree, &layout, weights, self.kind, config),
            CleanerKind::Satisfiable => {
                let nodes = satisfiable_subtree::satisfiable_nodes(tree, &config.satisfiable);
                kept_content(tree, &layout, nodes, config)
            }
            CleanerKind::Pab => {
                let nodes = tag_priority_blocks::informative_nodes(tree, site, &config.pab);
                kept_content(tree, &layout, nodes, config)
            }
            // A site without a learned style tree (too few pages, or no learning pass) gets
            // the default cleaner.
            CleanerKind::SiteStyleTree => self
                .site_style_trees
                .clean(site, tree, &layout, config)
                .unwrap_or_else(|| clean_page(tree, &layout, weights, CleanerKind::DocView, config)),
            CleanerKind::Mountain => match &self.ridge_model {
                Some(model) => clean_mountain(tree, &layout, model, config),
                // Only `new` makes a mountain cleaner, and it always loads a model.
                None => clean_page(tree, &layout, weights, CleanerKind::DocView, config),
            },
        };
        (content, None)
    }
}

/// `content` without the blocks `template` marks (by node id).
fn without_template(tree: &TagTree, layout: &Layout, content: TopicContent, template: &[bool]) -> TopicContent {
    if !content.nodes.iter().any(|&id| template[id]) {
        return content;
    }
    let nodes = content.nodes.into_iter().filter(|&id| !template[id]).collect();
    TopicContent::new(tree, layout, content.page_type, nodes)
}

/// The topic content of a cleaner that does not type pages: the kept nodes, typed by the
/// rules of §4.1 applied to them, or to the whole page when nothing was kept (so that a page
/// with content but no kept block still gets a type). Kept simple on purpose: these cleaners
/// choose content the same way whatever the page's type.
fn kept_content(tree: &TagTree, layout: &Layout, nodes: Vec<crate::tagtree::NodeId>, config: &Config) -> TopicContent {
    let kept_type = type_of_area(tree, layout, &nodes, &config.page_type);
    let page_type = if kept_type == BlockType::Empty { page_type(tree, layout, &config.page_type) } else { kept_type };
    TopicContent::new(tree, layout, page_type, nodes)
}

/// The site a page belongs to, for cleaners that learn per site: the URL's host in lower
/// case, or the whole URL when it has none (a local file is a site of its own, even when a
/// relative path makes it look like `file://../x.html`, host `..`).
pub fn site_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) if parsed.scheme() == "file" => url.to_string(),
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
        assert_eq!(site_of("file://../data/1.html"), "file://../data/1.html");
        assert_eq!(site_of("not a url"), "not a url");
    }
}
