//! Search over a published build: BM25 over the abstract index, the full-text index, or
//! both fused (the tiered search), with pseudo-relevance feedback (RM3, `feedback`; the
//! default search's, and an option of the single-index searches).
//!
//! Queries are analyzed with the searched fields' analyzer (our tokenizer, so Chinese is
//! segmented by jieba) and turned into a disjunction of boosted BM25 term queries whose k1
//! and b are settings ([`bm25`]). We do not use Tantivy's query parser: it turns an unquoted
//! Chinese word into a phrase query, and its syntax errors are no use to a search box. Any
//! text is a valid query.
//!
//! The tiered search keeps the paper's hierarchy (§7.3: the abstract index is small and
//! precise, the full-text index has the recall) but ranks with both: the two lists are fused
//! ([`fusion`]). Feedback ([`feedback`]) expands the query with the words of the top pages'
//! DocView records (RM3). Every parameter is in [`SearchSettings`].
//!
//! Several shard builds are searched together by [`Shards`], scored with collection
//! statistics summed over the shards ([`Bm25Statistics`]).

mod bm25;
mod bm25f;
mod feedback;
mod fusion;
mod settings;
mod shards;
mod statistics;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::OnceLock;

use serde::Serialize;
use tantivy::collector::TopDocs;
use tantivy::directory::MmapDirectory;
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Directory, DocAddress, Index, IndexReader, ReloadPolicy, Searcher, TantivyDocument, Term};

use crate::index::{
    FieldSource, IndexError, IndexKind, IndexSchema, TERM_ANALYSIS, analyze_tokens, analyzer_for, current_build,
    describe_term_analysis, has_query_analysis, query_analyzer_for, read_term_analysis, read_token_totals,
    register_tokenizers,
};
use crate::text::{script_of_text, scripts_of, split_sentences};

pub use bm25::{Bm25Params, Bm25TermQuery};
pub use bm25f::Bm25fTermQuery;
pub use feedback::{clarity, expand_query};
pub use fusion::{LinearPage, fuse, linear_pages, rank_linear};
pub use settings::{
    DEFAULT_SETTINGS, FeedbackIndex, FeedbackSelection, FeedbackSettings, FeedbackText, FieldCombination, FusionMethod,
    FusionSettings, IndexSettings, LinearFusion, QuerySettings, SearchSettings, SettingsError,
};
pub use shards::Shards;
pub use statistics::Bm25Statistics;

/// Which index answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum IndexChoice {
    Abstract,
    Fulltext,
    /// The paper's hierarchical index (§7.3) with both indexes' evidence: the hits of the
    /// abstract and the full-text index, fused as [`FusionSettings`] say.
    Tiered,
}

impl IndexChoice {
    pub const NAMES: &'static [&'static str] = &["abstract", "fulltext", "tiered"];

    pub fn from_name(name: &str) -> Option<IndexChoice> {
        match name {
            "abstract" => Some(IndexChoice::Abstract),
            "fulltext" => Some(IndexChoice::Fulltext),
            "tiered" => Some(IndexChoice::Tiered),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            IndexChoice::Abstract => "abstract",
            IndexChoice::Fulltext => "fulltext",
            IndexChoice::Tiered => "tiered",
        }
    }
}

/// What a search asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchRequest<'a> {
    pub choice: IndexChoice,
    /// Number of results.
    pub limit: usize,
    /// Only pages of this content category.
    pub category: Option<&'a str>,
    /// Expand the query by pseudo-relevance feedback (RM3) first.
    pub feedback: bool,
}

impl SearchRequest<'_> {
    /// `limit` results of `choice`, no category, no feedback.
    pub fn new(choice: IndexChoice, limit: usize) -> SearchRequest<'static> {
        SearchRequest { choice, limit, category: None, feedback: false }
    }
}

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    pub rank: usize,
    pub score: f32,
    pub url: String,
    pub title: String,
    pub snippet: String,
    /// The index whose record is shown (`abstract` or `fulltext`; a tiered hit found by
    /// both shows the abstract index's).
    pub index: &'static str,
    /// The page's content classification code, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The build folder (shard) the page is in, when several are searched together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

/// A page one index ranked, before it is shown: enough to fuse lists and to read the page's
/// stored fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub url: String,
    pub score: f32,
    pub kind: IndexKind,
    /// The shard that holds it (0 for a single build).
    pub shard: usize,
    pub address: DocAddress,
}

/// A query's analyzed terms, each with its weight.
pub type WeightedTerms = Vec<(String, f32)>;

/// A search failure.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error("search failed: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error("{dir} is given twice: its pages would count twice in the statistics; give each shard once")]
    SameShardTwice { dir: String },
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error("search settings: the {index} index has no searched field {field:?} (its searched fields: {known})")]
    UnknownField { index: &'static str, field: String, known: String },
    #[error(
        "search settings: feedback.words_from = \"topic\" reads the topic content the full-text index stores, and \
         this build's does not (built before it was stored): rebuild, or use words_from = \"record\""
    )]
    TopicNotStored,
}

struct OpenIndex {
    schema: IndexSchema,
    index: Index,
    reader: IndexReader,
    /// Exact token totals by field, for a build whose pages were deleted after indexing
    /// (empty otherwise: Tantivy's own totals are exact).
    token_totals: HashMap<Field, u64>,
    /// Every document's URL by segment and document id, once [`Collection::preload_urls`]
    /// has read them (evaluation ranks thousands of pages per query).
    urls: OnceLock<Vec<Vec<String>>>,
    /// Pages by language, for the languages with an analyzer of their own (see
    /// `index::analyzer`), and all pages: a query is analysed for the collection's languages.
    languages: LanguageCounts,
}

/// Pages by language (those with an analyzer of their own) and pages in all.
#[derive(Debug, Clone, Default)]
pub(crate) struct LanguageCounts {
    pages: std::collections::BTreeMap<String, u64>,
    total: u64,
}

impl LanguageCounts {
    /// Counts from the language field of an index's pages.
    fn read(reader: &IndexReader, schema: &IndexSchema) -> Result<LanguageCounts, SearchError> {
        let mut counts = LanguageCounts { total: reader.searcher().num_docs(), ..LanguageCounts::default() };
        let Some(field) = schema.language else { return Ok(counts) };
        for segment in reader.searcher().segment_readers() {
            let inverted = segment.inverted_index(field)?;
            let mut terms = inverted.terms().stream().map_err(tantivy::TantivyError::from)?;
            while terms.advance() {
                if let Ok(lang) = std::str::from_utf8(terms.key())
                    && has_query_analysis(lang)
                {
                    *counts.pages.entry(lang.to_string()).or_default() += u64::from(terms.value().doc_freq);
                }
            }
        }
        Ok(counts)
    }

    /// The counts of several shards together.
    pub(crate) fn add(&mut self, other: &LanguageCounts) {
        self.total += other.total;
        for (lang, pages) in &other.pages {
            *self.pages.entry(lang.clone()).or_default() += pages;
        }
    }

    /// The languages a query is analysed for besides the registered analysis: those of at
    /// least [`QUERY_LANGUAGE_SHARE`] of the pages (the main languages), and the other
    /// languages of the collection written in the query's script when no main language is.
    /// The share keeps out a main language's script-mates: a few pages identified as Danish in
    /// an English collection would add Danish stems of every English query word, which match
    /// unrelated English words. A query in a script no main language writes (Greek, Cyrillic,
    /// Arabic in a mostly English crawl) has no such words to meet, and without its language's
    /// analysis it would find none of the pages written in it: their terms are stems.
    fn query_languages(&self, text: &str) -> Vec<&str> {
        let main: Vec<&str> = self
            .pages
            .iter()
            .filter(|&(_, &pages)| pages as f64 >= QUERY_LANGUAGE_SHARE * self.total as f64)
            .map(|(lang, _)| lang.as_str())
            .collect();
        let Some(script) = script_of_text(text) else { return main };
        // The pages of the registered analysis (English, and the languages without their own
        // index analysis) count as a main language written in Latin script.
        let own_index_analysis =
            self.pages.iter().filter(|(lang, _)| has_query_analysis(lang)).map(|(_, &pages)| pages);
        let registered = self.total.saturating_sub(own_index_analysis.sum::<u64>());
        let registered_is_main = registered as f64 >= QUERY_LANGUAGE_SHARE * self.total as f64;
        if (registered_is_main && script == whatlang::Script::Latin)
            || main.iter().any(|lang| scripts_of(lang).contains(&script))
        {
            return main;
        }
        let minor = self.pages.keys().map(String::as_str).filter(|lang| !main.contains(lang));
        let of_script: Vec<&str> = minor.filter(|lang| scripts_of(lang).contains(&script)).collect();
        main.into_iter().chain(of_script).collect()
    }

