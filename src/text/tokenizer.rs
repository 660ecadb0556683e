//! The CJK + Latin tokenizer.

use std::borrow::Cow;
use std::sync::LazyLock;

use jieba_rs::Jieba;
use unicode_segmentation::UnicodeSegmentation;

/// One dictionary for the whole process: loading it costs ~100 ms, and jieba's `cut` takes
/// `&self`, so every thread can share it.
static JIEBA: LazyLock<Jieba> = LazyLock::new(Jieba::new);

/// A term with its byte span in the text it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token<'a> {
    /// The lower-cased term.
    pub text: Cow<'a, str>,
    pub start: usize,
    pub end: usize,
}

/// Han ideographs, kana and the CJK compatibility block: the characters jieba segments.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // Extensions B.. and compatibility supplement
}

fn is_term(word: &str) -> bool {
    word.chars().any(char::is_alphanumeric)
}

fn lowercase(word: &str) -> Cow<'_, str> {
    if word.chars().any(char::is_uppercase) { Cow::Owned(word.to_lowercase()) } else { Cow::Borrowed(word) }
}

/// Calls `sink` with every term of `text`, in order.
pub fn for_each_token<'a>(text: &'a str, mut sink: impl FnMut(Token<'a>)) {
    let mut run_start = 0;
    let mut run_is_cjk = None;
    for (i, c) in text.char_indices() {
        let cjk = is_cjk(c);
        match run_is_cjk {
            Some(current) if current != cjk => {
                emit_run(text, run_start, i, current, &mut sink);
                run_start = i;
                run_is_cjk = Some(cjk);
            }
            None => run_is_cjk = Some(cjk),
            _ => {}
        }
    }
    if let Some(cjk) = run_is_cjk {
        emit_run(text, run_start, text.len(), cjk, &mut sink);
    }
}

fn emit_run<'a>(text: &'a str, start: usize, end: usize, cjk: bool, sink: &mut impl FnMut(Token<'a>)) {
    let run = &text[start..end];
    if cjk {
        // HMM on: unknown words (names, new terms) come out whole instead of char by char.
        for word in JIEBA.cut(run, true) {
            if is_term(word.word) {
                sink(Token {
                    text: Cow::Borrowed(word.word),
                    start: start + word.byte_start,
                    end: start + word.byte_end,
                });
            }
        }
    } else {
        for (offset, word) in run.split_word_bound_indices() {
            if is_term(word) {
                sink(Token { text: lowercase(word), start: start + offset, end: start + offset + word.len() });
            }
        }
    }
}

/// The terms of `text` as owned strings.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(text, |token| out.push(token.text.into_owned()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_words_are_lowercased_and_punctuation_dropped() {
        assert_eq!(terms("Hello, World! It's 3.14 — ok?"), ["hello", "world", "it's", "3.14", "ok"]);
    }

    #[test]
    fn chinese_runs_are_segmented_by_jieba() {
        let t = terms("我们在北京大学学习");
        assert!(t.contains(&"北京大学".to_string()) || t.contains(&"北京".to_string()), "{t:?}");
        assert!(t.iter().all(|w| w.chars().count() < 9));
    }

    #[test]
    fn mixed_scripts_keep_offsets() {
        let text = "iPhone手机，价格";
        let mut spans = Vec::new();
        for_each_token(text, |t| spans.push((t.text.into_owned(), &text[t.start..t.end])));
        assert_eq!(spans[0], ("iphone".to_string(), "iPhone"));
        for (_, original) in &spans {
            assert!(!original.is_empty());
        }
        assert!(spans.iter().any(|(t, _)| t == "价格"));
    }

    #[test]
    fn empty_and_symbol_only_text_give_no_terms() {
        assert!(terms("").is_empty());
        assert!(terms(" — … ！？ ").is_empty());
    }
}
