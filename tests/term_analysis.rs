//! The terms of a multilingual text (`tests/fixtures/text/term-analysis/input.txt`, one
//! `lang<TAB>text` a line, written for this test) under the three analyses a build's terms
//! come from — the shared tokenizer, the keyword terms of the page's language, the index
//! analyzer of its language — kept as a golden file with the version of the term analysis
//! (`indexer::index::TERM_ANALYSIS`) in its first line.
//!
//! Builds record that version so that `build --append` and search can tell a build whose
//! terms no longer meet this release's. So a change of the terms must come with a new
//! version: the test fails when the terms of a text the golden file holds differ from its
//! while the version does not, even with `UPDATE_GOLDEN=1`; raise `TERM_ANALYSIS`, then update
//! the file. A new line of input (more coverage, no change) needs only the update.

mod common;

use std::collections::HashMap;

use common::{UPDATE_ENV, check_golden, repo_path};
use indexer::index::{TERM_ANALYSIS, analyze_tokens, analyzer_for};
use indexer::text::{StopWords, terms};

const GOLDEN: &str = "tests/fixtures/text/term-analysis/terms.txt";

fn version_line(version: u32) -> String {
    format!("term analysis {version}")
}

fn analysed_terms() -> String {
    let input = std::fs::read_to_string(repo_path("tests/fixtures/text/term-analysis/input.txt")).unwrap();
    let generic = StopWords::generic();
    let mut out = String::new();
    for line in input.lines().filter(|l| !l.trim().is_empty()) {
        let (lang, text) = line.split_once('\t').expect("input lines are lang<TAB>text");
        let tokens = terms(text);
        let keywords = generic.for_language(Some(lang));
        let content: Vec<&str> = tokens.iter().filter_map(|t| keywords.content_term(t)).collect();
        let index: Vec<String> =
            analyze_tokens(&mut analyzer_for(Some(lang)), text).into_iter().map(|t| t.text).collect();
        out.push_str(&format!("{lang}\ttext:     {text}\n"));
        out.push_str(&format!("{lang}\ttokens:   {}\n", tokens.join(" ")));
        out.push_str(&format!("{lang}\tkeywords: {}\n", content.join(" ")));
        out.push_str(&format!("{lang}\tindex:    {}\n", index.join(" ")));
    }
    out
}

/// The analyses of each text, by its `text:` line.
fn by_text(terms: &str) -> HashMap<&str, Vec<&str>> {
    let mut blocks: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut current = None;
    for line in terms.lines() {
        if line.split_once('\t').is_some_and(|(_, rest)| rest.starts_with("text:")) {
            current = Some(line);
            blocks.entry(line).or_default();
        } else if let Some(text) = current {
            blocks.entry(text).or_default().push(line);
        }
    }
    blocks
}

#[test]
fn changed_terms_come_with_a_new_term_analysis_version() {
    let terms = analysed_terms();
    if let Ok(golden) = std::fs::read_to_string(repo_path(GOLDEN)) {
        let (version, golden_terms) = golden.split_once('\n').unwrap_or((&golden, ""));
        let before = by_text(golden_terms);
        let changed: Vec<&str> = by_text(&terms)
            .into_iter()
            .filter(|(text, now)| before.get(text).is_some_and(|was| was != now))
            .map(|(text, _)| text)
            .collect();
        if version == version_line(TERM_ANALYSIS) && !changed.is_empty() {
            panic!(
                "the terms of {changed:?} changed but indexer::index::TERM_ANALYSIS is still {TERM_ANALYSIS}: raise \
                 it (builds made before would mix old and new terms), then run {UPDATE_ENV}=1 cargo test --test \
                 term_analysis and review the diff"
            );
        }
    }
    check_golden(GOLDEN, &format!("{}\n{terms}", version_line(TERM_ANALYSIS)));
}
