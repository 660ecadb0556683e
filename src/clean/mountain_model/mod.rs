//! The `mountain` cleaner: the Mountain Model of primary content (Bing, Wang, Zhang and Wang,
//! "Primary Content Extraction with Mountain Model", 2008;
//! `/work/shared/papers/mountain-model-primary-content.txt`).
//!
//! A page is a sequence of information cells, each scored by Formula 1 (§3.1); blank cells
//! stand for long stretches of source code between cells and the scores are smoothed over
//! their neighbours (§3.2, Formulas 2 and 3); stretches of high scores are information ridges
//! (§3.3, Definition 3); a classifier decides from four ridge features (Definition 4,
//! Formulas 4–7) which ridges are primary content (§4, Figure 2). The kept cells become the
//! topic content.
//!
//! How the paper maps onto our tag tree, and where we differ:
//! - A cell is a text run of a container ([`cells`]); the source code lengths are those of
//!   the markup the tree keeps, re-serialised, because the tree has no source offsets.
//! - The primary threshold is the mean smoothed score of the page's cells (blank cells are not
//!   cells of the page).
//! - The output is made of tag-tree nodes: a node is kept when cells of primary ridges hold at
//!   least half the characters of its cells.
//! - The classifier is a logistic regression, not an RBF SVM, trained by our own code on a
//!   stated half of the cleaning training sets (`../shared/data/clean-train`, never a test
//!   set; [`model`]): for each set of `indexer eval train-mountain`,
//!   the pages at even positions (0, 2, 4 …) of the set's stems in sorted order; a ridge is
//!   labelled primary when at least `label_min_gold_share` of its tokens are in the page's
//!   gold text (token bags of `indexer eval clean`). The other half is held out.
//! - When the classifier accepts no ridge, the most probable one is kept, and a page without
//!   any ridge (no cell above the peak threshold: one text block, a plain-text page) gets the
//!   stretch of its cells from the first to the last scoring at least the mean as its ridge
//!   (`mountain.keep_best_ridge`): every page has a primary content (Definition 1).
//! - The page type (hub/image/topic) is not part of the paper: it is the type of the kept area
//!   by §4.1 of the DocView paper, or the page's own type when nothing is kept.

pub mod cells;
pub mod model;
pub mod ridges;
pub mod smoothing;

pub use model::RidgeModel;
pub use ridges::{Ridge, RidgeFeatures};

use crate::clean::{Layout, TopicContent, page_type, type_of_area};
use crate::config::{Config, MountainConfig};
use crate::tagtree::{BlockType, TagTree};
use cells::{Cell, cell_score, page_gamma};
use smoothing::{Slot, insert_blank_cells, smooth};

/// The Mountain Model of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct Mountain {
    pub cells: Vec<Cell>,
    /// The cells with the blank cells between them, and their Formula 1 scores.
    pub slots: Vec<Slot>,
    /// The smoothed scores of the slots (Formula 2).
    pub smoothed: Vec<f64>,
    /// The mean smoothed score of the page's cells (Definition 3).
    pub primary_threshold: f64,
    /// The ridges in document order with their features.
    pub ridges: Vec<(Ridge, RidgeFeatures)>,
}

impl Mountain {
    /// Builds the model of a page: cells, scores, blank cells, smoothing, ridges, features.
    pub fn of(tree: &TagTree, config: &MountainConfig) -> Mountain {
        let cells = cells::cells(tree, config);
        let gamma = page_gamma(&cells, config);
        let scores: Vec<f64> = cells.iter().map(|c| cell_score(c, gamma, config)).collect();
        let slots = insert_blank_cells(&cells, &scores, config);
        let smoothed = smooth(&slots.iter().map(|s| s.score).collect::<Vec<_>>(), config.smoothing_window);
        let page_scores: Vec<f64> =
            slots.iter().zip(&smoothed).filter(|(slot, _)| slot.cell.is_some()).map(|(_, &s)| s).collect();
        let primary_threshold = page_scores.iter().sum::<f64>() / page_scores.len().max(1) as f64;
        let mut spans = if primary_threshold > 0.0 {
            ridges::find_ridges(
                &smoothed,
                primary_threshold,
                primary_threshold * config.peak_factor,
                config.span_window,
            )
        } else {
            Vec::new()
        };
        if spans.is_empty() && config.keep_best_ridge {
            // A page of evenly scored cells (one text block, a plain-text page) has no cell above
            // the peak threshold, hence no ridge. Every page has a primary content (Definition
            // 1): the stretch from its first to its last cell scoring at least the mean is then
            // its one ridge.
            let at_least_mean = |i: &usize| {
                slots.get(*i).is_some_and(|s| s.cell.is_some())
                    && smoothed.get(*i).is_some_and(|&s| s > 0.0 && s >= primary_threshold)
            };
            let first = (0..slots.len()).find(at_least_mean);
            let last = (0..slots.len()).rev().find(at_least_mean);
            spans.extend(first.zip(last));
        }
        let ridges = ridges::ridges_with_features(&slots, &smoothed, &spans, cells.len());
        Mountain { cells, slots, smoothed, primary_threshold, ridges }
    }

    /// The text of a ridge, one cell per line.
    pub fn ridge_text(&self, tree: &TagTree, ridge: &Ridge) -> String {
        ridge.cells.iter().filter_map(|&c| self.cells.get(c)).map(|c| c.text(tree)).collect::<Vec<_>>().join("\n")
    }

