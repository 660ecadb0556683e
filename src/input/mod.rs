//! Input: where pages come from.
//!
//! An input is a folder of pages (`.html`, `.htm`, `.xhtml`, `.shtml`, also gzipped, recursive, with an optional
//! `urls.tsv` manifest), a crawl file (WARC or ARC, plain or gzip: [`crawl`]), or a JSON Lines
//! file of pages (`{"url","html"}`) or text documents (`{"id","text"}`).
//! Each source is read by a visitor that hands every page, or the reason a record is not a
//! page, to a sink. Sources never stop on a bad record: they report it and go on; only a source
//! that cannot be opened at all is an error.

pub mod crawl;
mod folder;
mod jsonl;
mod list;
mod text_page;

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

pub use crawl::inflated::{Inflation, SlotUse};
pub use crawl::{PageFormat, ReadOptions};
pub use folder::{file_url, page_bytes};
pub use list::read_input_list;

/// A page as read, before decoding.
#[derive(Debug, Clone)]
pub struct RawPage {
    /// The page identifier: its URL.
    pub url: String,
    /// Where it came from, for messages: a file path, or `file.warc.gz#record-N`.
    pub origin: String,
    pub bytes: Vec<u8>,
    /// The charset of the HTTP `Content-Type` header, when the source had one.
    pub http_charset: Option<String>,
    /// The HTTP `Content-Language` header, when the source had one.
    pub http_language: Option<String>,
}

/// Why a record did not become an indexed page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkipReason {
    /// The file or record could not be read (I/O error, corrupt gzip).
    Unreadable,
    /// A WARC, ARC or JSON Lines record that is malformed, or bytes of a crawl file that are
    /// no record; reading goes on at the next record.
    BadRecord,
    /// The HTTP status is not 2xx.
    HttpStatus,
    /// The content type is not HTML (nor another format `--accept` lets in): media,
    /// documents, scripts, style sheets.
    NotHtml,
    /// A capture that is no web page: a `dns:` lookup, a crawler's log, robots.txt, plain
    /// text (unless accepted), a feed.
    NotAPage,
    /// A WARC revisit record: the crawler saw the page again and did not store it again.
    Revisit,
    /// Larger than `input.max_page_bytes`.
    TooLarge,
    /// No visible text and no images.
    Empty,
    /// The same URL was read before.
    DuplicateUrl,
}

impl SkipReason {
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Unreadable => "unreadable",
            SkipReason::BadRecord => "bad-record",
            SkipReason::HttpStatus => "http-status",
            SkipReason::NotHtml => "not-html",
            SkipReason::NotAPage => "not-a-page",
            SkipReason::Revisit => "revisit",
            SkipReason::TooLarge => "too-large",
            SkipReason::Empty => "empty",
            SkipReason::DuplicateUrl => "duplicate-url",
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A record that was not made into a page, with what to do about it.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    pub origin: String,
    pub reason: SkipReason,
    pub detail: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: skipped ({}): {}", self.origin, self.reason, self.detail)
    }
}

/// What a source hands to its sink.
#[derive(Debug)]
pub enum InputEvent {
    Page(RawPage),
    Skipped(Skipped),
}

/// An input that cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error(
        "{path}: no such file or folder; give a folder of .html files, a .warc[.gz] or .arc[.gz] file or a .jsonl file"
    )]
    NotFound { path: String },
    #[error("{path}: cannot read: {source}")]
    Io { path: String, source: io::Error },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
}

/// The kinds of input, told apart by file name, or by the first bytes when the name says
/// nothing (a crawler's `.warc.gz.open` while it writes, a renamed download).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Folder(PathBuf),
    /// A WARC or ARC file.
    Warc(PathBuf),
    JsonLines(PathBuf),
}

