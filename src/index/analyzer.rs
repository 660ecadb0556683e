//! Our tokenizer inside Tantivy, so that the indexes and the queries segment text exactly as
//! cleaning, keywords and fingerprints do (jieba for CJK, UAX #29 words otherwise).
//!
//! Korean is the one difference: a word holding Hangul is indexed and queried as overlapping
//! bigrams of its syllables ([`hangul_bigrams`]), so a query word finds the word with its
//! particles.
//!
//! The analyzer registered under [`TOKENIZER_NAME`] adds two filters on top: the generic stop
//! words (function words carry no ranking signal) and the English Snowball stemmer (the
//! retrieval baselines of the test collections stem; Han text passes through unchanged).
//!
//! A page in a language with a Snowball stemmer of its own (German, French, Russian …, see
//! [`snowball_language`]) is analysed by [`analyzer_for`] that language instead: its Snowball
//! stop list and stemmer after the generic stop words. The writer hands such a page's tokens to
//! Tantivy already analysed; a query is analysed for every language of the collection
//! (`search`). A Japanese page is analysed with Japanese's cut (TinySegmenter where jieba
//! would cut a run without kana, [`Cut::Japanese`]) and its stretches of kanji as overlapping
//! bigrams ([`KanjiStretch`]), so that its keywords field, its headings of kanji alone and a
//! query in Japanese meet the same terms wherever the segmenter cut them. Pages of other
//! languages (Chinese, Vietnamese …) keep the registered analyzer: the English stemmer leaves
//! CJK terms as they are and stems the English words such pages quote.

use frostem::Algorithm;
use tantivy::Index;
use tantivy::tokenizer::{Language, StopWordFilter, TextAnalyzer, Token, TokenStream, Tokenizer};

use super::stemmer::SnowballStemmer;

use crate::text::{Cut, fold, for_each_token, for_each_token_in, generic_stop_words, is_folded, is_han};

/// The name the schemas in `index-schema/` give the tokenizer.
pub const TOKENIZER_NAME: &str = "docview";

/// [`crate::text::for_each_token`] as a Tantivy tokenizer.
#[derive(Debug, Clone, Default)]
pub struct DocViewTokenizer {
    tokens: Vec<Token>,
    /// Lower-case `I` as `ı` (dotless), Turkish's rule: the text is Turkish.
    dotless_i: bool,
    /// How Han runs without kana are cut.
    cut: Cut,
}

impl DocViewTokenizer {
    /// The tokenizer of Turkish text: `I` is lower-cased as `ı`, as Turkish writes the pair
    /// (`IŞIK`, `Işık` → `ışık`; Unicode's SpecialCasing.txt, the `tr` condition), where
    /// Unicode's default gives `işik`, a word Turkish does not write and its Snowball stemmer
    /// does not know. (`İ` → `i` holds in every language: [`crate::text::fold`].)
    pub fn turkish() -> DocViewTokenizer {
        DocViewTokenizer { dotless_i: true, ..DocViewTokenizer::default() }
    }

    /// The tokenizer of Japanese pages and of a query analysed for Japanese: a run of kanji
    /// alone is cut by TinySegmenter as the Japanese text around it is ([`Cut::Japanese`]),
    /// and every stretch of kanji gives its overlapping bigrams ([`KanjiStretch`]), so a
    /// query `図書館` meets the terms of a page's `図書館で` and of its heading `市立図書館開館`.
    pub fn japanese() -> DocViewTokenizer {
        DocViewTokenizer { cut: Cut::Japanese, ..DocViewTokenizer::default() }
    }
}

/// The tokens of one text, handed out one by one.
pub struct DocViewTokenStream<'a> {
    tokens: &'a mut Vec<Token>,
    /// One past the current token (0 before the first `advance`).
    next: usize,
}

