//! `indexer eval train-blocks --grid … [--stacking]`: variants of the block classifier compared
//! by the same cross-validation by site, the pages parsed and their feature rows computed once
//! per run.
//!
//! - Feature rows: computed once with the union of every fit's class/id vocabulary (each fit
//!   still learns its own from its training pages, and reads only those columns), so a fit's
//!   matrix is the one `train-blocks` builds.
//! - Settings: for each (depth, learning rate, min leaf weight) the most trees asked are fitted
//!   once per fold; fewer trees are the first trees of the same fit (boosting adds trees one
//!   after the other), so every tree count of the list is scored from one fit.
//! - Threshold, per held-out fold: the best of [`THRESHOLDS`] on the out-of-fold probabilities
//!   of the other folds (no fold's pages choose their own threshold; a model fitted with the
//!   fold did score those other pages, so the figure is a little less strictly held out than
//!   `train-blocks`', whose inner model never saw the fold; the same rule for every variant).
//! - Stacking (`--stacking`, at the `[blocks]` settings): a second model reads the block
//!   features plus the first stage's probabilities around the block
//!   ([`crate::clean::block_classifier::context_features`]). Its training rows carry
//!   first-stage probabilities made without their own fold *and* without the held-out fold:
//!   for held-out fold f, a page of fold g is read by the first stage fitted on the folds
//!   other than f and g (one fit per pair of folds, shared by the two folds of the pair). The
//!   held-out fold's pages are read by the first stage fitted on all other folds, as the
//!   cleaner would read a new page.
//! - Sequence decisions: on the first stage's and the stacked stage's out-of-fold
//!   probabilities, a Viterbi pass over the blocks in document order (Web2Text, Vogels et al.
//!   2018) and a gap rule, each fold's parameters and transitions chosen on the other folds;
//!   and the repeated-text rule ([`drop_repeated`]: a block whose text an earlier kept block
//!   holds is dropped), at each least length and with the length chosen on the other folds.

use super::*;
use std::path::PathBuf;

use crate::clean::block_classifier::{CONTEXT_FEATURES, context_features, drop_repeated};

/// One setting of the learner the grid tries.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GridSetting {
    pub max_depth: usize,
    pub learning_rate: f64,
    pub min_leaf_weight: f64,
}

impl std::str::FromStr for GridSetting {
    type Err = String;

    /// `DEPTH:RATE:LEAF`, e.g. `5:0.1:1`.
    fn from_str(text: &str) -> Result<GridSetting, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let bad = || format!("`{text}`: a grid setting is DEPTH:LEARNING_RATE:MIN_LEAF_WEIGHT, e.g. 5:0.1:1");
        let [depth, rate, leaf] = parts.as_slice() else { return Err(bad()) };
        Ok(GridSetting {
            max_depth: depth.parse().map_err(|_| bad())?,
            learning_rate: rate.parse().map_err(|_| bad())?,
            min_leaf_weight: leaf.parse().map_err(|_| bad())?,
        })
    }
}

impl GridSetting {
    fn of(config: &BlocksConfig) -> GridSetting {
        GridSetting {
            max_depth: config.max_depth,
            learning_rate: config.learning_rate,
            min_leaf_weight: config.min_leaf_weight,
        }
    }

    fn config(&self, base: &BlocksConfig, trees: usize) -> BlocksConfig {
        BlocksConfig {
            trees,
            max_depth: self.max_depth,
            learning_rate: self.learning_rate,
            min_leaf_weight: self.min_leaf_weight,
            ..base.clone()
        }
    }

    fn name(&self, trees: usize) -> String {
        format!(
            "{trees} trees, depth {}, rate {}, min leaf {}",
            self.max_depth, self.learning_rate, self.min_leaf_weight
        )
    }
}

/// What the grid tries.
#[derive(Debug, Clone)]
pub struct GridSpec {
    pub settings: Vec<GridSetting>,
    /// Tree counts scored for every setting.
    pub trees: Vec<usize>,
    /// Also the stacked second stage at the `[blocks]` settings.
    pub stacking: bool,
    /// Also a third stage over the second (needs `stacking`).
    pub third_stage: bool,
    /// Write the first stage's out-of-fold result at the `[blocks]` settings here, for error
    /// analysis: `pages.tsv` (per page: tokens, precision, recall at its fold's threshold) and
    /// `blocks.tsv` (per block: label, probability, tokens, tag, class/id, text); with
    /// `stacking`, the second stage's as `stacked-pages.tsv` and `stacked-blocks.tsv`.
    pub dump: Option<PathBuf>,
}

/// One variant's cross-validated F1.
#[derive(Debug, Clone, Serialize)]
pub struct GridRow {
    pub variant: String,
    pub f1: Vec<f64>,
    pub mean: f64,
    /// The threshold each held-out fold was scored with.
    pub thresholds: Vec<f64>,
}

/// What the grid measured.
#[derive(Debug, Clone, Serialize)]
pub struct GridReport {
    pub sets: Vec<String>,
    pub set_pages: Vec<usize>,
    pub folds: usize,
    /// The `[blocks]` settings of the run (vocabulary, labels, the stacked variant's learner).
    pub config: BlocksConfig,
    pub rows: Vec<GridRow>,
}

/// Every block's feature row, computed once with the union of the run's vocabularies.
struct Cache {
    /// Features before the class/id words (base, tags, ancestor tags).
    fixed: usize,
    universe: Vec<String>,
    width: usize,
    /// Per page, row-major.
    rows: Vec<Vec<f64>>,
}

