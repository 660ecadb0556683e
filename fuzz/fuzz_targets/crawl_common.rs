//! What the crawl-reader targets (`warc_reader`, `arc_reader`) share: how an input's bytes
//! become a crawl file on disk, and the checks made on every read of it.
//!
//! An input is one byte that says how the file is written, then the file's bytes:
//! - bits 0-1 of the first byte: 0 the bytes as they are (any bytes, gzip or not: a file
//!   starting with the gzip magic is read as gzip); 1 gzipped one member per record (a member
//!   starts before each line that starts a record), as crawlers write; 2 gzipped in members of
//!   a fixed size (the second byte), so members end inside records; 3 one member per record
//!   with one member damaged: clipped to half its length or one byte of it flipped (the
//!   second byte says which member and how), as a crawl cut off while written or a bad disk;
//! - bit 2: `--accept` also takes plain text (the build's option), so the text paths are read.
//!
//! The file is named as a user names it (`.warc` / `.warc.gz`, `.arc` / `.arc.gz`: gzip when
//! it starts with the gzip magic) and read through `Source::from_path`, as `indexer build`
//! does, three times: a plain read (`Source::visit_with`), the build's first read of a gzipped
//! input that keeps an inflated copy, and its second read from that copy
//! (`Source::visit_inflated`). The checks are what a build promises:
//! - no panic (libFuzzer reports one as a crash);
//! - every skipped record says where it is and why;
//! - every record is accounted for: the events of a read (pages and skipped records) are as
//!   many as the records the file holds that are captures, plus the stretches that are no
//!   record, as `crawl::count_records` counts them;
//! - the three reads give the same events (an inflated copy reads as the file);
//! - a file gzipped in members of a fixed size (way 2) reads as the same bytes gzipped whole
//!   (`whole_of_input`): how a valid gzip file is split into members changes nothing, even
//!   members shorter than the `WARC/` or `filedesc://` a file is sniffed by.

use std::io::Write;
use std::path::{Path, PathBuf};

use indexer::input::crawl::count_records;
use indexer::input::{ByteCounter, Inflation, InputEvent, PageFormat, ReadOptions, SlotUse, Source};

/// Small, so the too-large paths are reached by small inputs.
pub const MAX_PAGE_BYTES: u64 = 4096;

/// Which crawl format a target writes, for the file name and where records start.
#[allow(dead_code, reason = "each target uses one of the formats")]
#[derive(Clone, Copy)]
pub enum Format {
    Warc,
    Arc,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Warc => "warc",
            Format::Arc => "arc",
        }
    }

    /// Whether a line (without its end) is where a record starts, for one member per record.
    /// A rough test is enough: a split anywhere is a valid gzip file.
    fn starts_record(self, line: &[u8]) -> bool {
        match self {
            Format::Warc => line.starts_with(b"WARC/"),
            Format::Arc => {
                let fields = line.split(|&b| b == b' ').filter(|f| !f.is_empty()).count();
                fields >= 5
                    && line.contains(&b':')
                    && line
                        .rsplit(|&b| b == b' ')
                        .next()
                        .is_some_and(|l| !l.is_empty() && l.iter().all(u8::is_ascii_digit))
            }
        }
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("gzip into memory");
    encoder.finish().expect("gzip into memory")
}

/// `bytes` cut before every line that starts a record.
fn records(format: Format, bytes: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut line = 0;
    while line < bytes.len() {
        let end = memchr_lf(&bytes[line..]).map_or(bytes.len(), |i| line + i + 1);
        let text = bytes[line..end].strip_suffix(b"\n").unwrap_or(&bytes[line..end]);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if line > start && format.starts_record(text) {
            parts.push(&bytes[start..line]);
            start = line;
        }
        line = end;
    }
    parts.push(&bytes[start..]);
    parts
}