impl Tokenizer for DocViewTokenizer {
    type TokenStream<'a> = DocViewTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> DocViewTokenStream<'a> {
        self.tokens.clear();
        let (dotless_i, cut) = (self.dotless_i, self.cut);
        let tokens = &mut self.tokens;
        let mut push = |text: String, offset_from: usize, offset_to: usize| {
            let position = tokens.len();
            tokens.push(Token { offset_from, offset_to, position, text, position_length: 1 });
        };
        let mut kanji = KanjiStretch::default();
        for_each_token_in(text, cut, |t| {
            // The word as written, not its lower case: lower-casing can change a letter's
            // length in bytes (İ, the Kelvin sign), and the offsets are the text's.
            let word = &text[t.start..t.end];
            if cut == Cut::Japanese && t.text.chars().any(is_han) {
                japanese_terms(word, &t, &mut kanji, &mut push);
                return;
            }
            kanji.flush(&mut push);
            if dotless_i && word.contains('I') && !t.text.chars().any(is_hangul) {
                push(fold(&word.replace('I', "ı"), true).into_owned(), t.start, t.end);
            } else if !t.text.chars().any(is_hangul) {
                push(t.text.into_owned(), t.start, t.end);
            } else if is_folded(word) {
                hangul_bigrams(word, t.start, None, &mut push);
            } else {
                // Conjoining jamo or halfwidth Hangul, composed into syllables by the fold:
                // the bigrams are the folded word's, each with the span of the whole word as
                // written (NFKC keeps no map from its output back to the input).
                hangul_bigrams(&t.text, t.start, Some(t.end), &mut push);
            }
        });
        kanji.flush(&mut push);
        DocViewTokenStream { tokens: &mut self.tokens, next: 0 }
    }
}

/// The kanji of Japanese text read so far that stand together in the text, each with its
/// span, waiting for the stretch to end. TinySegmenter cuts a run of kanji by its context
/// (市立図書館開館記念 alone is not cut as 図書館 in 図書館で is), and a query is a context
/// of its own, so a word the page writes inside a longer run of kanji would not meet the
/// query's term. A stretch of kanji is indexed and queried as its overlapping bigrams
/// (one kanji alone as itself) across the segmenter's cuts: the CJK bigram analysis of
/// Lucene (`CJKBigramFilter`), with which a query word matches wherever the page writes it.
#[derive(Default)]
struct KanjiStretch {
    kanji: Vec<(char, usize, usize)>,
    /// Where the stretch ends in the text, when the last token read ended with a kanji.
    end: Option<usize>,
}

impl KanjiStretch {
    fn flush(&mut self, push: &mut impl FnMut(String, usize, usize)) {
        match self.kanji.as_slice() {
            [] => {}
            [(c, from, to)] => push(c.to_string(), *from, *to),
            kanji => {
                for pair in kanji.windows(2) {
                    let ((a, from, _), (b, _, to)) = (pair[0], pair[1]);
                    push([a, b].iter().collect(), from, to);
                }
            }
        }
        self.kanji.clear();
        self.end = None;
    }
}