impl Source {
    /// Classifies a path given on the command line.
    pub fn from_path(path: &Path) -> Result<Source, InputError> {
        let display = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => InputError::NotFound { path: display.clone() },
            _ => InputError::Io { path: display.clone(), source: e },
        })?;
        if meta.is_dir() {
            return Ok(Source::Folder(path.to_path_buf()));
        }
        let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        // Common Crawl's WET and WAT files (`….warc.wet.gz`, `….warc.wat.gz`: conversion and
        // metadata records) are WARC files found by their first bytes below, as is any other
        // name; `.wet` and `.wat` alone name other files too (WebAssembly text).
        if [".warc", ".arc"].iter().any(|suffix| name.ends_with(suffix)) {
            Ok(Source::Warc(path.to_path_buf()))
        } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") || name.ends_with(".json") {
            Ok(Source::JsonLines(path.to_path_buf()))
        } else if opens_like_a_crawl(path).map_err(|source| InputError::Io { path: display.clone(), source })? {
            Ok(Source::Warc(path.to_path_buf()))
        } else {
            Err(InputError::Format {
                path: display,
                message: "unknown input kind: expected a folder, a .warc[.gz] or .arc[.gz] file (or one that starts \
                          like a WARC or ARC record) or a .jsonl[.gz] file"
                    .into(),
            })
        }
    }

    /// The sources of the paths given on the command line, in their order. A file is one
    /// source ([`Source::from_path`]). A folder is its pages ([`Source::Folder`]) followed by
    /// every crawl file in it, at any depth, in sorted path order (`folder::crawl_files`), so
    /// that a folder a crawler wrote WARC files into reads as those files; a folder with
    /// neither is a folder source that finds no pages. The folder source is kept whenever its
    /// walk meets a part it cannot list, so that the part is reported as a skipped record. A
    /// crawl file named twice (a folder and a file in it) is read once.
    pub fn of_inputs(paths: &[PathBuf]) -> Result<Vec<Source>, InputError> {
        let mut sources = Vec::new();
        // A crawl file is read once, however often it is named (a folder and a file in it).
        let mut crawl_files = std::collections::HashSet::new();
        let mut push = |sources: &mut Vec<Source>, source: Source| {
            let new = match &source {
                Source::Warc(p) | Source::JsonLines(p) => {
                    crawl_files.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
                }
                Source::Folder(_) => true,
            };
            if new {
                sources.push(source);
            }
        };
        for path in paths {
            let source = Source::from_path(path)?;
            let Source::Folder(dir) = &source else {
                push(&mut sources, source);
                continue;
            };
            let crawls = folder::crawl_files(dir);
            if crawls.is_empty() || folder::yields_pages(dir) {
                push(&mut sources, source.clone());
            }
            for crawl in crawls {
                push(&mut sources, Source::from_path(&crawl)?);
            }
        }
        Ok(sources)
    }

    /// What the user should hear about this source before it is read, once (a read reports
    /// its records, and a build reads its inputs more than once): the lines of a folder's
    /// `urls.tsv` that name no page of the folder.
    pub fn warnings(&self) -> Vec<String> {
        match self {
            Source::Folder(dir) => folder::manifest_warnings(dir),
            Source::Warc(_) | Source::JsonLines(_) => Vec::new(),
        }
    }

    /// Bytes on disk, for progress.
    pub fn size_on_disk(&self) -> u64 {
        match self {
            Source::Folder(dir) => folder::size_on_disk(dir),
            Source::Warc(p) | Source::JsonLines(p) => std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
        }
    }

    /// Reads every page, handing each event to `sink`. `sink` returns `false` to stop early
    /// (used by the stop-word sample). `progress` counts the bytes read from disk. Crawl
    /// records are pages when HTML or XHTML ([`PageFormat::DEFAULT`]).
    pub fn visit(
        &self,
        max_page_bytes: u64,
        progress: &ByteCounter,
        sink: &mut dyn FnMut(InputEvent) -> bool,
    ) -> Result<(), InputError> {
        self.visit_with(&ReadOptions::new(max_page_bytes), progress, sink)
    }

    /// [`Source::visit`] with the formats a crawl record may have to be a page.
    pub fn visit_with(
        &self,
        options: &ReadOptions,
        progress: &ByteCounter,
        sink: &mut dyn FnMut(InputEvent) -> bool,
    ) -> Result<(), InputError> {
        match self {
            Source::Folder(dir) => folder::visit(dir, options.max_page_bytes, progress, sink),
            Source::Warc(path) => crawl::visit(path, options, progress, sink),
            Source::JsonLines(path) => jsonl::visit(path, options, progress, sink),
        }
    }
}

impl Source {
    /// [`Source::visit_with`] through the input's slot of inflated copies: a gzipped crawl
    /// file is inflated once for the several reads of a build (`crawl::inflated`).
    pub fn visit_inflated(
        &self,
        options: &ReadOptions,
        progress: &ByteCounter,
        sink: &mut dyn FnMut(InputEvent) -> bool,
        slot: crawl::inflated::SlotUse<'_>,
    ) -> Result<(), InputError> {
        match self {
            Source::Warc(path) => crawl::visit_inflated(path, options, progress, sink, slot),
            _ => self.visit_with(options, progress, sink),
        }
    }
}

/// What a page over `input.max_page_bytes` is told, in every reader.
fn too_large(max_page_bytes: u64) -> String {
    format!("larger than {max_page_bytes} bytes; raise input.max_page_bytes to index it")
}

/// Bytes read from disk so far, shared with the progress display.
#[derive(Debug, Clone, Default)]
pub struct ByteCounter(Arc<AtomicU64>);