fn memchr_lf(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// The file an input stands for, and the formats accepted as pages.
pub fn file_of_input(format: Format, data: &[u8]) -> Option<(Vec<u8>, ReadOptions)> {
    let (&how, rest) = data.split_first()?;
    let mut options = ReadOptions::new(MAX_PAGE_BYTES);
    if how & 4 != 0 {
        options.accept.push(PageFormat::Text);
    }
    let file = match how & 3 {
        0 => rest.to_vec(),
        1 => records(format, rest).iter().flat_map(|r| gzip(r)).collect(),
        2 => {
            let (&size, rest) = rest.split_first()?;
            rest.chunks(member_size(size, rest.len())).flat_map(gzip).collect()
        }
        _ => {
            let (&damage, rest) = rest.split_first()?;
            let mut members: Vec<Vec<u8>> = records(format, rest).iter().map(|r| gzip(r)).collect();
            let count = members.len();
            let member = &mut members[usize::from(damage >> 1) % count];
            if damage & 1 == 0 {
                member.truncate(member.len() / 2);
            } else {
                let at = usize::from(damage) * 7 % member.len();
                member[at] ^= 0x55;
            }
            members.concat()
        }
    };
    Some((file, options))
}

/// The size of way 2's members: the second byte plus one, made larger for long inputs so a
/// file has at most `MAX_MEMBERS` of them. Thousands of one-byte members made one input run
/// for minutes under AddressSanitizer (a gzip encoder per member, every read done twice)
/// while adding nothing a few hundred short members do not reach.
fn member_size(size_byte: u8, len: usize) -> usize {
    (usize::from(size_byte) + 1).max(len.div_ceil(MAX_MEMBERS))
}

/// The most members way 2 splits a file into.
const MAX_MEMBERS: usize = 256;

/// For an input whose file is gzipped in members of a fixed size, the same bytes gzipped
/// whole, which must read alike.
pub fn whole_of_input(data: &[u8]) -> Option<Vec<u8>> {
    let (&how, rest) = data.split_first()?;
    let (_, rest) = rest.split_first()?;
    (how & 3 == 2 && !rest.is_empty()).then(|| gzip(rest))
}

/// An event, as compared between reads.
#[derive(Debug, PartialEq, Eq)]
pub enum Seen {
    Page { url: String, origin: String, bytes: Vec<u8>, charset: Option<String>, language: Option<String> },
    Skipped { origin: String, reason: String, detail: String },
}

fn read(source: &Source, options: &ReadOptions, slot: Option<SlotUse<'_>>) -> Option<Vec<Seen>> {
    let mut seen = Vec::new();
    let mut sink = |event: InputEvent| {
        seen.push(match event {
            InputEvent::Page(page) => {
                assert!(!page.url.is_empty(), "a page without a URL from {}", page.origin);
                Seen::Page {
                    url: page.url,
                    origin: page.origin,
                    bytes: page.bytes,
                    charset: page.http_charset,
                    language: page.http_language,
                }
            }
            InputEvent::Skipped(skipped) => {
                // The build prints `<origin>: skipped (<reason>): <detail>` for each.
                assert!(!skipped.origin.is_empty(), "a skipped record that does not say where it is: {skipped}");
                assert!(!skipped.detail.trim().is_empty(), "a skipped record without a reason: {skipped}");
                Seen::Skipped { origin: skipped.origin, reason: skipped.reason.to_string(), detail: skipped.detail }
            }
        });
        true
    };
    let counter = ByteCounter::default();
    let result = match slot {
        None => source.visit_with(options, &counter, &mut sink),
        Some(slot) => source.visit_inflated(options, &counter, &mut sink, slot),
    };
    result.ok().map(|()| seen)
}

/// Writes `file` where `dir` holds it, named for `format`, and reads it the ways a build
/// does, checking what a build promises; the events of the plain read, `None` when the file
/// is not read as a crawl.
pub fn check(dir: &Path, format: Format, file: &[u8], options: &ReadOptions) -> Option<Vec<Seen>> {
    let gzipped = file.starts_with(&[0x1f, 0x8b]);
    let name = format!("input.{}{}", format.extension(), if gzipped { ".gz" } else { "" });
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, file).expect("writing the fuzz input");
    let Ok(source) = Source::from_path(&path) else { return None };
    let plain = read(&source, options, None);
    let counts = count_records(&path);
    let inflation = Inflation::new(1);
    let first = read(&source, options, Some(SlotUse::new(&inflation, 0, true)));
    let second = read(&source, options, Some(SlotUse::new(&inflation, 0, true)));
    std::fs::remove_file(&path).expect("removing the fuzz input");

    assert_eq!(plain.is_some(), counts.is_ok(), "the read and the count disagree on whether the file is a crawl");
    let (Some(plain), Ok(counts)) = (plain, counts) else { return None };
    let not_captures = ["request", "metadata", "warcinfo"];
    let expected: usize =
        counts.iter().filter(|(kind, _)| !not_captures.contains(&kind.as_str())).map(|(_, n)| n).sum();
    assert_eq!(
        plain.len(),
        expected,
        "events (pages + skipped records) do not add up to the records counted: {counts:?}"
    );
    assert_eq!(first.as_ref(), Some(&plain), "the read that makes the inflated copy differs from a plain read");
    assert_eq!(second.as_ref(), Some(&plain), "the read of the inflated copy differs from a plain read");
    Some(plain)
}
