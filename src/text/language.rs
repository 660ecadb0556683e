//! A page's language: the declared one (`<html lang>`, HTTP `Content-Language`) normalised
//! to a BCP 47 primary language subtag, and the one identified from the text by whatlang
//! (trigram profiles of 69 languages, no model files to load).
//!
//! The two are combined by one rule, [`page_language`]: a confident identification from the
//! text wins, since declarations are often a template's default (an English `lang` on a
//! Spanish article); a declared language the identifier does not know is kept, since the
//! identifier cannot name it; otherwise the declaration, and without one the identifier's
//! best guess. "Confident" is whatlang's own `is_reliable`, not a threshold of ours.

use whatlang::Lang;

/// What the identifier made of a text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Identified {
    /// The BCP 47 primary language subtag (ISO 639-1 where one exists).
    pub lang: &'static str,
    /// whatlang's confidence, in [0, 1].
    pub confidence: f64,
    /// Whether whatlang counts the identification as reliable.
    pub reliable: bool,
}

/// How much of a text the identifier reads: its trigram counts settle within a few hundred
/// characters, while its time grows with the length (chosen on clean-train; see README).
const MAX_IDENTIFIED_BYTES: usize = 1000;

/// Identifies the language of the start of `text` (its first [`MAX_IDENTIFIED_BYTES`]);
/// `None` when that holds no letters of a known script.
pub fn identify(text: &str) -> Option<Identified> {
    let mut end = text.len().min(MAX_IDENTIFIED_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let info = whatlang::detect(&text[..end])?;
    Some(Identified { lang: bcp47_of(info.lang()), confidence: info.confidence(), reliable: info.is_reliable() })
}

/// The primary language subtag of a declared language (`EN`, `en-US`, `zh_CN`, `pt-br`),
/// lower-cased; `None` for what names no language (empty, `und`, `x-default`, `mul`, not a
/// 2–3 letter subtag). Deprecated ISO 639 codes are replaced as BCP 47 prescribes (`iw` →
/// `he`, `in` → `id`, `ji` → `yi`), and a few English names that pages write instead of a
/// code (`english`, `german`) are read as their code.
pub fn normalize_declared(declared: &str) -> Option<String> {
    let first = declared.split([',', ';']).next()?.trim();
    let primary = first.split(['-', '_']).next()?.trim().to_ascii_lowercase();
    let primary = match primary.as_str() {
        "iw" => "he".to_string(),
        "in" => "id".to_string(),
        "ji" => "yi".to_string(),
        "jw" => "jv".to_string(),
        _ => match code_of_english_name(&primary) {
            Some(code) => code.to_string(),
            None => primary,
        },
    };
    let is_code = (2..=3).contains(&primary.len()) && primary.bytes().all(|b| b.is_ascii_lowercase());
    (is_code && !matches!(primary.as_str(), "und" | "mul" | "zxx" | "mis")).then_some(primary)
}

/// The language of a page from its declarations (normalised, the first that names a
/// language wins: `<html lang>` before `Content-Language`) and the texts it is identified
/// from, best first (the topic content, then the whole visible text: a headline alone is too
/// short to tell). The first text identified reliably decides; see the module documentation
/// for the rule. Later texts are only produced when needed.
pub fn page_language<T: AsRef<str>>(declared: &[Option<&str>], texts: impl IntoIterator<Item = T>) -> Option<String> {
    let declared = declared.iter().flatten().find_map(|d| normalize_declared(d));
    let mut guess = None;
    for text in texts {
        let Some(found) = identify(text.as_ref()) else { continue };
        if found.reliable {
            // A declared language the identifier cannot name (Aragonese, which it would read
            // as Spanish) stays: the identifier's answer would be a close relative's.
            return match declared {
                Some(declared) if !known_to_identifier(&declared) => Some(declared),
                _ => Some(found.lang.to_string()),
            };
        }
        // A later text is longer (the visible text holds the topic content): its guess is
        // the better one.
        guess = Some(found.lang);
    }
    declared.or(guess.map(str::to_string))
}

/// Whether the identifier can name `lang`.
fn known_to_identifier(lang: &str) -> bool {
    Lang::all().iter().any(|&l| bcp47_of(l) == lang || macrolanguage_member(lang, l))
}

/// Declared macrolanguages the identifier names by a member: Norwegian (`no`) by Bokmål,
/// Serbo-Croatian (`sh`) by Croatian or Serbian.
fn macrolanguage_member(declared: &str, lang: Lang) -> bool {
    matches!((declared, lang), ("no", Lang::Nob) | ("sh", Lang::Hrv | Lang::Srp))
}

/// A few English language names that pages put in `lang` instead of a code.
fn code_of_english_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "english" => "en",
        "german" | "deutsch" => "de",
        "french" | "francais" => "fr",
        "spanish" | "espanol" => "es",
        "italian" => "it",
        "portuguese" => "pt",
        "russian" => "ru",
        "chinese" => "zh",
        "japanese" => "ja",
        "dutch" => "nl",
        "polish" => "pl",
        _ => return None,
    })
}

