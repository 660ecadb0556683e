//! `indexer eval train-mountain`: trains the Mountain Model's ridge classifier
//! ([`crate::clean::mountain_model`]) on the training half of the cleaning training sets
//! (`../shared/data/clean-train`), never on the test sets of `indexer eval clean`.
//!
//! The protocol, recorded in the model file it writes:
//! - Sets: the folders `<data>/<set>/{html,gold}` named on the command line (default: the three
//!   training sets of `../shared/data/clean-train`).
//! - Split: in each set, the pages sorted by file stem; those at even positions (0, 2, 4 …)
//!   train, the odd ones are held out. The model lists its training pages as `<set>/<stem>`
//!   and `indexer eval clean` leaves them out, so that its training-set figures are on pages
//!   the model has not seen.
//! - Examples: every ridge of every training page, with the four ridge features of
//!   Definition 4. Label: primary when at least `mountain.label_min_gold_share` of the ridge's
//!   tokens are in the page's gold text (token bags and intersection of `indexer eval clean`).
//!   Ridges without a token are left out.
//! - Learner: logistic regression on standardised features, full-batch gradient descent
//!   (`mountain.l2`, `mountain.epochs`, `mountain.learning_rate`). Deterministic.

use std::path::Path;

use rayon::prelude::*;

use super::clean::{CleanEvalError, GoldPage, GoldSet, PageScore, score_tokens};
use crate::clean::logistic::{LogisticRegression, fit_logistic_regression};
use crate::clean::mountain_model::{Mountain, RidgeFeatures, RidgeModel};
use crate::config::{Config, MountainConfig};
use crate::page::PageContext;
use crate::text::StopWords;

/// The sets trained on by default (folders of `../shared/data/clean-train`).
pub const DEFAULT_SETS: &[&str] = &["dragnet-train", "wcxb-train", "page-signal"];

/// What training saw in one set.
#[derive(Debug, Clone, PartialEq)]
pub struct SetSummary {
    pub set: String,
    pub training_pages: usize,
    pub held_out_pages: usize,
    pub ridges: usize,
    pub positives: usize,
}

/// The training pages of a set: its pages sorted by stem, at even positions.
pub fn training_half(set: &GoldSet) -> Vec<&GoldPage> {
    let mut pages: Vec<&GoldPage> = set.pages.iter().collect();
    pages.sort_by(|a, b| a.stem.cmp(&b.stem));
    pages.into_iter().step_by(2).collect()
}

/// The labelled ridges of one page.
pub fn labelled_ridges(ctx: &PageContext<'_>, page: &GoldPage) -> Vec<(Vec<f64>, bool)> {
    let (tree, _) = ctx.tag_tree(&page.raw_page());
    let config = &ctx.config().mountain;
    let mountain = Mountain::of(&tree, config);
    let gold = score_tokens(&page.gold);
    mountain
        .ridges
        .iter()
        .filter_map(|(ridge, features)| {
            let tokens = score_tokens(&mountain.ridge_text(&tree, ridge));
            let score = PageScore::new(&tokens, &gold);
            (score.output_tokens > 0).then(|| {
                let primary = score.true_positives as f64 >= config.label_min_gold_share * score.output_tokens as f64;
                (features.to_vec(), primary)
            })
        })
        .collect()
}

