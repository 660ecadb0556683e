//! A gzipped crawl file inflated once for the several passes of a build.
//!
//! A build that learns site templates reads its inputs more than once (a counting pass, a
//! learning pass, the main pass), and inflating gzip is the costliest part of reading. The
//! first full read of a gzipped WARC or ARC file can therefore keep the bytes it inflated in
//! an unnamed temporary file ([`InflatedSlot`]); later reads of that input read them back
//! instead of inflating again. The records are the same, since they are parsed from the same
//! decompressed bytes: a copy is only kept when the read went to the end of the file without a
//! damaged member or a read error (a damaged file is inflated again by every read, as before),
//! and the progress counter still advances by the compressed bytes of the file, in proportion.
//! The copies of one build hold at most [`MAX_INFLATED_BYTES`] together (a bound on disk, not
//! a tuned setting); an input past it, or whose copy cannot be written, is inflated again.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::input::ByteCounter;

/// The most bytes the inflated copies of one build's inputs hold together.
pub const MAX_INFLATED_BYTES: u64 = 4 << 30;

/// The inflated copies of a build's inputs, one slot per input, and the room left for them.
pub struct Inflation {
    slots: Vec<InflatedSlot>,
    room: AtomicU64,
}

impl Inflation {
    /// Empty slots for `inputs` inputs.
    pub fn new(inputs: usize) -> Inflation {
        Inflation {
            slots: (0..inputs).map(|_| InflatedSlot::default()).collect(),
            room: AtomicU64::new(MAX_INFLATED_BYTES),
        }
    }

    /// The slot of input `index`.
    pub fn slot(&self, index: usize) -> Option<&InflatedSlot> {
        self.slots.get(index)
    }

    pub(super) fn room(&self) -> &AtomicU64 {
        &self.room
    }

    /// Whether input `index` has a copy ready (for tests and reports).
    pub fn is_ready(&self, index: usize) -> bool {
        self.slots.get(index).is_some_and(|slot| matches!(*slot.lock(), SlotState::Ready(_)))
    }
}

/// What a read does with an input's slot.
#[derive(Clone, Copy)]
pub struct SlotUse<'a> {
    pub(crate) inflation: &'a Inflation,
    pub(crate) index: usize,
    /// Whether this read may make the copy (a later read will use it).
    pub(crate) make: bool,
}

impl<'a> SlotUse<'a> {
    pub fn new(inflation: &'a Inflation, index: usize, make: bool) -> SlotUse<'a> {
        SlotUse { inflation, index, make }
    }
}

/// One input's inflated copy, if it has one.
#[derive(Default)]
pub struct InflatedSlot(Mutex<SlotState>);

impl InflatedSlot {
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, SlotState> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[derive(Default)]
pub(super) enum SlotState {
    /// No read has tried to make a copy yet.
    #[default]
    Untried,
    /// A read tried and could not (damage, not gzip, no room, a write error): inflate again.
    Unavailable,
    Ready(Inflated),
}

/// The inflated bytes of one input.
pub(super) struct Inflated {
    file: File,
    len: u64,
    /// The bytes of the compressed file the read that made the copy counted.
    compressed: u64,
}

impl Inflated {
    /// A reader of the copy from its start that advances `progress` by the compressed bytes,
    /// in proportion to the inflated bytes read.
    pub(super) fn reader(&self, progress: &ByteCounter) -> io::Result<CopyReader> {
        let mut file = self.file.try_clone()?;
        file.seek(SeekFrom::Start(0))?;
        Ok(CopyReader {
            file,
            len: self.len,
            compressed: self.compressed,
            read: 0,
            counted: 0,
            progress: progress.clone(),
        })
    }
}

/// Reads an inflated copy (see [`Inflated::reader`]).
pub(super) struct CopyReader {
    file: File,
    len: u64,
    compressed: u64,
    read: u64,
    counted: u64,
    progress: ByteCounter,
}

impl Read for CopyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        self.read += n as u64;
        // At the end, all of the compressed file; before it, its share of the bytes read.
        let due = if n == 0 || self.read >= self.len {
            self.compressed
        } else {
            (u128::from(self.compressed) * u128::from(self.read) / u128::from(self.len)) as u64
        };
        if due > self.counted {
            self.progress.add(due - self.counted);
            self.counted = due;
        }
        Ok(n)
    }
}

/// Inflated bytes read from `inner`, written to a temporary file as they pass; the copy is
/// kept only if the read reached the end with no error.
pub(super) struct Recording<'a, R> {
    inner: R,
    out: Option<BufWriter<File>>,
    written: u64,
    reached_end: bool,
    failed: bool,
    room: &'a AtomicU64,
}

impl<'a, R: Read> Recording<'a, R> {
    pub(super) fn new(inner: R, room: &'a AtomicU64) -> Recording<'a, R> {
        let out = tempfile::tempfile().ok().map(|file| BufWriter::with_capacity(1 << 20, file));
        let failed = out.is_none();
        Recording { inner, out, written: 0, reached_end: false, failed, room }
    }

    /// Stops copying: gives back the room taken.
    fn abandon(&mut self) {
        if !self.failed {
            self.room.fetch_add(self.written, Ordering::Relaxed);
        }
        self.failed = true;
        self.out = None;
    }

    /// The copy, if the whole file was read and copied; `compressed` is what the read counted
    /// of the compressed file.
    pub(super) fn finish(mut self, compressed: u64) -> Option<Inflated> {
        if !self.reached_end || self.failed {
            self.abandon();
            return None;
        }
        let Some(out) = self.out.take() else {
            self.abandon();
            return None;
        };
        match out.into_inner() {
            Ok(file) => Some(Inflated { file, len: self.written, compressed }),
            Err(_) => {
                self.abandon();
                None
            }
        }
    }
}

impl<R: Read> Read for Recording<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match self.inner.read(buf) {
            Ok(n) => n,
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.abandon();
                }
                return Err(e);
            }
        };
        if n == 0 {
            self.reached_end = true;
            return Ok(0);
        }
        if !self.failed {
            let size = n as u64;
            let taken = self.room.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |room| room.checked_sub(size));
            let copied = taken.is_ok() && self.out.as_mut().is_some_and(|out| out.write_all(&buf[..n]).is_ok());
            if taken.is_ok() {
                self.written += size;
            }
            if !copied {
                self.abandon();
            }
        }
        Ok(n)
    }
}
