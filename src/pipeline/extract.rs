//! `indexer extract`: the topic content of every page as a text file, without indexing.
//!
//! The same reading, decoding, tag tree and cleaner as a build (with the cleaner's learning
//! pass when it has one), so what `extract` writes is what a build indexes as topic content.
//! Pages from a folder are written as `<stem>.txt` after their file, without its page
//! extensions (`a/b/page.html.gz` → `page.txt`, `bbc.co.uk_1.html` → `bbc.co.uk_1.txt`, with
//! `-2`, `-3` … when two files share a stem); pages from WARC and JSON Lines files are
//! numbered in input order (`000001.txt`). `manifest.tsv` maps every file to its URL
//! and page type either way. A page that cannot be read is reported and skipped; a page with
//! no topic content gets an empty file, so that file counts match the input.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::{BuildError, BuildObserver, learned_cleaner};
use crate::clean::{HeadlinePlacement, block_weights, site_of};
use crate::config::Config;
use crate::input::{ByteCounter, InputEvent, RawPage, SkipReason, Skipped, Source};
use crate::page::PageContext;
use crate::page::is_binary;
use crate::tagtree::BlockType;
use crate::text::StopWords;

/// What an extraction did.
#[derive(Debug, Default, Clone, Serialize)]
pub struct ExtractSummary {
    pub pages_read: usize,
    pub files_written: usize,
    /// Pages whose topic content is empty (their file is empty).
    pub empty: usize,
    pub skipped: BTreeMap<SkipReason, usize>,
    pub cleaner: String,
    pub elapsed_seconds: f64,
}