    /// A query: [`LanguageCounts::analyze`], then the analysis of each other language of the
    /// collection written in the query's script, its new terms each searched on the pages of
    /// that language only ([`language_term`]). The main languages' analyses meet every page,
    /// so a minority language's stems are kept off them: a page identified as Turkish among
    /// English pages is found by the inflected word of its title (`kütüphanesi`, indexed
    /// under its Turkish stem), and an English page is not found by the Turkish stem of an
    /// English word. Feedback reads pages with [`LanguageCounts::analyze`]: a word of a page
    /// is a word of that page's language.
    pub(crate) fn analyze_query(&self, text: &str) -> Vec<String> {
        let mut out = self.analyze(text);
        let Some(script) = script_of_text(text) else { return out };
        let analysed = self.query_languages(text);
        let mut seen: HashSet<String> = out.iter().cloned().collect();
        for lang in self.pages.keys().map(String::as_str).filter(|lang| !analysed.contains(lang)) {
            if !scripts_of(lang).contains(&script) {
                continue;
            }
            let Some(mut analyzer) = query_analyzer_for(lang) else { continue };
            for token in analyze_tokens(&mut analyzer, text) {
                if !seen.contains(&token.text) {
                    let term = language_term(lang, &token.text);
                    if seen.insert(term.clone()) {
                        out.push(term);
                    }
                }
            }
        }
        out
    }

    /// `text` analysed as the registered analyzer does, then for each query language: the
    /// tokens of every analysis, each new one once after the first analysis's (repeats of those
    /// kept).
    pub(crate) fn analyze(&self, text: &str) -> Vec<String> {
        let mut out: Vec<String> = analyze_tokens(&mut analyzer_for(None), text).into_iter().map(|t| t.text).collect();
        let mut seen: HashSet<String> = out.iter().cloned().collect();
        for lang in self.query_languages(text) {
            let Some(mut analyzer) = query_analyzer_for(lang) else { continue };
            for token in analyze_tokens(&mut analyzer, text) {
                if seen.insert(token.text.clone()) {
                    out.push(token.text);
                }
            }
        }
        out
    }
}

/// The share of a collection's pages a language needs for queries to be analysed for it too.
const QUERY_LANGUAGE_SHARE: f64 = 0.1;

/// What joins a language and a term searched on that language's pages only, `LANG␟TERM`: the
/// unit separator, a control character, which no analysed term holds (the tokenizer keeps
/// words, and UAX #29 breaks at a control character).
const LANGUAGE_MARK: char = '\u{1F}';

/// A query term searched on the pages of `lang` only ([`LanguageCounts::analyze_query`]).
fn language_term(lang: &str, term: &str) -> String {
    format!("{lang}{LANGUAGE_MARK}{term}")
}

/// The language a query term is kept to, if any, and the term.
fn split_language_term(term: &str) -> (Option<&str>, &str) {
    match term.split_once(LANGUAGE_MARK) {
        Some((lang, term)) => (Some(lang), term),
        None => (None, term),
    }
}

impl OpenIndex {
    fn open(
        build: &Path,
        kind: IndexKind,
        wrap: &dyn Fn(IndexKind, Box<dyn Directory>) -> Box<dyn Directory>,
    ) -> Result<OpenIndex, SearchError> {
        let path = build.join(kind.name());
        let tantivy_error = |source| IndexError::Tantivy { path: path.display().to_string(), source };
        let directory = MmapDirectory::open(&path).map_err(|e| tantivy_error(e.into()))?;
        let index = Index::open(wrap(kind, Box::new(directory))).map_err(tantivy_error)?;
        register_tokenizers(&index);
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let schema = IndexSchema::load(kind).map_err(IndexError::from)?;
        let token_totals = read_token_totals(build, &index, &schema);
        let languages = LanguageCounts::read(&reader, &schema)?;
        Ok(OpenIndex { schema, index, reader, token_totals, urls: OnceLock::new(), languages })
    }

    /// The analyzer of the searched fields (the schema gives them one tokenizer).
    fn analyzer(&self) -> Result<TextAnalyzer, SearchError> {
        Ok(self.index.tokenizer_for_field(self.schema.search_fields[0].0)?)
    }

    /// The analyzed tokens of a text, repeats kept, for every language of the collection.
    fn analyze(&self, text: &str) -> Result<Vec<String>, SearchError> {
        Ok(self.languages.analyze(text))
    }

    /// The searched fields and their boosts: the schema's, replaced by the settings' where
    /// they name a field.
    fn boosted_fields(&self, settings: &IndexSettings) -> Result<Vec<(Field, f32)>, SearchError> {
        let name = |field: Field| self.schema.schema.get_field_name(field).to_string();
        for given in settings.boosts.keys() {
            if !self.schema.search_fields.iter().any(|&(f, _)| name(f) == *given) {
                let known: Vec<String> = self.schema.search_fields.iter().map(|&(f, _)| name(f)).collect();
                return Err(SearchError::UnknownField {
                    index: self.schema.kind.name(),
                    field: given.clone(),
                    known: known.join(", "),
                });
            }
        }
        Ok(self
            .schema
            .search_fields
            .iter()
            .map(|&(field, boost)| (field, settings.boosts.get(&name(field)).copied().unwrap_or(boost)))
            .collect())
    }

    /// The weighted terms in every searched field, boosted; `None` if there is no term.
    fn query(&self, terms: &[(String, f32)], settings: &IndexSettings) -> Result<Option<BooleanQuery>, SearchError> {
        let params = settings.bm25();
        let fields: Vec<(Field, f32)> =
            self.boosted_fields(settings)?.into_iter().filter(|&(_, boost)| boost > 0.0).collect();
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        // A term kept to one language's pages must meet the language field too, which adds
        // nothing to the score; without a language field there are no such pages.
        let mut push = |lang: Option<&str>, query: Box<dyn Query>| match (lang, self.schema.language) {
            (None, _) => clauses.push((Occur::Should, query)),
            (Some(lang), Some(field)) => {
                let facet = TermQuery::new(Term::from_field_text(field, lang), IndexRecordOption::Basic);
                let on_its_pages: Box<dyn Query> = Box::new(BooleanQuery::new(vec![
                    (Occur::Must, query),
                    (Occur::Must, Box::new(ConstScoreQuery::new(Box::new(facet), 0.0))),
                ]));
                clauses.push((Occur::Should, on_its_pages));
            }
            (Some(_), None) => {}
        };
        match settings.fields {
            FieldCombination::PerField => {
                for &(field, boost) in &fields {
                    for (text, weight) in terms {
                        let (lang, text) = split_language_term(text);
                        let term = Term::from_field_text(field, text);
                        push(lang, Box::new(Bm25TermQuery::new(term, boost * weight, params)));
                    }
                }
            }
            FieldCombination::Bm25f if !fields.is_empty() => {
                for (text, weight) in terms {
                    let (lang, text) = split_language_term(text);
                    let per_field = fields.iter().map(|&(f, boost)| (Term::from_field_text(f, text), boost)).collect();
                    push(lang, Box::new(Bm25fTermQuery::new(per_field, *weight, params)));
                }
            }
            FieldCombination::Bm25f => {}
        }
        Ok((!clauses.is_empty()).then(|| BooleanQuery::new(clauses)))
    }

    /// The query, restricted to one content category when `category` is given; `None` when
    /// nothing can match (no term, or the index has no category).
    fn full_query(
        &self,
        terms: &[(String, f32)],
        settings: &IndexSettings,
        category: Option<&str>,
    ) -> Result<Option<Box<dyn Query>>, SearchError> {
        let Some(text_query) = self.query(terms, settings)? else {
            return Ok(None);
        };
        // A category facet: the text query must match and the category term must be there.
        Ok(match category {
            None => Some(Box::new(text_query)),
            Some(code) => {
                let Some(field) = self.schema.category else { return Ok(None) };
                let facet = TermQuery::new(Term::from_field_text(field, code), IndexRecordOption::Basic);
                Some(Box::new(BooleanQuery::new(vec![
                    (Occur::Must, Box::new(text_query)),
                    (Occur::Must, Box::new(facet)),
                ])))
            }
        })
    }

