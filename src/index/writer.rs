//! Writing both indexes of a build.

use std::path::Path;

use tantivy::{Index, IndexWriter, TantivyDocument};

use super::{FieldSource, IndexError, IndexKind, IndexSchema, register_tokenizers};

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
    /// The content classification code; empty when the page was not classified.
    pub category: String,
}

impl PageDocument {
    fn value(&self, source: FieldSource) -> String {
        match source {
            FieldSource::Url => self.url.clone(),
            FieldSource::Title => self.title.clone(),
            FieldSource::Keywords => self.keywords.join(" "),
            FieldSource::Abstract => self.summary.clone(),
            FieldSource::Type => self.page_type.clone(),
            FieldSource::Body => self.body.clone(),
            FieldSource::Category => self.category.clone(),
        }
    }
}

struct OneIndex {
    schema: IndexSchema,
    writer: IndexWriter,
}

/// The abstract and the full-text index of one build, being written.
pub struct IndexSet {
    indexes: Vec<OneIndex>,
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
            indexes.push(OneIndex { schema, writer });
        }
        Ok(IndexSet { indexes })
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
            indexes.push(OneIndex { schema, writer });
        }
        Ok(IndexSet { indexes })
    }

    /// Queues a page for both indexes.
    pub fn add(&mut self, page: &PageDocument) -> Result<(), IndexError> {
        for one in &mut self.indexes {
            let mut doc = TantivyDocument::default();
            for &(field, source) in &one.schema.fields {
                // An unclassified page has no category term (an empty term would match
                // `--category ""`).
                if source == FieldSource::Category && page.category.is_empty() {
                    continue;
                }
                doc.add_text(field, page.value(source));
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
