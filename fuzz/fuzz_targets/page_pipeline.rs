//! Fuzz target: any bytes, as a page, through every per-page stage (decode → tag tree →
//! block weights → cleaning → DocView → classification → fingerprints). The first byte picks
//! the HTTP charset the page is announced with, so charset handling is fuzzed too.

#![no_main]

use std::sync::LazyLock;

use indexer::page::{PageContext, process_page};
use indexer::config::Config;
use indexer::input::RawPage;
use indexer::text::StopWords;
use libfuzzer_sys::fuzz_target;

/// Charsets a server may announce, including a wrong one and a made-up one.
const HTTP_CHARSETS: [Option<&str>; 6] =
    [None, Some("utf-8"), Some("gbk"), Some("shift_jis"), Some("windows-1252"), Some("no-such-charset")];

static CONFIG: LazyLock<Config> = LazyLock::new(Config::default);
static STOP_WORDS: LazyLock<StopWords> = LazyLock::new(StopWords::generic);
static CONTEXT: LazyLock<PageContext<'static>> = LazyLock::new(|| PageContext::new(&CONFIG, &STOP_WORDS).expect("the default configuration loads"));

fuzz_target!(|data: &[u8]| {
    let Some((&selector, page)) = data.split_first() else { return };
    let raw = RawPage {
        url: "https://fuzz.example/page.html".into(),
        origin: "fuzz".into(),
        bytes: page.to_vec(),
        http_charset: HTTP_CHARSETS[usize::from(selector) % HTTP_CHARSETS.len()].map(str::to_string),
        http_language: None,
    };
    // A skipped page is a fine outcome; only a panic or an abort is a finding.
    let _ = process_page(raw, &CONTEXT);
});
