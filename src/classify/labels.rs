//! Training sets: which texts carry which category code.
//!
//! Two forms (`indexer classify train --labels FILE|DIR`):
//! - a file of `url-or-path<TAB>code` lines (`#` starts a comment). A URL names a page of
//!   the crawl given with `--pages` (a folder with `urls.tsv`, WARC or JSON Lines), a path
//!   a file relative to the labels file;
//! - a folder with one sub-folder per code, holding the class's files.
//!
//! A `.txt` file is the text itself; a page (`.html`, `.htm`, or a URL) goes through the
//! pipeline and its DocView topic content is the text — the paper trains on topic content,
//! not on raw pages (§7.1), and the build classifies the same topic content.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::ClassifyError;
use crate::config::Config;
use crate::input::{ByteCounter, InputEvent, RawPage, Source};
use crate::page::{PageContext, process_page};
use crate::text::StopWords;

/// One labelled text.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledText {
    /// Where it came from (file or URL), for messages.
    pub origin: String,
    pub text: String,
    pub code: String,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ClassifyError + '_ {
    move |source| ClassifyError::Io { path: path.display().to_string(), source }
}

/// Reads a labels file or folder; URLs are looked up in the crawl `pages`.
pub fn read_labels(path: &Path, pages: &[PathBuf], config: &Config) -> Result<Vec<LabelledText>, ClassifyError> {
    let stop_words = StopWords::generic();
    // Training needs the topic content only.
    let ctx = PageContext::new(config, &stop_words)
        .map_err(|e| ClassifyError::Labels { origin: path.display().to_string(), message: e.to_string() })?
        .without_classifier();
    if path.is_dir() { read_folder(path, &ctx) } else { read_file(path, pages, &ctx) }
}

fn read_folder(dir: &Path, ctx: &PageContext<'_>) -> Result<Vec<LabelledText>, ClassifyError> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).min_depth(2).sort_by_file_name() {
        let entry =
            entry.map_err(|e| ClassifyError::Labels { origin: dir.display().to_string(), message: e.to_string() })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let Some(code) = entry.path().strip_prefix(dir).ok().and_then(|p| p.components().next()) else { continue };
        let code = code.as_os_str().to_string_lossy().to_string();
        if let Some(text) = text_of_file(entry.path(), ctx)? {
            out.push(LabelledText { origin: entry.path().display().to_string(), text, code });
        }
    }
    Ok(out)
}

/// The text of a labelled file: `.txt` as is, a page's topic content; other files are
/// skipped (`None`).
fn text_of_file(path: &Path, ctx: &PageContext<'_>) -> Result<Option<String>, ClassifyError> {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
    match extension.as_str() {
        "txt" => std::fs::read_to_string(path).map(Some).map_err(io_error(path)),
        "html" | "htm" => {
            let bytes = std::fs::read(path).map_err(io_error(path))?;
            let origin = path.display().to_string();
            let raw =
                RawPage { url: crate::input::file_url(path), origin, bytes, http_charset: None, http_language: None };
            Ok(Some(topic_content(raw, ctx)))
        }
        _ => Ok(None),
    }
}

/// A page's topic content; a page the pipeline skips (empty, binary) has none.
fn topic_content(raw: RawPage, ctx: &PageContext<'_>) -> String {
    process_page(raw, ctx).map(|page| page.record.topic_content).unwrap_or_default()
}

fn is_url(key: &str) -> bool {
    ["http://", "https://", "file://"].iter().any(|scheme| key.starts_with(scheme))
}