/// The writing systems whatlang knows a language by (a BCP 47 primary subtag, as
/// [`bcp47_of`] writes it): Greek for `el`, Cyrillic for `ru` and `uk`, Latin and Cyrillic for
/// `sr`; empty for a language whatlang does not know. Japanese writes kanji too, the Han
/// script whatlang names Mandarin and gives to Mandarin alone (it tells Japanese by its kana).
pub fn scripts_of(lang: &str) -> Vec<whatlang::Script> {
    let known: Vec<Lang> = Lang::all().iter().copied().filter(|&l| bcp47_of(l) == lang).collect();
    let writes = |script: &whatlang::Script| {
        script.langs().iter().any(|l| known.contains(l)) || (*script == whatlang::Script::Mandarin && lang == "ja")
    };
    whatlang::Script::all().iter().copied().filter(writes).collect()
}

/// The writing system most of `text`'s letters are in (whatlang's), `None` without letters.
pub fn script_of_text(text: &str) -> Option<whatlang::Script> {
    whatlang::detect_script(text)
}

/// The BCP 47 primary subtag of a whatlang language: ISO 639-1 where the language has a
/// two-letter code (BCP 47 prefers it), Mandarin as `zh` (the tag pages declare for it) and
/// Western Persian as `fa`.
pub fn bcp47_of(lang: Lang) -> &'static str {
    match lang {
        Lang::Epo => "eo",
        Lang::Eng => "en",
        Lang::Rus => "ru",
        Lang::Cmn => "zh",
        Lang::Spa => "es",
        Lang::Por => "pt",
        Lang::Ita => "it",
        Lang::Ben => "bn",
        Lang::Fra => "fr",
        Lang::Deu => "de",
        Lang::Ukr => "uk",
        Lang::Kat => "ka",
        Lang::Ara => "ar",
        Lang::Hin => "hi",
        Lang::Jpn => "ja",
        Lang::Heb => "he",
        Lang::Yid => "yi",
        Lang::Pol => "pl",
        Lang::Amh => "am",
        Lang::Jav => "jv",
        Lang::Kor => "ko",
        Lang::Nob => "nb",
        Lang::Dan => "da",
        Lang::Swe => "sv",
        Lang::Fin => "fi",
        Lang::Tur => "tr",
        Lang::Nld => "nl",
        Lang::Hun => "hu",
        Lang::Ces => "cs",
        Lang::Ell => "el",
        Lang::Bul => "bg",
        Lang::Bel => "be",
        Lang::Mar => "mr",
        Lang::Kan => "kn",
        Lang::Ron => "ro",
        Lang::Slv => "sl",
        Lang::Hrv => "hr",
        Lang::Srp => "sr",
        Lang::Mkd => "mk",
        Lang::Lit => "lt",
        Lang::Lav => "lv",
        Lang::Est => "et",
        Lang::Tam => "ta",
        Lang::Vie => "vi",
        Lang::Urd => "ur",
        Lang::Tha => "th",
        Lang::Guj => "gu",
        Lang::Uzb => "uz",
        Lang::Pan => "pa",
        Lang::Aze => "az",
        Lang::Ind => "id",
        Lang::Tel => "te",
        Lang::Pes => "fa",
        Lang::Mal => "ml",
        Lang::Ori => "or",
        Lang::Mya => "my",
        Lang::Nep => "ne",
        Lang::Sin => "si",
        Lang::Khm => "km",
        Lang::Tuk => "tk",
        Lang::Aka => "ak",
        Lang::Zul => "zu",
        Lang::Sna => "sn",
        Lang::Afr => "af",
        Lang::Lat => "la",
        Lang::Slk => "sk",
        Lang::Cat => "ca",
        Lang::Tgl => "tl",
        Lang::Hye => "hy",
        Lang::Cym => "cy",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_tags_are_normalised_to_their_primary_subtag() {
        for (declared, expected) in [
            ("EN", Some("en")),
            ("en-US", Some("en")),
            (" zh_CN ", Some("zh")),
            ("pt-BR", Some("pt")),
            ("iw", Some("he")),
            ("English", Some("en")),
            ("de, en", Some("de")),
            ("x-default", None),
            ("und", None),
            ("", None),
            ("12", None),
            ("{{lang}}", None),
        ] {
            assert_eq!(normalize_declared(declared).as_deref(), expected, "{declared:?}");
        }
    }

    #[test]
    fn every_identifier_language_has_a_distinct_tag() {
        let tags: std::collections::HashSet<&str> = Lang::all().iter().map(|&l| bcp47_of(l)).collect();
        assert_eq!(tags.len(), Lang::all().len());
        assert!(tags.iter().all(|t| normalize_declared(t).as_deref() == Some(*t)), "{tags:?}");
    }

    const SPANISH: &str = "El gobierno anunció ayer un nuevo plan para mejorar el transporte público en \
        las ciudades más grandes del país, con más autobuses y trenes durante la noche.";

    #[test]
    fn a_confident_identification_overrides_a_template_declaration() {
        assert_eq!(page_language(&[Some("en")], [SPANISH]).as_deref(), Some("es"));
        assert_eq!(page_language(&[None], [SPANISH]).as_deref(), Some("es"));
    }

    #[test]
    fn the_declaration_decides_short_or_unknown_text() {
        assert_eq!(page_language(&[Some("fr-FR")], ["OK"]).as_deref(), Some("fr"));
        // Aragonese is no language of the identifier: its close relatives must not replace it.
        let aragonese = "A luenga aragonesa ye una luenga romanica parlata en Aragón, en o norte d'a \
            peninsula Iberica, que se charra en as comarcas d'o Pireneu.";
        assert_eq!(page_language(&[Some("an")], [aragonese]).as_deref(), Some("an"));
    }

    #[test]
    fn a_longer_text_decides_when_the_first_is_too_short() {
        let page = format!("Algorithm 37: Telescope\n{SPANISH}");
        assert_eq!(page_language(&[None], ["Algorithm 37: Telescope", page.as_str()]).as_deref(), Some("es"));
        // Nothing reliable: the declaration, else the longest text's best guess.
        assert_eq!(page_language(&[Some("en")], ["Telescope", "Telescope 37"]).as_deref(), Some("en"));
        assert!(page_language(&[None], ["Telescope"]).is_some());
    }

    #[test]
    fn text_without_letters_and_no_declaration_has_no_language() {
        assert_eq!(page_language(&[None], ["12 34 — !!"]), None);
        assert_eq!(page_language(&[Some("und")], [""]), None);
    }

    #[test]
    fn chinese_and_japanese_are_told_apart() {
        assert_eq!(identify("我们在北京大学学习中文，今天天气很好。").map(|i| i.lang), Some("zh"));
        assert_eq!(identify("私たちは東京の大学で日本語を勉強しています。").map(|i| i.lang), Some("ja"));
    }
}