    /// The top `limit` pages, scored with `statistics` (summed over shards) or, without
    /// them, with this index's own.
    fn rank(
        &self,
        terms: &[(String, f32)],
        settings: &IndexSettings,
        limit: usize,
        category: Option<&str>,
        statistics: Option<&Bm25Statistics>,
        shard: usize,
    ) -> Result<Vec<Candidate>, SearchError> {
        let Some(query) = self.full_query(terms, settings, category)? else {
            return Ok(Vec::new());
        };
        let searcher = self.reader.searcher();
        let collector = TopDocs::with_limit(limit.max(1)).order_by_score();
        let own;
        let statistics = match statistics {
            None if !self.token_totals.is_empty() => {
                own = Bm25Statistics::of_shard(&searcher, query.as_ref(), &self.token_totals)?;
                Some(&own)
            }
            given => given,
        };
        let top = match statistics {
            Some(statistics) => searcher.search_with_statistics_provider(&query, &collector, statistics)?,
            None => searcher.search(&query, &collector)?,
        };
        top.into_iter()
            .map(|(score, address)| {
                Ok(Candidate { url: self.url(&searcher, address)?, score, kind: self.schema.kind, shard, address })
            })
            .collect()
    }

    fn url(&self, searcher: &Searcher, address: DocAddress) -> Result<String, SearchError> {
        if let Some(url) = self
            .urls
            .get()
            .and_then(|urls| urls.get(address.segment_ord as usize))
            .and_then(|segment| segment.get(address.doc_id as usize))
        {
            return Ok(url.clone());
        }
        let doc: TantivyDocument = searcher.doc(address)?;
        Ok(stored_text(&doc, Some(self.schema.url)))
    }

    /// Reads every document's URL once (see `urls`).
    fn preload_urls(&self) -> Result<(), SearchError> {
        if self.urls.get().is_some() {
            return Ok(());
        }
        let searcher = self.reader.searcher();
        let mut all = Vec::new();
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            let mut urls = Vec::with_capacity(segment.max_doc() as usize);
            for doc_id in 0..segment.max_doc() {
                let doc: TantivyDocument = searcher.doc(DocAddress::new(ord as u32, doc_id))?;
                urls.push(stored_text(&doc, Some(self.schema.url)));
            }
            all.push(urls);
        }
        let _ = self.urls.set(all);
        Ok(())
    }

    /// The number of pages, and for each field feedback reads its words from (the searched
    /// fields of a record; the topic content) the number of pages that have `term` there.
    fn page_counts(&self, from: FeedbackText, term: &str) -> Result<(u64, Vec<u64>), SearchError> {
        let searcher = self.reader.searcher();
        let mut counts = Vec::new();
        for field in self.feedback_fields(from) {
            counts.push(searcher.doc_freq(&Term::from_field_text(field, term))?);
        }
        Ok((searcher.num_docs(), counts))
    }

    /// The indexed fields that hold the text feedback reads.
    fn feedback_fields(&self, from: FeedbackText) -> Vec<Field> {
        match from {
            FeedbackText::Record => self.schema.search_fields.iter().map(|&(field, _)| field).collect(),
            FeedbackText::Topic => {
                self.schema.fields.iter().filter(|(_, source)| *source == FieldSource::Topic).map(|&(f, _)| f).collect()
            }
        }
    }

    /// The stored topic content of a page (what feedback reads with `words_from = "topic"`).
    fn topic_text(&self, address: DocAddress) -> Result<String, SearchError> {
        let fields = self.feedback_fields(FeedbackText::Topic);
        let schema = self.index.schema();
        if fields.iter().any(|&field| !schema.get_field_entry(field).is_stored()) {
            return Err(SearchError::TopicNotStored);
        }
        let doc: TantivyDocument = self.reader.searcher().doc(address)?;
        let mut text = String::new();
        for value in fields.into_iter().flat_map(|field| doc.get_all(field)) {
            if let Some(value) = value.as_str() {
                text.push_str(value);
                text.push('\n');
            }
        }
        Ok(text)
    }

    /// The page of this index with the URL (the indexes of a build hold the same pages, each
    /// once).
    fn address_of(&self, url: &str) -> Result<Option<DocAddress>, SearchError> {
        let query = TermQuery::new(Term::from_field_text(self.schema.url, url), IndexRecordOption::Basic);
        let top = self.reader.searcher().search(&query, &TopDocs::with_limit(1).order_by_score())?;
        Ok(top.first().map(|&(_, address)| address))
    }

    /// The stored DocView text of a page (title, keywords, abstract: what feedback reads).
    fn record_text(&self, address: DocAddress) -> Result<String, SearchError> {
        let doc: TantivyDocument = self.reader.searcher().doc(address)?;
        let mut text = String::new();
        for &(field, source) in &self.schema.fields {
            if matches!(source, FieldSource::Title | FieldSource::Keywords | FieldSource::Abstract) {
                for value in doc.get_all(field) {
                    if let Some(value) = value.as_str() {
                        text.push_str(value);
                        text.push('\n');
                    }
                }
            }
        }
        Ok(text)
    }

    /// The result shown for a candidate of this index.
    fn hit(&self, candidate: &Candidate, terms: &HashSet<String>) -> Result<SearchHit, SearchError> {
        let doc: TantivyDocument = self.reader.searcher().doc(candidate.address)?;
        let summary = stored_text(&doc, self.schema.summary);
        Ok(SearchHit {
            rank: 0,
            score: candidate.score,
            url: candidate.url.clone(),
            title: stored_text(&doc, self.schema.title),
            snippet: self.snippet(&summary, terms)?,
            index: self.schema.kind.name(),
            category: self.schema.category.and_then(|f| doc.get_first(f)).and_then(|v| v.as_str().map(str::to_string)),
            shard: None,
        })
    }

    /// The abstract sentence with the most query terms, shortened.
    fn snippet(&self, summary: &str, terms: &HashSet<String>) -> Result<String, SearchError> {
        let mut best = ("", 0usize);
        if !terms.is_empty() {
            let mut analyzer = self.analyzer()?;
            for sentence in split_sentences(summary) {
                let mut stream = analyzer.token_stream(sentence);
                let mut matches = 0;
                while stream.advance() {
                    matches += usize::from(terms.contains(&stream.token().text));
                }
                if matches > best.1 {
                    best = (sentence, matches);
                }
            }
        }
        let text = if best.1 > 0 { best.0 } else { summary };
        Ok(shorten(text, 240))
    }
}

fn stored_text(doc: &TantivyDocument, field: Option<tantivy::schema::Field>) -> String {
    field.and_then(|f| doc.get_first(f)).and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn shorten(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_string(),
        Some((cut, _)) => {
            let cut = text[..cut].rfind(' ').filter(|&i| i > cut / 2).unwrap_or(cut);
            format!("{}…", &text[..cut])
        }
    }
}

/// What [`Ranker::rank`] is asked for: the top `limit` pages of the `kind` index for weighted
/// `terms`, among the pages of one content category when `category` is given.
#[derive(Debug, Clone, Copy)]
pub struct IndexRanking<'a> {
    pub kind: IndexKind,
    pub terms: &'a [(String, f32)],
    pub limit: usize,
    pub category: Option<&'a str>,
}

/// How one build ([`Collection`]), or a set of shard builds ([`Shards`]), answers the steps of
/// a search; the provided methods (with [`search_with`] and [`rank_with`]) put the steps
/// together, the same way for both.
pub trait Ranker {
    fn settings(&self) -> &SearchSettings;
    /// The analyzed tokens of a text (repeats kept).
    fn analyze(&self, text: &str) -> Result<Vec<String>, SearchError>;
    /// The analyzed tokens of a query (repeats kept): [`Ranker::analyze`]'s, and terms kept to
    /// the pages of a language ([`LanguageCounts::analyze_query`]).
    fn analyze_query(&self, query: &str) -> Result<Vec<String>, SearchError> {
        self.analyze(query)
    }
    /// The top pages of one index for weighted terms.
    fn rank(&self, request: IndexRanking) -> Result<Vec<Candidate>, SearchError>;
    /// The stored text of a candidate's page that feedback reads: its DocView record, or its
    /// topic content.
    fn feedback_text(&self, candidate: &Candidate, from: FeedbackText) -> Result<String, SearchError>;
    /// The pages of the index that holds the text feedback reads, and how many of them have
    /// the word in each of its fields that hold that text.
    fn page_counts(&self, from: FeedbackText, term: &str) -> Result<(u64, Vec<u64>), SearchError>;
    /// The result shown for a candidate.
    fn hit(&self, candidate: &Candidate, terms: &HashSet<String>) -> Result<SearchHit, SearchError>;