impl Cache {
    fn new(pages: &[BlockPage], vocabularies: &[&Vec<String>]) -> Cache {
        let mut universe: Vec<String> = Vec::new();
        for word in vocabularies.iter().flat_map(|v| v.iter()) {
            if !universe.contains(word) {
                universe.push(word.clone());
            }
        }
        let fixed = pages.first().map_or(0, |page| page.width(&[]));
        let (u, width) = (universe.len(), fixed + 2 * universe.len());
        // A page's rows hold at most 64 words: the universe is read 64 words at a time.
        let rows = pages
            .par_iter()
            .map(|page| {
                let n = page.blocks.len();
                let mut rows = vec![0.0; n * width];
                for (k, chunk) in universe.chunks(64).enumerate() {
                    let part = page.rows(chunk);
                    let w = fixed + 2 * chunk.len();
                    for b in 0..n {
                        let (from, to) = (&part[b * w..(b + 1) * w], &mut rows[b * width..(b + 1) * width]);
                        to[..fixed].copy_from_slice(&from[..fixed]);
                        to[fixed + 64 * k..fixed + 64 * k + chunk.len()]
                            .copy_from_slice(&from[fixed..fixed + chunk.len()]);
                        to[fixed + u + 64 * k..fixed + u + 64 * k + chunk.len()]
                            .copy_from_slice(&from[fixed + chunk.len()..]);
                    }
                }
                rows
            })
            .collect();
        Cache { fixed, width, universe, rows }
    }

    /// The cached columns that make the rows of a model with `vocabulary`, in its order.
    fn columns(&self, vocabulary: &[String]) -> Vec<usize> {
        let at = |w: &String| self.universe.iter().position(|u| u == w).expect("vocabulary inside the universe");
        let mut columns: Vec<usize> = (0..self.fixed).collect();
        columns.extend(vocabulary.iter().map(|w| self.fixed + at(w)));
        columns.extend(vocabulary.iter().map(|w| self.fixed + self.universe.len() + at(w)));
        columns
    }
}

/// The rows one model reads: cached columns, and the context rows of a second stage.
struct Design<'a> {
    cache: &'a Cache,
    pages: &'a [BlockPage],
    columns: Vec<usize>,
    /// Per page, row-major rows of `context_width` context features (the [`CONTEXT_FEATURES`]
    /// of one stage before, or of two).
    context: Option<&'a [Vec<f64>]>,
    context_width: usize,
}

/// A fitted model: base score and trees.
struct Fitted {
    base: f64,
    trees: Vec<Tree>,
}

impl Design<'_> {
    fn width(&self) -> usize {
        self.columns.len() + self.context.map_or(0, |_| self.context_width)
    }

    fn row(&self, page: usize, b: usize, out: &mut Vec<f64>) {
        out.clear();
        let cached = &self.cache.rows[page][b * self.cache.width..(b + 1) * self.cache.width];
        out.extend(self.columns.iter().map(|&c| cached[c]));
        if let Some(context) = self.context {
            let w = self.context_width;
            out.extend_from_slice(&context[page][b * w..(b + 1) * w]);
        }
    }

    /// Fits on the trainable pages among `train` as `fit` does (same examples and weights).
    fn fit(&self, train: &[usize], config: &BlocksConfig) -> Result<Fitted, CleanEvalError> {
        let train: Vec<usize> = train.iter().copied().filter(|&i| self.pages[i].trainable).collect();
        let width = self.width();
        let per_page: Vec<Examples> = train
            .par_iter()
            .map(|&i| {
                let mut row = Vec::with_capacity(width);
                self.pages[i].examples(|b, out| {
                    self.row(i, b, &mut row);
                    out.extend_from_slice(&row);
                })
            })
            .collect();
        let (base, trees) = boost_examples(&per_page, width, config)?;
        Ok(Fitted { base, trees })
    }

    /// Page `page`'s block probabilities under the first `k` trees of `fitted`, for each `k`
    /// of `checkpoints` (summed as [`BlockModel::log_odds`] sums them).
    /// Fits a model without fold `f`'s pages (all its trees) and writes its probabilities
    /// for fold `f`'s pages into `out`, as a stacking stage's out-of-fold input.
    fn fit_without_fold(&self, f: usize, config: &BlocksConfig, out: &mut [Vec<f64>]) -> Result<(), CleanEvalError> {
        let pages = self.pages;
        let train: Vec<usize> = (0..pages.len()).filter(|&i| pages[i].fold != f).collect();
        let fitted = self.fit(&train, config)?;
        let held_out: Vec<usize> = (0..pages.len()).filter(|&i| pages[i].fold == f).collect();
        let predicted: Vec<Vec<f64>> =
            held_out.par_iter().map(|&i| self.predict(&fitted, i, &[config.trees]).swap_remove(0)).collect();
        for (&i, probability) in held_out.iter().zip(predicted) {
            out[i] = probability;
        }
        Ok(())
    }

    fn predict(&self, fitted: &Fitted, page: usize, checkpoints: &[usize]) -> Vec<Vec<f64>> {
        let mut out = vec![Vec::with_capacity(self.pages[page].blocks.len()); checkpoints.len()];
        let mut row = Vec::with_capacity(self.width());
        for b in 0..self.pages[page].blocks.len() {
            self.row(page, b, &mut row);
            let mut sum = 0.0;
            let mut done = 0;
            for (c, &k) in checkpoints.iter().enumerate() {
                for tree in &fitted.trees[done..k.min(fitted.trees.len())] {
                    sum += tree.predict(&row);
                }
                done = k.min(fitted.trees.len());
                out[c].push(1.0 / (1.0 + (-(fitted.base + sum)).exp()));
            }
        }
        out
    }
}