    /// The ridges the classifier takes for primary content (Figure 2), as indices into
    /// [`Mountain::ridges`].
    pub fn primary_ridges(&self, model: &RidgeModel, config: &MountainConfig) -> Vec<usize> {
        let probabilities: Vec<f64> = self.ridges.iter().map(|(_, f)| model.probability(f)).collect();
        let chosen: Vec<usize> =
            (0..probabilities.len()).filter(|&i| probabilities[i] >= config.min_probability).collect();
        if !chosen.is_empty() || !config.keep_best_ridge {
            return chosen;
        }
        let best = probabilities.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(i, _)| i);
        best.into_iter().collect()
    }
}

/// Cleans a page with the Mountain Model: the nodes whose cells are mostly in primary ridges.
pub fn clean_mountain(tree: &TagTree, layout: &Layout, model: &RidgeModel, config: &Config) -> TopicContent {
    let whole_page = page_type(tree, layout, &config.page_type);
    if whole_page == BlockType::Empty {
        return TopicContent::new(tree, layout, whole_page, Vec::new());
    }
    let mountain = Mountain::of(tree, &config.mountain);
    let mut primary_chars = vec![0usize; tree.nodes.len()];
    let mut all_chars = vec![0usize; tree.nodes.len()];
    for cell in &mountain.cells {
        if let Some(n) = all_chars.get_mut(cell.node) {
            *n += cell.chars;
        }
    }
    for r in mountain.primary_ridges(model, &config.mountain) {
        let Some((ridge, _)) = mountain.ridges.get(r) else { continue };
        for cell in ridge.cells.iter().filter_map(|&c| mountain.cells.get(c)) {
            if let Some(n) = primary_chars.get_mut(cell.node) {
                *n += cell.chars;
            }
        }
    }
    let nodes: Vec<usize> =
        (0..tree.nodes.len()).filter(|&id| primary_chars[id] > 0 && primary_chars[id] * 2 >= all_chars[id]).collect();
    // Keep it simple: the type of what was kept, or of the whole page when nothing was.
    let kept_type = type_of_area(tree, layout, &nodes, &config.page_type);
    let page_type = if kept_type == BlockType::Empty { whole_page } else { kept_type };
    TopicContent::new(tree, layout, page_type, nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(html: &str) -> TagTree {
        TagTree::with_default_config(html)
    }

    const PAGE: &str = "<body><div id=nav><ul><li><a href='/a'>Home</a></li><li><a href='/b'>World</a></li>\
        <li><a href='/c'>Sports</a></li><li><a href='/d'>Science</a></li></ul></div>\
        <div id=story><h1>Terns return to the bay</h1>\
        <p>The terns came back to the bay this spring, after ten years away. Counts rose fast.</p>\
        <p>Volunteers, who watched the colony daily, counted three hundred nests; most held eggs.</p>\
        <p>The council said it would keep the beach closed until August, to protect the chicks.</p></div>\
        <div id=more><a href='/x'>More news</a> <a href='/y'>Weather</a> <a href='/z'>Contact us</a></div></body>";

    #[test]
    fn the_story_is_the_ridge_and_the_menus_are_not() {
        let t = tree(PAGE);
        let config = Config::default();
        let mountain = Mountain::of(&t, &config.mountain);
        assert!(mountain.primary_threshold > 0.0);
        let texts: Vec<String> = mountain.ridges.iter().map(|(r, _)| mountain.ridge_text(&t, r)).collect();
        assert_eq!(texts.len(), 1, "{texts:?}");
        assert!(texts[0].contains("terns came back") && texts[0].contains("beach closed"), "{texts:?}");
        assert!(!texts[0].contains("Home") && !texts[0].contains("Contact"));
        let content = clean_mountain(&t, &Layout::of(&t, &config.layout), &RidgeModel::load("").unwrap(), &config);
        let text = content.text(&t);
        assert!(text.contains("Volunteers") && !text.contains("Weather"), "{text}");
        assert_eq!(content.page_type, BlockType::Topic);
    }

    #[test]
    fn a_page_of_one_text_block_has_that_block_as_its_ridge() {
        let t = tree("<body><p>Just one paragraph of plain text, and nothing else on the page.</p></body>");
        let config = Config::default();
        let mountain = Mountain::of(&t, &config.mountain);
        assert_eq!(mountain.ridges.len(), 1);
        let content = clean_mountain(&t, &Layout::of(&t, &config.layout), &RidgeModel::load("").unwrap(), &config);
        assert!(content.text(&t).starts_with("Just one paragraph"));
        let mut strict = config.mountain.clone();
        strict.keep_best_ridge = false;
        assert!(Mountain::of(&t, &strict).ridges.is_empty());
    }

    #[test]
    fn empty_and_text_free_pages_give_no_content() {
        let config = Config::default();
        let model = RidgeModel::load("").unwrap();
        for html in ["", "<body></body>", "<body><div><br></div></body>"] {
            let t = tree(html);
            let content = clean_mountain(&t, &Layout::of(&t, &config.layout), &model, &config);
            assert!(content.nodes.is_empty());
            assert_eq!(content.page_type, BlockType::Empty);
        }
    }
}
