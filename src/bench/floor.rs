//! The floor reference: the least any indexer of HTML pages must do. Each page is parsed by
//! html5ever into an RcDom, its visible text extracted, and the text indexed by Tantivy in a
//! single field with our full-text body's analyzer (the `docview` tokenizer, stop words,
//! stemming, positions) and our writer memory and threads. Pages are read, batched and
//! parsed in parallel exactly as `indexer build` does, so that the two compare fairly.
//!
//! The RcDom floor pays for a tree of `Rc<RefCell<…>>` nodes that an indexer need not build,
//! so two lower floors run beside it: html5ever's tree builder into our arena DOM
//! ([`FloorKind::Arena`], the parse a build does), and html5ever's tokenizer alone
//! ([`FloorKind::Tokenizer`]): the same tokenization (switched into raw text for scripts,
//! styles and titles as the tree builder switches it), text tokens outside invisible
//! elements, no tree.

use std::path::Path;
use std::time::Instant;

use std::cell::{Cell, RefCell};

use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts};
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ParseOpts, parse_document};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use tantivy::schema::{IndexRecordOption, SchemaBuilder, TextFieldIndexing, TextOptions};
use tantivy::{Index, TantivyDocument};

use super::BenchError;
use crate::build::peak_rss_bytes;
use crate::config::Config;
use crate::index::{IndexError, TOKENIZER_NAME, register_tokenizers};
use crate::input::{ByteCounter, InputEvent, RawPage, Source};
use crate::tagtree::dom::{Dom, DomData};

/// Pages in flight between the reader and the workers, in batches (as in a build).
const CHANNEL_BATCHES: usize = 4;

/// Elements whose content is never visible text.
const INVISIBLE: &[&str] = &["head", "script", "style", "template", "noscript", "svg", "math", "iframe", "object"];

/// Which parse a floor run pays for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FloorKind {
    /// html5ever's tree builder into an RcDom, then a walk of the DOM.
    #[default]
    RcDom,
    /// html5ever's tokenizer alone, no tree.
    Tokenizer,
    /// html5ever's tree builder into the arena DOM a build parses into, then a walk of it.
    Arena,
}

impl FloorKind {
    pub const ALL: [FloorKind; 3] = [FloorKind::RcDom, FloorKind::Tokenizer, FloorKind::Arena];

    pub fn as_str(self) -> &'static str {
        match self {
            FloorKind::RcDom => "rcdom",
            FloorKind::Tokenizer => "tokenizer",
            FloorKind::Arena => "arena",
        }
    }

    /// The kind named `name` (`rcdom`, `tokenizer` or `arena`).
    pub fn parse(name: &str) -> Option<FloorKind> {
        FloorKind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    fn text_of(self) -> fn(&[u8]) -> String {
        match self {
            FloorKind::RcDom => visible_text,
            FloorKind::Tokenizer => tokenized_text,
            FloorKind::Arena => arena_visible_text,
        }
    }
}

/// What one floor run did.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FloorRun {
    pub kind: FloorKind,
    pub threads: usize,
    pub pages: usize,
    pub html_bytes: u64,
    /// Bytes of visible text indexed.
    pub text_bytes: u64,
    pub seconds: f64,
    pub peak_rss_bytes: Option<u64>,
}

