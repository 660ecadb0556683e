//! # indexer
//!
//! A search-engine indexer for web-page collections, following the DocView preprocessing
//! framework (Zhang, Chen & Li, 2004). The library is the pipeline, one module per stage:
//!
//! ```text
//! input → decode → tagtree → clean → replicas → docview → index → search / eval
//! ```
//!
//! - [`input`]: folders of pages, WARC files, JSON Lines; each bad record reported, never fatal.
//! - [`decode`]: charset sniffing as browsers do (BOM, HTTP, `<meta>`, detection).
//! - [`text`]: the one tokenizer (jieba for CJK, UAX #29 otherwise), stop words, sentences.
//! - [`tagtree`]: the markup tag tree of containers with weighty tags, text, links, images (§3.1).
//! - [`clean`]: block weights (Algorithm 1), feature vectors (Formula 2), page type (§4.1),
//!   topic content (§4.2).
//! - [`replicas`]: exact and near replicas by MD5 fingerprints (§5).
//! - [`docview`]: the DocView record (§2, §6).
//! - [`classify`]: the content classification code of a record (§6, §7.1): scheme, features,
//!   trained models, evaluation.
//! - [`index`]: the abstract and full-text Tantivy indexes, published atomically.
//! - [`search`] and [`eval`]: BM25 search (abstract, full-text, tiered) and TREC evaluation.
//! - [`page`]: one page through every stage (`PageContext`, `process_page`).
//! - [`pipeline`]: the streaming, parallel pipeline behind `indexer build`.
//! - [`shards`]: beyond one machine: replicas joined across shard builds.
//! - [`export`]: a build's index documents as JSON Lines, for Quickwit.
//! - [`bench`](mod@bench): `indexer bench`, throughput per stage and of whole builds against a floor
//!   reference, and memory against corpus size.
//!
//! Every parameter lives in [`config::Config`].

pub mod bench;
pub mod classify;
pub mod clean;
pub mod config;
pub mod decode;
pub mod docview;
pub mod eval;
pub mod export;
pub mod index;
pub mod input;
pub mod page;
pub mod pipeline;
pub mod replicas;
pub mod search;
pub mod shards;
pub mod tagtree;
pub mod text;
