//! Index schemas: JSON files in `index-schema/`, compiled into the binary.

use serde::Deserialize;
use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, SchemaBuilder, TextFieldIndexing, TextOptions,
};

/// Which of the two indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKind {
    Abstract,
    Fulltext,
}

impl IndexKind {
    pub const ALL: [IndexKind; 2] = [IndexKind::Abstract, IndexKind::Fulltext];

    /// The folder name of the index in a build, and its schema's name.
    pub fn name(self) -> &'static str {
        match self {
            IndexKind::Abstract => "abstract",
            IndexKind::Fulltext => "fulltext",
        }
    }

    fn schema_text(self) -> &'static str {
        match self {
            IndexKind::Abstract => include_str!("../../index-schema/abstract.json"),
            IndexKind::Fulltext => include_str!("../../index-schema/fulltext.json"),
        }
    }
}

/// What part of a page a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldSource {
    Url,
    Title,
    Keywords,
    Abstract,
    Type,
    /// The visible text of the raw page.
    Body,
    /// The DocView record's topic content (§4.2): the page's text without its template.
    Topic,
    /// The content classification code (§6), a facet searches filter on.
    Category,
    /// The page's language, a BCP 47 primary subtag: a facet, and the languages a query is
    /// analysed for.
    Language,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum FieldType {
    /// Untokenized (URLs, types).
    String,
    /// Tokenized with `tokenizer`.
    Text,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Record {
    Basic,
    Freq,
    Position,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldSpec {
    name: String,
    source: FieldSource,
    #[serde(rename = "type")]
    kind: FieldType,
    #[serde(default)]
    stored: bool,
    #[serde(default = "yes")]
    indexed: bool,
    #[serde(default)]
    tokenizer: Option<String>,
    #[serde(default)]
    record: Option<Record>,
    #[serde(default)]
    search_boost: Option<f32>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SchemaFile {
    name: String,
    #[allow(dead_code)]
    description: String,
    fields: Vec<FieldSpec>,
}

/// A schema file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    #[error("index schema {name}: {message}")]
    Invalid { name: String, message: String },
}

/// A loaded schema: the Tantivy schema plus what each field holds and how it is searched.
#[derive(Debug, Clone)]
pub struct IndexSchema {
    pub kind: IndexKind,
    pub schema: Schema,
    /// (field, source) for every field.
    pub fields: Vec<(Field, FieldSource)>,
    /// (field, boost) for the fields a query searches.
    pub search_fields: Vec<(Field, f32)>,
    /// The stored URL field (results are identified by it).
    pub url: Field,
    pub title: Option<Field>,
    /// The stored abstract, for snippets.
    pub summary: Option<Field>,
    /// The indexed category code, for `search --category`.
    pub category: Option<Field>,
    /// The indexed and stored language of each page.
    pub language: Option<Field>,
}

impl IndexSchema {
    /// Loads the schema of `kind` from its file.
    pub fn load(kind: IndexKind) -> Result<IndexSchema, SchemaError> {
        Self::parse(kind, kind.schema_text())
    }

    fn parse(kind: IndexKind, text: &str) -> Result<IndexSchema, SchemaError> {
        let invalid = |message: String| SchemaError::Invalid { name: kind.name().to_string(), message };
        let file: SchemaFile = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
        if file.name != kind.name() {
            return Err(invalid(format!("names itself {:?}", file.name)));
        }
        let mut builder = SchemaBuilder::new();
        let mut fields = Vec::new();
        let mut search_fields = Vec::new();
        for spec in &file.fields {
            let field = match spec.kind {
                FieldType::String => {
                    let mut options = if spec.indexed { STRING } else { TextOptions::default() };
                    if spec.stored {
                        options = options | STORED;
                    }
                    builder.add_text_field(&spec.name, options)
                }
                FieldType::Text => {
                    let mut options = TextOptions::default();
                    if spec.indexed {
                        let tokenizer = spec
                            .tokenizer
                            .as_deref()
                            .ok_or_else(|| invalid(format!("text field {} needs a tokenizer", spec.name)))?;
                        let record = match spec.record.unwrap_or(Record::Position) {
                            Record::Basic => IndexRecordOption::Basic,
                            Record::Freq => IndexRecordOption::WithFreqs,
                            Record::Position => IndexRecordOption::WithFreqsAndPositions,
                        };
                        options = options.set_indexing_options(
                            TextFieldIndexing::default().set_tokenizer(tokenizer).set_index_option(record),
                        );
                    }
                    if spec.stored {
                        options = options | STORED;
                    }
                    builder.add_text_field(&spec.name, options)
                }
            };
            if let (Some(boost), true, FieldType::Text) = (spec.search_boost, spec.indexed, spec.kind) {
                search_fields.push((field, boost));
            }
            fields.push((field, spec.source));
        }
        let schema = builder.build();
        let find = |source: FieldSource, stored: bool| {
            file.fields
                .iter()
                .zip(&fields)
                .find(|(spec, (_, s))| *s == source && (!stored || spec.stored))
                .map(|(_, (f, _))| *f)
        };
        let url = find(FieldSource::Url, true).ok_or_else(|| invalid("needs a stored url field".into()))?;
        if search_fields.is_empty() {
            return Err(invalid("no field has a search_boost: nothing to search".into()));
        }
        Ok(IndexSchema {
            kind,
            title: find(FieldSource::Title, true),
            summary: find(FieldSource::Abstract, true),
            category: find(FieldSource::Category, false),
            language: find(FieldSource::Language, true),
            schema,
            fields,
            search_fields,
            url,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_schemas_load() {
        let a = IndexSchema::load(IndexKind::Abstract).unwrap();
        let f = IndexSchema::load(IndexKind::Fulltext).unwrap();
        assert_eq!(a.search_fields.len(), 3);
        assert_eq!(f.search_fields.len(), 3);
        assert!(a.summary.is_some() && f.summary.is_some());
        assert!(f.fields.iter().any(|(_, s)| *s == FieldSource::Body));
        assert!(!a.fields.iter().any(|(_, s)| *s == FieldSource::Body));
        assert!(f.fields.iter().any(|(_, s)| *s == FieldSource::Topic));
        assert!(!a.fields.iter().any(|(_, s)| *s == FieldSource::Topic));
        assert!(a.category.is_some() && f.category.is_some());
        assert!(a.language.is_some() && f.language.is_some());
    }

    #[test]
    fn broken_schemas_are_rejected_with_a_reason() {
        let err =
            IndexSchema::parse(IndexKind::Abstract, r#"{"name":"abstract","description":"","fields":[]}"#).unwrap_err();
        assert!(err.to_string().contains("url"));
        assert!(IndexSchema::parse(IndexKind::Abstract, "{").is_err());
        let no_tokenizer = r#"{"name":"abstract","description":"","fields":[{"name":"u","source":"url","type":"string","stored":true},{"name":"t","source":"title","type":"text","search_boost":1}]}"#;
        assert!(IndexSchema::parse(IndexKind::Abstract, no_tokenizer).unwrap_err().to_string().contains("tokenizer"));
    }
}
