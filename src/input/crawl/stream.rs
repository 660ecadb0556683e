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
    /// Bytes taken out of `inner`'s buffer by [`Stream::starts_with`] to look past its end,
    /// not yet consumed: they come before what `inner` still holds.
    ahead: Vec<u8>,
    /// Bytes of decompressed data consumed so far.
    pub offset: u64,
    errors_in_a_row: u32,
}

impl<R: Read> Stream<R> {
    pub fn new(inner: R) -> Stream<R> {
        Stream { inner: BufReader::with_capacity(256 * 1024, inner), ahead: Vec::new(), offset: 0, errors_in_a_row: 0 }
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
        if !self.ahead.is_empty() {
            return Ok(&self.ahead);
        }
        self.fill_inner()
    }

    fn fill_inner(&mut self) -> io::Result<&[u8]> {
        fill_buf(&mut self.inner, &mut self.errors_in_a_row)
    }

    fn consume(&mut self, n: usize) {
        if n > 0 {
            self.errors_in_a_row = 0;
        }
        self.offset += n as u64;
        if self.ahead.is_empty() {
            self.inner.consume(n);
        } else {
            self.ahead.drain(..n);
        }
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

    /// Whether the unread bytes start with `prefix`, read across as many fills as it takes: a
    /// gzipped file may hand its bytes over in members of one byte each.
    pub fn starts_with(&mut self, prefix: &[u8]) -> io::Result<bool> {
        if self.ahead.is_empty() {
            let buf = self.fill_inner()?;
            if buf.len() >= prefix.len() || buf.is_empty() {
                return Ok(buf.starts_with(prefix));
            }
        }
        while self.ahead.len() < prefix.len() {
            let buf = fill_buf(&mut self.inner, &mut self.errors_in_a_row)?;
            if buf.is_empty() {
                break;
            }
            let n = buf.len().min(prefix.len() - self.ahead.len());
            self.ahead.extend_from_slice(&buf[..n]);
            self.inner.consume(n);
        }
        Ok(self.ahead.starts_with(prefix))
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

/// `inner`'s buffered bytes, filled when empty; an error other than an interruption counts
/// in `errors_in_a_row`.
fn fill_buf<'a, R: Read>(inner: &'a mut BufReader<R>, errors_in_a_row: &mut u32) -> io::Result<&'a [u8]> {
    loop {
        match inner.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                *errors_in_a_row += 1;
                return Err(e);
            }
        }
    }
    inner.fill_buf()
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

    /// Hands over its bytes a few at a time, as gzip members of one byte each do.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_prefix_is_seen_across_reads_of_one_byte() {
        let mut s = Stream::new(Trickle(b"WARC/1.0\r\nrest\n", 1));
        assert!(!s.starts_with(b"filedesc://").unwrap());
        assert!(s.starts_with(b"WARC/").unwrap());
        assert_eq!(s.line().unwrap().as_deref(), Some(&b"WARC/1.0"[..]));
        assert_eq!(s.line().unwrap().as_deref(), Some(&b"rest"[..]));
        assert_eq!((s.line().unwrap(), s.offset), (None, 15));
        let mut short = Stream::new(Trickle(b"WA", 1));
        assert!(!short.starts_with(b"WARC/").unwrap());
        let block = short.block(10, true);
        assert_eq!((block.bytes.as_slice(), block.read), (&b"WA"[..], 2));
    }
}