/// The class/id vocabulary of a fit on the pages of `train` (its trainable ones, as `fit`).
fn vocabulary_of(pages: &[BlockPage], train: &[usize], size: usize) -> Vec<String> {
    let trainable: Vec<&BlockPage> = train.iter().map(|&i| &pages[i]).filter(|p| p.trainable).collect();
    vocabulary(&trainable, size)
}

/// Per-set F1 of every page scored with its fold's threshold.
fn held_out_f1(pages: &[BlockPage], probability: &[Vec<f64>], thresholds: &[f64], sets: usize) -> Vec<f64> {
    (0..sets)
        .map(|s| {
            let scores: Vec<PageScore> = pages
                .iter()
                .zip(probability)
                .filter(|(p, _)| p.set == s)
                .map(|(p, prob)| p.score(prob, thresholds[p.fold]))
                .collect();
            aggregate("", &scores, 1.0).f1
        })
        .collect()
}

/// Per fold, the threshold chosen on the other folds' out-of-fold probabilities.
fn thresholds_from_other_folds(pages: &[BlockPage], probability: &[Vec<f64>], folds: usize, sets: usize) -> Vec<f64> {
    (0..folds)
        .map(|f| {
            let (others, prob): (Vec<&BlockPage>, Vec<Vec<f64>>) =
                pages.iter().zip(probability).filter(|(p, _)| p.fold != f).map(|(p, q)| (p, q.clone())).unzip();
            choose_threshold(&others, &prob, sets)
        })
        .collect()
}

/// A variant's row of the report (held-out F1 per set at `thresholds`), also told to `progress`.
fn row_of(
    variant: String,
    pages: &[BlockPage],
    probability: &[Vec<f64>],
    thresholds: Vec<f64>,
    sets: usize,
    progress: &impl Fn(&str),
) -> GridRow {
    let f1 = held_out_f1(pages, probability, &thresholds, sets);
    let row = GridRow { variant, mean: mean(&f1), f1, thresholds };
    progress(&format!("{} | {} | {:?}", row.variant, fmt_row(&row.f1), row.thresholds));
    row
}

/// Runs the grid of `spec` on `sets` (module documentation); `progress` hears each row.
pub fn grid_blocks(
    sets: &[GoldSetConfig],
    config: &Config,
    spec: &GridSpec,
    max_pages: Option<usize>,
    progress: impl Fn(&str),
) -> Result<GridReport, CleanEvalError> {
    let (names, pages) = read_pages(sets, config, max_pages, &progress)?;
    let n_sets = names.len();
    let folds = config.blocks.folds;
    let size = config.blocks.vocabulary_size;
    let base = GridSetting::of(&config.blocks);
    let in_fold = |f: usize| -> Vec<usize> { (0..pages.len()).filter(|&i| pages[i].fold == f).collect() };
    let outside = |excluded: &[usize]| -> Vec<usize> {
        (0..pages.len()).filter(|&i| !excluded.contains(&pages[i].fold)).collect()
    };
    let outer_vocabulary: Vec<Vec<String>> = (0..folds).map(|f| vocabulary_of(&pages, &outside(&[f]), size)).collect();
    let pairs: Vec<(usize, usize)> =
        if spec.stacking { (0..folds).flat_map(|f| (f + 1..folds).map(move |g| (f, g))).collect() } else { Vec::new() };
    let pair_vocabulary: Vec<Vec<String>> =
        pairs.iter().map(|&(f, g)| vocabulary_of(&pages, &outside(&[f, g]), size)).collect();
    let cache = Cache::new(&pages, &outer_vocabulary.iter().chain(&pair_vocabulary).collect::<Vec<_>>());
    progress(&format!(
        "feature rows cached: {} pages, {} columns ({} class/id words over the folds' vocabularies)",
        pages.len(),
        cache.width,
        cache.universe.len()
    ));
    let mut rows = Vec::new();
    // The `[blocks]` setting first: the stacked variant's first stage is its out-of-fold.
    let mut settings = spec.settings.clone();
    if spec.stacking && !settings.contains(&base) {
        settings.push(base);
    }
    settings.sort_by_key(|s| *s != base);
    let mut base_out_of_fold: Option<Vec<Vec<f64>>> = None;
    for setting in &settings {
        let mut checkpoints: Vec<usize> = spec.trees.clone();
        if *setting == base && spec.stacking {
            checkpoints.push(config.blocks.trees);
        }
        checkpoints.sort_unstable();
        checkpoints.dedup();
        let most = *checkpoints.last().unwrap_or(&config.blocks.trees);
        let learner = setting.config(&config.blocks, most);
        let mut out_of_fold: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); pages.len()]; checkpoints.len()];
        for (f, vocabulary) in outer_vocabulary.iter().enumerate() {
            let design = Design {
                cache: &cache,
                pages: &pages,
                columns: cache.columns(vocabulary),
                context: None,
                context_width: 0,
            };
            let fitted = design.fit(&outside(&[f]), &learner)?;
            let held_out = in_fold(f);
            let predicted: Vec<Vec<Vec<f64>>> =
                held_out.par_iter().map(|&i| design.predict(&fitted, i, &checkpoints)).collect();
            for (&i, per_checkpoint) in held_out.iter().zip(predicted) {
                for (c, probability) in per_checkpoint.into_iter().enumerate() {
                    out_of_fold[c][i] = probability;
                }
            }
            progress(&format!("{}: fold {f} fitted", setting.name(most)));
        }
        for (c, &k) in checkpoints.iter().enumerate() {
            if spec.trees.contains(&k) {
                let thresholds = thresholds_from_other_folds(&pages, &out_of_fold[c], folds, n_sets);
                rows.push(row_of(setting.name(k), &pages, &out_of_fold[c], thresholds, n_sets, &progress));
            }
            if *setting == base && k == config.blocks.trees {
                base_out_of_fold = Some(out_of_fold[c].clone());
            }
        }
    }
    if let (Some(stage1), Some(dir)) = (&base_out_of_fold, &spec.dump) {
        let thresholds = thresholds_from_other_folds(&pages, stage1, folds, n_sets);
        dump_out_of_fold(dir, "", &names, &pages, stage1, &thresholds)?;
        progress(&format!("out-of-fold pages and blocks written to {}", dir.display()));
    }
    if let Some(stage1) = &base_out_of_fold {
        rows.extend(sequence_rows("first stage", &pages, stage1, folds, n_sets, &progress));
    }
    if let Some(stage1) = base_out_of_fold.filter(|_| spec.stacking) {
        rows.extend(stack(
            &pages,
            &cache,
            config,
            &pairs,
            &pair_vocabulary,
            &outer_vocabulary,
            stage1,
            spec.third_stage,
            spec.dump.as_deref().map(|dir| (dir, names.as_slice())),
            &progress,
        )?);
    }
    Ok(GridReport {
        set_pages: (0..n_sets).map(|s| pages.iter().filter(|p| p.set == s).count()).collect(),
        sets: names,
        folds,
        config: config.blocks.clone(),
        rows,
    })
}