/// Writes the topic content of every page of `inputs` into `out`, with the headline placed
/// as `headline` says.
pub fn extract(
    inputs: &[PathBuf],
    out: &Path,
    headline: HeadlinePlacement,
    config: &Config,
    observer: &dyn BuildObserver,
) -> Result<ExtractSummary, BuildError> {
    let started = Instant::now();
    let sources = Source::of_inputs(inputs)?;
    for warning in sources.iter().flat_map(Source::warnings) {
        observer.warning(&warning);
    }
    let total_bytes: u64 = sources.iter().map(Source::size_on_disk).sum();
    let write_error = |path: &Path| {
        let path = path.display().to_string();
        move |source| BuildError::Write { path, source }
    };
    std::fs::create_dir_all(out).map_err(write_error(out))?;
    // Extraction learns no stop words: they only shape keywords and fingerprints, not which
    // blocks are topic content.
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(config, &stop_words)?;
    let cleaner = learned_cleaner(&sources, &ctx, observer)?;
    let ctx = ctx.with_cleaner(cleaner);

    let manifest_path = out.join("manifest.tsv");
    let mut manifest = BufWriter::new(File::create(&manifest_path).map_err(write_error(&manifest_path))?);
    writeln!(manifest, "file\turl\tpage_type\torigin\theadline").map_err(write_error(&manifest_path))?;
    let mut summary = ExtractSummary { cleaner: ctx.cleaner().kind().name().to_string(), ..Default::default() };
    let mut names = FileNames::default();
    let counter = ByteCounter::default();
    let batch_size = config.input.batch_size.max(1);
    for source in &sources {
        let numbered = !matches!(source, Source::Folder(_));
        let mut batch: Vec<InputEvent> = Vec::with_capacity(batch_size);
        let mut failure: Option<BuildError> = None;
        let mut flush = |batch: &mut Vec<InputEvent>, summary: &mut ExtractSummary| -> Result<(), BuildError> {
            let results: Vec<Result<ExtractedPage, Skipped>> = std::mem::take(batch)
                .into_par_iter()
                .map(|event| match event {
                    InputEvent::Page(raw) => topic_text(raw, &ctx, headline, config),
                    InputEvent::Skipped(skipped) => Err(skipped),
                })
                .collect();
            for result in results {
                summary.pages_read += 1;
                let ExtractedPage { raw, page_type, text, headline } = match result {
                    Ok(page) => page,
                    Err(skipped) => {
                        *summary.skipped.entry(skipped.reason).or_default() += 1;
                        observer.skipped(&skipped);
                        continue;
                    }
                };
                let name = names.next(&raw.origin, numbered);
                let path = out.join(&name);
                std::fs::write(&path, &text).map_err(write_error(&path))?;
                summary.files_written += 1;
                if text.is_empty() {
                    summary.empty += 1;
                }
                let field = |text: &str| text.replace(['\t', '\n', '\r'], " ");
                let (origin, headline) = (field(&raw.origin), field(headline.as_deref().unwrap_or_default()));
                writeln!(manifest, "{name}\t{}\t{}\t{origin}\t{headline}", raw.url, page_type.as_str())
                    .map_err(write_error(&manifest_path))?;
            }
            observer.progress(counter.get(), total_bytes, summary.pages_read);
            Ok(())
        };
        let result = source.visit_with(&config.input.read_options(), &counter, &mut |event| {
            batch.push(event);
            if batch.len() >= batch_size
                && let Err(e) = flush(&mut batch, &mut summary)
            {
                failure = Some(e);
                return false;
            }
            true
        });
        if let Some(e) = failure {
            return Err(e);
        }
        if let Err(e) = result {
            batch.push(InputEvent::Skipped(super::unreadable_source(e)));
        }
        flush(&mut batch, &mut summary)?;
    }
    manifest.flush().map_err(write_error(&manifest_path))?;
    summary.elapsed_seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// One page's extraction: its text file's content and its manifest line's.
struct ExtractedPage {
    raw: RawPage,
    page_type: BlockType,
    text: String,
    /// The topic content's headline, if it holds one.
    headline: Option<String>,
}

/// The cleaner's topic content of one page, as text.
fn topic_text(
    raw: RawPage,
    ctx: &PageContext<'_>,
    headline: HeadlinePlacement,
    config: &Config,
) -> Result<ExtractedPage, Skipped> {
    if is_binary(&raw.bytes) {
        return Err(Skipped {
            origin: raw.origin,
            reason: SkipReason::NotHtml,
            detail: "binary data (NUL bytes), not an HTML page".into(),
        });
    }
    let (tree, _) = ctx.tag_tree(&raw);
    let weights = block_weights(&tree, &config.block_weight);
    let content = ctx.cleaner().clean(&site_of(&raw.url), &tree, &weights, config);
    let mut text = content.text_with(&tree, headline);
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(ExtractedPage { raw, page_type: content.page_type, text, headline: content.headline(&tree) })
}

/// Output file names: the page file's stem, made unique, or a running number.
#[derive(Default)]
struct FileNames {
    used: HashMap<String, usize>,
    numbered: usize,
}

impl FileNames {
    fn next(&mut self, origin: &str, numbered: bool) -> String {
        if numbered {
            self.numbered += 1;
            return format!("{:06}.txt", self.numbered);
        }
        let file = Path::new(origin).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let stem = match page_stem(&file) {
            "" => "page".to_string(),
            stem => stem.to_string(),
        };
        let seen = self.used.entry(stem.clone()).or_insert(0);
        *seen += 1;
        if *seen == 1 { format!("{stem}.txt") } else { format!("{stem}-{seen}.txt") }
    }
}

/// A page file's name without its page extensions (`.gz`, then `.html`, `.htm`, `.xhtml` or
/// `.shtml`, any case: the pages a folder holds): `bbc.co.uk_news_01.html` → `bbc.co.uk_news_01`, `0039.html.gz` → `0039`. Dots
/// inside the name are part of it.
fn page_stem(file: &str) -> &str {
    let strip = |name: &'static str, file: &str| -> Option<usize> {
        let cut = file.len().checked_sub(name.len())?;
        (file.is_char_boundary(cut) && file[cut..].eq_ignore_ascii_case(name)).then_some(cut)
    };
    let file = strip(".gz", file).map_or(file, |cut| &file[..cut]);
    [".html", ".htm", ".xhtml", ".shtml"].iter().find_map(|ext| strip(ext, file)).map_or(file, |cut| &file[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_follow_stems_and_stay_unique() {
        let mut names = FileNames::default();
        assert_eq!(names.next("/crawl/a/story.html", false), "story.txt");
        assert_eq!(names.next("/crawl/b/story.html.gz", false), "story-2.txt");
        assert_eq!(names.next("pages.warc.gz#record-7 (https://x.example/)", true), "000001.txt");
        assert_eq!(names.next("pages.warc.gz#record-9", true), "000002.txt");
    }

    #[test]
    fn dots_in_a_file_name_are_part_of_its_stem() {
        let mut names = FileNames::default();
        assert_eq!(names.next("/crawl/bbc.co.uk_news_01.html", false), "bbc.co.uk_news_01.txt");
        assert_eq!(names.next("/crawl/bbc.co.uk_news_02.HTM", false), "bbc.co.uk_news_02.txt");
        assert_eq!(names.next("/crawl/0039.html.gz", false), "0039.txt");
        assert_eq!(names.next("/crawl/index.SHTML", false), "index.txt");
        assert_eq!(names.next("/crawl/notes.v2.gz", false), "notes.v2.txt");
        assert_eq!(names.next("/crawl/.html", false), "page.txt");
    }
}
