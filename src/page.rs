//! One page through the pipeline: decode → tag tree → block weights → page type → topic
//! content → DocView → fingerprints. Pure and thread-safe: pages are processed in parallel.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::classify::{ClassifyError, Model, default_model};
use crate::clean::{Cleaner, CleanerError, block_weights, site_of, term_frequencies};
use crate::config::{ClassifierChoice, Config};
use crate::decode::decode;
use crate::docview::{DocView, IntegrationInput, integrate};
use crate::input::{RawPage, SkipReason, Skipped};
use crate::replicas::{NearSignature, PageFingerprints, Signer, exact_fingerprint, keyword_fingerprint, to_hex};
use crate::tagtree::{BlockType, TagTree, build_tag_tree};
use crate::text::StopWords;

/// What every page of a build shares: the configuration, the stop words, the cleaner, the
/// replica signer and the classifier, each the one the configuration names. A cleaner or a
/// model that cannot be loaded is an error here, never a silent substitute.
pub struct PageContext<'a> {
    config: &'a Config,
    stop_words: &'a StopWords,
    weighty_tags: HashSet<String>,
    cleaner: Cleaner,
    signer: Signer,
    /// The content classifier (§6); `None` leaves records unclassified.
    classifier: Option<Cow<'a, Model>>,
}

/// The configuration names a cleaner or a classifier that cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum PageContextError {
    #[error(transparent)]
    Cleaner(#[from] CleanerError),
    #[error(transparent)]
    Classifier(#[from] ClassifyError),
}

impl From<PageContextError> for crate::clean::CleanerError {
    /// For callers that report cleaner errors only: a classifier that cannot be loaded is
    /// named by its setting.
    fn from(error: PageContextError) -> Self {
        match error {
            PageContextError::Cleaner(e) => e,
            PageContextError::Classifier(e) => {
                crate::clean::CleanerError { path: "classify.model".into(), message: e.to_string() }
            }
        }
    }
}

impl<'a> PageContext<'a> {
    /// The context `config` describes: its cleaner (before any learning pass: see
    /// [`PageContext::with_cleaner`]), its replica detector's signer, and its classifier (the
    /// built-in model, a model file, or none with `classify.model = "off"`).
    pub fn new(config: &'a Config, stop_words: &'a StopWords) -> Result<PageContext<'a>, PageContextError> {
        let classifier = match &config.classify.model {
            ClassifierChoice::BuiltIn => Some(Cow::Borrowed(default_model()?)),
            ClassifierChoice::Off => None,
            ClassifierChoice::File(path) => Some(Cow::Owned(Model::from_file(path)?)),
        };
        Ok(PageContext {
            config,
            stop_words,
            weighty_tags: config.block_weight.forces.keys().cloned().collect(),
            cleaner: Cleaner::from_config(config)?,
            signer: Signer::new(config.replicas.detector, &config.replicas),
            classifier,
        })
    }

    /// The same context with this cleaner: one that has done its learning pass over the
    /// input (`learned_cleaner`), or another kind to compare.
    pub fn with_cleaner(self, cleaner: Cleaner) -> PageContext<'a> {
        PageContext { cleaner, ..self }
    }

    /// The same context without a classifier: records get no code (reading labelled pages
    /// needs the topic content only).
    pub fn without_classifier(self) -> PageContext<'a> {
        PageContext { classifier: None, ..self }
    }

    pub fn config(&self) -> &'a Config {
        self.config
    }

    pub fn stop_words(&self) -> &'a StopWords {
        self.stop_words
    }

    /// The tags `block_weight.forces` names: weighty whatever their share of the page.
    pub fn weighty_tags(&self) -> &HashSet<String> {
        &self.weighty_tags
    }

    pub fn cleaner(&self) -> &Cleaner {
        &self.cleaner
    }

    /// The cleaner, to go on learning while the pages are processed (see `pipeline::write_build`).
    pub fn cleaner_mut(&mut self) -> &mut Cleaner {
        &mut self.cleaner
    }

    pub fn signer(&self) -> &Signer {
        &self.signer
    }

    pub fn classifier(&self) -> Option<&Model> {
        self.classifier.as_deref()
    }

    /// Decodes a page and builds its tag tree.
    pub fn tag_tree(&self, raw: &RawPage) -> (TagTree, &'static encoding_rs::Encoding) {
        let decoded = decode(&raw.bytes, raw.http_charset.as_deref(), &raw.url);
        (build_tag_tree(&decoded.text, &self.config.tag_tree, &self.weighty_tags), decoded.encoding)
    }
}

/// A page ready for replica checks and indexing.
#[derive(Debug)]
pub struct ProcessedPage {
    pub origin: String,
    pub bytes: usize,
    pub record: DocView,
    /// The visible text of the raw page, for the full-text index.
    pub visible_text: String,
    pub fingerprints: PageFingerprints,
    /// Containers nested too deep were flattened (a warning, not an error).
    pub depth_capped: bool,
}

