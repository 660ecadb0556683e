//! Writing both indexes of a build.

use std::collections::HashMap;
use std::path::Path;

use tantivy::schema::{Field, FieldType};
use tantivy::tokenizer::{PreTokenizedString, TextAnalyzer};
use tantivy::{Index, IndexWriter, TantivyDocument};

use crate::docview::DocView;

use super::analyzer::{OwnAnalysis, analyze_tokens};
use super::{FieldSource, IndexError, IndexKind, IndexSchema, TOKENIZER_NAME, register_tokenizers};

/// What the indexes hold of one page.
#[derive(Debug, Clone, Default)]
pub struct PageDocument {
    pub url: String,
    pub title: String,
    pub keywords: Vec<String>,
    pub summary: String,
    pub page_type: String,
    /// The visible text of the raw page (the full-text index's body).
    pub body: String,
    /// The record's topic content: the page's text without its template.
    pub topic: String,
    /// The content classification code; empty when the page was not classified.
    pub category: String,
    /// The page's language (BCP 47 primary subtag); empty when it has none.
    pub lang: String,
}

impl PageDocument {
    /// What the indexes hold of a DocView record; `visible_text` is the raw page's visible
    /// text, indexed after the title as the full-text body.
    pub fn of_record(record: DocView, visible_text: &str) -> PageDocument {
        PageDocument {
            body: format!("{}\n{}", record.title, visible_text),
            title: record.title,
            topic: record.topic_content,
            keywords: record.keywords,
            summary: record.summary,
            page_type: record.page_type.as_str().to_string(),
            category: record.classification_code.unwrap_or_default(),
            lang: record.lang.unwrap_or_default(),
            url: record.identifier,
        }
    }

    fn value(&self, source: FieldSource) -> String {
        match source {
            FieldSource::Url => self.url.clone(),
            FieldSource::Title => self.title.clone(),
            FieldSource::Keywords => self.keywords.join(" "),
            FieldSource::Abstract => self.summary.clone(),
            FieldSource::Type => self.page_type.clone(),
            FieldSource::Body => self.body.clone(),
            FieldSource::Topic => self.topic.clone(),
            FieldSource::Category => self.category.clone(),
            FieldSource::Language => self.lang.clone(),
        }
    }
}

struct OneIndex {
    schema: IndexSchema,
    writer: IndexWriter,
    /// The fields the `docview` tokenizer analyses: a page in a language with an analysis of
    /// its own gives them tokens analysed for that language instead (see `index::analyzer`).
    analysed: Vec<Field>,
}

impl OneIndex {
    fn new(schema: IndexSchema, writer: IndexWriter) -> OneIndex {
        let analysed = schema
            .fields
            .iter()
            .map(|&(field, _)| field)
            .filter(|&field| match schema.schema.get_field_entry(field).field_type() {
                FieldType::Str(options) => {
                    options.get_indexing_options().is_some_and(|indexing| indexing.tokenizer() == TOKENIZER_NAME)
                }
                _ => false,
            })
            .collect();
        OneIndex { schema, writer, analysed }
    }
}

/// The abstract and the full-text index of one build, being written.
pub struct IndexSet {
    indexes: Vec<OneIndex>,
    /// The analyzer of each language with an analysis of its own met so far.
    analyzers: HashMap<OwnAnalysis, TextAnalyzer>,
}

impl IndexSet {
    /// Creates both indexes under `dir` (`dir/abstract`, `dir/fulltext`).
    pub fn create(dir: &Path, memory_mib: usize, threads: usize) -> Result<IndexSet, IndexError> {
        let mut indexes = Vec::new();
        for kind in IndexKind::ALL {
            let schema = IndexSchema::load(kind)?;
            let path = dir.join(kind.name());
            let tantivy_error = |source| IndexError::Tantivy { path: path.display().to_string(), source };
            std::fs::create_dir_all(&path)
                .map_err(|source| IndexError::Io { path: path.display().to_string(), source })?;
            let index = Index::create_in_dir(&path, schema.schema.clone()).map_err(tantivy_error)?;
            register_tokenizers(&index);
            let writer = index.writer_with_num_threads(threads, memory_mib * 1024 * 1024).map_err(tantivy_error)?;
            indexes.push(OneIndex::new(schema, writer));
        }
        Ok(IndexSet { indexes, analyzers: HashMap::new() })
    }

    /// Opens both indexes under `dir` to add pages to them (`indexer build --append`).
    pub fn open(dir: &Path, memory_mib: usize, threads: usize) -> Result<IndexSet, IndexError> {
        let mut indexes = Vec::new();
        for kind in IndexKind::ALL {
            let schema = IndexSchema::load(kind)?;
            let path = dir.join(kind.name());
            let tantivy_error = |source| IndexError::Tantivy { path: path.display().to_string(), source };
            let index = Index::open_in_dir(&path).map_err(tantivy_error)?;
            if index.schema() != schema.schema {
                return Err(IndexError::SchemaChanged {
                    path: path.display().to_string(),
                    name: kind.name().to_string(),
                });
            }
            register_tokenizers(&index);
            let writer = index.writer_with_num_threads(threads, memory_mib * 1024 * 1024).map_err(tantivy_error)?;
            indexes.push(OneIndex::new(schema, writer));
        }
        Ok(IndexSet { indexes, analyzers: HashMap::new() })
    }

    /// Queues a page for both indexes.
    pub fn add(&mut self, page: &PageDocument) -> Result<(), IndexError> {
        let own = OwnAnalysis::of(Some(page.lang.as_str()).filter(|l| !l.is_empty()));
        let mut analyzer = own.map(|own| self.analyzers.entry(own).or_insert_with(|| own.analyzer()));
        for one in &mut self.indexes {
            let mut doc = TantivyDocument::default();
            for &(field, source) in &one.schema.fields {
                // An unclassified page has no category term, a page without a language no
                // language term (an empty term would match `--category ""`).
                if matches!(source, FieldSource::Category | FieldSource::Language) && page.value(source).is_empty() {
                    continue;
                }
                let text = page.value(source);
                match analyzer.as_deref_mut().filter(|_| one.analysed.contains(&field)) {
                    // Stored as its text alone: Tantivy keeps no tokens in the document store.
                    Some(analyzer) => {
                        let tokens = analyze_tokens(analyzer, &text);
                        doc.add_pre_tokenized_text(field, PreTokenizedString { text, tokens });
                    }
                    None => doc.add_text(field, text),
                }
            }
            one.writer
                .add_document(doc)
                .map_err(|source| IndexError::Tantivy { path: one.schema.kind.name().to_string(), source })?;
        }
        Ok(())
    }

    /// Commits both indexes and waits for their merges, so the folder is complete on return.
    pub fn commit(self) -> Result<(), IndexError> {
        for mut one in self.indexes {
            let name = one.schema.kind.name().to_string();
            let tantivy_error = |source| IndexError::Tantivy { path: name.clone(), source };
            one.writer.commit().map_err(tantivy_error)?;
            one.writer.wait_merging_threads().map_err(tantivy_error)?;
        }
        Ok(())
    }
}
