//! `indexer eval clean`: a cleaner's topic content scored against human gold text.
//!
//! The metric (the same for every cleaner and every set, so figures compare):
//! - Tokens: case-folded runs of Unicode word characters (`\w`: letters, digits, `_`), where
//!   every CJK ideograph or kana (U+3040–30FF, U+3400–4DBF, U+4E00–9FFF, U+F900–FAFF) is a
//!   token on its own. It is deliberately not our tokenizer: gold is compared on characters
//!   for Chinese, independent of any segmenter.
//! - Per page, as bags (multisets): tp = size of the intersection, P = tp / |output|,
//!   R = tp / |gold|.
//! - P is averaged over the pages with non-empty output, R over the pages with non-empty gold;
//!   F1 comes from those two averages. Also the mean per-page F1 (0 for a page with an empty
//!   output or gold), the number of empty outputs, and pages per second on one thread.
//! - The output is the text `indexer extract` writes: by default the topic content without its
//!   headline, as trafilatura's text output (the table's reference) and `articleBody` gold
//!   have it ([`HeadlinePlacement`]); `--with-headline` scores it with the headline inline.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::clean::{Cleaner, CleanerKind, HeadlinePlacement, block_weights, site_of};
use crate::config::Config;
use crate::input::RawPage;
use crate::page::{PageContext, PageContextError};
use crate::text::StopWords;

fn is_cjk_char(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// The tokens of the cleaning metric, as a bag.
pub fn score_tokens(text: &str) -> HashMap<String, u32> {
    let mut bag = HashMap::new();
    for_each_score_token(text, |token| *bag.entry(token).or_insert(0) += 1);
    bag
}

/// The tokens of the cleaning metric in text order.
pub fn for_each_score_token(text: &str, mut f: impl FnMut(String)) {
    let mut word = String::new();
    for c in text.chars() {
        if is_cjk_char(c) {
            if !word.is_empty() {
                f(std::mem::take(&mut word));
            }
            f(c.to_string());
        } else if c.is_alphanumeric() || c == '_' {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            f(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        f(word);
    }
}

/// One page's figures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PageScore {
    pub output_tokens: u32,
    pub gold_tokens: u32,
    pub true_positives: u32,
}

impl PageScore {
    pub fn new(output: &HashMap<String, u32>, gold: &HashMap<String, u32>) -> PageScore {
        let true_positives = output.iter().map(|(t, &n)| n.min(gold.get(t).copied().unwrap_or(0))).sum();
        PageScore { output_tokens: output.values().sum(), gold_tokens: gold.values().sum(), true_positives }
    }

    fn f1(&self) -> f64 {
        if self.output_tokens == 0 || self.gold_tokens == 0 || self.true_positives == 0 {
            return 0.0;
        }
        let p = self.true_positives as f64 / self.output_tokens as f64;
        let r = self.true_positives as f64 / self.gold_tokens as f64;
        2.0 * p * r / (p + r)
    }
}

/// A cleaner's figures on one set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CleanScore {
    pub cleaner: String,
    pub pages: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub mean_page_f1: f64,
    pub empty_outputs: usize,
    pub pages_per_second: f64,
    /// Pages of the set left out because a learned model was trained on them.
    pub held_out_excluded: usize,
}

/// Aggregates page scores as the module documentation says.
pub fn aggregate(cleaner: &str, pages: &[PageScore], seconds: f64) -> CleanScore {
    let with_output: Vec<&PageScore> = pages.iter().filter(|p| p.output_tokens > 0).collect();
    let with_gold: Vec<&PageScore> = pages.iter().filter(|p| p.gold_tokens > 0).collect();
    let mean = |xs: Vec<f64>| if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 };
    let precision = mean(with_output.iter().map(|p| p.true_positives as f64 / p.output_tokens as f64).collect());
    let recall = mean(with_gold.iter().map(|p| p.true_positives as f64 / p.gold_tokens as f64).collect());
    let f1 = if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
    CleanScore {
        cleaner: cleaner.to_string(),
        pages: pages.len(),
        precision,
        recall,
        f1,
        mean_page_f1: mean(pages.iter().map(PageScore::f1).collect()),
        empty_outputs: pages.len() - with_output.len(),
        pages_per_second: pages.len() as f64 / seconds.max(1e-9),
        held_out_excluded: 0,
    }
}

/// A gold set that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct CleanEvalError {
    pub path: String,
    pub message: String,
}