    /// The share of the pages whose text feedback reads has the word (the record: the largest
    /// share over the abstract index's searched fields).
    fn page_share(&self, from: FeedbackText, term: &str) -> Result<f64, SearchError> {
        let (pages, counts) = self.page_counts(from, term)?;
        Ok(counts.into_iter().max().map_or(0.0, |n| n as f64 / pages.max(1) as f64))
    }

    /// The terms `query` is searched for (analysed as the pages were): none when it is empty
    /// or only stop words.
    fn query_terms(&self, query: &str) -> Result<Vec<String>, SearchError> {
        self.analyze_query(query)
    }

    /// The results of a search, ranked 1..=limit.
    fn search_request(&self, query: &str, request: &SearchRequest) -> Result<Vec<SearchHit>, SearchError>
    where
        Self: Sized,
    {
        search_with(self, query, request)
    }
}

/// The query's distinct terms, each of weight 1.
fn unique_terms(tokens: &[String]) -> WeightedTerms {
    let mut seen = HashSet::new();
    tokens.iter().filter(|t| seen.insert(t.as_str())).map(|t| (t.clone(), 1.0)).collect()
}

/// The query's distinct terms in order of first appearance, each weighing as
/// [`QuerySettings::term_weight`] says for the times the query has it.
fn query_terms(tokens: &[String], settings: &QuerySettings) -> WeightedTerms {
    let mut counts: HashMap<&str, f32> = HashMap::new();
    for token in tokens {
        *counts.entry(token.as_str()).or_default() += 1.0;
    }
    let mut terms = unique_terms(tokens);
    for (term, weight) in &mut terms {
        *weight = settings.term_weight(counts[term.as_str()]);
    }
    terms
}

/// The ranked pages of a search (without snippets or stored fields, except the text that
/// feedback reads).
pub(crate) fn rank_with(
    ranker: &impl Ranker,
    query: &str,
    request: &SearchRequest,
) -> Result<Vec<Candidate>, SearchError> {
    let tokens = ranker.analyze_query(query)?;
    let terms = query_terms(&tokens, &ranker.settings().query);
    let settings = &ranker.settings().feedback;
    let ranking = |abstract_terms: &[(String, f32)], fulltext_terms: &[(String, f32)], choice, limit| {
        rank_choice(ranker, QueryTerms { abstract_terms, fulltext_terms }, choice, limit, request.category)
    };
    // Original weight 1 leaves the relevance model no share, and an expansion of the full text
    // alone leaves the abstract search's query as it is: the query unchanged.
    let expanded_nowhere = settings.expands == FeedbackIndex::Fulltext && request.choice == IndexChoice::Abstract;
    if !(request.feedback && !terms.is_empty() && settings.original_weight < 1.0) || expanded_nowhere {
        return ranking(&terms, &terms, request.choice, request.limit);
    }
    if let Some(linear) = settings.linear {
        let lists = linear_lists(ranker, &tokens, &terms, request)?;
        let [a, b, c, d] = &lists;
        return Ok(rank_linear(&linear_pages([a, b, c, d]), linear.weights(), request.limit));
    }
    let selective = settings.selective == FeedbackSelection::Clarity;
    let fused = settings.expanded_weight < 1.0;
    // The feedback documents come from a full-text pass of their own unless the search is the
    // full text's.
    let own_source = settings.documents_from == FeedbackIndex::Fulltext && request.choice != IndexChoice::Fulltext;
    // The searched first pass is ranked only when something reads it: a selective search may
    // answer with it, a fused one answers with part of it (both ranked as deep as asked), and
    // otherwise it gives the feedback documents.
    let first = if selective || fused {
        Some(ranking(&terms, &terms, request.choice, request.limit.max(settings.docs))?)
    } else if own_source {
        None
    } else {
        Some(ranking(&terms, &terms, request.choice, settings.docs)?)
    };
    let source = if own_source { Some(ranking(&terms, &terms, IndexChoice::Fulltext, settings.docs)?) } else { None };
    let feedback_pages = source.as_deref().or(first.as_deref()).unwrap_or_default();
    let mut words = FeedbackWords::new(settings.words_from);
    let documents = words.of(ranker, &feedback_pages[..feedback_pages.len().min(settings.docs)], settings)?;
    let expanded = expand_query(&tokens, &documents, settings);
    let abstract_terms = if settings.expands == FeedbackIndex::Fulltext { &terms } else { &expanded };
    let second = ranking(abstract_terms, &expanded, request.choice, request.limit)?;
    let mut first = first.unwrap_or_default();
    if selective {
        // Clarity compares the top pages of the two answers (the original ranking's are the
        // feedback documents unless those came from another ranking).
        let first_documents = match source {
            None => documents,
            Some(_) => words.of(ranker, &first[..first.len().min(settings.docs)], settings)?,
        };
        let second_documents = words.of(ranker, &second[..second.len().min(settings.docs)], settings)?;
        let before = clarity(&first_documents, |w| words.frequency(ranker, w))?;
        let after = clarity(&second_documents, |w| words.frequency(ranker, w))?;
        if after < before {
            first.truncate(request.limit);
            return Ok(first);
        }
    }
    if fused {
        let weights = FusionSettings {
            method: FusionMethod::CombsumZ,
            abstract_weight: 1.0 - settings.expanded_weight,
            rrf_k: 0.0,
            depth: request.limit,
        };
        return Ok(fuse(&first, &second, &weights, request.limit));
    }
    Ok(second)
}

/// The four rankings of a linear fusion ([`LinearFusion`]): the abstract index's and the full
/// text's of the original query, then of the expanded one, each as deep as the tiered search
/// ranks; a ranking of an index the search does not read is empty. The feedback documents are
/// the top pages of the full text's ranking of the original query, or of the searched one
/// (the tiered search: its two rankings fused as the tiered settings say), as
/// `documents_from` says.
fn linear_lists(
    ranker: &impl Ranker,
    tokens: &[String],
    terms: &[(String, f32)],
    request: &SearchRequest,
) -> Result<[Vec<Candidate>; 4], SearchError> {
    let all = ranker.settings();
    let settings = &all.feedback;
    let depth = request.limit.max(all.tiered.depth);
    let reads = |kind| match request.choice {
        IndexChoice::Abstract => kind == IndexKind::Abstract,
        IndexChoice::Fulltext => kind == IndexKind::Fulltext,
        IndexChoice::Tiered => true,
    };
    let rank = |kind, terms: &[(String, f32)], limit| {
        if reads(kind) {
            ranker.rank(IndexRanking { kind, terms, limit, category: request.category })
        } else {
            Ok(Vec::new())
        }
    };
    let abstract_original = rank(IndexKind::Abstract, terms, depth)?;
    let fulltext_original = rank(IndexKind::Fulltext, terms, depth)?;
    let from_fulltext = settings.documents_from == FeedbackIndex::Fulltext;
    let source = match request.choice {
        IndexChoice::Abstract if from_fulltext => ranker.rank(IndexRanking {
            kind: IndexKind::Fulltext,
            terms,
            limit: settings.docs,
            category: request.category,
        })?,
        IndexChoice::Abstract => abstract_original.clone(),
        IndexChoice::Fulltext => fulltext_original.clone(),
        IndexChoice::Tiered if from_fulltext => fulltext_original.clone(),
        IndexChoice::Tiered => fuse(&abstract_original, &fulltext_original, &all.tiered, settings.docs),
    };
    let mut words = FeedbackWords::new(settings.words_from);
    let documents = words.of(ranker, &source[..source.len().min(settings.docs)], settings)?;
    let expanded = expand_query(tokens, &documents, settings);
    // The abstract index keeps the original query when only the full text is expanded.
    let abstract_expanded = if settings.expands == FeedbackIndex::Fulltext {
        abstract_original.clone()
    } else {
        rank(IndexKind::Abstract, &expanded, depth)?
    };
    let fulltext_expanded = rank(IndexKind::Fulltext, &expanded, depth)?;
    Ok([abstract_original, fulltext_original, abstract_expanded, fulltext_expanded])
}

