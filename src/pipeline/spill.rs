//! The tag trees of the template learning pass, kept on disk for the main pass.
//!
//! When the hosts of a crawl interleave, every host's sample spans most of the input, and the
//! learning pass ([`super::observed_cleaner`]) parses the sampled pages before the main pass,
//! which would parse them again: on a crawl of hosts of about `site_sample_pages` pages, every
//! page twice. Held in memory the trees of a whole crawl would take several times its HTML, so
//! the learning pass writes each sampled page's tree (serialized with postcard) to an unnamed
//! temporary file, in input order, and the main pass reads them back in the same order instead
//! of parsing those pages: decoding a tree costs a fraction of decoding and parsing the page.
//! Memory stays that of one batch. The file holds at most [`MAX_SPILL_BYTES`]; pages past it
//! are parsed again, as are pages whose tree cannot be read back: the outputs are the same
//! either way, since a page's tree depends on its bytes and the configuration only.
//!
//! A frame is the page's place (the index of its input, its position among that input's
//! pages), the length of its body, and the body: the page's URL, the name of its encoding and
//! its tree.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use encoding_rs::Encoding;
use serde::{Deserialize, Serialize};

use crate::tagtree::TagTree;

/// The most bytes of serialized trees a build writes to its temporary file: a bound on disk,
/// not a tuned setting.
pub(super) const MAX_SPILL_BYTES: u64 = 2 << 30;

/// A frame's place and body length: three little-endian u64.
const FRAME_HEADER_BYTES: usize = 24;

/// The body of a frame, as written.
#[derive(Serialize)]
struct PageToSpill<'a> {
    url: &'a str,
    encoding: &'a str,
    tree: &'a TagTree,
}

/// The body of a frame, as read back.
#[derive(Deserialize)]
struct SpilledPage<'a> {
    url: &'a str,
    encoding: &'a str,
    tree: TagTree,
}

/// The serialized body of one page's frame (empty if it cannot be serialized: the page is
/// then parsed again).
pub(super) fn serialize(url: &str, tree: &TagTree, encoding: &'static Encoding) -> Vec<u8> {
    let page = PageToSpill { url, encoding: encoding.name(), tree };
    postcard::to_stdvec(&page).unwrap_or_default()
}

/// The tree and encoding of a frame's body, if it is the page of `url` and can be read.
pub(super) fn deserialize(body: &[u8], url: &str) -> Option<(TagTree, &'static Encoding)> {
    let page: SpilledPage<'_> = postcard::from_bytes(body).ok()?;
    let encoding = Encoding::for_label(page.encoding.as_bytes())?;
    (page.url == url).then_some((page.tree, encoding))
}

/// The file being written by the learning pass.
pub(super) struct SpillWriter {
    file: Option<BufWriter<File>>,
    written: u64,
}

impl SpillWriter {
    /// A new unnamed temporary file (removed when closed, whatever happens to the build).
    pub(super) fn create() -> std::io::Result<SpillWriter> {
        Ok(SpillWriter { file: Some(BufWriter::with_capacity(1 << 20, tempfile::tempfile()?)), written: 0 })
    }

    /// Whether more frames are taken: the file is below its bound and has had no error.
    pub(super) fn accepts(&self) -> bool {
        self.file.is_some() && self.written < MAX_SPILL_BYTES
    }

    /// Appends the frame of page `position` of input `source`. A write error ends the file
    /// there (the pages after it are parsed again by the main pass).
    pub(super) fn write(&mut self, source: usize, position: usize, body: &[u8]) {
        if !self.accepts() || body.is_empty() {
            return;
        }
        let Some(file) = &mut self.file else { return };
        let mut header = [0u8; FRAME_HEADER_BYTES];
        header[..8].copy_from_slice(&(source as u64).to_le_bytes());
        header[8..16].copy_from_slice(&(position as u64).to_le_bytes());
        header[16..].copy_from_slice(&(body.len() as u64).to_le_bytes());
        if file.write_all(&header).and_then(|()| file.write_all(body)).is_err() {
            self.file = None;
            return;
        }
        self.written += (FRAME_HEADER_BYTES + body.len()) as u64;
    }

    /// The file, to be read from its start; `None` after a write error.
    pub(super) fn finish(self) -> Option<SpillReader> {
        let mut file = self.file?.into_inner().ok()?;
        file.seek(SeekFrom::Start(0)).ok()?;
        let mut reader = SpillReader { file: Some(BufReader::with_capacity(1 << 20, file)), next: None };
        reader.advance();
        Some(reader)
    }
}

/// The file being read by the main pass, in input order.
pub(super) struct SpillReader {
    file: Option<BufReader<File>>,
    /// The next frame: its source, position and body.
    next: Option<(usize, usize, Vec<u8>)>,
}

impl SpillReader {
    /// The body of the frame of page `position` of input `source`, if it is the next one.
    pub(super) fn take(&mut self, source: usize, position: usize) -> Option<Vec<u8>> {
        match &self.next {
            Some((s, p, _)) if *s == source && *p == position => {}
            _ => return None,
        }
        let (_, _, body) = self.next.take()?;
        self.advance();
        Some(body)
    }

    /// Reads the next frame; at the end of the file or on an error, there is none.
    fn advance(&mut self) {
        let Some(file) = &mut self.file else { return };
        let mut header = [0u8; FRAME_HEADER_BYTES];
        let frame = file.read_exact(&mut header).ok().and_then(|()| {
            let field = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap_or_default());
            let mut body = vec![0u8; usize::try_from(field(16)).ok()?];
            file.read_exact(&mut body).ok()?;
            Some((usize::try_from(field(0)).ok()?, usize::try_from(field(8)).ok()?, body))
        });
        if frame.is_none() {
            self.file = None;
        }
        self.next = frame;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trees_come_back_in_order_and_a_page_not_spilled_is_parsed_again() {
        let pages = ["<title>One</title><p>first page</p>", "<div class=x><p>second <a href=/b>page</a></p></div>"];
        let trees: Vec<TagTree> = pages.iter().map(|html| TagTree::with_default_config(html)).collect();
        let mut writer = SpillWriter::create().unwrap();
        writer.write(0, 0, &serialize("http://a/0", &trees[0], encoding_rs::UTF_8));
        writer.write(1, 3, &serialize("http://b/3", &trees[1], encoding_rs::WINDOWS_1252));
        let mut reader = writer.finish().unwrap();
        // Not the next frame: nothing, and the frame stays.
        assert!(reader.take(1, 3).is_none());
        let body = reader.take(0, 0).unwrap();
        let (tree, encoding) = deserialize(&body, "http://a/0").unwrap();
        assert_eq!(encoding, encoding_rs::UTF_8);
        assert_eq!(tree.title, "One");
        assert_eq!(format!("{:?}", tree), format!("{:?}", trees[0]));
        let body = reader.take(1, 3).unwrap();
        // Another page's URL: not its tree.
        assert!(deserialize(&body, "http://b/4").is_none());
        let (tree, encoding) = deserialize(&body, "http://b/3").unwrap();
        assert_eq!(encoding, encoding_rs::WINDOWS_1252);
        assert_eq!(format!("{:?}", tree), format!("{:?}", trees[1]));
        assert!(reader.take(1, 4).is_none());
        // A damaged body is no tree.
        assert!(deserialize(&body[..body.len() / 2], "http://b/3").is_none());
    }
}