/// Runs the floor reference of `kind` over `inputs` on the current rayon pool, indexing into a
/// fresh index under `work_dir` (removed afterwards).
pub fn run_floor(
    inputs: &[std::path::PathBuf],
    config: &Config,
    work_dir: &Path,
    kind: FloorKind,
) -> Result<FloorRun, BenchError> {
    let started = Instant::now();
    let sources = inputs.iter().map(|p| Source::from_path(p)).collect::<Result<Vec<_>, _>>()?;
    let dir = tempfile::Builder::new().prefix("floor-").tempdir_in(work_dir).map_err(BenchError::io(work_dir))?;
    let tantivy_error = |source| IndexError::Tantivy { path: dir.path().display().to_string(), source };
    let mut schema = SchemaBuilder::new();
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(TOKENIZER_NAME)
        .set_index_option(IndexRecordOption::WithFreqsAndPositions);
    let body = schema.add_text_field("body", TextOptions::default().set_indexing_options(indexing));
    let index = Index::create_in_dir(dir.path(), schema.build()).map_err(tantivy_error)?;
    register_tokenizers(&index);
    let mut writer = index
        .writer_with_num_threads(config.index.writer_threads, config.index.writer_memory_mib * 1024 * 1024)
        .map_err(tantivy_error)?;

    let (sender, receiver) = crossbeam_channel::bounded::<Vec<RawPage>>(CHANNEL_BATCHES);
    let batch_size = config.input.batch_size.max(1);
    let max_page_bytes = config.input.max_page_bytes;
    let reader = std::thread::spawn(move || {
        let mut batch = Vec::with_capacity(batch_size);
        for source in &sources {
            // An unreadable source is the build's business; the floor measures what it can read.
            let _ = source.visit(max_page_bytes, &ByteCounter::default(), &mut |event| {
                if let InputEvent::Page(page) = event {
                    batch.push(page);
                    if batch.len() >= batch_size {
                        return sender.send(std::mem::replace(&mut batch, Vec::with_capacity(batch_size))).is_ok();
                    }
                }
                true
            });
        }
        if !batch.is_empty() {
            let _ = sender.send(batch);
        }
    });
    let mut run = FloorRun { kind, threads: rayon::current_num_threads(), ..FloorRun::default() };
    let text_of = kind.text_of();
    for batch in receiver {
        run.pages += batch.len();
        run.html_bytes += batch.iter().map(|p| p.bytes.len() as u64).sum::<u64>();
        let texts: Vec<String> = batch.into_par_iter().map(|page| text_of(&page.bytes)).collect();
        for text in texts {
            run.text_bytes += text.len() as u64;
            let mut doc = TantivyDocument::default();
            doc.add_text(body, text);
            writer.add_document(doc).map_err(tantivy_error)?;
        }
    }
    // The reader only fails by panicking, which the channel already reported by closing.
    let _ = reader.join();
    writer.commit().map_err(tantivy_error)?;
    writer.wait_merging_threads().map_err(tantivy_error)?;
    run.seconds = started.elapsed().as_secs_f64();
    run.peak_rss_bytes = peak_rss_bytes();
    Ok(run)
}

/// The visible text of a page: html5ever's DOM (scripting off, as our parse), text nodes
/// outside invisible elements, in document order. Bytes are taken as UTF-8 (lossily): the
/// floor does no charset detection.
pub fn visible_text(bytes: &[u8]) -> String {
    let html = String::from_utf8_lossy(bytes);
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts { scripting_enabled: false, ..Default::default() },
        ..Default::default()
    };
    let dom = parse_document(RcDom::default(), opts).one(html.as_ref());
    let mut text = String::new();
    // Iterative: deep markup must not overflow the stack.
    let mut stack: Vec<Handle> = vec![dom.document.clone()];
    while let Some(node) = stack.pop() {
        match &node.data {
            NodeData::Text { contents } => {
                text.push_str(&contents.borrow());
                text.push(' ');
            }
            NodeData::Element { name, .. } if INVISIBLE.contains(&name.local.as_ref()) => continue,
            _ => {}
        }
        stack.extend(node.children.borrow().iter().rev().cloned());
    }
    text
}

/// [`visible_text`] from the arena DOM ([`Dom`]) instead of an RcDom: the same text.
pub fn arena_visible_text(bytes: &[u8]) -> String {
    let html = String::from_utf8_lossy(bytes);
    let dom = Dom::parse(&html);
    let mut text = String::new();
    let mut stack = vec![Dom::DOCUMENT];
    while let Some(id) = stack.pop() {
        match &dom.node(id).data {
            DomData::Text(contents) => {
                text.push_str(contents);
                text.push(' ');
            }
            DomData::Element(element) if INVISIBLE.contains(&element.name.local.as_ref()) => continue,
            _ => {}
        }
        stack.extend(dom.children_reversed(id));
    }
    text
}

