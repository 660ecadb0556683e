//! Multi-member gzip read member by member, as WARC and ARC files are compressed (one member
//! per record). Unlike `flate2`'s `MultiGzDecoder`, a damaged member does not end the file:
//! the reader reports the damage once, as an error of [`io::ErrorKind::InvalidData`] saying
//! where it is, and the next read resumes at the next gzip member after it.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

/// The magic bytes of a gzip member, with the deflate method byte.
const MEMBER_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// A buffered compressed stream that knows its position in the file and can look a few
/// bytes ahead (a member's magic may straddle two reads).
struct Counted<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// Bytes of the file consumed so far.
    offset: u64,
}

impl<R: Read> Counted<R> {
    fn new(inner: R) -> Counted<R> {
        Counted { inner, buf: vec![0; 64 * 1024], pos: 0, end: 0, offset: 0 }
    }

    /// Makes at least `n` bytes available unless the file ends first.
    fn fill_at_least(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.end - self.pos < n {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            while self.end < n {
                match self.inner.read(&mut self.buf[self.end..]) {
                    Ok(0) => break,
                    Ok(read) => self.end += read,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(&self.buf[self.pos..self.end])
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.fill_at_least(1)
    }
    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.end - self.pos);
        self.pos += amt;
        self.offset += amt as u64;
    }
}

enum State<R> {
    /// Between members, positioned where the next one should start; `after_damage` when the
    /// bytes up to it are the rest of a damaged member, already reported.
    Between { source: Counted<R>, after_damage: bool },
    /// Inside the member that starts at `start`.
    /// (Boxed: zlib-rs's inflate state is large.)
    Member { decoder: Box<GzDecoder<Counted<R>>>, start: u64, produced: u64 },
    /// Taken out while the state changes.
    Moving,
}

/// The decompressed bytes of every readable member of a gzip file, in order.
pub struct Members<R> {
    state: State<R>,
}

impl<R: Read> Members<R> {
    pub fn new(inner: R) -> Members<R> {
        Members { state: State::Between { source: Counted::new(inner), after_damage: false } }
    }

    /// Moves past bytes that cannot start a member, up to the next gzip magic or the end.
    /// Returns the number of bytes passed over.
    fn skip_to_member(source: &mut Counted<R>) -> io::Result<u64> {
        let mut skipped = 0u64;
        loop {
            let buf = source.fill_at_least(MEMBER_MAGIC.len())?;
            if buf.is_empty() || buf.starts_with(&MEMBER_MAGIC) {
                return Ok(skipped);
            }
            if buf.len() < MEMBER_MAGIC.len() {
                let n = buf.len();
                source.consume(n);
                return Ok(skipped + n as u64);
            }
            let take = memchr::memchr(MEMBER_MAGIC[0], &buf[1..]).map_or(buf.len(), |i| i + 1);
            source.consume(take);
            skipped += take as u64;
        }
    }
}

impl<R: Read> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(&mut self.state, State::Moving) {
                State::Moving => return Ok(0),
                State::Between { mut source, after_damage } => {
                    let at = source.offset;
                    let skipped = Self::skip_to_member(&mut source)?;
                    let at_end = source.fill_buf()?.is_empty();
                    let start = source.offset;
                    self.state = if at_end {
                        State::Moving
                    } else {
                        State::Member { decoder: Box::new(GzDecoder::new(source)), start, produced: 0 }
                    };
                    // Zero padding after the last member is common and harmless.
                    if skipped > 0 && !after_damage && !(at_end && at > 0 && trailing_padding(skipped)) {
                        return Err(damage(format!(
                            "{skipped} bytes at byte {at} of the compressed file are not gzip; reading resumes at the next gzip member"
                        )));
                    }
                    if at_end {
                        return Ok(0);
                    }
                }
                State::Member { mut decoder, start, produced } => match decoder.read(buf) {
                    Ok(0) => self.state = State::Between { source: decoder.into_inner(), after_damage: false },
                    Ok(n) => {
                        self.state = State::Member { decoder, start, produced: produced + n as u64 };
                        return Ok(n);
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                        self.state = State::Member { decoder, start, produced };
                    }
                    Err(e) => {
                        let mut source = decoder.into_inner();
                        // Resynchronise after this member's magic, not on it again.
                        if source.offset == start {
                            let step = source.fill_buf()?.len().min(1);
                            source.consume(step);
                        }
                        self.state = State::Between { source, after_damage: true };
                        return Err(damage(format!(
                            "the gzip member at byte {start} of the compressed file is damaged after {produced} \
                             decompressed bytes ({e}); reading resumes at the next gzip member"
                        )));
                    }
                },
            }
        }
    }
}

/// Padding that some writers leave after the last member; reported as damage only if long.
fn trailing_padding(skipped: u64) -> bool {
    skipped <= 512
}

fn damage(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;

    fn member(bytes: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    /// Text that does not compress to almost nothing.
    pub(crate) fn varied_text(words: u64) -> String {
        (0..words).map(|i| format!("word{} ", i * 7919 % 10007)).collect()
    }

    /// Reads everything, collecting the text read and the damage reported.
    fn read_all(bytes: &[u8]) -> (String, Vec<String>) {
        let mut reader = Members::new(bytes);
        let (mut text, mut errors) = (Vec::new(), Vec::new());
        let mut buf = [0u8; 5];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => text.extend_from_slice(&buf[..n]),
                Err(e) => errors.push(e.to_string()),
            }
        }
        // Lossy: a damaged member yields whatever its stream decodes to before the damage is
        // found (zlib-rs may emit bytes past the damage point before the stream fails).
        (String::from_utf8_lossy(&text).into_owned(), errors)
    }

    #[test]
    fn members_are_read_in_order() {
        let bytes = [member(b"first "), member(b"second "), member(b"third")].concat();
        assert_eq!(read_all(&bytes), ("first second third".to_string(), vec![]));
    }

    #[test]
    fn a_damaged_member_is_reported_and_the_next_one_read() {
        let first = member(&b"first member, long enough to be cut ".repeat(20));
        let mut damaged = member(&b"second member, damaged in its middle ".repeat(20));
        let middle = damaged.len() / 2;
        damaged[middle..middle + 8].copy_from_slice(b"\xff\xff\xff\xff\xff\xff\xff\xff");
        let bytes = [first, damaged, member(b"third")].concat();
        let (text, errors) = read_all(&bytes);
        assert!(text.starts_with("first member") && text.ends_with("third"), "{text}");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("damaged"), "{errors:?}");
    }

    #[test]
    fn a_clipped_last_member_keeps_what_was_read() {
        let last = member(varied_text(400).as_bytes());
        let bytes = [member(b"whole "), last[..last.len() / 2].to_vec()].concat();
        let (text, errors) = read_all(&bytes);
        assert!(text.starts_with("whole word0 word7919"), "{text}");
        assert!(text.len() > 1000 && text.len() < 6 + varied_text(400).len(), "{}", text.len());
        assert_eq!(errors.len(), 1, "{errors:?}");
    }

    #[test]
    fn garbage_between_members_is_reported_once() {
        let bytes = [member(b"one "), b"not gzip at all, a long run of junk".to_vec(), member(b"two")].concat();
        let (text, errors) = read_all(&bytes);
        assert_eq!(text, "one two");
        assert_eq!(errors.len(), 1, "{errors:?}");
        let padded = [member(b"one"), vec![0u8; 16]].concat();
        assert_eq!(read_all(&padded), ("one".to_string(), vec![]));
    }
}
