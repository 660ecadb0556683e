//! Fuzz target: any bytes as an ARC file (`input.arc`, or `input.arc.gz` when the bytes
//! start with the gzip magic), written as the first byte says (as they are, or gzipped member
//! by member, whole, clipped or damaged: `crawl_common`), read through the public input API
//! exactly as `indexer build` reads one, and checked for what a build promises: no panic,
//! every skipped record with a reason, every record accounted for, an inflated copy read as
//! the file, a file gzipped in small members read as the same bytes gzipped whole.

#![no_main]

#[path = "crawl_common.rs"]
mod crawl_common;

use std::sync::LazyLock;

use crawl_common::{Format, check, file_of_input, whole_of_input};
use libfuzzer_sys::fuzz_target;

static WORK_DIR: LazyLock<tempfile::TempDir> =
    LazyLock::new(|| tempfile::tempdir().expect("a temporary folder for the fuzz input"));

fuzz_target!(|data: &[u8]| {
    let Some((file, options)) = file_of_input(Format::Arc, data) else { return };
    let events = check(WORK_DIR.path(), Format::Arc, &file, &options);
    if let Some(whole) = whole_of_input(data) {
        let whole_events = check(WORK_DIR.path(), Format::Arc, &whole, &options);
        assert_eq!(
            events, whole_events,
            "a file gzipped in members of a fixed size reads unlike its bytes gzipped whole"
        );
    }
});
