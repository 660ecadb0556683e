//! Fuzz target: any bytes as a WARC file (plain or gzip; the reader sniffs the gzip magic)
//! read through the public input API, exactly as `indexer build` reads one. The reader needs
//! a path, so each input is written to one temporary file, rewritten on every run.

#![no_main]

use std::path::PathBuf;
use std::sync::LazyLock;

use indexer::input::{ByteCounter, InputEvent, Source};
use libfuzzer_sys::fuzz_target;

/// Small, so the too-large paths are reached by small inputs.
const MAX_PAGE_BYTES: u64 = 4096;

static WORK_DIR: LazyLock<tempfile::TempDir> =
    LazyLock::new(|| tempfile::tempdir().expect("a temporary folder for the fuzz input"));
static WARC_PATH: LazyLock<PathBuf> = LazyLock::new(|| WORK_DIR.path().join("input.warc.gz"));

fuzz_target!(|data: &[u8]| {
    std::fs::write(&*WARC_PATH, data).expect("writing the fuzz input");
    let Ok(source) = Source::from_path(&WARC_PATH) else { return };
    let _ = source.visit(MAX_PAGE_BYTES, &ByteCounter::default(), &mut |event| {
        // Every skipped record must say why, for the build's one-line message.
        if let InputEvent::Skipped(skipped) = &event {
            assert!(!skipped.detail.is_empty(), "a skipped record without a reason: {skipped}");
        }
        true
    });
});
