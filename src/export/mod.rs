//! `indexer export`: a build's pages as JSON Lines documents of one of our two indexes, for
//! serving at scale with a distributed engine (Quickwit, which is built on Tantivy).
//!
//! Each line has exactly the fields of the index's schema (`index-schema/<index>.json`), under
//! the same names, with the values the build indexed: the DocView record's URL, title,
//! keywords (joined by spaces, as indexed), abstract, topic content, page type and category code. The
//! Quickwit index configs `index-schema/quickwit/<index>.json` map these fields with the same
//! stored and indexed choices.
//!
//! The full-text index's body — the title and the visible text of the raw page — is not
//! kept by a build (the index does not store it), so exporting the full-text index reads the
//! build's inputs again and extracts the visible text of every page the build kept, as the
//! build did. Pages are written in input order; memory holds one URL and one file offset per
//! kept page.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::config::Config;
use crate::docview::DocView;
use crate::index::{FieldSource, IndexError, IndexKind, IndexSchema, current_build};
use crate::input::{ByteCounter, InputError, InputEvent, RawPage, Source};
use crate::page::PageContext;
use crate::text::StopWords;

const DOCVIEW_FILE: &str = "docview.jsonl";
/// Pages parsed in parallel at a time when the full-text body is extracted.
const BATCH: usize = 64;

/// An export that could not complete.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Context(#[from] crate::page::PageContextError),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}, line {line}: not a DocView record ({message}); rebuild it")]
    Record { path: String, line: usize, message: String },
    #[error(
        "the full-text body is the visible text of the raw pages, which a build does not keep: give the build's inputs with --input"
    )]
    NeedsInputs,
    #[error("cannot write the export: {0}")]
    Write(#[source] std::io::Error),
}

/// How many documents an export wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExportSummary {
    pub documents: usize,
    /// Kept pages of the build that were not found in the inputs (full-text export only).
    pub missing: usize,
}

/// The identifier of a record, to find it again without parsing all of it.
#[derive(Deserialize)]
struct Identifier {
    identifier: String,
}

/// The document of `kind` for one record; `body` is the raw page's visible text (full text).
pub fn document(schema: &IndexSchema, record: &DocView, visible_text: Option<&str>) -> Map<String, Value> {
    let mut doc = Map::new();
    for &(field, source) in &schema.fields {
        let value = match source {
            FieldSource::Url => record.identifier.clone(),
            FieldSource::Title => record.title.clone(),
            FieldSource::Keywords => record.keywords.join(" "),
            FieldSource::Abstract => record.summary.clone(),
            FieldSource::Type => record.page_type.as_str().to_string(),
            // As the build indexes it: the title, then the visible text.
            FieldSource::Body => format!("{}\n{}", record.title, visible_text.unwrap_or_default()),
            FieldSource::Topic => record.topic_content.clone(),
            // An unclassified page has no category, in the index as here.
            FieldSource::Category => match &record.classification_code {
                Some(code) => code.clone(),
                None => continue,
            },
            FieldSource::Language => match &record.lang {
                Some(lang) => lang.clone(),
                None => continue,
            },
        };
        doc.insert(schema.schema.get_field_name(field).to_string(), Value::String(value));
    }
    doc
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |source| ExportError::Io { path: path.display().to_string(), source }
}

fn parse_record(line: &str, path: &Path, number: usize) -> Result<DocView, ExportError> {
    serde_json::from_str(line).map_err(|e| ExportError::Record {
        path: path.display().to_string(),
        line: number,
        message: e.to_string(),
    })
}

