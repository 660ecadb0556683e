//! The Snowball stemmer of the analyzers, as one Tantivy token filter for every language,
//! remembering the stems it has made.
//!
//! The stemmers are Snowball's current algorithms (the frostem crate, generated from the
//! Snowball project's sources, which Tantivy's own `Stemmer` also calls): Tantivy's filter names
//! only 17 languages, [`SnowballStemmer`] takes any [`Algorithm`] (see
//! [`super::snowball_language`]).
//!
//! A page repeats its words and a collection its vocabulary, and a Snowball stem costs far more
//! than a hash lookup, so the filter keeps each word's stem. A word's stem depends on the word
//! and the algorithm alone: the tokens are those of Tantivy's filter, byte for byte (a test
//! compares the two). The memory is one per thread, for all algorithms together, shared by
//! every analyzer the thread runs (an index writer clones its analyzer for each field of each
//! segment).

use std::borrow::Cow;
use std::cell::RefCell;

use fnv::FnvHashMap;
use frostem::Algorithm;
use tantivy::tokenizer::{Token, TokenFilter, TokenStream, Tokenizer};

/// Words a thread remembers, all algorithms together, before it forgets them all and starts
/// again (a bound on memory, about 2 MB a thread with [`REMEMBERED_WORD_BYTES`], not tuned).
const REMEMBERED_WORDS: usize = 1 << 14;

/// The longest word remembered, in bytes: a longer one is stemmed each time. Without it the
/// memory's bound would be in words only, and a crawl of pages of long distinct tokens (a
/// hostile or broken page can hold words of any length) would fill it with megabytes each.
const REMEMBERED_WORD_BYTES: usize = 64;

/// Word to stem, for one algorithm.
type Stems = FnvHashMap<Box<str>, Box<str>>;

/// A thread's remembered stems: word to stem, per algorithm.
#[derive(Default)]
struct Memory {
    stems: Vec<(Algorithm, Stems)>,
    /// The words of all the maps.
    words: usize,
}

impl Memory {
    /// The place of `algorithm`'s map in `stems`, made when missing. Maps are emptied, never
    /// removed, so a place stays valid for the thread's life.
    fn slot(&mut self, algorithm: Algorithm) -> usize {
        match self.stems.iter().position(|(a, _)| *a == algorithm) {
            Some(at) => at,
            None => {
                self.stems.push((algorithm, FnvHashMap::default()));
                self.stems.len() - 1
            }
        }
    }
}

thread_local! {
    static MEMORY: RefCell<Memory> = RefCell::new(Memory::default());
}

/// The Snowball stemmer of an algorithm as a Tantivy filter, as `tantivy::tokenizer::Stemmer`
/// but for any algorithm and remembering stems. Terms reach it lower-cased.
#[derive(Debug, Clone, Copy)]
pub struct SnowballStemmer(pub Algorithm);

impl TokenFilter for SnowballStemmer {
    type Tokenizer<T: Tokenizer> = SnowballStemmerFilter<T>;

    fn transform<T: Tokenizer>(self, inner: T) -> SnowballStemmerFilter<T> {
        SnowballStemmerFilter { stemmer: frostem::Stemmer::new(self.0), inner }
    }
}

/// [`SnowballStemmer`] over the tokenizer `inner`.
#[derive(Clone)]
pub struct SnowballStemmerFilter<T> {
    stemmer: frostem::Stemmer,
    inner: T,
}

impl<T: Tokenizer> Tokenizer for SnowballStemmerFilter<T> {
    type TokenStream<'a> = SnowballStemmerStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        SnowballStemmerStream { tail: self.inner.token_stream(text), stemmer: self.stemmer, slot: None }
    }
}

pub struct SnowballStemmerStream<T> {
    tail: T,
    stemmer: frostem::Stemmer,
    /// The place of the algorithm's map in this thread's memory, once looked up.
    slot: Option<usize>,
}

impl<T: TokenStream> TokenStream for SnowballStemmerStream<T> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        let stemmer = self.stemmer;
        let token = self.tail.token_mut();
        if token.text.len() > REMEMBERED_WORD_BYTES {
            // A borrowed stem is the word itself.
            if let Cow::Owned(stem) = stemmer.stem(&token.text) {
                token.text = stem;
            }
            return true;
        }
        MEMORY.with(|memory| {
            let mut memory = memory.borrow_mut();
            // The place is checked, not trusted: a stream advanced on another thread than the
            // one that looked it up would otherwise read another algorithm's map.
            let algorithm = stemmer.algorithm();
            let at = match self.slot {
                Some(at) if memory.stems.get(at).is_some_and(|(a, _)| *a == algorithm) => at,
                _ => {
                    let at = memory.slot(algorithm);
                    self.slot = Some(at);
                    at
                }
            };
            if let Some(stem) = memory.stems[at].1.get(token.text.as_str()) {
                token.text.clear();
                token.text.push_str(stem);
                return;
            }
            let stem: Box<str> = stemmer.stem(&token.text).into();
            if memory.words >= REMEMBERED_WORDS {
                memory.stems.iter_mut().for_each(|(_, stems)| stems.clear());
                memory.words = 0;
            }
            let word: Box<str> = token.text.as_str().into();
            token.text.clear();
            token.text.push_str(&stem);
            memory.stems[at].1.insert(word, stem);
            memory.words += 1;
        });
        true
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

#[cfg(test)]
mod tests {
    use tantivy::tokenizer::{Language, SimpleTokenizer, Stemmer, TextAnalyzer};

    use super::*;

