//! Sentence splitting for the abstract (§6), with the sentence marks of every script and
//! abbreviations.

use icu_properties::props::SentenceTerminal;
use icu_properties::{CodePointSetData, CodePointSetDataBorrowed};

/// Abbreviations that end with a period without ending the sentence, lower-cased, without
/// their last period (English, German, French, Spanish, Portuguese, Italian, Polish, Czech,
/// Russian): titles before a name (`Dr. Smith`, `Sra. López`), and the abbreviations of
/// running text (`e.g.`, `z.B.`, `т.е.`). A period after one never ends a sentence. Abbreviations that also end sentences
/// (`etc.`, `Inc.`, `usw.`) are not here: they end one when a capital follows.
const ABBREVIATIONS: &[&str] = &[
    // English
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "gen", "col", "capt", "lt", "sgt", "gov", "sen", "rep",
    "rev", "hon", "pres", "messrs", "vs", "e.g", "i.e", "cf", "approx", "viz", // German
    "z.b", "bzw", "vgl", "hr", "hrn", "dipl", "d.h", "u.a", "ggf", "sog", "evtl", "inkl", // French
    "mme", "mlle", "mm", "p.ex", // Spanish, Portuguese, Italian
    "sra", "srta", "dra", "dña", "sta", "sto", "sig", "sig.ra", "dott", "ing", "avv", "p.ej", "ee.uu",
    // Polish, Czech
    "np", "tzw", "m.in", "itp", "ks", "mgr", "inż", "tj", // Russian
    "т.е", "т.к", "т.н", "им", "ул", "г-н", "г-жа", "проф", "акад",
];

/// Abbreviations that end with a period before a number (`No. 5`, `Fig. 3`, `S. 12`), where the
/// same word at the end of a sentence ("dijo que no.") ends it.
const BEFORE_NUMBERS: &[&str] = &[
    "no", "nos", "nr", "nº", "vol", "vols", "p", "pp", "s", "fig", "figs", "art", "ch", "sec", "eq", "tab", "bd", "ed",
];

/// Unicode's Sentence_Terminal property (UAX #29's STerm, with ICU4X's data): the marks that
/// end a sentence in each script, among them the Chinese `。！？`, the Devanagari and Bengali
/// danda `।`, the Arabic question mark `؟`, the Urdu full stop `۔`, the Armenian `։`, the
/// Ethiopic `።` and the Myanmar `။`.
const SENTENCE_TERMINAL: CodePointSetDataBorrowed<'static> = CodePointSetData::new::<SentenceTerminal>();

/// The ASCII mark that `c` is a compatibility form of (its NFKC), for the marks that behave
/// like it: the Greek question mark `;` (U+037E) and the small semicolon `﹔` (U+FE54) are a
/// `;` and end a sentence before white space like it, while the one-dot leader `․` (U+2024) and the small full stop `﹒` (U+FE52) are
/// periods and, like `.`, do not end one inside a word or a number. Unicode lists the last two
/// as sentence terminals and not the first two. The full-width and small `？！` stay terminals
/// wherever they stand: Chinese writes them with no space after.
fn ascii_form(c: char) -> char {
    match c {
        '\u{037E}' | '\u{FE54}' => ';',
        '\u{2024}' | '\u{FE52}' => '.',
        c => c,
    }
}

/// Whether `c` ends a sentence wherever it stands: `…` and the full-width `；`, which Chinese
/// uses as sentence marks, and every sentence terminal outside ASCII. Those marks have no use
/// inside a word or a number (the ASCII period has: `3.14`, `example.com`), and some scripts
/// (Chinese, Myanmar) write no space after them.
///
/// Not Myanmar's little section `၊`: Unicode lists it with the section `။`, but Burmese writes
/// it as a comma, between the clauses of a sentence that `။` ends.
fn ends_wherever(c: char) -> bool {
    matches!(c, '…' | '；') || (!c.is_ascii() && c != '\u{104A}' && SENTENCE_TERMINAL.contains(c))
}