/// Runs one page through every per-page stage.
pub fn process_page(raw: RawPage, ctx: &PageContext<'_>) -> Result<ProcessedPage, Skipped> {
    if is_binary(&raw.bytes) {
        return Err(binary_page(raw));
    }
    let (tree, encoding) = ctx.tag_tree(&raw);
    process_parsed(raw, tree, encoding, ctx)
}

/// The stages of [`process_page`] after parsing, for a page whose tag tree was built already
/// (a build that learns site templates in its main pass parses each page once).
pub fn process_parsed(
    raw: RawPage,
    tree: TagTree,
    encoding: &'static encoding_rs::Encoding,
    ctx: &PageContext<'_>,
) -> Result<ProcessedPage, Skipped> {
    let config = ctx.config();
    let weights = block_weights(&tree, &config.block_weight);
    let content = ctx.cleaner().clean(&site_of(&raw.url), &tree, &weights, config);
    if content.page_type == BlockType::Empty {
        return Err(Skipped {
            origin: raw.origin,
            reason: SkipReason::Empty,
            detail: "no visible text or images".into(),
        });
    }
    let input = IntegrationInput {
        url: &raw.url,
        tree: &tree,
        content: &content,
        weights: &weights,
        stop_words: ctx.stop_words(),
        http_language: raw.http_language.as_deref(),
    };
    let integrated = integrate(&input, &config.docview);
    let mut record = integrated.record;
    if let Some(model) = ctx.classifier() {
        // §6: the category comes from the topic content, the page without its template noise.
        if let Some(prediction) = model.classify_text(&record.topic_content) {
            if prediction.confidence >= config.classify.min_confidence {
                record.classification_code = Some(prediction.code);
            }
            // Three decimals: the confidence is a rough guide, and records stay readable.
            record.classification_confidence = Some((prediction.confidence * 1000.0).round() / 1000.0);
        }
    }
    // The page language's stop words too: a Spanish page's fingerprint is not "de la que".
    let tf = term_frequencies(&tree, &content.nodes, &integrated.stop_words);
    // The DocView record keeps the paper's keyword fingerprint whatever the detector: it is
    // part of the model (§5), and what a global merge of shards joins on.
    record.fingerprint =
        keyword_fingerprint(&tf, config.replicas.percentage, config.replicas.interval).map(|f| to_hex(&f));
    let fingerprints = page_fingerprints(&tree, &content.nodes, &record, &tf, ctx);
    record.charset = encoding.name().to_string();
    Ok(ProcessedPage {
        origin: raw.origin,
        bytes: raw.bytes.len(),
        visible_text: tree.visible_text(),
        depth_capped: tree.depth_capped,
        record,
        fingerprints,
    })
}

/// The record of a page [`is_binary`] rejects.
pub(crate) fn binary_page(raw: RawPage) -> Skipped {
    Skipped {
        origin: raw.origin,
        reason: SkipReason::NotHtml,
        detail: "binary data (NUL bytes), not an HTML page".into(),
    }
}

/// Binary detection as ripgrep does it: a NUL byte near the start. UTF-16 pages, the only
/// HTML with NUL bytes, announce themselves with a byte-order mark.
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8192)];
    let utf16 = head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]);
    !utf16 && head.contains(&0)
}

/// The replica signatures of a cleaned page (§5).
///
/// Exact copies: MD5 of the title and the cleaned text. The title is part of it because a
/// copy of a page carries its title, while two different pages of one template whose
/// cleaned text is only template (headline-only stubs, link pages) must not collide.
///
/// Near replicas: the detector's signature of the topic content, for topic pages only. The
/// paper defines and measures near replicas on pages with topic content (§7.2); the
/// "content" of a hub or image page is links or pictures whose words are mostly the site's
/// own, so a signature there groups unrelated pages of one site.
fn page_fingerprints(
    tree: &TagTree,
    nodes: &[usize],
    record: &DocView,
    tf: &HashMap<String, u32>,
    ctx: &PageContext<'_>,
) -> PageFingerprints {
    let exact = exact_fingerprint(&record.topic_content)
        .and_then(|_| exact_fingerprint(&format!("{}\n{}", record.title, record.topic_content)));
    let near = if record.page_type == BlockType::Topic {
        ctx.signer().sign(&terms_in_order(tree, nodes), tf)
    } else {
        NearSignature::None
    };
    PageFingerprints { exact, near }
}

/// The terms of `nodes`, in document order (the shingles of MinHash and SimHash).
pub fn terms_in_order(tree: &TagTree, nodes: &[usize]) -> Vec<String> {
    nodes.iter().flat_map(|&id| tree.nodes[id].terms.iter().map(str::to_string)).collect()
}

/// The distinct terms of a page's visible text (a document of the stop-word sample).
pub fn distinct_terms(raw: &RawPage, ctx: &PageContext<'_>) -> HashSet<String> {
    tree_terms(&ctx.tag_tree(raw).0)
}

/// The distinct terms of a tag tree's visible text.
pub fn tree_terms(tree: &TagTree) -> HashSet<String> {
    tree.nodes.iter().flat_map(|n| n.terms.iter().map(str::to_string)).collect()
}
