//! Helpers shared by the integration tests.
//!
//! Golden files: [`check_golden`] compares an output with its file under `tests/fixtures/`;
//! run with `UPDATE_GOLDEN=1` to (re)write the files instead, then review the diff in git.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The environment variable that makes [`check_golden`] write instead of compare.
pub const UPDATE_ENV: &str = "UPDATE_GOLDEN";

pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// Compares `actual` with the golden file `relative` (under the repository root).
pub fn check_golden(relative: &str, actual: &str) {
    let path = repo_path(relative);
    if std::env::var_os(UPDATE_ENV).is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing golden file {relative}; run with {UPDATE_ENV}=1 to create it"));
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{relative} differs from the output at line {}:\n  expected: {:?}\n  actual:   {:?}\nIf the change is intended, run {UPDATE_ENV}=1 cargo test and review the diff.",
            line + 1,
            expected.lines().nth(line).unwrap_or("<end of file>"),
            actual.lines().nth(line).unwrap_or("<end of file>"),
        );
    }
}

/// `../shared/data/<relative>` beside the checkout, or `None` when it is absent: tests that
/// use the shared data skip on a fresh clone, and say so with [`skip`].
pub fn shared_data(relative: &str) -> Option<PathBuf> {
    let path = repo_path("../shared/data").join(relative);
    if path.exists() {
        Some(path)
    } else {
        skip(&format!("{} is absent (the shared data sets live beside the checkout in CI)", path.display()));
        None
    }
}

/// Prints `SKIPPED <test>: <why>` where `cargo test` shows it: written to stderr directly,
/// since the test harness captures `eprintln!` of passing tests (a skip would read as a pass).
pub fn skip(why: &str) {
    use std::io::Write;
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    // One write, so that the line stays whole beside the harness's own output.
    let _ = std::io::stderr().write_all(format!("SKIPPED {test}: {why}\n").as_bytes());
}
