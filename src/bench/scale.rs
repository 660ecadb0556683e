//! Memory against corpus size: the input written out N times as one WARC file, each copy under
//! other URLs (`?copy=K`), then built at 1× and N×.
//!
//! Two kinds of copies:
//! - [`CopyKind::Exact`]: the same pages under new URLs. The replica detector removes them, as
//!   it should; the build still reads, parses and fingerprints every copy, and the detector
//!   keeps what it needs to recognise each page.
//! - [`CopyKind::Distinct`]: every ASCII word of the text gets a suffix naming its copy, so
//!   that the copies are different pages with their own vocabulary and are all indexed.

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;
use md5::Digest;
use serde::Serialize;

use super::child::{Pinning, config_file, run_build};
use super::{BenchError, BenchOptions, InputSize, ScaleRun, Throughput, input_size};
use crate::input::{ByteCounter, InputEvent, RawPage, Source};

/// How the copies of a page differ from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CopyKind {
    /// Byte for byte the same page, under another URL.
    Exact,
    /// Every ASCII word suffixed with the copy's letters: a different page.
    Distinct,
}

impl CopyKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CopyKind::Exact => "exact",
            CopyKind::Distinct => "distinct",
        }
    }
}

/// Writes the input's pages `copies` times, copy by copy, as one gzipped WARC file (a gzip
/// member per record, as crawlers write them). Copy 0 is the input itself.
pub fn write_scaled_warc(
    inputs: &[PathBuf],
    copies: usize,
    kind: CopyKind,
    max_page_bytes: u64,
    out: &Path,
) -> Result<(), BenchError> {
    let file = std::fs::File::create(out).map_err(BenchError::io(out))?;
    let mut writer = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut failure: Option<std::io::Error> = None;
    for copy in 0..copies {
        for path in inputs {
            Source::from_path(path)?.visit(max_page_bytes, &ByteCounter::default(), &mut |event| {
                let InputEvent::Page(page) = event else { return true };
                match write_record(&mut writer, &copy_of(page, copy, kind)) {
                    Ok(()) => true,
                    Err(e) => {
                        failure = Some(e);
                        false
                    }
                }
            })?;
            if let Some(e) = failure.take() {
                return Err(BenchError::Io { path: out.display().to_string(), source: e });
            }
        }
    }
    writer.flush().map_err(BenchError::io(out))
}

/// Copy `copy` of a page.
fn copy_of(page: RawPage, copy: usize, kind: CopyKind) -> RawPage {
    if copy == 0 {
        return page;
    }
    let (address, fragment) = match page.url.split_once('#') {
        Some((address, fragment)) => (address, format!("#{fragment}")),
        None => (page.url.as_str(), String::new()),
    };
    let separator = if address.contains('?') { '&' } else { '?' };
    let url = format!("{address}{separator}copy={copy}{fragment}");
    let bytes = match kind {
        CopyKind::Exact => page.bytes,
        CopyKind::Distinct => suffix_words(&page.bytes, &copy_suffix(copy)),
    };
    RawPage { url, bytes, ..page }
}

/// Letters that name copy `copy`: `q` then the copy number in base 26 (`qb`, `qc`, … `qba`).
fn copy_suffix(copy: usize) -> String {
    let mut letters = Vec::new();
    let mut n = copy;
    loop {
        letters.push(b'a' + (n % 26) as u8);
        n /= 26;
        if n == 0 {
            break;
        }
    }
    letters.push(b'q');
    letters.reverse();
    String::from_utf8(letters).unwrap_or_default()
}

/// Appends `suffix` to every run of two or more ASCII letters outside markup. Runs right
/// after `&` (character references) are left alone, and so is every non-ASCII byte, so the
/// page stays valid in any ASCII-compatible charset.
fn suffix_words(html: &[u8], suffix: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(html.len() + html.len() / 4);
    let mut in_tag = false;
    let mut i = 0;
    while i < html.len() {
        let byte = html[i];
        if in_tag {
            in_tag = byte != b'>';
        } else if byte == b'<' {
            in_tag = true;
        } else if byte.is_ascii_alphabetic() {
            let end = html[i..].iter().position(|b| !b.is_ascii_alphabetic()).map_or(html.len(), |n| i + n);
            out.extend_from_slice(&html[i..end]);
            let reference = i > 0 && html[i - 1] == b'&';
            if end - i >= 2 && !reference {
                out.extend_from_slice(suffix.as_bytes());
            }
            i = end;
            continue;
        }
        out.push(byte);
        i += 1;
    }
    out
}