/// A gold set: pages with a gold text of the same stem, and each page's site.
#[derive(Debug, Clone)]
pub struct GoldSet {
    /// The set's name: the folder that holds `html/` (`scrapinghub-aeb`).
    pub name: String,
    pub pages: Vec<GoldPage>,
}

/// One page of a gold set.
#[derive(Debug, Clone)]
pub struct GoldPage {
    /// The file stem, which names the gold file too.
    pub stem: String,
    pub url: String,
    pub html: Vec<u8>,
    pub gold: String,
}

impl GoldPage {
    /// The page as the pipeline reads it (no HTTP headers: the charset and language come from
    /// the page itself).
    pub fn raw_page(&self) -> RawPage {
        RawPage {
            url: self.url.clone(),
            origin: self.stem.clone(),
            bytes: self.html.clone(),
            http_charset: None,
            http_language: None,
        }
    }
}

impl GoldSet {
    /// Reads the pages of `html_dir` that have a gold file `<stem>.txt` in `gold_dir`. A
    /// `meta.tsv` beside `html_dir` (columns id, url) gives the pages' URLs, which site-learning
    /// cleaners group by; a page without one is `file://` and a site of its own.
    pub fn open(html_dir: &Path, gold_dir: &Path) -> Result<GoldSet, CleanEvalError> {
        let error = |path: &Path, e: std::io::Error| CleanEvalError {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let parent = html_dir.parent().unwrap_or(Path::new("."));
        let name = std::fs::canonicalize(parent)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| html_dir.display().to_string());
        let urls = read_meta_urls(&parent.join("meta.tsv"));
        let mut entries: Vec<_> =
            std::fs::read_dir(html_dir).map_err(|e| error(html_dir, e))?.flatten().map(|e| e.path()).collect();
        entries.sort();
        let mut pages = Vec::new();
        for html in entries {
            let Some(stem) = html.file_name().and_then(|n| n.to_str()).and_then(|n| n.split('.').next()) else {
                continue;
            };
            let gold = gold_dir.join(format!("{stem}.txt"));
            if gold.is_file() {
                let bytes = read_page(&html).map_err(|e| error(&html, e))?;
                let gold_text =
                    String::from_utf8_lossy(&std::fs::read(&gold).map_err(|e| error(&gold, e))?).into_owned();
                let url = urls.get(stem).cloned().unwrap_or_else(|| format!("file://{}", html.display()));
                pages.push(GoldPage { stem: stem.to_string(), url, html: bytes, gold: gold_text });
            }
        }
        if pages.is_empty() {
            return Err(CleanEvalError {
                path: html_dir.display().to_string(),
                message: "no page has a gold file".into(),
            });
        }
        Ok(GoldSet { name, pages })
    }
}

/// A page's bytes; a `.gz` page (the training sets store their pages gzipped) is inflated.
fn read_page(path: &Path) -> std::io::Result<Vec<u8>> {
    let bytes = std::fs::read(path)?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut inflated = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(bytes.as_slice()), &mut inflated)?;
        return Ok(inflated);
    }
    Ok(bytes)
}

/// `id → url` from a gold set's meta.tsv; empty URLs and a missing file give no entries.
fn read_meta_urls(path: &Path) -> HashMap<String, String> {
    let Ok(text) = std::fs::read_to_string(path) else { return HashMap::new() };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let id = fields.next()?;
            let url = fields.next()?.trim();
            (!url.is_empty()).then(|| (id.to_string(), url.to_string()))
        })
        .collect()
}

/// Scores `cleaner` on a gold set. Pages are cleaned one after the other on one thread, for
/// pages per second; a cleaner that learns per site first observes every page of the set
/// (that pass is timed too). Pages a learned model of the cleaner was trained on are left out.
pub fn evaluate_cleaner(set: &GoldSet, cleaner: CleanerKind) -> Result<CleanScore, CleanEvalError> {
    evaluate_cleaner_held_out(set, cleaner, &[], HeadlinePlacement::default(), &Config::default())
}