/// The terms of a token of Japanese text holding kanji (`word` is the token as written): its
/// kanji join the [`KanjiStretch`] (which goes on from the previous token when that one
/// ended with a kanji where this one begins with one), its hiragana are left out, and its
/// other letters and digits (katakana, `3` of `3月`) are terms of their own. Hiragana
/// written with kanji in one token are the word's inflection or a particle the segmenter
/// left on it (読み, 読む; 図書館で), so a query 読む meets the page's 読み through 読.
fn japanese_terms(
    word: &str,
    token: &crate::text::Token,
    kanji: &mut KanjiStretch,
    push: &mut impl FnMut(String, usize, usize),
) {
    if kanji.end != Some(token.start) || !token.text.starts_with(is_han) {
        kanji.flush(push);
    }
    // The spans in the text when the term is the word as written; the token's span when the
    // fold changed it (a compatibility ideograph, fullwidth digits).
    let as_written = word == token.text;
    let span = |from: usize, to: usize| {
        if as_written { (token.start + from, token.start + to) } else { (token.start, token.end) }
    };
    let piece = |from: usize, to: usize| {
        let text = &token.text[from..to];
        text.chars().any(char::is_alphanumeric).then(|| (text.to_string(), span(from, to)))
    };
    let mut other: Option<usize> = None;
    for (at, c) in token.text.char_indices() {
        let hiragana = is_hiragana(c);
        if (is_han(c) || hiragana)
            && let Some((term, (from, to))) = other.take().and_then(|from| piece(from, at))
        {
            push(term, from, to);
        }
        if is_han(c) {
            let (from, to) = span(at, at + c.len_utf8());
            kanji.kanji.push((c, from, to));
        } else {
            kanji.flush(push);
            if !hiragana && other.is_none() {
                other = Some(at);
            }
        }
    }
    if let Some((term, (from, to))) = other.and_then(|from| piece(from, token.text.len())) {
        push(term, from, to);
    }
    kanji.end = token.text.ends_with(is_han).then_some(token.end);
}

/// Hiragana, which Japanese writes its particles and inflections in.
fn is_hiragana(c: char) -> bool {
    matches!(c as u32, 0x3041..=0x309F)
}

/// Hangul syllables and jamo (conjoining, compatibility and their extensions): the jamo the
/// fold cannot compose into a syllable stay Hangul.
fn is_hangul(c: char) -> bool {
    matches!(c as u32, 0xAC00..=0xD7A3 | 0x3130..=0x318F | 0x1100..=0x11FF | 0xA960..=0xA97F | 0xD7B0..=0xD7FF)
}

/// A word holding Hangul, as written, as the index sees it: each Hangul stretch as its
/// overlapping bigrams (a one-syllable stretch as itself), other stretches as the shared
/// tokenizer's terms of them (so punctuation or a combining mark that UAX #29 joined to the
/// word is no term); `start` is the word's offset in the text, and `whole_word_end`, when the
/// word is a fold of the text rather than a span of it, where the written word ends (every
/// token then has the written word's span). Korean attaches particles and endings to the word they follow
/// (기준금리를, "the base rate" + object particle), so whole words would match a query only
/// with the same particle; without a morphological dictionary, overlapping bigrams are the
/// CJK bigram analysis of Lucene (`CJKBigramFilter`), with which a query word matches every
/// inflected form that holds it. Keywords and fingerprints keep whole words
/// ([`crate::text::for_each_token`]).
fn hangul_bigrams(
    word: &str,
    start: usize,
    whole_word_end: Option<usize>,
    push: &mut impl FnMut(String, usize, usize),
) {
    let mut push = |term: String, from: usize, to: usize| match whole_word_end {
        Some(end) => push(term, start, end),
        None => push(term, from, to),
    };
    let mut at = 0;
    while at < word.len() {
        let hangul = word[at..].chars().next().is_some_and(is_hangul);
        let len = word[at..].find(|c: char| is_hangul(c) != hangul).unwrap_or(word.len() - at);
        let stretch = &word[at..at + len];
        let from = start + at;
        if hangul {
            let chars: Vec<(usize, char)> = stretch.char_indices().collect();
            if chars.len() == 1 {
                push(stretch.to_string(), from, from + len);
            }
            for pair in chars.windows(2) {
                let (offset, _) = pair[0];
                let (last, c) = pair[1];
                let end = last + c.len_utf8();
                push(stretch[offset..end].to_string(), from + offset, from + end);
            }
        } else {
            for_each_token(stretch, |t| push(t.text.into_owned(), from + t.start, from + t.end));
        }
        at += len;
    }
}

impl TokenStream for DocViewTokenStream<'_> {
    fn advance(&mut self) -> bool {
        if self.next < self.tokens.len() {
            self.next += 1;
            true
        } else {
            false
        }
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next.saturating_sub(1)]
    }

    fn token_mut(&mut self) -> &mut Token {
        let i = self.next.saturating_sub(1);
        &mut self.tokens[i]
    }
}