/// Writes the documents of the index `kind` of the current build in `dir` to `out`, one JSON
/// object per line. The full-text index needs the build's `inputs`.
pub fn export_jsonl(
    dir: &Path,
    kind: IndexKind,
    inputs: &[PathBuf],
    out: &mut dyn Write,
) -> Result<ExportSummary, ExportError> {
    let build = current_build(dir)?;
    let schema = IndexSchema::load(kind).map_err(IndexError::from)?;
    let path = build.join(DOCVIEW_FILE);
    let reader = BufReader::new(File::open(&path).map_err(io_error(&path))?);
    let mut summary = ExportSummary::default();
    let needs_body = schema.fields.iter().any(|(_, s)| *s == FieldSource::Body);
    if !needs_body {
        for (n, line) in reader.lines().enumerate() {
            let line = line.map_err(io_error(&path))?;
            if line.trim().is_empty() {
                continue;
            }
            let record = parse_record(&line, &path, n + 1)?;
            write_document(out, &document(&schema, &record, None))?;
            summary.documents += 1;
        }
        return Ok(summary);
    }
    if inputs.is_empty() {
        return Err(ExportError::NeedsInputs);
    }
    export_with_bodies(&build, &schema, inputs, out)
}

fn write_document(out: &mut dyn Write, doc: &Map<String, Value>) -> Result<(), ExportError> {
    serde_json::to_writer(&mut *out, doc).map_err(|e| ExportError::Write(e.into()))?;
    out.write_all(b"\n").map_err(ExportError::Write)
}

/// The full-text export: the inputs read again, each kept page's record found by its URL.
fn export_with_bodies(
    build: &Path,
    schema: &IndexSchema,
    inputs: &[PathBuf],
    out: &mut dyn Write,
) -> Result<ExportSummary, ExportError> {
    let path = build.join(DOCVIEW_FILE);
    // URL → (offset, length, line number) of its record.
    let mut offsets: HashMap<String, (u64, usize, usize)> = HashMap::new();
    let mut reader = BufReader::new(File::open(&path).map_err(io_error(&path))?);
    let (mut offset, mut number, mut line) = (0u64, 0usize, String::new());
    loop {
        line.clear();
        let read = reader.read_line(&mut line).map_err(io_error(&path))?;
        if read == 0 {
            break;
        }
        number += 1;
        if !line.trim().is_empty() {
            let id: Identifier = serde_json::from_str(&line).map_err(|e| ExportError::Record {
                path: path.display().to_string(),
                line: number,
                message: e.to_string(),
            })?;
            offsets.entry(id.identifier).or_insert((offset, read, number));
        }
        offset += read as u64;
    }

    // The build's own parameters (its config.toml), so that pages are parsed as it did.
    let mut config = Config::from_toml_file(&build.join("config.toml")).unwrap_or_default();
    // Export reads the pages' visible text only: no model is loaded.
    config.classify.model = crate::config::ClassifierChoice::Off;
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words)?;
    let mut records = File::open(&path).map_err(io_error(&path))?;
    let mut summary = ExportSummary::default();
    let mut batch: Vec<RawPage> = Vec::with_capacity(BATCH);
    let mut failure: Option<ExportError> = None;
    let mut flush = |batch: &mut Vec<RawPage>, summary: &mut ExportSummary| -> Result<(), ExportError> {
        let texts: Vec<String> = batch.par_iter().map(|page| ctx.tag_tree(page).0.visible_text()).collect();
        for (page, text) in batch.iter().zip(texts) {
            let Some((start, length, number)) = offsets.remove(&page.url) else { continue };
            let mut bytes = vec![0u8; length];
            records.seek(SeekFrom::Start(start)).map_err(io_error(&path))?;
            records.read_exact(&mut bytes).map_err(io_error(&path))?;
            let record = parse_record(&String::from_utf8_lossy(&bytes), &path, number)?;
            write_document(out, &document(schema, &record, Some(&text)))?;
            summary.documents += 1;
        }
        batch.clear();
        Ok(())
    };
    for source in Source::of_inputs(inputs)? {
        source.visit_with(&config.input.read_options(), &ByteCounter::default(), &mut |event| {
            if let InputEvent::Page(page) = event {
                batch.push(page);
                if batch.len() >= BATCH
                    && let Err(e) = flush(&mut batch, &mut summary)
                {
                    failure = Some(e);
                    return false;
                }
            }
            true
        })?;
        if let Some(e) = failure.take() {
            return Err(e);
        }
    }
    flush(&mut batch, &mut summary)?;
    summary.missing = offsets.len();
    Ok(summary)
}