/// Writes `pages.tsv` and `blocks.tsv` of [`GridSpec::dump`] into `dir`, their names after
/// `prefix`.
fn dump_out_of_fold(
    dir: &Path,
    prefix: &str,
    names: &[String],
    pages: &[BlockPage],
    probability: &[Vec<f64>],
    thresholds: &[f64],
) -> Result<(), CleanEvalError> {
    let error = |path: &Path, message: String| CleanEvalError { path: path.display().to_string(), message };
    std::fs::create_dir_all(dir).map_err(|e| error(dir, e.to_string()))?;
    let clean = |text: &str, at_most: usize| -> String {
        text.chars().map(|c| if c.is_whitespace() { ' ' } else { c }).take(at_most).collect()
    };
    let mut page_lines = String::from(
        "set\tpage\tfold\ttrainable\tthreshold\tgold_tokens\toutput_tokens\ttrue_positives\tprecision\trecall\tf1\n",
    );
    let mut block_lines =
        String::from("set\tpage\tblock\tnode\ttag\thint\tlabel\tprobability\tkept\tdocview_kept\ttokens\ttext\n");
    for (page, prob) in pages.iter().zip(probability) {
        let threshold = thresholds[page.fold];
        let score = page.score(prob, threshold);
        let precision = score.true_positives as f64 / score.output_tokens.max(1) as f64;
        let recall = score.true_positives as f64 / score.gold_tokens.max(1) as f64;
        let f1 = if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
        let _ = writeln!(
            page_lines,
            "{}\t{}\t{}\t{}\t{threshold}\t{}\t{}\t{}\t{precision:.4}\t{recall:.4}\t{f1:.4}",
            names[page.set],
            page.stem,
            page.fold,
            page.trainable,
            score.gold_tokens,
            score.output_tokens,
            score.true_positives
        );
        for (b, &id) in page.blocks.iter().enumerate() {
            let node = &page.tree.nodes[id];
            let label = page.labels[b].map_or("-", |l| if l { "1" } else { "0" });
            let tokens: u32 = page.bags[b].iter().map(|&(_, c)| c).sum();
            let text = page.tree.render_subtree_text(id, |n| n == id);
            let _ = writeln!(
                block_lines,
                "{}\t{}\t{b}\t{id}\t{}\t{}\t{label}\t{:.3}\t{}\t{}\t{tokens}\t{}",
                names[page.set],
                page.stem,
                node.tag,
                clean(&node.hint, 40),
                prob[b],
                u8::from(prob[b] >= threshold),
                u8::from(page.docview.keep[id]),
                clean(&text, 100)
            );
        }
    }
    for (file, text) in [("pages.tsv", page_lines), ("blocks.tsv", block_lines)] {
        let path = dir.join(format!("{prefix}{file}"));
        std::fs::write(&path, text).map_err(|e| error(&path, e.to_string()))?;
    }
    Ok(())
}