/// The four rankings of a linear fusion for `query` (see [`LinearFusion`]), as the search
/// of `request` with feedback reads them; `None` without feedback for the query (feedback not
/// asked, no query word, or the settings' original weight 1).
pub(crate) fn linear_rankings(
    ranker: &impl Ranker,
    query: &str,
    request: &SearchRequest,
) -> Result<Option<[Vec<Candidate>; 4]>, SearchError> {
    let tokens = ranker.analyze_query(query)?;
    let terms = query_terms(&tokens, &ranker.settings().query);
    let settings = &ranker.settings().feedback;
    if !(request.feedback && !terms.is_empty() && settings.original_weight < 1.0) {
        return Ok(None);
    }
    linear_lists(ranker, &tokens, &terms, request).map(Some)
}

/// The analysed words of feedback pages' text (records or topic content), with the page
/// share and page frequency of each word looked up once per search.
struct FeedbackWords {
    from: FeedbackText,
    /// Word → whether it is on at most `max_page_share` of the pages.
    kept: HashMap<String, bool>,
    /// Word → pages whose record has it (at least 1).
    pages: HashMap<String, f64>,
}

impl FeedbackWords {
    fn new(from: FeedbackText) -> FeedbackWords {
        FeedbackWords { from, kept: HashMap::new(), pages: HashMap::new() }
    }

    /// Each candidate's first-pass score and the words of its text (those on at most
    /// `max_page_share` of the pages).
    fn of(
        &mut self,
        ranker: &impl Ranker,
        candidates: &[Candidate],
        settings: &FeedbackSettings,
    ) -> Result<Vec<(f32, Vec<String>)>, SearchError> {
        let mut documents = Vec::with_capacity(candidates.len());
        for candidate in candidates {
            let mut words = ranker.analyze(&ranker.feedback_text(candidate, self.from)?)?;
            if settings.max_page_share < 1.0 {
                let mut kept = Vec::with_capacity(words.len());
                for word in words {
                    let keep = match self.kept.get(&word) {
                        Some(&keep) => keep,
                        None => {
                            let keep = ranker.page_share(self.from, &word)? <= f64::from(settings.max_page_share);
                            self.kept.insert(word.clone(), keep);
                            keep
                        }
                    };
                    if keep {
                        kept.push(word);
                    }
                }
                words = kept;
            }
            documents.push((candidate.score, words));
        }
        Ok(documents)
    }

    /// The pages whose text has `word` (a record: the most over the searched fields; at least
    /// 1): the collection model of clarity, up to a factor.
    fn frequency(&mut self, ranker: &impl Ranker, word: &str) -> Result<f64, SearchError> {
        if let Some(&pages) = self.pages.get(word) {
            return Ok(pages);
        }
        let (_, counts) = ranker.page_counts(self.from, word)?;
        let pages = counts.into_iter().max().unwrap_or(0).max(1) as f64;
        self.pages.insert(word.to_string(), pages);
        Ok(pages)
    }
}

/// The results of a search, ranked 1..=limit.
pub(crate) fn search_with(
    ranker: &impl Ranker,
    query: &str,
    request: &SearchRequest,
) -> Result<Vec<SearchHit>, SearchError> {
    let terms: HashSet<String> = ranker.analyze(query)?.into_iter().collect();
    let mut hits = Vec::new();
    for (i, candidate) in rank_with(ranker, query, request)?.iter().enumerate() {
        let mut hit = ranker.hit(candidate, &terms)?;
        hit.rank = i + 1;
        hits.push(hit);
    }
    Ok(hits)
}

/// The weighted terms each index is searched for (the same but when feedback expands one
/// index only).
#[derive(Clone, Copy)]
struct QueryTerms<'a> {
    abstract_terms: &'a [(String, f32)],
    fulltext_terms: &'a [(String, f32)],
}

/// One index's ranking, or both fused.
fn rank_choice(
    ranker: &impl Ranker,
    terms: QueryTerms,
    choice: IndexChoice,
    limit: usize,
    category: Option<&str>,
) -> Result<Vec<Candidate>, SearchError> {
    let ranking = |kind, limit| {
        let terms = if kind == IndexKind::Abstract { terms.abstract_terms } else { terms.fulltext_terms };
        IndexRanking { kind, terms, limit, category }
    };
    match choice {
        IndexChoice::Abstract => ranker.rank(ranking(IndexKind::Abstract, limit)),
        IndexChoice::Fulltext => ranker.rank(ranking(IndexKind::Fulltext, limit)),
        IndexChoice::Tiered => {
            let tiered = &ranker.settings().tiered;
            let depth = limit.max(tiered.depth);
            let abstract_hits = ranker.rank(ranking(IndexKind::Abstract, depth))?;
            let fulltext_hits = ranker.rank(ranking(IndexKind::Fulltext, depth))?;
            Ok(fuse(&abstract_hits, &fulltext_hits, tiered, limit))
        }
    }
}

/// The indexes of a published build, opened for searching.
pub struct Collection {
    abstract_index: OpenIndex,
    fulltext: OpenIndex,
    settings: SearchSettings,
    /// The term analysis the build was made with (`index::TERM_ANALYSIS_FILE`).
    term_analysis: Option<u32>,
}

/// A build whose terms were made by another term analysis than the one queries are analysed
/// with: words the two analyses write differently do not meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaleAnalysis {
    pub made_with: Option<u32>,
}

impl std::fmt::Display for StaleAnalysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "built with {}, while this indexer analyses queries with term analysis {TERM_ANALYSIS}: pages whose \
             words the two analyses write differently can be missed; rebuild it with this indexer",
            describe_term_analysis(self.made_with)
        )
    }
}

impl Collection {
    /// Opens the current build of a build folder, with the shipped search settings.
    pub fn open(dir: &Path) -> Result<Collection, SearchError> {
        Self::open_with(dir, &|_, directory| directory)
    }

    /// Opens the current build with each index's directory wrapped by `wrap` (the disk-access
    /// measurement counts reads this way).
    pub fn open_with(
        dir: &Path,
        wrap: &dyn Fn(IndexKind, Box<dyn Directory>) -> Box<dyn Directory>,
    ) -> Result<Collection, SearchError> {
        let build = current_build(dir)?;
        Ok(Collection {
            abstract_index: OpenIndex::open(&build, IndexKind::Abstract, wrap)?,
            fulltext: OpenIndex::open(&build, IndexKind::Fulltext, wrap)?,
            settings: SearchSettings::shipped(),
            term_analysis: read_term_analysis(&build),
        })
    }

    /// Whether the build's term analysis is another than this release's.
    pub fn stale_analysis(&self) -> Option<StaleAnalysis> {
        (self.term_analysis != Some(TERM_ANALYSIS)).then_some(StaleAnalysis { made_with: self.term_analysis })
    }

    /// Searches with other settings from now on; an unknown field name is an error.
    pub fn set_settings(&mut self, settings: SearchSettings) -> Result<(), SearchError> {
        settings.check().map_err(|message| SettingsError::Invalid { path: "given".into(), message })?;
        for kind in IndexKind::ALL {
            self.index(kind).boosted_fields(settings.of_index(kind))?;
        }
        self.settings = settings;
        Ok(())
    }

    /// The settings searches use.
    pub fn settings(&self) -> &SearchSettings {
        &self.settings
    }

    /// Reads every page's URL of both indexes into memory, so that ranking thousands of
    /// pages per query does not read the document store each time (for evaluation).
    pub fn preload_urls(&self) -> Result<(), SearchError> {
        self.abstract_index.preload_urls()?;
        self.fulltext.preload_urls()
    }

    /// The schema of one index.
    pub fn schema(&self, kind: IndexKind) -> &IndexSchema {
        &self.index(kind).schema
    }

    fn index(&self, kind: IndexKind) -> &OpenIndex {
        match kind {
            IndexKind::Abstract => &self.abstract_index,
            IndexKind::Fulltext => &self.fulltext,
        }
    }

    /// The top `n` results of one index for a query, without snippets or stored fields:
    /// the index access a search costs, for the disk-access measurement.
    pub fn rank(&self, kind: IndexKind, query: &str, n: usize) -> Result<usize, SearchError> {
        let index = self.index(kind);
        let terms = unique_terms(&index.analyze(query)?);
        let Some(query) = index.query(&terms, self.settings.of_index(kind))? else { return Ok(0) };
        let searcher = index.reader.searcher();
        Ok(searcher.search(&query, &TopDocs::with_limit(n.max(1)).order_by_score())?.len())
    }

