//! The Snowball stemmer of the analyzers, remembering the stems it has made.
//!
//! Tantivy's `Stemmer` filter runs the Snowball algorithm on every token. A page repeats its
//! words and a collection its vocabulary, and a Snowball stem costs far more than a hash
//! lookup, so [`RememberingStemmer`] keeps each word's stem. A word's stem depends on the word
//! and the language alone: the tokens are those of Tantivy's filter, byte for byte (a test
//! compares the two). The memory is one per thread, for all languages together, shared by
//! every analyzer the thread runs (an index writer clones its analyzer for each field of each
//! segment).

use std::cell::RefCell;

use fnv::FnvHashMap;
use tantivy::tokenizer::{Language, Token, TokenFilter, TokenStream, Tokenizer};

/// Words a thread remembers, all languages together, before it forgets them all and starts
/// again (a bound on memory, about 2 MB a thread with [`REMEMBERED_WORD_BYTES`], not tuned).
const REMEMBERED_WORDS: usize = 1 << 14;

/// The longest word remembered, in bytes: a longer one is stemmed each time. Without it the
/// memory's bound would be in words only, and a crawl of pages of long distinct tokens (a
/// hostile or broken page can hold words of any length) would fill it with megabytes each.
const REMEMBERED_WORD_BYTES: usize = 64;

thread_local! {
    /// This thread's remembered stems: word to stem, per language.
    static STEMS: RefCell<Vec<(Language, FnvHashMap<String, String>)>> = const { RefCell::new(Vec::new()) };
}

/// The Snowball stemmer of `language` as a Tantivy filter, as `tantivy::tokenizer::Stemmer`
/// but remembering stems.
#[derive(Debug, Clone, Copy)]
pub struct RememberingStemmer {
    language: Language,
}

impl RememberingStemmer {
    pub fn new(language: Language) -> RememberingStemmer {
        RememberingStemmer { language }
    }
}

impl TokenFilter for RememberingStemmer {
    type Tokenizer<T: Tokenizer> = RememberingStemmerFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> RememberingStemmerFilter<T> {
        RememberingStemmerFilter {
            language: self.language,
            stemmer: frostem::Stemmer::new(algorithm(self.language)),
            inner: tokenizer,
        }
    }
}

/// [`RememberingStemmer`] over the tokenizer `inner`.
#[derive(Clone)]
pub struct RememberingStemmerFilter<T> {
    language: Language,
    stemmer: frostem::Stemmer,
    inner: T,
}

impl<T: Tokenizer> Tokenizer for RememberingStemmerFilter<T> {
    type TokenStream<'a> = RememberingStemmerStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        RememberingStemmerStream { tail: self.inner.token_stream(text), language: self.language, stemmer: self.stemmer }
    }
}

pub struct RememberingStemmerStream<T> {
    tail: T,
    language: Language,
    stemmer: frostem::Stemmer,
}