/// The stacked variant (module documentation): its rows, and the first stage's under
/// `train-blocks`' own threshold rule for comparison.
#[allow(clippy::too_many_arguments)]
fn stack(
    pages: &[BlockPage],
    cache: &Cache,
    config: &Config,
    pairs: &[(usize, usize)],
    pair_vocabulary: &[Vec<String>],
    outer_vocabulary: &[Vec<String>],
    stage1: Vec<Vec<f64>>,
    third_stage: bool,
    dump: Option<(&Path, &[String])>,
    progress: &impl Fn(&str),
) -> Result<Vec<GridRow>, CleanEvalError> {
    let folds = config.blocks.folds;
    let n_sets = pages.iter().map(|p| p.set + 1).max().unwrap_or(0);
    let learner = &config.blocks;
    let trees = [learner.trees];
    // inner[f][i]: page i (not of fold f) read by the first stage fitted without folds f and i's.
    let mut inner: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); pages.len()]; folds];
    for (&(f, g), vocabulary) in pairs.iter().zip(pair_vocabulary) {
        let design = Design { cache, pages, columns: cache.columns(vocabulary), context: None, context_width: 0 };
        let train: Vec<usize> = (0..pages.len()).filter(|&i| pages[i].fold != f && pages[i].fold != g).collect();
        let fitted = design.fit(&train, learner)?;
        let read: Vec<usize> = (0..pages.len()).filter(|&i| pages[i].fold == f || pages[i].fold == g).collect();
        let predicted: Vec<Vec<f64>> =
            read.par_iter().map(|&i| design.predict(&fitted, i, &trees).swap_remove(0)).collect();
        for (&i, probability) in read.iter().zip(predicted) {
            let other = if pages[i].fold == f { g } else { f };
            inner[other][i] = probability;
        }
        progress(&format!("stacking: first stage without folds {f} and {g} fitted"));
    }
    let mut rows = Vec::new();
    // The first stage with train-blocks' rule: fold f's threshold chosen on fold f + 1 by the
    // model fitted without both.
    let inner_thresholds: Vec<f64> = (0..folds)
        .map(|f| {
            let h = (f + 1) % folds;
            let (val, prob): (Vec<&BlockPage>, Vec<Vec<f64>>) =
                pages.iter().zip(&inner[f]).filter(|(p, _)| p.fold == h).map(|(p, q)| (p, q.clone())).unzip();
            choose_threshold(&val, &prob, n_sets)
        })
        .collect();
    let setting = GridSetting::of(learner);
    rows.push(row_of(
        format!("{} (threshold by train-blocks' inner model)", setting.name(learner.trees)),
        pages,
        &stage1,
        inner_thresholds,
        n_sets,
        progress,
    ));
    let mut stage2: Vec<Vec<f64>> = vec![Vec::new(); pages.len()];
    for f in 0..folds {
        let context: Vec<Vec<f64>> = pages
            .par_iter()
            .enumerate()
            .map(|(i, page)| {
                let probability = if page.fold == f { &stage1[i] } else { &inner[f][i] };
                context_features(&page.tree, &page.blocks, probability)
            })
            .collect();
        let design = Design {
            cache,
            pages,
            columns: cache.columns(&outer_vocabulary[f]),
            context: Some(&context),
            context_width: CONTEXT_FEATURES.len(),
        };
        design.fit_without_fold(f, learner, &mut stage2)?;
        progress(&format!("stacking: second stage without fold {f} fitted"));
    }
    let thresholds = thresholds_from_other_folds(pages, &stage2, folds, n_sets);
    if let Some((dir, names)) = dump {
        dump_out_of_fold(dir, "stacked-", names, pages, &stage2, &thresholds)?;
        progress(&format!("stacked out-of-fold pages and blocks written to {}", dir.display()));
    }
    rows.push(row_of(
        format!("stacked: {} + context of the first stage", setting.name(learner.trees)),
        pages,
        &stage2,
        thresholds,
        n_sets,
        progress,
    ));
    rows.extend(sequence_rows("stacked", pages, &stage2, folds, n_sets, progress));
    if third_stage {
        let stage3 = third(pages, cache, learner, outer_vocabulary, &stage1, &inner, &stage2, progress)?;
        let thresholds = thresholds_from_other_folds(pages, &stage3, folds, n_sets);
        rows.push(row_of(
            format!("third stage: {} + context of the first and second stages", setting.name(learner.trees)),
            pages,
            &stage3,
            thresholds,
            n_sets,
            progress,
        ));
    }
    Ok(rows)
}

/// The third stage's out-of-fold probabilities: for held-out fold f, a model over the block
/// features, the context of the first stage's probabilities (read as the second stage reads
/// them) and the context of the second stage's. Its training rows carry the second stage's
/// out-of-fold probabilities (each page's made without its own fold, by a second stage that
/// did see fold f: one fit per fold, not per pair or triple of folds); the held-out fold's
/// pages carry the second stage fitted without it, as a new page would.
#[allow(clippy::too_many_arguments)]
fn third(
    pages: &[BlockPage],
    cache: &Cache,
    learner: &BlocksConfig,
    outer_vocabulary: &[Vec<String>],
    stage1: &[Vec<f64>],
    inner: &[Vec<Vec<f64>>],
    stage2: &[Vec<f64>],
    progress: &impl Fn(&str),
) -> Result<Vec<Vec<f64>>, CleanEvalError> {
    let c = CONTEXT_FEATURES.len();
    let mut stage3: Vec<Vec<f64>> = vec![Vec::new(); pages.len()];
    for (f, vocabulary) in outer_vocabulary.iter().enumerate() {
        let context: Vec<Vec<f64>> = pages
            .par_iter()
            .enumerate()
            .map(|(i, page)| {
                let first = if page.fold == f { &stage1[i] } else { &inner[f][i] };
                let one = context_features(&page.tree, &page.blocks, first);
                let two = context_features(&page.tree, &page.blocks, &stage2[i]);
                let mut rows = Vec::with_capacity(one.len() + two.len());
                for (a, b) in one.chunks_exact(c).zip(two.chunks_exact(c)) {
                    rows.extend_from_slice(a);
                    rows.extend_from_slice(b);
                }
                rows
            })
            .collect();
        let design =
            Design { cache, pages, columns: cache.columns(vocabulary), context: Some(&context), context_width: 2 * c };
        design.fit_without_fold(f, learner, &mut stage3)?;
        progress(&format!("third stage without fold {f} fitted"));
    }
    Ok(stage3)
}