/// One page as a gzipped WARC response record.
fn write_record(out: &mut impl Write, page: &RawPage) -> std::io::Result<()> {
    let content_type = match &page.http_charset {
        Some(charset) => format!("text/html; charset={charset}"),
        None => "text/html".to_string(),
    };
    let mut http =
        format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n", page.bytes.len())
            .into_bytes();
    http.extend_from_slice(&page.bytes);
    let id = md5::Md5::digest(page.url.as_bytes());
    let hex: String = id.iter().map(|b| format!("{b:02x}")).collect();
    let header = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:{}-{}-{}-{}-{}>\r\nContent-Type: application/http; msgtype=response\r\n\
         Content-Length: {}\r\n\r\n",
        page.url,
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32],
        http.len()
    );
    let mut gz = GzEncoder::new(Vec::with_capacity(http.len() / 3), Compression::fast());
    gz.write_all(header.as_bytes())?;
    gz.write_all(&http)?;
    gz.write_all(b"\r\n\r\n")?;
    out.write_all(&gz.finish()?)
}

/// Builds the input at 1× and `copies`× (exact and distinct copies), each in its own process
/// on the most threads measured.
pub(super) fn run_scale(
    options: &BenchOptions,
    copies: usize,
    pinning: Pinning,
    progress: &dyn Fn(&str),
) -> Result<Vec<ScaleRun>, BenchError> {
    let threads = options.thread_counts.iter().copied().max().unwrap_or(1);
    let mut runs = Vec::new();
    let plans = [(1, CopyKind::Exact), (copies, CopyKind::Exact), (copies, CopyKind::Distinct)];
    for (n, kind) in plans {
        let name = format!("scale-{n}x-{}", kind.as_str());
        let warc = options.work_dir.join(format!("{name}.warc.gz"));
        progress(&format!("writing the input {n}× ({} copies) to {}", kind.as_str(), warc.display()));
        write_scaled_warc(&options.inputs, n, kind, options.config.input.max_page_bytes, &warc)?;
        let input: InputSize = input_size(std::slice::from_ref(&warc), &options.config)?;
        progress(&format!("whole build of the input {n}× on {threads} thread(s)"));
        let config = config_file(options, threads)?;
        let build =
            run_build(options, (&options.indexer, &config), std::slice::from_ref(&warc), threads, &name, pinning)?;
        let _ = std::fs::remove_file(&warc);
        runs.push(ScaleRun {
            copies: n,
            kind,
            throughput: Throughput::of(input.pages, input.html_bytes, build.seconds),
            input,
            build,
        });
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_get_their_own_urls_and_words() {
        let page = RawPage {
            url: "https://a.example/p?x=1#top".into(),
            origin: "test".into(),
            bytes: b"<p class=\"lead\">Fog &amp; rain, a day</p>".to_vec(),
            http_charset: None,
            http_language: None,
        };
        let copy = copy_of(page.clone(), 2, CopyKind::Distinct);
        assert_eq!(copy.url, "https://a.example/p?x=1&copy=2#top");
        assert_eq!(String::from_utf8_lossy(&copy.bytes), "<p class=\"lead\">Fogqc &amp; rainqc, a dayqc</p>");
        assert_eq!(copy_of(page.clone(), 3, CopyKind::Exact).bytes, page.bytes);
        assert_eq!(copy_of(page.clone(), 0, CopyKind::Distinct).url, page.url);
        assert_eq!(copy_suffix(27), "qbb");
    }

    #[test]
    fn a_scaled_warc_reads_back_every_copy() {
        let dir = tempfile::tempdir().unwrap();
        let pages = dir.path().join("pages");
        std::fs::create_dir(&pages).unwrap();
        std::fs::write(pages.join("a.html"), "<p>harbour fog</p>").unwrap();
        std::fs::write(pages.join("b.html"), "<p>quay rain</p>").unwrap();
        let warc = dir.path().join("x3.warc.gz");
        write_scaled_warc(std::slice::from_ref(&pages), 3, CopyKind::Distinct, 1 << 20, &warc).unwrap();
        let size = input_size(std::slice::from_ref(&warc), &crate::config::Config::default()).unwrap();
        assert_eq!((size.pages, size.skipped_records), (6, 0));
    }
}