    /// The ranked pages (URL and score) of a search, without reading what a result shows.
    pub fn ranking(&self, query: &str, request: &SearchRequest) -> Result<Vec<Candidate>, SearchError> {
        rank_with(self, query, request)
    }

    /// The four rankings a linear fusion of `request`'s search weighs (see [`LinearFusion`]);
    /// `None` when the query gets no feedback.
    pub fn linear_rankings(
        &self,
        query: &str,
        request: &SearchRequest,
    ) -> Result<Option<[Vec<Candidate>; 4]>, SearchError> {
        linear_rankings(self, query, request)
    }

    /// The top `n` results for `query`, ranked 1..=n.
    pub fn search(&self, query: &str, choice: IndexChoice, n: usize) -> Result<Vec<SearchHit>, SearchError> {
        search_with(self, query, &SearchRequest::new(choice, n))
    }

    /// The searcher of one index (for statistics and evaluation).
    pub fn searcher(&self, kind: IndexKind) -> Searcher {
        self.index(kind).reader.searcher()
    }
}

impl Ranker for Collection {
    fn settings(&self) -> &SearchSettings {
        &self.settings
    }

    fn analyze(&self, text: &str) -> Result<Vec<String>, SearchError> {
        self.abstract_index.analyze(text)
    }

    fn analyze_query(&self, query: &str) -> Result<Vec<String>, SearchError> {
        Ok(self.abstract_index.languages.analyze_query(query))
    }

    fn rank(&self, request: IndexRanking) -> Result<Vec<Candidate>, SearchError> {
        let IndexRanking { kind, terms, limit, category } = request;
        self.index(kind).rank(terms, self.settings.of_index(kind), limit, category, None, 0)
    }

    fn feedback_text(&self, candidate: &Candidate, from: FeedbackText) -> Result<String, SearchError> {
        match from {
            FeedbackText::Record => self.index(candidate.kind).record_text(candidate.address),
            FeedbackText::Topic if candidate.kind == IndexKind::Fulltext => self.fulltext.topic_text(candidate.address),
            // A page the abstract index ranked: its full-text document by URL (a page the
            // full-text index lacks has no topic content to read).
            FeedbackText::Topic => match self.fulltext.address_of(&candidate.url)? {
                Some(address) => self.fulltext.topic_text(address),
                None => Ok(String::new()),
            },
        }
    }

    fn page_counts(&self, from: FeedbackText, term: &str) -> Result<(u64, Vec<u64>), SearchError> {
        self.index(from.index()).page_counts(from, term)
    }