/// A page's chain: its blocks in document order that the decision reads (with tokens, not a
/// bare headline).
fn chain(page: &BlockPage) -> Vec<usize> {
    (0..page.blocks.len()).filter(|&b| !page.bare_headline[b] && !page.bags[b].is_empty()).collect()
}

/// Log transition probabilities between consecutive labelled blocks (noise 0, content 1) on
/// `pages`, add-one smoothed.
fn transitions(pages: &[&BlockPage]) -> [[f64; 2]; 2] {
    let mut counts = [[1.0f64; 2]; 2];
    for page in pages.iter().filter(|p| p.trainable) {
        let labels: Vec<bool> = chain(page).into_iter().filter_map(|b| page.labels[b]).collect();
        for pair in labels.windows(2) {
            counts[usize::from(pair[0])][usize::from(pair[1])] += 1.0;
        }
    }
    counts.map(|row| {
        let total = row[0] + row[1];
        row.map(|c| (c / total).ln())
    })
}

/// A sequence decision rule over a page's chain.
#[derive(Clone, Copy, Debug)]
enum Decision {
    /// Viterbi over two states: emissions the log-odds of the probability against the
    /// threshold's, transitions `weight` times the learned log probabilities (Web2Text).
    Viterbi { threshold: f64, weight: f64 },
    /// Kept at `threshold`, and a block at `low` or more between two blocks kept so (in the
    /// chain; under the same parent when `same_parent`).
    Gap { threshold: f64, low: f64, same_parent: bool },
    /// Kept at `threshold`, then a block of at least `min_terms` terms dropped when an earlier
    /// kept block has the same text ([`drop_repeated`]).
    Repeats { threshold: f64, min_terms: usize },
}

/// The repeated-text rule's least terms tried (0: the rule off).
const REPEAT_MIN_TERMS: &[usize] = &[0, 3, 5, 10, 20, 40];

/// The page's blocks kept under `decision` (1.0 kept, 0.0 not), for [`BlockPage::score`] at 0.5.
fn decide(page: &BlockPage, probability: &[f64], decision: Decision, log_t: &[[f64; 2]; 2]) -> Vec<f64> {
    let chain = chain(page);
    let mut keep = vec![0.0; page.blocks.len()];
    match decision {
        Decision::Viterbi { threshold, weight } => {
            if chain.is_empty() {
                return keep;
            }
            let emission = |b: usize| {
                let p = probability[b].clamp(1e-6, 1.0 - 1e-6);
                [(1.0 - p).ln() - (1.0 - threshold).ln(), p.ln() - threshold.ln()]
            };
            let mut score = emission(chain[0]);
            let mut back: Vec<[usize; 2]> = Vec::with_capacity(chain.len());
            for &b in &chain[1..] {
                let e = emission(b);
                let mut next = [0.0; 2];
                let mut from = [0usize; 2];
                for (s, slot) in next.iter_mut().enumerate() {
                    let via = |r: usize| score[r] + weight * log_t[r][s];
                    from[s] = usize::from(via(1) > via(0));
                    *slot = via(from[s]) + e[s];
                }
                back.push(from);
                score = next;
            }
            let mut state = usize::from(score[1] > score[0]);
            for (k, &b) in chain.iter().enumerate().rev() {
                keep[b] = state as f64;
                if k > 0 {
                    state = back[k - 1][state];
                }
            }
        }
        Decision::Repeats { threshold, min_terms } => {
            let copies = page.copies_at(min_terms);
            let mut kept: Vec<bool> = probability.iter().map(|&p| p >= threshold).collect();
            drop_repeated(&copies, &mut kept, |e, l| page.apart(e, l));
            for (slot, k) in keep.iter_mut().zip(kept) {
                *slot = f64::from(u8::from(k));
            }
        }
        Decision::Gap { threshold, low, same_parent } => {
            let high: Vec<bool> = chain.iter().map(|&b| probability[b] >= threshold).collect();
            let parent = |b: usize| page.tree.nodes[page.blocks[b]].parent;
            for (k, &b) in chain.iter().enumerate() {
                let between = k > 0
                    && k + 1 < chain.len()
                    && high[k - 1]
                    && high[k + 1]
                    && probability[b] >= low
                    && (!same_parent || (parent(chain[k - 1]) == parent(b) && parent(chain[k + 1]) == parent(b)));
                if high[k] || between {
                    keep[b] = 1.0;
                }
            }
        }
    }
    keep
}

/// Mean over the sets present of F1 when `pages` decide by `decision`.
fn decision_objective(
    pages: &[(&BlockPage, &Vec<f64>)],
    decision: Decision,
    log_t: &[[f64; 2]; 2],
    sets: usize,
) -> f64 {
    let f1: Vec<f64> = (0..sets)
        .filter(|&s| pages.iter().any(|(p, _)| p.set == s))
        .map(|s| {
            let scores: Vec<PageScore> = pages
                .par_iter()
                .filter(|(p, _)| p.set == s)
                .map(|(p, prob)| p.score(&decide(p, prob, decision, log_t), 0.5))
                .collect();
            aggregate("", &scores, 1.0).f1
        })
        .collect();
    mean(&f1)
}