/// Pages per second of decoding and html5ever parsing alone (after our pre-pass, which
/// caps nesting and empties scripts and styles: [`crate::tagtree::prepare_markup`]), one
/// thread, over every page of the set: the floor under any cleaner built on html5ever,
/// measured in the same run as the cleaners so that the two compare.
pub fn parse_floor(set: &GoldSet) -> f64 {
    let config = Config::default();
    let started = Instant::now();
    for page in &set.pages {
        let decoded = crate::decode::decode(&page.html, None, &page.url);
        let parsed = crate::tagtree::parse_html(&decoded.text, &config.tag_tree);
        std::hint::black_box(&parsed.dom);
    }
    set.pages.len() as f64 / started.elapsed().as_secs_f64().max(1e-9)
}

/// [`evaluate_cleaner`], also leaving out the training pages of the cleaners `held_out_of`,
/// so that cleaners compare on the same held-out pages, with the headline placed as
/// `headline` says (the text `indexer extract` writes with the same choice), under the
/// settings `base` (the cleaner named by `cleaner`).
pub fn evaluate_cleaner_held_out(
    set: &GoldSet,
    cleaner: CleanerKind,
    held_out_of: &[CleanerKind],
    headline: HeadlinePlacement,
    base: &Config,
) -> Result<CleanScore, CleanEvalError> {
    let mut config = base.clone();
    config.cleaning.cleaner = cleaner;
    let stop_words = StopWords::generic();
    let cleaner_error = |e: crate::clean::CleanerError| CleanEvalError { path: e.path, message: e.message };
    let ctx = PageContext::new(&config, &stop_words).map_err(|e| match e {
        PageContextError::Cleaner(e) => cleaner_error(e),
        PageContextError::Classifier(e) => CleanEvalError { path: "classify.model".into(), message: e.to_string() },
    })?;
    let mut trained_on: HashSet<String> = HashSet::new();
    for kind in std::iter::once(&cleaner).chain(held_out_of) {
        trained_on.extend(Cleaner::new(*kind, &config).map_err(cleaner_error)?.training_pages().iter().cloned());
    }
    let pages: Vec<&GoldPage> =
        set.pages.iter().filter(|page| !trained_on.contains(&format!("{}/{}", set.name, page.stem))).collect();
    let raw: Vec<RawPage> = pages.iter().map(|page| page.raw_page()).collect();
    // Pages per second are the rate of a long run: jieba's dictionary (about 0.1 s, once per
    // process) is loaded before the clock starts.
    crate::text::load_dictionary();
    let started = Instant::now();
    let mut learning = Cleaner::new(cleaner, &config).map_err(cleaner_error)?;
    learning.learn_from_pages(&raw, |page| ctx.tag_tree(page).0);
    let ctx = ctx.with_cleaner(learning);
    let outputs: Vec<String> = raw
        .iter()
        .map(|page| {
            let (tree, _) = ctx.tag_tree(page);
            let weights = block_weights(&tree, &config.block_weight);
            ctx.cleaner().clean(&site_of(&page.url), &tree, &weights, &config).text_with(&tree, headline)
        })
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    let scores: Vec<PageScore> = outputs
        .iter()
        .zip(&pages)
        .map(|(out, page)| PageScore::new(&score_tokens(out), &score_tokens(&page.gold)))
        .collect();
    let mut score = aggregate(cleaner.name(), &scores, seconds);
    score.held_out_excluded = set.pages.len() - pages.len();
    Ok(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_fold_case_and_split_cjk_into_characters() {
        let bag = score_tokens("Hello, hello WORLD_1 北京大学 ok");
        assert_eq!(bag["hello"], 2);
        assert_eq!(bag["world_1"], 1);
        assert_eq!(bag["北"], 1);
        assert_eq!(bag["学"], 1);
        assert_eq!(bag.values().sum::<u32>(), 8);
    }

    #[test]
    fn scores_are_bag_intersections_averaged_as_specified() {
        let page = PageScore::new(&score_tokens("a a b c"), &score_tokens("a b b d e"));
        assert_eq!((page.true_positives, page.output_tokens, page.gold_tokens), (2, 4, 5));
        let empty_output = PageScore::new(&score_tokens(""), &score_tokens("x y"));
        let s = aggregate("t", &[page, empty_output], 1.0);
        // P over pages with output: 2/4; R over pages with gold: (2/5 + 0) / 2.
        assert!((s.precision - 0.5).abs() < 1e-12);
        assert!((s.recall - 0.2).abs() < 1e-12);
        assert_eq!(s.empty_outputs, 1);
        assert!((s.mean_page_f1 - (2.0 * 0.5 * 0.4 / 0.9) / 2.0).abs() < 1e-12);
    }
}