    fn hit(&self, candidate: &Candidate, terms: &HashSet<String>) -> Result<SearchHit, SearchError> {
        self.index(candidate.kind).hit(candidate, terms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pages: &[(&str, u64)], total: u64) -> LanguageCounts {
        LanguageCounts { pages: pages.iter().map(|&(lang, n)| (lang.to_string(), n)).collect(), total }
    }

    #[test]
    fn a_query_in_a_script_no_main_language_writes_is_analysed_for_the_languages_of_that_script() {
        // A mostly English crawl (95 of 100 pages with the registered analysis) with a few
        // Greek, Russian and Danish pages.
        let crawl = counts(&[("el", 2), ("ru", 2), ("da", 1)], 100);
        let greek = crawl.analyze("βιβλιοθήκες");
        assert_eq!(greek, [analyze_tokens(&mut analyzer_for(None), "βιβλιοθήκες")[0].text.clone(), "βιβλιοθηκ".into()]);
        assert!(crawl.analyze("библиотеку").contains(&"библиотек".to_string()));
        // A Latin query is not given Danish stems: English, the main language, writes Latin.
        assert_eq!(crawl.analyze("bibliotekerne"), ["bibliotekern"]);
        // Without a main language of its script, the Latin languages present analyse it too.
        let scattered = counts(&[("da", 30), ("el", 30), ("ru", 35)], 100);
        assert!(scattered.analyze("bibliotekerne").contains(&"bibliotek".to_string()));
        // A main language keeps its place whatever the query's script.
        assert!(counts(&[("ru", 60)], 100).analyze("library").contains(&"library".to_string()));
    }

    #[test]
    fn a_query_of_kanji_alone_is_cut_as_japanese_too_where_the_collection_has_japanese_pages() {
        let shared: Vec<String> =
            analyze_tokens(&mut analyzer_for(None), "図書館").into_iter().map(|t| t.text).collect();
        assert!(!shared.contains(&"図書館".to_string()), "{shared:?}");
        // A few Japanese pages in an English crawl, and a Japanese collection.
        for crawl in [counts(&[("ja", 2)], 100), counts(&[("ja", 100)], 100)] {
            let terms = crawl.analyze("図書館");
            assert!(terms.contains(&"図書".to_string()) && terms.starts_with(&shared), "{terms:?}");
        }
        // Without Japanese pages, and for Latin queries, nothing is added.
        assert_eq!(counts(&[("ru", 2)], 100).analyze("図書館"), shared);
        assert_eq!(counts(&[("ja", 100)], 100).analyze("library"), ["librari"]);
    }

    #[test]
    fn a_minority_languages_analysis_of_a_query_is_kept_to_its_pages() {
        // An English crawl of 14 pages with one Turkish and one German page.
        let crawl = counts(&[("tr", 1), ("de", 1)], 14);
        let terms = crawl.analyze_query("vapurlarda");
        assert_eq!(terms[0], "vapurlarda");
        assert!(terms.contains(&language_term("tr", "vapur")), "{terms:?}");
        assert!(terms.iter().skip(1).all(|t| split_language_term(t).0.is_some()), "{terms:?}");
        // Feedback's analysis of a page's text, and a query in another script, get none.
        assert_eq!(crawl.analyze("vapurlarda"), ["vapurlarda"]);
        assert!(crawl.analyze_query("βιβλιοθήκες").iter().all(|t| split_language_term(t).0.is_none()));
        assert_eq!(split_language_term(&language_term("tr", "vapur")), (Some("tr"), "vapur"));
        assert_eq!(split_language_term("vapur"), (None, "vapur"));
    }

    #[test]
    fn repeated_query_words_weigh_once_or_as_often_as_they_appear_by_k3() {
        let tokens: Vec<String> = ["tide", "moon", "tide"].iter().map(|t| t.to_string()).collect();
        let once = query_terms(&tokens, &QuerySettings { k3: 0.0 });
        assert_eq!(once, vec![("tide".to_string(), 1.0), ("moon".to_string(), 1.0)]);
        let counted = query_terms(&tokens, &QuerySettings { k3: 1000.0 });
        assert_eq!(counted[1], ("moon".to_string(), 1.0));
        assert!((counted[0].1 - 2.0).abs() < 0.01, "{counted:?}");
        let saturated = query_terms(&tokens, &QuerySettings { k3: 1.0 });
        assert!((saturated[0].1 - 4.0 / 3.0).abs() < 1e-6, "{saturated:?}");
    }

    /// A ranker over three records: "every" is on all the pages, the other words on one.
    struct Records {
        settings: SearchSettings,
        asked: std::cell::RefCell<Vec<WeightedTerms>>,
    }

    impl Ranker for Records {
        fn settings(&self) -> &SearchSettings {
            &self.settings
        }
        fn analyze(&self, text: &str) -> Result<Vec<String>, SearchError> {
            Ok(text.split_whitespace().map(str::to_string).collect())
        }
        fn rank(&self, request: IndexRanking) -> Result<Vec<Candidate>, SearchError> {
            let IndexRanking { kind, terms, limit, .. } = request;
            self.asked.borrow_mut().push(terms.to_vec());
            Ok((0..limit.min(3))
                .map(|i| Candidate {
                    url: format!("page{i}"),
                    score: 3.0 - i as f32,
                    kind,
                    shard: 0,
                    address: DocAddress::new(0, i as u32),
                })
                .collect())
        }
        fn feedback_text(&self, candidate: &Candidate, from: FeedbackText) -> Result<String, SearchError> {
            let texts = match from {
                FeedbackText::Record => ["tide every every", "moon every", "salt every"],
                // The whole page: the record's words and more.
                FeedbackText::Topic => ["tide every every reef", "moon every reef", "salt every"],
            };
            Ok(texts[candidate.address.doc_id as usize].to_string())
        }
        fn page_counts(&self, from: FeedbackText, term: &str) -> Result<(u64, Vec<u64>), SearchError> {
            let pages = match (from, term) {
                (_, "every") => 3,
                (FeedbackText::Topic, "reef") => 2,
                _ => 1,
            };
            Ok((3, vec![pages]))
        }
        fn hit(&self, _: &Candidate, _: &HashSet<String>) -> Result<SearchHit, SearchError> {
            unreachable!("ranking only")
        }
    }

    #[test]
    fn feedback_leaves_out_words_on_more_than_the_page_share() {
        let expanded = |max_page_share: f32| {
            let mut settings = SearchSettings::shipped();
            settings.feedback = FeedbackSettings {
                docs: 3,
                terms: 10,
                original_weight: 0.5,
                max_page_share,
                selective: FeedbackSelection::Always,
                documents_from: FeedbackIndex::Searched,
                words_from: FeedbackText::Record,
                expands: FeedbackIndex::Searched,
                expanded_weight: 1.0,
                linear: None,
            };
            let ranker = Records { settings, asked: Default::default() };
            let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 10) };
            rank_with(&ranker, "ocean", &request).unwrap();
            let asked = ranker.asked.into_inner();
            assert_eq!(asked.len(), 2, "first pass, then the expanded query");
            asked[1].iter().map(|(t, _)| t.clone()).collect::<Vec<_>>()
        };
        // Every page has "every": without the filter it leads the relevance model.
        assert_eq!(expanded(1.0)[..2], ["ocean", "every"]);
        let filtered = expanded(0.5);
        assert!(!filtered.contains(&"every".to_string()), "{filtered:?}");
        assert_eq!(filtered.len(), 4, "ocean, tide, moon, salt: {filtered:?}");
    }

    #[test]
    fn original_weight_one_is_the_search_without_feedback() {
        let mut settings = SearchSettings::shipped();
        settings.feedback.original_weight = 1.0;
        let ranker = Records { settings, asked: Default::default() };
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 10) };
        rank_with(&ranker, "ocean ocean", &request).unwrap();
        let asked = ranker.asked.into_inner();
        assert_eq!(asked.len(), 1, "one pass: {asked:?}");
        assert_eq!(asked[0].iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(), ["ocean"]);
    }

    #[test]
    fn selective_feedback_keeps_the_expansion_when_its_pages_are_as_clear() {
        // The ranker answers every query with the same pages: the expanded ranking's pages are
        // as clear as the original's, so the expanded ranking stands (a third pass is none).
        let mut settings = feedback_settings(FeedbackIndex::Searched, FeedbackIndex::Searched, 1.0);
        settings.feedback.selective = FeedbackSelection::Clarity;
        let ranker = Records { settings, asked: Default::default() };
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 2) };
        let ranked = rank_with(&ranker, "ocean", &request).unwrap();
        assert_eq!(ranked.len(), 2);
        assert_eq!(ranker.asked.into_inner().len(), 2);
    }

    /// `Records` whose first pass answers with pages of one rare word each and whose later
    /// passes answer with other pages, all of the one word that every page holds: an
    /// expansion that drifted to the collection's common language.
    struct Drifting(Records);

    impl Ranker for Drifting {
        fn settings(&self) -> &SearchSettings {
            self.0.settings()
        }
        fn analyze(&self, text: &str) -> Result<Vec<String>, SearchError> {
            self.0.analyze(text)
        }
        fn rank(&self, request: IndexRanking) -> Result<Vec<Candidate>, SearchError> {
            let first_pass = self.0.asked.borrow().is_empty();
            let mut ranked = self.0.rank(request)?;
            if !first_pass {
                for candidate in &mut ranked {
                    candidate.url = format!("drift{}", candidate.address.doc_id);
                    candidate.address = DocAddress::new(0, candidate.address.doc_id + 3);
                }
            }
            Ok(ranked)
        }
        fn feedback_text(&self, candidate: &Candidate, _: FeedbackText) -> Result<String, SearchError> {
            Ok(["tide", "moon", "salt"].get(candidate.address.doc_id as usize).unwrap_or(&"every every").to_string())
        }
        fn page_counts(&self, from: FeedbackText, term: &str) -> Result<(u64, Vec<u64>), SearchError> {
            self.0.page_counts(from, term)
        }
        fn hit(&self, candidate: &Candidate, terms: &HashSet<String>) -> Result<SearchHit, SearchError> {
            self.0.hit(candidate, terms)
        }
    }

    #[test]
    fn selective_feedback_drops_the_expansion_when_its_pages_are_less_clear() {
        let mut settings = feedback_settings(FeedbackIndex::Searched, FeedbackIndex::Searched, 1.0);
        settings.feedback.selective = FeedbackSelection::Clarity;
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 2) };
        let ranker = Drifting(Records { settings: settings.clone(), asked: Default::default() });
        let ranked = rank_with(&ranker, "ocean", &request).unwrap();
        let urls: Vec<&str> = ranked.iter().map(|c| c.url.as_str()).collect();
        assert_eq!(urls, ["page0", "page1"], "the original ranking stands");
        assert_eq!(ranker.0.asked.into_inner().len(), 2, "the expanded query was searched");
        // Expanding always keeps the drifted ranking: the selection is what dropped it.
        settings.feedback.selective = FeedbackSelection::Always;
        let ranker = Drifting(Records { settings, asked: Default::default() });
        let ranked = rank_with(&ranker, "ocean", &request).unwrap();
        assert!(ranked.iter().all(|c| c.url.starts_with("drift")), "{ranked:?}");
    }

    fn feedback_settings(
        documents_from: FeedbackIndex,
        expands: FeedbackIndex,
        expanded_weight: f32,
    ) -> SearchSettings {
        let mut settings = SearchSettings::shipped();
        settings.feedback = FeedbackSettings {
            docs: 3,
            terms: 10,
            original_weight: 0.5,
            max_page_share: 1.0,
            selective: FeedbackSelection::Always,
            documents_from,
            words_from: FeedbackText::Record,
            expands,
            expanded_weight,
            linear: None,
        };
        settings
    }

    #[test]
    fn feedback_expanding_the_full_text_only_leaves_the_abstract_query_as_it_is() {
        let settings = feedback_settings(FeedbackIndex::Searched, FeedbackIndex::Fulltext, 1.0);
        let ranker = Records { settings, asked: Default::default() };
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Tiered, 3) };
        rank_with(&ranker, "ocean", &request).unwrap();
        let asked = ranker.asked.into_inner();
        // First pass: abstract and full text with the query; then abstract with the query and
        // full text with the expanded one.
        assert_eq!(asked.len(), 4, "{asked:?}");
        let words = |i: usize| asked[i].iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>();
        assert_eq!(words(2), ["ocean"]);
        assert!(words(3).contains(&"tide"), "{:?}", words(3));
        // The abstract search with feedback on the full text only is the search without it.
        let settings = feedback_settings(FeedbackIndex::Searched, FeedbackIndex::Fulltext, 1.0);
        let ranker = Records { settings, asked: Default::default() };
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 3) };
        rank_with(&ranker, "ocean", &request).unwrap();
        assert_eq!(ranker.asked.into_inner().len(), 1);
    }

    #[test]
    fn feedback_documents_from_the_full_text_take_a_pass_of_their_own() {
        let settings = feedback_settings(FeedbackIndex::Fulltext, FeedbackIndex::Searched, 1.0);
        let ranker = Records { settings, asked: Default::default() };
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 3) };
        rank_with(&ranker, "ocean", &request).unwrap();
        // The full text's pass for the documents, then the expanded query: the abstract's
        // first pass is not read, so it is not ranked.
        let asked = ranker.asked.into_inner();
        assert_eq!(asked.len(), 2, "{asked:?}");
        assert!(asked[1].iter().any(|(t, _)| t == "tide"), "{asked:?}");
        // A selective search may answer with the abstract's first pass: it is ranked then.
        let mut settings = feedback_settings(FeedbackIndex::Fulltext, FeedbackIndex::Searched, 1.0);
        settings.feedback.selective = FeedbackSelection::Clarity;
        let ranker = Records { settings, asked: Default::default() };
        rank_with(&ranker, "ocean", &request).unwrap();
        assert_eq!(ranker.asked.into_inner().len(), 3);
    }

    #[test]
    fn feedback_words_from_the_topic_content_read_the_whole_page() {
        let expanded = |words_from| {
            let mut settings = feedback_settings(FeedbackIndex::Searched, FeedbackIndex::Searched, 1.0);
            settings.feedback.words_from = words_from;
            let ranker = Records { settings, asked: Default::default() };
            let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 10) };
            rank_with(&ranker, "ocean", &request).unwrap();
            ranker.asked.into_inner()[1].iter().map(|(t, _)| t.clone()).collect::<Vec<_>>()
        };
        let record = expanded(FeedbackText::Record);
        assert!(!record.contains(&"reef".to_string()), "{record:?}");
        // "reef" is only in the pages' topic content, on two of the three feedback pages.
        let topic = expanded(FeedbackText::Topic);
        assert!(topic.contains(&"reef".to_string()), "{topic:?}");
        assert!(topic.contains(&"tide".to_string()), "{topic:?}");
        // The page share is counted in the topic content too: "reef" is on 2 of 3 pages there.
        let mut settings = feedback_settings(FeedbackIndex::Searched, FeedbackIndex::Searched, 1.0);
        settings.feedback.words_from = FeedbackText::Topic;
        settings.feedback.max_page_share = 0.5;
        let ranker = Records { settings, asked: Default::default() };
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 10) };
        rank_with(&ranker, "ocean", &request).unwrap();
        let filtered: Vec<String> = ranker.asked.into_inner()[1].iter().map(|(t, _)| t.clone()).collect();
        assert!(!filtered.contains(&"reef".to_string()) && !filtered.contains(&"every".to_string()), "{filtered:?}");
    }

    /// Pages we write: a nav bar of links and three different articles, each longer than an
    /// abstract keeps; "cormorant" is in the first one's last paragraph only.
    fn write_pages(dir: &std::path::Path) {
        let articles = [
            (
                "The lighthouse keeper",
                [
                    "The keeper climbed the lighthouse stairs every evening before the storm arrived over the bay.",
                    "Years later the museum displayed the keeper's logbook, its pages stained by salt and lamp oil.",
                    "Historians read in it how the foghorn was replaced by a radio beacon after the war.",
                    "The last entry mentions a cormorant nesting on the gallery rail through the winter.",
                ],
            ),
            (
                "Harbour history",
                [
                    "Fishing boats returned early because the harbour master had raised the warning flags at noon.",
                    "The first stone quay was built by merchants who traded timber and wool with northern ports.",
                    "A railway line reached the harbour in the last century and carried fish to inland markets.",
                    "Today ferries leave twice a day for the islands, and the old customs house is a library.",
                ],
            ),
            (
                "Coastal storms",
                [
                    "In the morning the village counted the broken nets and the boats that had drifted onto the rocks.",
                    "Meteorologists track the pressure systems that form over warm water late in the summer.",
                    "Sea walls and dunes planted with grass slow the erosion that winter waves bring.",
                    "Insurance records show the damage rising as more houses are built close to the shore.",
                ],
            ),
        ];
        for (i, (title, paragraphs)) in articles.iter().enumerate() {
            let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>\n")).collect();
            let html = format!(
                "<html><head><title>{title}</title></head><body><nav><a href=\"/a\">Home</a> <a href=\"/b\">Archive</a></nav>\
                 <article><h1>{title}</h1>{body}</article></body></html>"
            );
            std::fs::write(dir.join(format!("page{i}.html")), html).unwrap();
        }
    }

    #[test]
    fn the_topic_content_of_a_page_is_read_from_the_full_text_index_by_either_index_s_candidate() {
        let pages = tempfile::tempdir().unwrap();
        write_pages(pages.path());
        let out = tempfile::tempdir().unwrap();
        crate::pipeline::build(
            &[pages.path().to_path_buf()],
            out.path(),
            &crate::config::Config::default(),
            &crate::pipeline::Quiet,
        )
        .unwrap();
        let collection = Collection::open(out.path()).unwrap();
        let terms = unique_terms(&collection.analyze("lighthouse keeper").unwrap());
        let ranking =
            |kind| Ranker::rank(&collection, IndexRanking { kind, terms: &terms, limit: 10, category: None }).unwrap();
        let (fulltext, abstract_hits) = (ranking(IndexKind::Fulltext), ranking(IndexKind::Abstract));
        assert_eq!(fulltext.len(), 1, "{fulltext:?}");
        let topic = collection.feedback_text(&fulltext[0], FeedbackText::Topic).unwrap();
        let words = collection.analyze(&topic).unwrap();
        let term = |word: &str| collection.analyze(word).unwrap().remove(0);
        // The article's last paragraph is in the topic content, the nav bar's links are not.
        assert!(words.contains(&term("cormorant")), "{topic}");
        assert!(!words.contains(&term("archive")), "{topic}");
        // A candidate of the abstract index reads the same page's topic content, by its URL.
        let same = abstract_hits.iter().find(|c| c.url == fulltext[0].url).unwrap();
        assert_eq!(collection.feedback_text(same, FeedbackText::Topic).unwrap(), topic);
        // Page counts of the topic content: the full-text index's three pages, the word on one.
        assert_eq!(collection.page_counts(FeedbackText::Topic, &term("cormorant")).unwrap(), (3, vec![1]));
    }

    #[test]
    fn an_expanded_weight_under_one_fuses_the_original_ranking_in() {
        // The ranker gives every query the same three pages, so the fused list has them all,
        // in the same order, and the original ranking is asked as deep as the answer.
        let settings = feedback_settings(FeedbackIndex::Searched, FeedbackIndex::Searched, 0.5);
        let ranker = Records { settings, asked: Default::default() };
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 3) };
        let ranked = rank_with(&ranker, "ocean", &request).unwrap();
        assert_eq!(ranked.iter().map(|c| c.url.as_str()).collect::<Vec<_>>(), ["page0", "page1", "page2"]);
        // Both lists' z-scores of page0: (3 - 1) / sd(3, 2, 1) each, half of each.
        let sd = (2.0f32 / 3.0).sqrt();
        assert!((ranked[0].score - 2.0 / sd).abs() < 1e-5, "{ranked:?}");
        assert_eq!(ranker.asked.into_inner().len(), 2);
    }

    #[test]
    fn a_linear_fusion_weighs_the_original_and_the_expanded_rankings_of_both_indexes() {
        let mut settings = feedback_settings(FeedbackIndex::Searched, FeedbackIndex::Searched, 1.0);
        settings.feedback.linear = Some(LinearFusion::from_weights([0.0, 0.0, 0.0, 1.0]));
        let ranker = Records { settings, asked: Default::default() };
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Tiered, 2) };
        let ranked = rank_with(&ranker, "ocean", &request).unwrap();
        assert_eq!(ranked.iter().map(|c| c.url.as_str()).collect::<Vec<_>>(), ["page0", "page1"]);
        // The full text's expanded ranking alone: page0's z-score less the lowest, 2 / sd(3, 2, 1).
        assert!((ranked[0].score - 2.0 / (2.0f32 / 3.0).sqrt()).abs() < 1e-5, "{ranked:?}");
        // Each index with the query, then each with the expanded query.
        let asked = ranker.asked.into_inner();
        assert_eq!(asked.len(), 4, "{asked:?}");
        assert_eq!(asked[1], [("ocean".to_string(), 1.0)]);
        assert!(asked[2].iter().any(|(t, _)| t == "tide") && asked[3] == asked[2], "{asked:?}");
        // The abstract search reads its own index's two rankings only.
        let mut settings = feedback_settings(FeedbackIndex::Searched, FeedbackIndex::Searched, 1.0);
        settings.feedback.linear = Some(LinearFusion::from_weights([1.0, 0.0, 1.0, 0.0]));
        let ranker = Records { settings, asked: Default::default() };
        let request = SearchRequest { feedback: true, ..SearchRequest::new(IndexChoice::Abstract, 2) };
        rank_with(&ranker, "ocean", &request).unwrap();
        assert_eq!(ranker.asked.into_inner().len(), 2);
    }

    #[test]
    fn shorten_cuts_at_a_word() {
        assert_eq!(shorten("short", 10), "short");
        assert_eq!(shorten("one two three four", 10), "one two…");
        assert_eq!(shorten("汉字汉字汉字", 4), "汉字汉字…");
    }
}