/// Sequence decisions over out-of-fold `probability` (Web2Text's Viterbi pass and a gap rule),
/// each fold scored with the rule's parameters (and transitions) chosen on the other folds.
fn sequence_rows(
    stage: &str,
    pages: &[BlockPage],
    probability: &[Vec<f64>],
    folds: usize,
    sets: usize,
    progress: &impl Fn(&str),
) -> Vec<GridRow> {
    let weights = [0.0, 0.25, 0.5, 1.0, 2.0];
    let lows = [0.05, 0.1, 0.2, 0.3];
    let gap_rules = |lows: &[f64], same_parent: bool| -> Vec<Decision> {
        THRESHOLDS
            .iter()
            .flat_map(|&threshold| {
                lows.iter().filter(move |&&low| low < threshold).map(move |&low| Decision::Gap {
                    threshold,
                    low,
                    same_parent,
                })
            })
            .collect()
    };
    let repeats = |min: usize| -> Vec<Decision> {
        let min_terms = if min == 0 { usize::MAX } else { min };
        THRESHOLDS.iter().map(|&threshold| Decision::Repeats { threshold, min_terms }).collect()
    };
    let mut families: Vec<(String, Vec<Decision>)> = vec![
        (
            format!("{stage} + Viterbi (transitions and weight {weights:?} from the other folds)"),
            THRESHOLDS
                .iter()
                .flat_map(|&threshold| weights.iter().map(move |&weight| Decision::Viterbi { threshold, weight }))
                .collect(),
        ),
        (
            format!("{stage} + gap rule (p >= t2 between two kept blocks of the chain, t2 in {lows:?})"),
            gap_rules(&lows, false),
        ),
        (format!("{stage} + gap rule, same parent"), gap_rules(&lows, true)),
        (
            format!("{stage} + repeated text dropped (min terms in {REPEAT_MIN_TERMS:?}, 0 off)"),
            REPEAT_MIN_TERMS.iter().flat_map(|&min| repeats(min)).collect(),
        ),
    ];
    families.extend(
        REPEAT_MIN_TERMS[1..]
            .iter()
            .map(|&min| (format!("{stage} + repeated text of {min} or more terms dropped"), repeats(min))),
    );
    let mut rows = Vec::new();
    for (name, candidates) in families {
        let mut kept: Vec<Vec<f64>> = vec![Vec::new(); pages.len()];
        let mut chosen = Vec::new();
        for f in 0..folds {
            let others: Vec<(&BlockPage, &Vec<f64>)> =
                pages.iter().zip(probability).filter(|(p, _)| p.fold != f).collect();
            let log_t = transitions(&others.iter().map(|(p, _)| *p).collect::<Vec<_>>());
            let mut best = (candidates[0], f64::MIN);
            for &candidate in &candidates {
                let score = decision_objective(&others, candidate, &log_t, sets);
                if score > best.1 + 1e-12 {
                    best = (candidate, score);
                }
            }
            for (i, page) in pages.iter().enumerate().filter(|(_, p)| p.fold == f) {
                kept[i] = decide(page, &probability[i], best.0, &log_t);
            }
            chosen.push(format!("{:?}", best.0));
        }
        progress(&format!("{name}: per fold {chosen:?}"));
        rows.push(row_of(name, pages, &kept, vec![0.5; folds], sets, progress));
    }
    rows
}

fn fmt_row(f1: &[f64]) -> String {
    row(f1)
}

/// The grid report as markdown.
pub fn grid_markdown(report: &GridReport, command: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Block classifier variants, cross-validated on the training sets\n");
    let _ = writeln!(
        md,
        "Made by `{command}`. No test set is read. {}-fold cross-validation by site{}; each held-out fold \
         scored with the threshold chosen on the other folds' out-of-fold probabilities (unless the row \
         says otherwise). Every variant on the same folds and the same feature rows.\n",
        report.folds,
        match report.config.fold_seed {
            0 => String::new(),
            seed => format!(" (fold seed {seed}: `[blocks] fold_seed`)"),
        }
    );
    let sets: Vec<String> = report.sets.iter().zip(&report.set_pages).map(|(s, n)| format!("{s} ({n})")).collect();
    let _ = writeln!(
        md,
        "| variant | {} | mean | thresholds |\n|---|{}---|---|",
        sets.join(" | "),
        "---|".repeat(sets.len())
    );
    for r in &report.rows {
        let t: Vec<String> = r.thresholds.iter().map(|t| t.to_string()).collect();
        let _ = writeln!(md, "| {} | {} | {} |", r.variant, row(&r.f1), t.join(" "));
    }
    md
}