/// The analyzer of the `docview` tokenizer name.
pub fn docview_analyzer() -> TextAnalyzer {
    registered_analysis(DocViewTokenizer::default())
}

/// The registered analysis's filters after `tokenizer`: the generic stop words, English's stemmer.
fn registered_analysis(tokenizer: DocViewTokenizer) -> TextAnalyzer {
    TextAnalyzer::builder(tokenizer)
        .filter(StopWordFilter::remove(generic_stop_words().iter().map(|w| w.to_string())))
        .filter(SnowballStemmer(Algorithm::English))
        .build()
}

/// The Snowball stemmer of a BCP 47 primary subtag when it is not English and Snowball has
/// one; `None` for pages the registered analyzer suits (English, languages without a stemmer,
/// no language). The stemmers ([`SnowballStemmer`]) are those of the 17 languages Tantivy
/// names, and Armenian, Basque, Catalan, Czech, Esperanto, Estonian, Hindi,
/// Indonesian, Irish, Lithuanian, Nepali, Persian, Polish, Serbian and Yiddish.
pub fn snowball_language(lang: Option<&str>) -> Option<Algorithm> {
    Some(match lang? {
        "ar" => Algorithm::Arabic,
        "da" => Algorithm::Danish,
        "nl" => Algorithm::Dutch,
        "fi" => Algorithm::Finnish,
        "fr" => Algorithm::French,
        "de" => Algorithm::German,
        "el" => Algorithm::Greek,
        "hu" => Algorithm::Hungarian,
        "it" => Algorithm::Italian,
        "no" | "nb" | "nn" => Algorithm::Norwegian,
        "pt" => Algorithm::Portuguese,
        "ro" => Algorithm::Romanian,
        "ru" => Algorithm::Russian,
        "es" => Algorithm::Spanish,
        "sv" => Algorithm::Swedish,
        "ta" => Algorithm::Tamil,
        "tr" => Algorithm::Turkish,
        "hy" => Algorithm::Armenian,
        "eu" => Algorithm::Basque,
        "ca" => Algorithm::Catalan,
        "cs" => Algorithm::Czech,
        "eo" => Algorithm::Esperanto,
        "et" => Algorithm::Estonian,
        "hi" => Algorithm::Hindi,
        "id" => Algorithm::Indonesian,
        "ga" => Algorithm::Irish,
        "lt" => Algorithm::Lithuanian,
        "ne" => Algorithm::Nepali,
        "fa" => Algorithm::Persian,
        "pl" => Algorithm::Polish,
        "sr" => Algorithm::Serbian,
        "yi" => Algorithm::Yiddish,
        _ => return None,
    })
}

/// Tantivy's name of a stemmer's language, for its Snowball stop list: `StopWordFilter::new`
/// has none for some of these (Arabic, Greek, Romanian, Tamil, Turkish), whose pages then
/// drop the generic stop words only.
fn snowball_stop_list(algorithm: Algorithm) -> Option<Language> {
    Some(match algorithm {
        Algorithm::Arabic => Language::Arabic,
        Algorithm::Danish => Language::Danish,
        Algorithm::Dutch => Language::Dutch,
        Algorithm::Finnish => Language::Finnish,
        Algorithm::French => Language::French,
        Algorithm::German => Language::German,
        Algorithm::Greek => Language::Greek,
        Algorithm::Hungarian => Language::Hungarian,
        Algorithm::Italian => Language::Italian,
        Algorithm::Norwegian => Language::Norwegian,
        Algorithm::Portuguese => Language::Portuguese,
        Algorithm::Romanian => Language::Romanian,
        Algorithm::Russian => Language::Russian,
        Algorithm::Spanish => Language::Spanish,
        Algorithm::Swedish => Language::Swedish,
        Algorithm::Tamil => Language::Tamil,
        Algorithm::Turkish => Language::Turkish,
        _ => return None,
    })
}

