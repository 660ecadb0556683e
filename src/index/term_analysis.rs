//! The version of the term analysis a build was made with.
//!
//! A build's terms — in both indexes, in its keyword fingerprints and near-replica
//! signatures, in its learned stop words — come from the analysis of `crate::text` and
//! [`super::analyzer_for`]: the tokenizer, the folding (NFKC, lower case), the stop lists,
//! the stemmers, the Korean stems. When a release changes the terms some text gives, an
//! older build's terms no longer meet the new ones: a query analysed the new way misses
//! pages indexed the old way, and pages appended the new way are not compared with the old
//! pages' fingerprints as they should be. Every published build records [`TERM_ANALYSIS`] in
//! [`TERM_ANALYSIS_FILE`]; `build --append` refuses a build of another analysis, and search
//! warns about one. `tests/term_analysis.rs` keeps the terms of a multilingual text as a
//! golden file and fails when they change while [`TERM_ANALYSIS`] does not.

use std::path::Path;

use super::IndexError;

/// The version of the term analysis: raised whenever the terms of some text change.
pub const TERM_ANALYSIS: u32 = 12;

/// The file in a published build holding the version of its term analysis.
pub const TERM_ANALYSIS_FILE: &str = "term-analysis.txt";

/// Records this release's term analysis in the build folder `build`.
pub fn write_term_analysis(build: &Path) -> Result<(), IndexError> {
    let path = build.join(TERM_ANALYSIS_FILE);
    std::fs::write(&path, format!("{TERM_ANALYSIS}\n"))
        .map_err(|source| IndexError::Io { path: path.display().to_string(), source })
}

/// The term analysis a published build was made with; `None` for a build made before builds
/// recorded it (or whose record is unreadable).
pub fn read_term_analysis(build: &Path) -> Option<u32> {
    std::fs::read_to_string(build.join(TERM_ANALYSIS_FILE)).ok()?.trim().parse().ok()
}

/// How a build's term analysis differs from this release's, for a message: "term analysis 1"
/// or "a term analysis older than version 1".
pub fn describe_term_analysis(version: Option<u32>) -> String {
    match version {
        Some(v) => format!("term analysis {v}"),
        None => "a term analysis older than version 1 (before builds recorded it)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_reads_back_the_analysis_it_recorded_and_none_without_a_record() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_term_analysis(dir.path()), None);
        write_term_analysis(dir.path()).unwrap();
        assert_eq!(read_term_analysis(dir.path()), Some(TERM_ANALYSIS));
        std::fs::write(dir.path().join(TERM_ANALYSIS_FILE), "not a number").unwrap();
        assert_eq!(read_term_analysis(dir.path()), None);
    }
}