/// The visible text of a page from html5ever's tokenizer alone: character tokens outside
/// invisible elements, a space at every tag (as the DOM floor separates text nodes). Without
/// a tree builder the tokenizer does not know that a script's content is raw text, so the sink
/// tells it, as the tree builder does (HTML standard §13.2.6.4: the "generic raw text" and
/// "generic RCDATA" element parsing algorithms, script data for `script`).
pub fn tokenized_text(bytes: &[u8]) -> String {
    let html = String::from_utf8_lossy(bytes);
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(&html));
    let tokenizer = Tokenizer::new(TextSink::default(), TokenizerOpts::default());
    // The sink never asks for a script to run nor reports an encoding, the only reasons feeding
    // stops before the input is consumed.
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink.text.take()
}

#[derive(Default)]
struct TextSink {
    text: RefCell<String>,
    /// Open invisible elements (a count, not a tree: the floor does no tree construction).
    hidden: Cell<usize>,
}

impl TokenSink for TextSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        match token {
            Token::CharacterTokens(chars) if self.hidden.get() == 0 => self.text.borrow_mut().push_str(&chars),
            Token::TagToken(tag) => {
                let name = tag.name.as_ref();
                let invisible = INVISIBLE.contains(&name);
                if self.hidden.get() == 0 {
                    self.text.borrow_mut().push(' ');
                }
                match tag.kind {
                    TagKind::StartTag => {
                        if name == "body" {
                            // An unclosed head ends here, as the tree builder ends it.
                            self.hidden.set(0);
                        } else if invisible && !tag.self_closing {
                            self.hidden.set(self.hidden.get() + 1);
                        }
                        return match name {
                            "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                            "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                                TokenSinkResult::RawData(RawKind::Rawtext)
                            }
                            "title" | "textarea" => TokenSinkResult::RawData(RawKind::Rcdata),
                            "plaintext" => TokenSinkResult::Plaintext,
                            _ => TokenSinkResult::Continue,
                        };
                    }
                    TagKind::EndTag if invisible => self.hidden.set(self.hidden.get().saturating_sub(1)),
                    TagKind::EndTag => {}
                }
            }
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_text_skips_scripts_and_head() {
        let text = visible_text(b"<html><head><title>T</title><script>x()</script></head><body><p>one <b>two</b></p><style>p{}</style></body></html>");
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(words, ["one", "two"]);
    }

    #[test]
    fn the_tokenizer_floor_finds_the_dom_floors_words() {
        let page = b"<!DOCTYPE html><html><head><title>T &amp; U</title><style>p{}</style>\
            <script>if (a<b) { document.write('<p>no</p>') }</script></head>\
            <body><p>one <b>two</b> &amp; three</p><textarea>four <i>x</i></textarea>\
            <noscript>five</noscript><br/>six</body></html>";
        let words = |text: String| text.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(tokenized_text(page)), words(visible_text(page)));
        assert_eq!(arena_visible_text(page), visible_text(page));
        assert_eq!(words(tokenized_text(page)), ["one", "two", "&", "three", "four", "<i>x</i>", "six"]);
    }

    #[test]
    fn an_unclosed_head_ends_at_the_body() {
        let words: Vec<String> =
            tokenized_text(b"<head><title>T</title><body>seen").split_whitespace().map(str::to_string).collect();
        assert_eq!(words, ["seen"]);
    }

    #[test]
    fn floor_kinds_parse_by_name_only() {
        for kind in FloorKind::ALL {
            assert_eq!(FloorKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(FloorKind::parse("dom"), None);
    }

    #[test]
    fn deep_markup_does_not_overflow_the_stack() {
        let html = format!("{}deep{}", "<div>".repeat(2_000), "</div>".repeat(2_000));
        assert!(visible_text(html.as_bytes()).contains("deep"));
        assert!(tokenized_text(html.as_bytes()).contains("deep"));
        assert!(arena_visible_text(html.as_bytes()).contains("deep"));
    }
}
