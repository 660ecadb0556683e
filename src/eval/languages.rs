//! How well and how fast the language identifier names a page's language.
//!
//! Every page of the inputs is cleaned as a build cleans it; a page whose `<html lang>` or
//! HTTP `Content-Language` names a language is then identified from its text alone (the topic
//! content, then the visible text: what a build reads, without the declarations) and scored
//! against the declaration. Declarations are not gold (templates declare a default), so the
//! figure is a floor of the identifier's accuracy; a page without one is counted, not scored.
//! Speed: the identification's own time, against the time the page took to parse and clean
//! (a ratio measured in the same run, one thread).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::clean::{block_weights, site_of};
use crate::config::Config;
use crate::docview::language_texts;
use crate::input::{ByteCounter, InputError, InputEvent, Source};
use crate::page::PageContext;
use crate::text::{normalize_declared, page_language};

/// The pages of one declared language.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DeclaredLanguage {
    pub pages: usize,
    /// Pages identified as the declared language.
    pub agree: usize,
    /// What the others were identified as (`none`: no letters to identify).
    pub identified_as: BTreeMap<String, usize>,
}

/// The figures of one run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LanguageEval {
    pub pages_read: usize,
    /// Pages skipped by the reader or with nothing left after cleaning.
    pub pages_skipped: usize,
    /// Pages without a declaration naming a language (not scored).
    pub pages_undeclared: usize,
    /// By declared language (BCP 47 primary subtag).
    pub declared: BTreeMap<String, DeclaredLanguage>,
    /// Seconds spent identifying, over every page read.
    pub identify_seconds: f64,
    /// Seconds spent decoding, parsing and cleaning the same pages.
    pub clean_seconds: f64,
}

impl LanguageEval {
    pub fn scored(&self) -> usize {
        self.declared.values().map(|d| d.pages).sum()
    }

    pub fn agree(&self) -> usize {
        self.declared.values().map(|d| d.agree).sum()
    }

    /// Pages identified per second (one thread).
    pub fn pages_per_second(&self) -> f64 {
        let identified = self.pages_read - self.pages_skipped;
        identified as f64 / self.identify_seconds.max(1e-9)
    }

    /// The markdown table of the run.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from(
            "| declared | pages | identified as declared | accuracy | identified otherwise |\n|---|---:|---:|---:|---|\n",
        );
        for (lang, row) in &self.declared {
            let others: Vec<String> = row.identified_as.iter().map(|(l, n)| format!("{l} {n}")).collect();
            out.push_str(&format!(
                "| {lang} | {} | {} | {:.3} | {} |\n",
                row.pages,
                row.agree,
                row.agree as f64 / row.pages.max(1) as f64,
                others.join(", ")
            ));
        }
        let (scored, agree) = (self.scored(), self.agree());
        out.push_str(&format!("| all | {scored} | {agree} | {:.3} | |\n\n", agree as f64 / scored.max(1) as f64));
        out.push_str(&format!(
            "{} pages read, {} skipped, {} without a declared language (not scored).\n\
             Identification: {:.0} pages/s, one thread; {:.1}% of the time to parse and clean the same pages.\n",
            self.pages_read,
            self.pages_skipped,
            self.pages_undeclared,
            self.pages_per_second(),
            100.0 * self.identify_seconds / self.clean_seconds.max(1e-9),
        ));
        out
    }
}

/// An input that cannot be read, or a cleaner that cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LanguageEvalError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Context(#[from] crate::page::PageContextError),
}

/// Identifies every page of `sources`; see the module documentation.
pub fn evaluate_languages(sources: &[Source], config: &Config) -> Result<LanguageEval, LanguageEvalError> {
    let stop_words = crate::text::StopWords::generic();
    let ctx = PageContext::new(config, &stop_words)?;
    crate::text::load_dictionary();
    let mut eval = LanguageEval::default();
    let (mut identify_time, mut clean_time) = (Duration::ZERO, Duration::ZERO);
    for source in sources {
        source.visit(config.input.max_page_bytes, &ByteCounter::default(), &mut |event| {
            eval.pages_read += 1;
            let InputEvent::Page(raw) = event else {
                eval.pages_skipped += 1;
                return true;
            };
            let started = Instant::now();
            let (tree, _) = ctx.tag_tree(&raw);
            let weights = block_weights(&tree, &config.block_weight);
            let content = ctx.cleaner().clean(&site_of(&raw.url), &tree, &weights, config);
            let topic = content.text(&tree);
            clean_time += started.elapsed();
            let started = Instant::now();
            let identified = page_language(&[], language_texts(&tree, &topic));
            identify_time += started.elapsed();
            let declared =
                [tree.lang.as_deref(), raw.http_language.as_deref()].into_iter().flatten().find_map(normalize_declared);
            let Some(declared) = declared else {
                eval.pages_undeclared += 1;
                return true;
            };
            let row = eval.declared.entry(declared.clone()).or_default();
            row.pages += 1;
            match identified {
                Some(lang) if lang == declared => row.agree += 1,
                other => *row.identified_as.entry(other.unwrap_or_else(|| "none".into())).or_default() += 1,
            }
            true
        })?;
    }
    eval.identify_seconds = identify_time.as_secs_f64();
    eval.clean_seconds = clean_time.as_secs_f64();
    Ok(eval)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_pages_are_scored_and_undeclared_ones_counted() {
        let dir = tempfile::tempdir().unwrap();
        let spanish = "<p>El gobierno anunció ayer un nuevo plan para mejorar el transporte público en las \
            ciudades más grandes del país, con más autobuses y trenes durante la noche.</p>";
        for (name, lang) in [("a", " lang='es-ES'"), ("b", " lang='en'"), ("c", "")] {
            let html = format!("<html{lang}><body>{spanish}</body></html>");
            std::fs::write(dir.path().join(format!("{name}.html")), html).unwrap();
        }
        let sources = [Source::from_path(dir.path()).unwrap()];
        let eval = evaluate_languages(&sources, &Config::default()).unwrap();
        assert_eq!((eval.pages_read, eval.pages_undeclared, eval.scored(), eval.agree()), (3, 1, 2, 1));
        assert_eq!(eval.declared["en"].identified_as["es"], 1);
        let table = eval.to_markdown();
        assert!(table.contains("| es | 1 | 1 | 1.000 |") && table.contains("| all | 2 | 1 | 0.500 |"), "{table}");
    }
}