/// How a page or a query in a language is analysed when not by the registered analyzer alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OwnAnalysis {
    /// The language's Snowball stop list and stemmer after the generic stop words.
    Snowball(Algorithm),
    /// The registered analysis with Japanese's cut of kanji runs: a run of kanji alone in
    /// Japanese text (a heading, a keyword, a query) holds no kana to show it is Japanese.
    Japanese,
}

impl OwnAnalysis {
    /// The analysis of `lang`, `None` for a language the registered analyzer suits.
    pub fn of(lang: Option<&str>) -> Option<OwnAnalysis> {
        match lang? {
            "ja" => Some(OwnAnalysis::Japanese),
            lang => snowball_language(Some(lang)).map(OwnAnalysis::Snowball),
        }
    }

    pub fn analyzer(self) -> TextAnalyzer {
        match self {
            OwnAnalysis::Snowball(algorithm) => analyzer_of(algorithm),
            OwnAnalysis::Japanese => registered_analysis(DocViewTokenizer::japanese()),
        }
    }
}

/// The analyzer of a page or query in `lang`: the registered one, or the language's own
/// ([`OwnAnalysis`]).
pub fn analyzer_for(lang: Option<&str>) -> TextAnalyzer {
    OwnAnalysis::of(lang).map_or_else(docview_analyzer, OwnAnalysis::analyzer)
}

/// The analyzer a query is analysed with for `lang`, beside the registered one: the analysis
/// of the collection's pages in `lang` ([`OwnAnalysis`]); `None` when those pages are
/// analysed by the registered analyzer.
pub fn query_analyzer_for(lang: &str) -> Option<TextAnalyzer> {
    OwnAnalysis::of(Some(lang)).map(OwnAnalysis::analyzer)
}

/// Whether pages in `lang` have an analysis of their own ([`query_analyzer_for`]), without
/// building it.
pub fn has_query_analysis(lang: &str) -> bool {
    OwnAnalysis::of(Some(lang)).is_some()
}

fn analyzer_of(algorithm: Algorithm) -> TextAnalyzer {
    let generic = StopWordFilter::remove(generic_stop_words().iter().map(|w| w.to_string()));
    let tokenizer =
        if algorithm == Algorithm::Turkish { DocViewTokenizer::turkish() } else { DocViewTokenizer::default() };
    let builder = TextAnalyzer::builder(tokenizer).filter(generic).dynamic();
    let builder = match snowball_stop_list(algorithm).and_then(StopWordFilter::new) {
        Some(own) => builder.filter_dynamic(own),
        None => builder,
    };
    builder.filter_dynamic(SnowballStemmer(algorithm)).build()
}

/// The analysed tokens of `text` (positions and offsets kept), repeats kept.
pub fn analyze_tokens(analyzer: &mut TextAnalyzer, text: &str) -> Vec<Token> {
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        out.push(stream.token().clone());
    }
    out
}