fn read_file(path: &Path, pages: &[PathBuf], ctx: &PageContext<'_>) -> Result<Vec<LabelledText>, ClassifyError> {
    let text = std::fs::read_to_string(path).map_err(io_error(path))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut entries: Vec<(String, String)> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let Some((key, code)) = line.split_once('\t') else {
            return Err(ClassifyError::Labels {
                origin: format!("{}:{}", path.display(), number + 1),
                message: format!("expected url-or-path<TAB>code, got {line:?}"),
            });
        };
        entries.push((key.trim().to_string(), code.trim().to_string()));
    }
    let wanted: HashMap<&str, usize> =
        entries.iter().enumerate().filter(|(_, (key, _))| is_url(key)).map(|(i, (key, _))| (key.as_str(), i)).collect();
    let mut texts: Vec<Option<String>> = vec![None; entries.len()];
    if !wanted.is_empty() {
        let counter = ByteCounter::default();
        for input in pages {
            let source = Source::from_path(input)
                .map_err(|e| ClassifyError::Labels { origin: input.display().to_string(), message: e.to_string() })?;
            let mut found: Vec<RawPage> = Vec::new();
            source
                .visit_with(&ctx.config().input.read_options(), &counter, &mut |event| {
                    if let InputEvent::Page(raw) = event
                        && wanted.contains_key(raw.url.as_str())
                    {
                        found.push(raw);
                    }
                    true
                })
                .map_err(|e| ClassifyError::Labels { origin: input.display().to_string(), message: e.to_string() })?;
            for raw in found {
                if let Some(&i) = wanted.get(raw.url.as_str()) {
                    texts[i] = Some(topic_content(raw, ctx));
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for ((key, code), text) in entries.into_iter().zip(texts) {
        let text = match text {
            Some(text) => text,
            None if is_url(&key) => {
                missing.push(key);
                continue;
            }
            None => {
                let file = base.join(&key);
                match text_of_file(&file, ctx)? {
                    Some(text) => text,
                    None => {
                        return Err(ClassifyError::Labels {
                            origin: path.display().to_string(),
                            message: format!("{key}: not a .txt or .html file"),
                        });
                    }
                }
            }
        };
        out.push(LabelledText { origin: key, text, code });
    }
    if !missing.is_empty() {
        return Err(ClassifyError::Labels {
            origin: path.display().to_string(),
            message: format!(
                "{} labelled URLs are not in the pages given with --pages (first: {})",
                missing.len(),
                missing[0]
            ),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><head><title>Comet night</title></head><body><div id=nav><a href='/'>Home</a></div>\
        <div id=story><h1>Comet night</h1><p>The observatory opens its telescopes to the public for the comet, \
        and astronomers explain how the comet's tail forms as it nears the sun.</p></div></body></html>";

    #[test]
    fn files_list_paths_and_urls() {
        let dir = tempfile::tempdir().unwrap();
        let pages = dir.path().join("crawl");
        std::fs::create_dir_all(&pages).unwrap();
        std::fs::write(pages.join("comet.html"), PAGE).unwrap();
        std::fs::write(pages.join("urls.tsv"), "comet.html\thttps://astro.example/comet\n").unwrap();
        std::fs::write(dir.path().join("note.txt"), "Interest rates rose again.").unwrap();
        std::fs::write(dir.path().join("page.html"), PAGE).unwrap();
        let labels = dir.path().join("labels.tsv");
        std::fs::write(&labels, "# comment\nnote.txt\t03\npage.html\t08\r\nhttps://astro.example/comet\t08\n").unwrap();
        let config = Config::default();
        let read = read_labels(&labels, std::slice::from_ref(&pages), &config).unwrap();
        assert_eq!(read.len(), 3);
        assert_eq!((read[0].code.as_str(), read[0].text.as_str()), ("03", "Interest rates rose again."));
        // Pages give their topic content, without the navigation.
        for item in &read[1..] {
            assert_eq!(item.code, "08");
            assert!(item.text.contains("telescopes") && !item.text.contains("Home"), "{:?}", item.text);
        }
        // A URL that is not in the crawl, and a line without a code, are errors.
        std::fs::write(&labels, "https://astro.example/missing\t08\n").unwrap();
        let missing = read_labels(&labels, &[pages], &config).unwrap_err().to_string();
        assert!(missing.contains("https://astro.example/missing"), "{missing}");
        std::fs::write(&labels, "note.txt 03\n").unwrap();
        assert!(read_labels(&labels, &[], &config).unwrap_err().to_string().contains("labels.tsv:1"));
    }

    #[test]
    fn folders_have_one_sub_folder_per_code() {
        let dir = tempfile::tempdir().unwrap();
        for (code, name, text) in
            [("01", "a.txt", "paintings"), ("02", "b.txt", "newspapers"), ("02", "c.md", "skipped")]
        {
            std::fs::create_dir_all(dir.path().join(code)).unwrap();
            std::fs::write(dir.path().join(code).join(name), text).unwrap();
        }
        std::fs::write(dir.path().join("README.txt"), "not in a class folder").unwrap();
        let read = read_labels(dir.path(), &[], &Config::default()).unwrap();
        let codes: Vec<(&str, &str)> = read.iter().map(|l| (l.code.as_str(), l.text.as_str())).collect();
        assert_eq!(codes, [("01", "paintings"), ("02", "newspapers")]);
    }
}
