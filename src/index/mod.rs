//! The two Tantivy indexes of §7.3 — the abstract index and the full-text index — their
//! schemas (loaded from `index-schema/*.json`), the tokenizer registered under the name the
//! schemas use, the writers, and the atomic publication of a finished build.

mod analyzer;
mod publish;
mod schema;
mod stemmer;
mod term_analysis;
mod token_totals;
mod writer;

pub use analyzer::{
    DocViewTokenizer, OwnAnalysis, TOKENIZER_NAME, analyze_tokens, analyzer_for, has_query_analysis,
    query_analyzer_for, register_tokenizers, snowball_language,
};
pub use publish::{
    BuildOutput, CURRENT_LINK, SUMMARY_FILE, abandon_build, check_build_folder, current_build, publish_build,
    start_append, start_build,
};
pub use schema::{FieldSource, IndexKind, IndexSchema, SchemaError};
pub use term_analysis::{
    TERM_ANALYSIS, TERM_ANALYSIS_FILE, describe_term_analysis, read_term_analysis, write_term_analysis,
};
pub use token_totals::{TOKEN_TOTALS_FILE, TokenTotals, count_token_totals, read_token_totals, write_token_totals};
pub use writer::{IndexSet, PageDocument};

/// An index failure.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error(transparent)]
    Schema(#[from] SchemaError),
    #[error("index {path}: {source}")]
    Tantivy { path: String, source: tantivy::TantivyError },
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("no build in {dir}: run `indexer build <INPUT> --dir {dir}` first")]
    NoBuild { dir: String },
    #[error("{dir} is a build, not a build folder (a build folder holds current and builds/): {hint}")]
    InsideBuild { dir: String, hint: String },
    #[error("{dir} holds the builds of a build folder, it is no build folder itself: {hint}")]
    BuildsOfFolder { dir: String, hint: String },
    #[error("index {path} has another schema than index-schema/{name}.json: rebuild it without --append")]
    SchemaChanged { path: String, name: String },
}