impl ByteCounter {
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
    fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }
}

/// A reader that adds what it reads to a [`ByteCounter`].
struct CountingReader<R> {
    inner: R,
    counter: ByteCounter,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.add(n as u64);
        Ok(n)
    }
}

/// Opens a file, transparently gunzipping it (multi-member gzip) when it starts with the gzip
/// magic bytes.
fn open_maybe_gzip(path: &Path, counter: &ByteCounter) -> io::Result<Box<dyn Read + Send>> {
    let mut file = std::fs::File::open(path)?;
    let mut magic = [0u8; 2];
    let n = read_up_to(&mut file, &mut magic)?;
    use std::io::Seek;
    file.seek(io::SeekFrom::Start(0))?;
    let counted = CountingReader { inner: file, counter: counter.clone() };
    if n == 2 && magic == [0x1f, 0x8b] {
        Ok(Box::new(flate2::read::MultiGzDecoder::new(counted)))
    } else {
        Ok(Box::new(counted))
    }
}

fn read_up_to(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

/// Reads at most `limit` bytes; `Ok(None)` when there was more.
fn read_capped(reader: &mut impl Read, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    reader.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit { Ok(None) } else { Ok(Some(bytes)) }
}

/// Whether a file, gzipped or not, starts like a WARC record (`WARC/`) or an ARC file's
/// header record (`filedesc://`).
fn opens_like_a_crawl(path: &Path) -> io::Result<bool> {
    let mut start = Vec::with_capacity(16);
    std::fs::File::open(path)?.take(2).read_to_end(&mut start)?;
    let file = std::fs::File::open(path)?;
    let mut reader: Box<dyn Read> =
        if start == [0x1f, 0x8b] { Box::new(flate2::read::MultiGzDecoder::new(file)) } else { Box::new(file) };
    let mut head = [0u8; 11];
    let mut filled = 0;
    while filled < head.len() {
        match reader.read(&mut head[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            // A file that is not gzip after all, or a damaged one, is simply not a crawl here.
            Err(e) if e.kind() == io::ErrorKind::InvalidInput || e.kind() == io::ErrorKind::InvalidData => {
                return Ok(false);
            }
            Err(e) => return Err(e),
        }
    }
    let head = &head[..filled];
    Ok(head.starts_with(b"WARC/") || head.starts_with(b"filedesc://"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_told_apart_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let warc = dir.path().join("a.warc.gz");
        let jsonl = dir.path().join("b.jsonl");
        let other = dir.path().join("c.pdf");
        for p in [&warc, &jsonl, &other] {
            std::fs::write(p, b"").unwrap();
        }
        assert_eq!(Source::from_path(dir.path()).unwrap(), Source::Folder(dir.path().into()));
        assert_eq!(Source::from_path(&warc).unwrap(), Source::Warc(warc.clone()));
        assert_eq!(Source::from_path(&jsonl).unwrap(), Source::JsonLines(jsonl.clone()));
        assert!(matches!(Source::from_path(&other), Err(InputError::Format { .. })));
        assert!(matches!(Source::from_path(&dir.path().join("missing")), Err(InputError::NotFound { .. })));
    }

    #[test]
    fn common_crawl_names_and_crawl_files_without_a_crawl_name_are_crawls() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let record = b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
        let wet = dir.path().join("CC-MAIN-1-00000.warc.wet.gz");
        let wat = dir.path().join("CC-MAIN-1-00000.warc.wat.gz");
        let open = dir.path().join("crawl-00001.warc.gz.open");
        let plain = dir.path().join("crawl.dat");
        let arc = dir.path().join("old-crawl.bin");
        let text = dir.path().join("notes.txt");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(record).unwrap();
        let gzipped = gz.finish().unwrap();
        let wasm_text = dir.path().join("module.wat");
        for (p, bytes) in [
            (&wet, &gzipped[..]),
            (&wat, &gzipped[..]),
            (&wasm_text, &b"(module (func))"[..]),
            (&open, &gzipped[..]),
            (&plain, &record[..]),
            (&arc, &b"filedesc://old-crawl.arc 0.0.0.0 20080101000000 text/plain 10\n"[..]),
            (&text, &b"WAR and peace"[..]),
        ] {
            std::fs::write(p, bytes).unwrap();
        }
        for p in [&wet, &wat, &open, &plain, &arc] {
            assert_eq!(Source::from_path(p).unwrap(), Source::Warc(p.clone()), "{}", p.display());
        }
        for p in [&text, &wasm_text] {
            assert!(matches!(Source::from_path(p), Err(InputError::Format { .. })), "{}", p.display());
        }
    }
}