/// Trains a ridge model on the training half of the sets `sets` under `data`.
pub fn train_mountain(
    data: &Path,
    sets: &[String],
    config: &Config,
) -> Result<(RidgeModel, Vec<SetSummary>), CleanEvalError> {
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(config, &stop_words)
        .map_err(|e| CleanEvalError { path: "configuration".into(), message: e.to_string() })?;
    let mut examples = Vec::new();
    let mut training_pages = Vec::new();
    let mut summaries = Vec::new();
    for name in sets {
        let set = GoldSet::open(&data.join(name).join("html"), &data.join(name).join("gold"))?;
        let half = training_half(&set);
        let per_page: Vec<Vec<(Vec<f64>, bool)>> = half.par_iter().map(|page| labelled_ridges(&ctx, page)).collect();
        let ridges: Vec<(Vec<f64>, bool)> = per_page.into_iter().flatten().collect();
        summaries.push(SetSummary {
            set: set.name.clone(),
            training_pages: half.len(),
            held_out_pages: set.pages.len() - half.len(),
            ridges: ridges.len(),
            positives: ridges.iter().filter(|(_, y)| *y).count(),
        });
        training_pages.extend(half.iter().map(|page| format!("{}/{}", set.name, page.stem)));
        examples.extend(ridges);
    }
    let m = &config.mountain;
    let fit = fit_logistic_regression(&examples, m.l2, m.epochs, m.learning_rate);
    let protocol = format!(
        "indexer eval train-mountain. Sets: {sets}. Split: in each set the pages sorted by file stem, those at \
         even positions (0, 2, 4 ...) train (listed in training_pages), the odd ones are held out. Examples: every \
         ridge of a training page with its features (Definition 4); label primary when at least {share} of its \
         tokens are in the gold text (token bags of `indexer eval clean`); ridges without tokens left out. \
         Learner: logistic regression on standardised features, full-batch gradient descent, l2 {l2}, {epochs} \
         epochs, step {step}.",
        sets = sets.join(", "),
        share = m.label_min_gold_share,
        l2 = m.l2,
        epochs = m.epochs,
        step = m.learning_rate,
    );
    let model = RidgeModel {
        protocol,
        regression: LogisticRegression::new(&RidgeFeatures::NAMES, fit),
        examples: examples.len(),
        positives: examples.iter().filter(|(_, y)| *y).count(),
        // The parameters the ridges were computed with; the model path is not one of them.
        config: MountainConfig { model: String::new(), ..m.clone() },
        training_pages,
    };
    Ok((model, summaries))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(stem: &str) -> GoldPage {
        GoldPage { stem: stem.into(), url: String::new(), html: Vec::new(), gold: String::new() }
    }

    #[test]
    fn the_training_half_is_every_other_stem_in_sorted_order() {
        let set = GoldSet { name: "s".into(), pages: ["d", "a", "c", "b", "e"].into_iter().map(page).collect() };
        let stems: Vec<&str> = training_half(&set).iter().map(|p| p.stem.as_str()).collect();
        assert_eq!(stems, ["a", "c", "e"]);
    }

    #[test]
    fn evaluation_leaves_out_the_pages_the_built_in_model_was_trained_on() {
        use crate::clean::{CleanerKind, HeadlinePlacement};
        use crate::eval::clean::{evaluate_cleaner, evaluate_cleaner_held_out};
        let model = RidgeModel::load("").unwrap();
        let (set_name, trained_stem) = model.training_pages[0].split_once('/').unwrap();
        let html = b"<body><p>A paragraph of text that is long enough to be a ridge.</p></body>".to_vec();
        let gold = "A paragraph of text".to_string();
        let pages = [trained_stem, "not-a-training-page"].map(|stem| GoldPage {
            stem: stem.into(),
            url: String::new(),
            html: html.clone(),
            gold: gold.clone(),
        });
        let set = GoldSet { name: set_name.into(), pages: pages.to_vec() };
        let mountain = evaluate_cleaner(&set, CleanerKind::Mountain).unwrap();
        assert_eq!((mountain.pages, mountain.held_out_excluded), (1, 1));
        let docview = evaluate_cleaner(&set, CleanerKind::DocView).unwrap();
        assert_eq!((docview.pages, docview.held_out_excluded), (2, 0));
        let same_pages = evaluate_cleaner_held_out(
            &set,
            CleanerKind::DocView,
            &[CleanerKind::Mountain],
            HeadlinePlacement::Apart,
            &crate::config::Config::default(),
        )
        .unwrap();
        assert_eq!((same_pages.pages, same_pages.held_out_excluded), (1, 1));
    }

    #[test]
    fn ridges_are_labelled_by_their_share_of_gold_tokens() {
        let config = Config::default();
        let stop_words = StopWords::generic();
        let ctx = PageContext::new(&config, &stop_words).unwrap();
        let story = "The terns came back to the bay this spring, after ten years away. Counts rose fast. \
                     Volunteers, who watched the colony daily, counted three hundred nests; most held eggs.";
        let menu: String = ["Home", "World", "Sports", "Science", "Arts", "Travel", "Food", "Opinion"]
            .iter()
            .map(|m| format!("<a href=/{m}>{m}</a> "))
            .collect();
        let html = format!(
            "<body><div>{menu}</div><div><p>{story}</p><p>{story}</p></div>\
             <div><p>Copyright notice of the example company, all rights reserved here and elsewhere.</p></div></body>"
        );
        let page = GoldPage { stem: "1".into(), url: String::new(), html: html.into_bytes(), gold: story.repeat(2) };
        let ridges = labelled_ridges(&ctx, &page);
        assert!(ridges.iter().any(|(_, y)| *y), "{ridges:?}");
        let gold_free = GoldPage { gold: "nothing in common".into(), ..page };
        assert!(labelled_ridges(&ctx, &gold_free).iter().all(|(_, y)| !*y));
    }
}
