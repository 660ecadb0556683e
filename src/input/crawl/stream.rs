//! The decompressed bytes of a crawl file as lines and counted blocks, for the record
//! parsers. A read error (a damaged gzip member) is returned once where it happens; reading
//! may go on after it, from the next member.

use std::io::{self, BufRead, BufReader, Read};

/// A header line longer than this is not a header line (framing is lost).
pub const MAX_LINE: usize = 64 * 1024;

/// After this many read errors in a row with nothing read between them, the file is given up.
const MAX_ERRORS_IN_A_ROW: u32 = 3;

/// What reading a block gave.
pub struct Block {
    pub bytes: Vec<u8>,
    /// Bytes read (kept or not); fewer than asked when the file ended or was damaged.
    pub read: u64,
    /// The damage that cut the block short, if any.
    pub error: Option<io::Error>,
}

pub struct Stream<R> {
    inner: BufReader<R>,
    /// Bytes of decompressed data consumed so far.
    pub offset: u64,
    errors_in_a_row: u32,
}

impl<R: Read> Stream<R> {
    pub fn new(inner: R) -> Stream<R> {
        Stream { inner: BufReader::with_capacity(256 * 1024, inner), offset: 0, errors_in_a_row: 0 }
    }

    /// The reader under the stream (what it had buffered is dropped).
    pub fn into_inner(self) -> R {
        self.inner.into_inner()
    }

    /// Whether reading should stop: the same error keeps coming back with no progress.
    pub fn given_up(&self) -> bool {
        self.errors_in_a_row >= MAX_ERRORS_IN_A_ROW
    }

    fn fill(&mut self) -> io::Result<&[u8]> {
        loop {
            match self.inner.fill_buf() {
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.errors_in_a_row += 1;
                    return Err(e);
                }
            }
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        if n > 0 {
            self.errors_in_a_row = 0;
        }
        self.offset += n as u64;
        self.inner.consume(n);
    }

    /// The next line without its end (LF or CRLF), at most [`MAX_LINE`] bytes of it kept;
    /// `Ok(None)` at the end of the file.
    pub fn line(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut line = Vec::new();
        let mut any = false;
        loop {
            let buf = self.fill()?;
            if buf.is_empty() {
                break;
            }
            any = true;
            match memchr::memchr(b'\n', buf) {
                Some(i) => {
                    let room = MAX_LINE.saturating_sub(line.len());
                    line.extend_from_slice(&buf[..i.min(room)]);
                    self.consume(i + 1);
                    break;
                }
                None => {
                    let n = buf.len();
                    let room = MAX_LINE.saturating_sub(line.len());
                    line.extend_from_slice(&buf[..n.min(room)]);
                    self.consume(n);
                }
            }
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Ok(any.then_some(line))
    }

    /// Whether the unread bytes start with `prefix` (looks at most one buffer ahead).
    pub fn starts_with(&mut self, prefix: &[u8]) -> io::Result<bool> {
        let buf = self.fill()?;
        Ok(buf.starts_with(prefix))
    }

    /// Reads the next `len` bytes, keeping them only when `keep`.
    pub fn block(&mut self, len: u64, keep: bool) -> Block {
        let mut bytes = Vec::new();
        if keep {
            bytes.reserve(len.min(16 << 20) as usize);
        }
        let mut read = 0u64;
        while read < len {
            let buf = match self.fill() {
                Ok(buf) => buf,
                Err(e) => return Block { bytes, read, error: Some(e) },
            };
            if buf.is_empty() {
                break;
            }
            let n = buf.len().min(usize::try_from(len - read).unwrap_or(usize::MAX));
            if keep {
                bytes.extend_from_slice(&buf[..n]);
            }
            self.consume(n);
            read += n as u64;
        }
        Block { bytes, read, error: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_in_lf_or_crlf_and_blocks_are_counted() {
        let mut s = Stream::new(&b"one\r\ntwo\nthree"[..]);
        assert_eq!(s.line().unwrap().as_deref(), Some(&b"one"[..]));
        assert!(s.starts_with(b"two").unwrap());
        let block = s.block(4, true);
        assert_eq!((block.bytes.as_slice(), block.read), (&b"two\n"[..], 4));
        let block = s.block(100, false);
        assert_eq!((block.bytes.len(), block.read, block.error.is_none()), (0, 5, true));
        assert_eq!(s.line().unwrap(), None);
        assert_eq!(s.offset, 14);
    }
}