/// Registers our analyzer on an index (needed after every create or open).
pub fn register_tokenizers(index: &Index) {
    index.tokenizers().register(TOKENIZER_NAME, docview_analyzer());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(text: &str) -> Vec<String> {
        analyze_as(None, text)
    }

    fn analyze_as(lang: Option<&str>, text: &str) -> Vec<String> {
        analyze_tokens(&mut analyzer_for(lang), text).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn pages_are_stemmed_and_stopped_in_their_language() {
        assert_eq!(analyze_as(Some("de"), "Die Häuser und das Haus"), ["haus", "haus"]);
        assert_eq!(analyze_as(Some("fr"), "les maisons de la ville"), ["maison", "vill"]);
        assert_eq!(analyze_as(Some("ru"), "книги и книга"), ["книг", "книг"]);
        // English, a language without a stemmer, and no language: the registered analyzer.
        for lang in [Some("en"), Some("vi"), Some("zh"), None] {
            assert_eq!(analyze_as(lang, "The Running of the Computers"), ["run", "comput"], "{lang:?}");
        }
    }

    #[test]
    fn a_japanese_page_is_cut_as_its_queries_are() {
        // Written for this test: the keyword "library" alone, and a heading "city library
        // opening" of kanji alone. jieba cuts 図書館 into 図 書館; a Japanese page's fields
        // (its keywords field holds each keyword alone, without kana) and a query analysed
        // for Japanese both give the bigrams of the stretch, wherever it stands.
        assert_eq!(analyze("図書館"), ["図", "書館"]);
        assert_eq!(analyze_as(Some("ja"), "図書館"), ["図書", "書館"]);
        let heading = analyze_as(Some("ja"), "市立図書館開館記念");
        assert_eq!(heading, ["市立", "立図", "図書", "書館", "館開", "開館", "館記", "記念"]);
        let query: Vec<String> =
            analyze_tokens(&mut query_analyzer_for("ja").unwrap(), "図書館").into_iter().map(|t| t.text).collect();
        assert_eq!(query, analyze_as(Some("ja"), "図書館"));
        assert!(has_query_analysis("ja") && has_query_analysis("de") && !has_query_analysis("zh"));
        // Chinese pages keep jieba's cut.
        assert_eq!(analyze_as(Some("zh"), "图书馆"), analyze("图书馆"));
    }

    #[test]
    fn japanese_stretches_of_kanji_are_bigrams_across_the_segmenters_cuts() {
        // Written for this test. Hiragana written with kanji in one token (the inflection of
        // 読む, the particle of 図書館で) are no term, so the word meets its other forms; a
        // kanji alone is its own term; katakana and digits stay terms of their own.
        let terms = |text| analyze_as(Some("ja"), text);
        assert!(terms("本を読みました").contains(&"読".to_string()), "{:?}", terms("本を読みました"));
        assert!(terms("読む").contains(&"読".to_string()));
        assert!(terms("図書館で本を借りる").starts_with(&["図書".into(), "書館".into()]));
        assert!(terms("図書館で本を借りる").contains(&"本".to_string()));
        assert!(terms("3月にコンピュータ室").iter().any(|t| t == "コンピュータ"), "{:?}", terms("3月にコンピュータ室"));
        // Every term of a query of kanji is a term of a page that writes it inside a longer
        // stretch, and a term's span is its text's.
        let page = "市立図書館開館記念の講演会が開かれました";
        let tokens = analyze_tokens(&mut analyzer_for(Some("ja")), page);
        for query in ["図書館", "市立図書館", "開館記念", "講演会", "講演"] {
            for term in terms(query) {
                assert!(tokens.iter().any(|t| t.text == term), "{query}: {term} not in {tokens:?}");
            }
        }
        for t in &tokens {
            assert_eq!(page[t.offset_from..t.offset_to], t.text, "{t:?}");
        }
        // Folded kanji (a compatibility ideograph) take the token's span.
        let folded = analyze_tokens(&mut analyzer_for(Some("ja")), "\u{F9DC}理");
        assert!(folded.iter().all(|t| t.offset_from == 0 && t.offset_to == "\u{F9DC}理".len()), "{folded:?}");
    }

    #[test]
    fn turkish_pages_lower_i_by_the_turkish_rule() {
        // Written for this test: "LIGHT", "Light" and "light" (ışık), "Istanbul" (İstanbul).
        assert_eq!(analyze_as(Some("tr"), "IŞIK Işık ışık"), analyze_as(Some("tr"), "ışık ışık ışık"));
        assert_eq!(analyze_as(Some("tr"), "İstanbul"), analyze_as(Some("tr"), "istanbul"));
        // Other languages keep Unicode's default for I; İ is i everywhere.
        assert_eq!(analyze_as(Some("de"), "IRIS"), ["iris"]);
        assert_eq!(analyze("İstanbul"), ["istanbul"]);
    }

    #[test]
    fn languages_beyond_tantivys_seventeen_are_stemmed_too() {
        // Written for this test: inflections of one word each, which Snowball's stemmer of the
        // language brings to one stem: Czech "book", Polish "city", Catalan "market",
        // Indonesian "to play" (prefixes), Lithuanian "city".
        for (lang, forms) in [
            ("cs", "knihy knihou"),
            ("pl", "miasta miastem"),
            ("ca", "mercats mercat"),
            ("id", "bermain permainan"),
            ("lt", "miestas mieste"),
        ] {
            let stems = analyze_as(Some(lang), forms);
            assert_eq!(stems.len(), 2, "{lang}: {stems:?}");
            assert_eq!(stems[0], stems[1], "{lang}: {forms} -> {stems:?}");
        }
        assert!(snowball_language(Some("hi")).is_some() && snowball_language(Some("vi")).is_none());
    }

    #[test]
    fn english_is_stemmed_and_stop_words_removed() {
        assert_eq!(analyze("The Running of the Computers"), ["run", "comput"]);
    }

    #[test]
    fn chinese_is_segmented_not_dropped() {
        let tokens = analyze("大熊猫的保护工作");
        assert!(tokens.contains(&"大熊猫".to_string()) || tokens.contains(&"熊猫".to_string()), "{tokens:?}");
        assert!(!tokens.contains(&"的".to_string()));
    }

    #[test]
    fn hangul_is_indexed_as_overlapping_bigrams() {
        // Written for this test: "raised the base rate" (object particle 를).
        assert_eq!(analyze("기준금리를 올렸다"), ["기준", "준금", "금리", "리를", "올렸", "렸다"]);
        // A one-syllable word stays itself; Latin letters joined to Hangul stay a word of their own.
        assert_eq!(analyze("집 K팝"), ["집", "k", "팝"]);
        let text = "한국은행은 기준금리를";
        let tokens = analyze_tokens(&mut analyzer_for(None), text);
        for (i, token) in tokens.iter().enumerate() {
            assert_eq!(token.position, i);
            assert_eq!(&text[token.offset_from..token.offset_to], token.text);
        }
        // Other scripts are as the shared tokenizer gives them.
        assert_eq!(analyze("Здравствуй ตลาดน้ำ"), ["здравствуй", "ตลาด", "น้ำ"]);
    }

    #[test]
    fn hangul_words_keep_the_texts_offsets_and_no_punctuation_terms() {
        // İ and the Kelvin sign change length when lower-cased; the apostrophe, the full stop
        // and the combining acute are joined into the word by UAX #29 but are no terms.
        for (text, terms) in [
            ("İz한국", &["iz", "한국"][..]),
            ("\u{212A}팝 서울", &["k", "팝", "서울"][..]),
            ("한국'어 서울.Com 한\u{301}국", &["한국", "어", "서울", "com", "한", "국"][..]),
        ] {
            let tokens = analyze_tokens(&mut analyzer_for(None), text);
            assert_eq!(tokens.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(), terms, "{text}");
            for token in &tokens {
                assert_eq!(written_term(text, token), token.text, "{text}");
            }
        }
    }

    /// What the text at a token's span says: its lower case ([`crate::text::fold`]) when it is
    /// already folded, else its fold, of which a Hangul bigram is a part.
    fn written_term(text: &str, token: &Token) -> String {
        let written = &text[token.offset_from..token.offset_to];
        if is_folded(written) {
            crate::text::fold(written, true).into_owned()
        } else {
            let folded = crate::text::fold(written, true);
            assert!(folded.contains(token.text.as_str()), "{:?} not in {folded:?}", token.text);
            token.text.clone()
        }
    }

    #[test]
    fn compatibility_and_decomposed_forms_are_the_usual_terms() {
        // Fullwidth Latin and digits, halfwidth katakana with its voicing mark, Hangul as
        // conjoining jamo (NFD), e with a combining acute: each is the term of its usual form.
        for (written, usual) in [
            ("ＡＢＣ１２３", "abc123"),
            ("ｺﾝﾋﾟｭｰﾀｰ", "コンピューター"),
            ("\u{1100}\u{1175}\u{110C}\u{116E}\u{11AB}\u{1100}\u{1173}\u{11B7}\u{1105}\u{1175}", "기준금리"),
            ("Caf\u{65}\u{301}", "Café"),
        ] {
            assert_eq!(analyze(written), analyze(usual), "{written}");
            assert_eq!(crate::text::terms(written), crate::text::terms(usual), "{written}");
        }
        // The bigrams of a folded Hangul word have the written word's span.
        let text = "\u{1100}\u{1175}\u{110C}\u{116E}\u{11AB} 서울";
        let tokens = analyze_tokens(&mut analyzer_for(None), text);
        assert_eq!(tokens.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(), ["기준", "서울"]);
        assert_eq!((tokens[0].offset_from, tokens[0].offset_to), (0, text.find(' ').unwrap()));
    }

    proptest::proptest! {
        /// Whatever the mix of scripts, the index's tokens are the text's terms at their
        /// offsets (char boundaries within it), begin in order, and are numbered in order; the
        /// full analyzer (stop words, stemmer) keeps offsets of the same kind.
        #[test]
        fn tokens_of_mixed_scripts_are_spans_of_the_text(
            text in "[a-zA-Z0-9 .,'\u{130}\u{212A}\u{301}\u{200D}\u{E01}-\u{E5B}\u{E81}-\u{EDF}\u{1000}-\u{109F}\u{1780}-\u{17FF}\u{AC00}-\u{AC40}\u{D7A0}-\u{D7A3}\u{1100}-\u{1112}\u{1161}-\u{1175}\u{11A8}-\u{11C2}\u{3131}-\u{318E}\u{4E00}-\u{4E40}\u{3041}-\u{3096}\u{30A1}-\u{30FA}\u{FF10}-\u{FF5A}\u{FF66}-\u{FF9F}\u{FFA0}-\u{FFDC}]{0,40}"
        ) {
            let tokens = analyze_tokens(&mut TextAnalyzer::builder(DocViewTokenizer::default()).build(), &text);
            let mut previous: Option<&Token> = None;
            for (i, token) in tokens.iter().enumerate() {
                proptest::prop_assert_eq!(token.position, i);
                proptest::prop_assert!(token.offset_from < token.offset_to && token.offset_to <= text.len());
                proptest::prop_assert!(text.is_char_boundary(token.offset_from) && text.is_char_boundary(token.offset_to));
                proptest::prop_assert_eq!(&written_term(&text, token), &token.text);
                proptest::prop_assert!(token.text.chars().any(char::is_alphanumeric), "{:?}", token.text);
                if let Some(previous) = previous {
                    proptest::prop_assert!(previous.offset_from <= token.offset_from);
                    proptest::prop_assert!(previous.offset_to <= token.offset_to);
                }
                previous = Some(token);
            }
            for token in analyze_tokens(&mut analyzer_for(None), &text) {
                proptest::prop_assert!(text.is_char_boundary(token.offset_from) && text.is_char_boundary(token.offset_to));
                proptest::prop_assert!(token.offset_from < token.offset_to && token.offset_to <= text.len());
            }
        }
    }

    #[test]
    fn a_voicing_mark_folded_out_of_a_hangul_word_is_no_term() {
        // Found by the property test below: a final jamo and a halfwidth voicing mark, which
        // the fold makes a combining mark.
        let tokens = analyze_tokens(&mut analyzer_for(None), "\u{11A8}\u{FF9E}");
        assert_eq!(tokens.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(), ["\u{11A8}"]);
        assert!(crate::text::terms("\u{3099}").is_empty());
    }

    #[test]
    fn empty_text_gives_no_tokens() {
        assert!(analyze("").is_empty());
    }
}