/// Writes grid.md and grid.json into `out`.
pub fn write_grid_report(report: &GridReport, out: &Path, command: &str) -> Result<(), CleanEvalError> {
    let error = |path: &Path, message: String| CleanEvalError { path: path.display().to_string(), message };
    std::fs::create_dir_all(out).map_err(|e| error(out, e.to_string()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| error(out, e.to_string()))? + "\n";
    std::fs::write(out.join("grid.json"), json).map_err(|e| error(&out.join("grid.json"), e.to_string()))?;
    std::fs::write(out.join("grid.md"), grid_markdown(report, command))
        .map_err(|e| error(&out.join("grid.md"), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_and_bad_ones_are_refused() {
        let s: GridSetting = "6:0.05:2".parse().unwrap();
        assert_eq!(s, GridSetting { max_depth: 6, learning_rate: 0.05, min_leaf_weight: 2.0 });
        assert!("6:0.05".parse::<GridSetting>().is_err());
        assert!("six:0.05:1".parse::<GridSetting>().is_err());
    }

    #[test]
    fn sequence_decisions_fill_a_hole_only_when_asked() {
        let config = Config::default();
        let paragraph = |w: &str| format!("<p>{w} river silt farmers valley seed spring mountains water</p>");
        let html = format!(
            "<html><body><div>{}{}{}</div></body></html>",
            paragraph("first"),
            paragraph("second"),
            paragraph("third")
        );
        let page = BlockPage::new(0, "page", 0, true, TagTree::with_default_config(&html), "", &config);
        assert_eq!(chain(&page).len(), 3, "{:?}", page.blocks);
        let probability: Vec<f64> = [0.9, 0.3, 0.9].into_iter().cycle().take(page.blocks.len()).collect();
        let chained = chain(&page);
        let kept = |keep: Vec<f64>| chained.iter().map(|&b| keep[b]).collect::<Vec<_>>();
        let sticky = [[0.9f64.ln(), 0.1f64.ln()], [0.1f64.ln(), 0.9f64.ln()]];
        let plain = Decision::Viterbi { threshold: 0.5, weight: 0.0 };
        assert_eq!(kept(decide(&page, &probability, plain, &sticky)), vec![1.0, 0.0, 1.0]);
        let smooth = Decision::Viterbi { threshold: 0.5, weight: 1.0 };
        assert_eq!(kept(decide(&page, &probability, smooth, &sticky)), vec![1.0, 1.0, 1.0]);
        let gap = Decision::Gap { threshold: 0.5, low: 0.2, same_parent: true };
        assert_eq!(kept(decide(&page, &probability, gap, &sticky)), vec![1.0, 1.0, 1.0]);
        let high_gap = Decision::Gap { threshold: 0.5, low: 0.4, same_parent: false };
        assert_eq!(kept(decide(&page, &probability, high_gap, &sticky)), vec![1.0, 0.0, 1.0]);
        // Transitions count consecutive labelled blocks, add-one smoothed.
        let labelled =
            BlockPage::new(0, "page", 0, true, TagTree::with_default_config(&html), "nothing alike", &config);
        let log_t = transitions(&[&labelled]);
        assert!((log_t[0][0].exp() - 3.0 / 4.0).abs() < 1e-12, "{log_t:?}");
    }

    #[test]
    fn the_grid_reproduces_train_blocks_and_scores_every_variant() {
        let dir = tempfile::tempdir().unwrap();
        let sets = super::super::tests::synthetic_sets(dir.path());
        let config = Config {
            blocks: BlocksConfig { trees: 5, folds: 3, min_leaf_weight: 0.1, ..BlocksConfig::default() },
            ..Config::default()
        };
        let (_, trained) = train_blocks(&sets, &config, None, false, |_| {}).unwrap();
        let spec = GridSpec {
            settings: vec![GridSetting { max_depth: 3, learning_rate: 0.1, min_leaf_weight: 0.1 }],
            trees: vec![2, 5],
            stacking: true,
            third_stage: true,
            dump: Some(dir.path().join("dump")),
        };
        let report = grid_blocks(&sets, &config, &spec, None, |_| {}).unwrap();
        let variants: Vec<&str> = report.rows.iter().map(|r| r.variant.as_str()).collect();
        // The [blocks] setting first (added for the stacked variant), both tree counts of each
        // setting, then train-blocks' rule and the stacked variant.
        // The sequence decisions follow the first stage's rows and the stacked row.
        assert_eq!(variants.len(), 25, "{variants:?}");
        assert!(variants[0].starts_with("2 trees, depth 5") && variants[2].starts_with("2 trees, depth 3"));
        assert!(variants[4..13].iter().all(|v| v.starts_with("first stage + ")), "{variants:?}");
        let (stacked, rest) = (&report.rows[13..], &variants[13..]);
        assert!(rest[0].contains("train-blocks' inner model") && rest[1].starts_with("stacked:"));
        assert!(rest[2..11].iter().all(|v| v.starts_with("stacked + ")), "{variants:?}");
        assert!(rest[11].starts_with("third stage:"), "{variants:?}");
        // The same folds, examples, vocabularies and learner: train-blocks' figure, exactly.
        assert_eq!(stacked[0].f1, trained.cross_validated_f1);
        assert_eq!(stacked[0].thresholds, trained.fold_results.iter().map(|f| f.threshold).collect::<Vec<_>>());
        assert!(report.rows.iter().all(|r| r.f1.len() == 1 && r.thresholds.len() == 3 && r.f1[0] > 0.0));
        let md = grid_markdown(&report, "test");
        assert!(md.contains("| stacked:"), "{md}");
        write_grid_report(&report, &dir.path().join("grid"), "test").unwrap();
        assert!(dir.path().join("grid/grid.json").is_file());
        let pages = std::fs::read_to_string(dir.path().join("dump/pages.tsv")).unwrap();
        let blocks = std::fs::read_to_string(dir.path().join("dump/blocks.tsv")).unwrap();
        assert_eq!(pages.lines().count(), 1 + report.set_pages.iter().sum::<usize>(), "{pages}");
        assert!(blocks.lines().count() > pages.lines().count(), "{blocks}");
        let stacked = std::fs::read_to_string(dir.path().join("dump/stacked-pages.tsv")).unwrap();
        assert_eq!(stacked.lines().count(), pages.lines().count(), "{stacked}");
    }
}