/// Splits `text` into trimmed, non-empty sentences.
///
/// A sentence ends at a line break, after `…`, `；` and the sentence terminals of Unicode
/// outside ASCII (`。！？`, `।`, `؟`, `۔`, `։`, `።`, `။` …, wherever they stand, but for the
/// full-width full stop `．` before a digit: [`ends_wherever`]), and after `. ! ? ;` (and the
/// marks that are their compatibility forms: [`ascii_form`]) when followed by white space or the end of the text (so "3.14" and "example.com" are not split). Closing quotes and brackets that follow a
/// mark stay with the sentence. A period does not end a sentence after an abbreviation
/// ([`ABBREVIATIONS`], and [`BEFORE_NUMBERS`] before a digit), an initial (`J. Smith`) or a
/// dotted acronym (`U.S. Army`), nor
/// when the next word starts with a lower-case letter (`e.g. the`, as UAX #29's rule SB8).
pub fn split_sentences(text: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, mark)) = chars.next() {
        let c = ascii_form(mark);
        let end = match c {
            '\n' | '\r' => Some(i),
            c if matches!(c, '.' | '!' | '?' | ';') || ends_wherever(c) => {
                let mut end = i + mark.len_utf8();
                while let Some(&(j, next)) = chars.peek() {
                    if matches!(next, '"' | '\'' | '”' | '’' | ')' | '）' | '」' | '』' | '》') {
                        end = j + next.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                let ascii_mark = c.is_ascii();
                match chars.peek() {
                    None => Some(end),
                    Some(&(_, next)) if !ascii_mark => (c != '．' || !next.is_numeric()).then_some(end),
                    Some(&(_, next)) if next.is_whitespace() => {
                        (c != '.' || !period_continues(&text[start..i], &text[end..])).then_some(end)
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(end) = end {
            push_trimmed(&mut sentences, &text[start..end]);
            start = if matches!(c, '\n' | '\r') { end + 1 } else { end };
        }
    }
    if start < text.len() {
        push_trimmed(&mut sentences, &text[start..]);
    }
    sentences
}

/// Whether a period between `before` and `after` (white space first) belongs to an
/// abbreviation or an initial rather than ending the sentence.
fn period_continues(before: &str, after: &str) -> bool {
    let next = after.trim_start_matches(|c: char| c.is_whitespace() && c != '\n' && c != '\r');
    let Some(first) = next.chars().next() else { return false };
    if first == '\n' || first == '\r' {
        return false;
    }
    if first.is_lowercase() {
        return true;
    }
    let word = before.rsplit(char::is_whitespace).next().unwrap_or("").trim_start_matches(['(', '"', '\'', '“', '‘']);
    let lower = word.to_lowercase();
    let mut letters = word.chars();
    let initial = matches!(letters.next(), Some(c) if c.is_uppercase()) && letters.next().is_none();
    initial
        || is_dotted_acronym(word)
        || ABBREVIATIONS.contains(&lower.as_str())
        || (first.is_ascii_digit() && BEFORE_NUMBERS.contains(&lower.as_str()))
}

/// Letters each followed by a period, the last period aside: `U.S` of "U.S.", `D.C`, `a.m`.
/// Like an initial, such an acronym does not end a sentence.
fn is_dotted_acronym(word: &str) -> bool {
    let mut parts = 0;
    for part in word.split('.') {
        let mut chars = part.chars();
        if !matches!(chars.next(), Some(c) if c.is_alphabetic()) || chars.next().is_some() {
            return false;
        }
        parts += 1;
    }
    parts >= 2
}

fn push_trimmed<'a>(out: &mut Vec<&'a str>, sentence: &'a str) {
    let trimmed = sentence.trim();
    if trimmed.chars().any(char::is_alphanumeric) {
        out.push(trimmed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_sentences() {
        assert_eq!(
            split_sentences("Pi is 3.14. See example.com! Really? Yes"),
            ["Pi is 3.14.", "See example.com!", "Really?", "Yes"]
        );
    }

    #[test]
    fn chinese_sentences_split_without_spaces() {
        assert_eq!(
            split_sentences("今天天气很好。我们去公园吧！你来吗？"),
            ["今天天气很好。", "我们去公园吧！", "你来吗？"]
        );
    }

    #[test]
    fn quotes_stay_with_their_sentence_and_lines_split() {
        assert_eq!(
            split_sentences("He said \"no.\" Then left\nNext line"),
            ["He said \"no.\"", "Then left", "Next line"]
        );
    }

    #[test]
    fn abbreviations_and_initials_do_not_end_a_sentence() {
        assert_eq!(
            split_sentences(
                "Dr. Smith met Mr. J. Jones at St. Mary's. They talked, e.g. about rain. See Fig. 3 and No. 5."
            ),
            ["Dr. Smith met Mr. J. Jones at St. Mary's.", "They talked, e.g. about rain.", "See Fig. 3 and No. 5."]
        );
        assert_eq!(
            split_sentences("Das gilt z.B. für Häuser. Die Sra. López dijo que no. Luego se fue."),
            ["Das gilt z.B. für Häuser.", "Die Sra. López dijo que no.", "Luego se fue."]
        );
        assert_eq!(split_sentences("Smith et al. found it. It works."), ["Smith et al. found it.", "It works."]);
    }

    #[test]
    fn dotted_acronyms_do_not_end_a_sentence() {
        assert_eq!(
            split_sentences("The U.S. Army and the U.K. Navy met at 5 p.m. Monday in Washington. Mrs. Lee left."),
            ["The U.S. Army and the U.K. Navy met at 5 p.m. Monday in Washington.", "Mrs. Lee left."]
        );
        assert_eq!(split_sentences("Prices rose 3.5. Sales fell."), ["Prices rose 3.5.", "Sales fell."]);
    }

    #[test]
    fn a_word_in_lower_case_continues_the_sentence_and_etc_may_end_one() {
        assert_eq!(split_sentences("Apples, pears etc. are fruit. Fine."), ["Apples, pears etc. are fruit.", "Fine."]);
        assert_eq!(split_sentences("Apples, pears etc. Then bread."), ["Apples, pears etc.", "Then bread."]);
    }

    #[test]
    fn the_sentence_marks_of_other_scripts_end_sentences() {
        // Written for this test, two short sentences each: Hindi and Bengali (danda), Arabic
        // (question mark, then full stop), Urdu (full stop), Armenian (full stop), Amharic
        // (Ethiopic full stop), Burmese (section mark, no space after it), Chinese.
        for (text, first) in [
            ("बारिश हुई। लोग घर लौटे।", "बारिश हुई।"),
            ("বৃষ্টি হল। মানুষ ফিরল।", "বৃষ্টি হল।"),
            ("هل جاء المطر؟ نعم جاء.", "هل جاء المطر؟"),
            ("بارش ہوئی۔ لوگ گھر گئے۔", "بارش ہوئی۔"),
            ("Անձրև եկավ։ Մարդիկ գնացին։", "Անձրև եկավ։"),
            ("ዝናብ ዘነበ። ሰዎች ሄዱ።", "ዝናብ ዘነበ።"),
            ("မိုးရွာတယ်။လူတွေပြန်သွားတယ်။", "မိုးရွာတယ်။"),
            ("下雨了。大家回家了。", "下雨了。"),
        ] {
            let sentences = split_sentences(text);
            assert_eq!(sentences.len(), 2, "{text}: {sentences:?}");
            assert_eq!(sentences[0], first, "{text}");
        }
        // Burmese: the little section (a comma) joins two clauses of one sentence.
        assert_eq!(split_sentences("မိုးရွာတယ်၊ လူတွေပြန်သွားတယ်။").len(), 1);
        // Compatibility forms of ASCII marks behave as those marks: the Greek question mark
        // ends a sentence before a space, the small full stop and the one-dot leader not
        // inside a word or a number.
        assert_eq!(split_sentences("Τι ώρα είναι; Είναι αργά."), ["Τι ώρα είναι;", "Είναι αργά."]);
        assert_eq!(split_sentences("It rained\u{FE54} we left."), ["It rained\u{FE54}", "we left."]);
        assert_eq!(
            split_sentences("Version 2\u{FE52}5 is out\u{FE52} See www\u{2024}example\u{2024}org."),
            ["Version 2\u{FE52}5 is out\u{FE52}", "See www\u{2024}example\u{2024}org."]
        );
        // A full-width full stop between full-width digits is a decimal point.
        assert_eq!(split_sentences("価格は３．５万円。安い。"), ["価格は３．５万円。", "安い。"]);
    }

    #[test]
    fn punctuation_only_pieces_are_dropped() {
        assert!(split_sentences("... !!! 。。").is_empty());
    }
}