    /// Our filter of `algorithm` and Tantivy's of the same `language`, over one tokenizer.
    fn ours_and_tantivys(algorithm: Algorithm, language: Language) -> (TextAnalyzer, TextAnalyzer) {
        let ours = TextAnalyzer::builder(SimpleTokenizer::default()).filter(SnowballStemmer(algorithm)).build();
        let theirs = TextAnalyzer::builder(SimpleTokenizer::default()).filter(Stemmer::new(language)).build();
        (ours, theirs)
    }

    fn tokens(analyzer: &mut TextAnalyzer, text: &str) -> Vec<Token> {
        let mut stream = analyzer.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            out.push(stream.token().clone());
        }
        out
    }

    fn remembered() -> usize {
        MEMORY.with(|memory| memory.borrow().stems.iter().map(|(_, s)| s.len()).sum::<usize>())
    }

    // Repeated words (remembered on the second sight) in several scripts.
    const TEXT: &str = "running runs runner running generalization generalizations connected \
        Kinder Kindern kinder häuser maisons nationalité nationalités говорили говорил \
        πόλεις πόλη kitapları kitapları குழந்தைகள் الكتاب الكتاب knihy knihou miasta miastem \
        bermain permainan पुस्तकालयों runs";

    #[test]
    fn remembered_stems_are_tantivys_stems_in_its_languages() {
        let languages = [
            (Language::Arabic, Algorithm::Arabic),
            (Language::Danish, Algorithm::Danish),
            (Language::Dutch, Algorithm::Dutch),
            (Language::English, Algorithm::English),
            (Language::Finnish, Algorithm::Finnish),
            (Language::French, Algorithm::French),
            (Language::German, Algorithm::German),
            (Language::Greek, Algorithm::Greek),
            (Language::Hungarian, Algorithm::Hungarian),
            (Language::Italian, Algorithm::Italian),
            (Language::Norwegian, Algorithm::Norwegian),
            (Language::Portuguese, Algorithm::Portuguese),
            (Language::Romanian, Algorithm::Romanian),
            (Language::Russian, Algorithm::Russian),
            (Language::Spanish, Algorithm::Spanish),
            (Language::Swedish, Algorithm::Swedish),
            (Language::Tamil, Algorithm::Tamil),
            (Language::Turkish, Algorithm::Turkish),
        ];
        for (language, algorithm) in languages {
            let mut theirs = TextAnalyzer::builder(SimpleTokenizer::default()).filter(Stemmer::new(language)).build();
            let mut ours = TextAnalyzer::builder(SimpleTokenizer::default()).filter(SnowballStemmer(algorithm)).build();
            let expected = tokens(&mut theirs, TEXT);
            assert_eq!(tokens(&mut ours, TEXT), expected, "{language:?}");
            // A second text through the same analyzer: stems from memory.
            assert_eq!(tokens(&mut ours, TEXT), expected, "{language:?}, remembered");
            assert_eq!(tokens(&mut ours.clone(), TEXT), expected, "{language:?}, a clone");
        }
    }

    #[test]
    fn remembered_stems_are_snowballs_stems_in_every_algorithm() {
        for &algorithm in Algorithm::all() {
            let stemmer = frostem::Stemmer::new(algorithm);
            let mut plain = TextAnalyzer::builder(SimpleTokenizer::default()).build();
            let expected: Vec<String> =
                tokens(&mut plain, TEXT).into_iter().map(|t| stemmer.stem(&t.text).into_owned()).collect();
            let mut ours = TextAnalyzer::builder(SimpleTokenizer::default()).filter(SnowballStemmer(algorithm)).build();
            for _ in 0..2 {
                let got: Vec<String> = tokens(&mut ours, TEXT).into_iter().map(|t| t.text).collect();
                assert_eq!(got, expected, "{algorithm:?}");
            }
        }
    }

    #[test]
    fn the_memory_is_bounded_and_stems_stay_right_after_it_is_emptied() {
        let (mut ours, mut theirs) = ours_and_tantivys(Algorithm::Swedish, Language::Swedish);
        let words: Vec<String> = (0..REMEMBERED_WORDS + 10).map(|i| format!("w{i}arna")).collect();
        for chunk in words.chunks(4096).chain(words.chunks(4096).take(1)) {
            let text = chunk.join(" ");
            assert_eq!(tokens(&mut ours, &text), tokens(&mut theirs, &text));
            assert!(remembered() <= REMEMBERED_WORDS);
            assert_eq!(remembered(), MEMORY.with(|memory| memory.borrow().words));
        }
        assert!(remembered() > 0);
        assert!(remembered() < REMEMBERED_WORDS, "emptied once full");
    }

    #[test]
    fn a_word_longer_than_the_memory_takes_is_stemmed_and_not_remembered() {
        let (mut ours, mut theirs) = ours_and_tantivys(Algorithm::Danish, Language::Danish);
        // One long word the stemmer changes, one it leaves as it is.
        let long = format!("{}erne", "k".repeat(REMEMBERED_WORD_BYTES));
        let kept = "k".repeat(REMEMBERED_WORD_BYTES + 1);
        let short = "husene";
        let text = format!("{long} {short} {long} {kept}");
        let remembers = |word: &str| {
            MEMORY.with(|memory| {
                memory.borrow().stems.iter().any(|(a, s)| *a == Algorithm::Danish && s.contains_key(word))
            })
        };
        assert_eq!(tokens(&mut ours, &text), tokens(&mut theirs, &text));
        assert!(remembers(short));
        assert!(!remembers(&long) && !remembers(&kept));
    }
}