impl<T: TokenStream> TokenStream for RememberingStemmerStream<T> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        let (language, stemmer) = (self.language, self.stemmer);
        let token = self.tail.token_mut();
        if token.text.len() > REMEMBERED_WORD_BYTES {
            token.text = stemmer.stem(&token.text).into_owned();
            return true;
        }
        STEMS.with(|stems| {
            let mut all = stems.borrow_mut();
            let at = match all.iter().position(|(l, _)| *l == language) {
                Some(at) => at,
                None => {
                    all.push((language, FnvHashMap::default()));
                    all.len() - 1
                }
            };
            if let Some(stem) = all[at].1.get(token.text.as_str()) {
                token.text.clear();
                token.text.push_str(stem);
                return;
            }
            let stem = stemmer.stem(&token.text).into_owned();
            if all.iter().map(|(_, stems)| stems.len()).sum::<usize>() >= REMEMBERED_WORDS {
                all.iter_mut().for_each(|(_, stems)| stems.clear());
            }
            let word = std::mem::replace(&mut token.text, stem.clone());
            all[at].1.insert(word, stem);
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

/// The Snowball algorithm of a Tantivy language, as Tantivy's own stemmer maps it.
fn algorithm(language: Language) -> frostem::Algorithm {
    use frostem::Algorithm as A;
    match language {
        Language::Arabic => A::Arabic,
        Language::Danish => A::Danish,
        Language::Dutch => A::Dutch,
        Language::English => A::English,
        Language::Finnish => A::Finnish,
        Language::French => A::French,
        Language::German => A::German,
        Language::Greek => A::Greek,
        Language::Hungarian => A::Hungarian,
        Language::Italian => A::Italian,
        Language::Norwegian => A::Norwegian,
        Language::Portuguese => A::Portuguese,
        Language::Romanian => A::Romanian,
        Language::Russian => A::Russian,
        Language::Spanish => A::Spanish,
        Language::Swedish => A::Swedish,
        Language::Tamil => A::Tamil,
        Language::Turkish => A::Turkish,
    }
}

#[cfg(test)]
mod tests {
    use tantivy::tokenizer::{SimpleTokenizer, Stemmer, TextAnalyzer};

    use super::*;

    fn tokens(analyzer: &mut TextAnalyzer, text: &str) -> Vec<Token> {
        let mut stream = analyzer.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            out.push(stream.token().clone());
        }
        out
    }

    #[test]
    fn remembered_stems_are_tantivys_stems_in_every_language() {
        let languages = [
            Language::Arabic,
            Language::Danish,
            Language::Dutch,
            Language::English,
            Language::Finnish,
            Language::French,
            Language::German,
            Language::Greek,
            Language::Hungarian,
            Language::Italian,
            Language::Norwegian,
            Language::Portuguese,
            Language::Romanian,
            Language::Russian,
            Language::Spanish,
            Language::Swedish,
            Language::Tamil,
            Language::Turkish,
        ];
        // Repeated words (remembered on the second sight) in several scripts.
        let text = "running runs runner running generalization generalizations connected \
            Kinder Kindern kinder häuser maisons nationalité nationalités говорили говорил \
            πόλεις πόλη kitapları kitapları குழந்தைகள் الكتاب الكتاب runs";
        for language in languages {
            let mut theirs = TextAnalyzer::builder(SimpleTokenizer::default()).filter(Stemmer::new(language)).build();
            let mut ours =
                TextAnalyzer::builder(SimpleTokenizer::default()).filter(RememberingStemmer::new(language)).build();
            let expected = tokens(&mut theirs, text);
            assert_eq!(tokens(&mut ours, text), expected, "{language:?}");
            // A second text through the same analyzer: stems from memory.
            assert_eq!(tokens(&mut ours, text), expected, "{language:?}, remembered");
            assert_eq!(tokens(&mut ours.clone(), text), expected, "{language:?}, a clone");
        }
    }

    #[test]
    fn the_memory_is_bounded_and_stems_stay_right_after_it_is_emptied() {
        let mut ours = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RememberingStemmer::new(Language::Swedish))
            .build();
        let mut theirs =
            TextAnalyzer::builder(SimpleTokenizer::default()).filter(Stemmer::new(Language::Swedish)).build();
        let remembered = || STEMS.with(|stems| stems.borrow().iter().map(|(_, s)| s.len()).sum::<usize>());
        let words: Vec<String> = (0..REMEMBERED_WORDS + 10).map(|i| format!("w{i}arna")).collect();
        for chunk in words.chunks(4096).chain(words.chunks(4096).take(1)) {
            let text = chunk.join(" ");
            assert_eq!(tokens(&mut ours, &text), tokens(&mut theirs, &text));
            assert!(remembered() <= REMEMBERED_WORDS);
        }
        assert!(remembered() > 0);
        assert!(remembered() < REMEMBERED_WORDS, "emptied once full");
    }

    #[test]
    fn a_word_longer_than_the_memory_takes_is_stemmed_and_not_remembered() {
        let mut ours =
            TextAnalyzer::builder(SimpleTokenizer::default()).filter(RememberingStemmer::new(Language::Danish)).build();
        let mut theirs =
            TextAnalyzer::builder(SimpleTokenizer::default()).filter(Stemmer::new(Language::Danish)).build();
        let long = format!("{}erne", "k".repeat(REMEMBERED_WORD_BYTES));
        let short = "husene";
        let text = format!("{long} {short} {long}");
        let remembers = |word: &str| {
            STEMS.with(|stems| stems.borrow().iter().any(|(l, s)| *l == Language::Danish && s.contains_key(word)))
        };
        assert_eq!(tokens(&mut ours, &text), tokens(&mut theirs, &text));
        assert!(remembers(short));
        assert!(!remembers(&long));
    }
}
