//! Pages in nine languages other than English, written for these tests
//! (`tests/fixtures/languages/<lang>.html`, one news story each, with a menu and a footer):
//! the record's `lang` is the page's language whatever its `<html lang>` says (missing,
//! upper-case, with a region, or a template's wrong `en`), and its keywords hold no function
//! word of its language.
//!
//! The function words below are the articles, pronouns, prepositions, conjunctions and
//! auxiliaries of each language, written for this test from grammar, not copied from the stop
//! lists the pipeline uses, so the test checks those lists rather than restating them.

mod common;

use common::repo_path;
use indexer::config::Config;
use indexer::input::RawPage;
use indexer::page::{PageContext, process_page};
use indexer::text::StopWords;

const FUNCTION_WORDS: &[(&str, &str)] = &[
    (
        "es",
        "el la los las un una unos unas de del al a en con por para sin sobre entre y o pero que se su sus \
         es son fue era está han ha había lo le les como más muy este esta ese esa todos sus nos",
    ),
    (
        "fr",
        "le la les l un une des de du d au aux à en dans sur pour par avec sans et ou mais que qui ne pas se \
         sa son ses leur leurs il elle ils elles est sont était ont a ce cette plus très tout",
    ),
    (
        "de",
        "der die das den dem des ein eine einen einem einer und oder aber dass mit von zu im in am an auf \
         für bei aus nach ist sind war hat haben wird werden sich sie er es nicht auch noch",
    ),
    (
        "pl",
        "i w z na do od po za o że się nie jest są był była było to ten ta te który która które jak ale \
         albo a też przez dla oraz już tylko może tak",
    ),
    (
        "ru",
        "и в во на с со к по за из от до у о об что это как не но а же ли бы он она они его её их был была \
         было были есть все уже так где который которые",
    ),
    (
        "ja",
        "の は が を に で と も へ や から まで より です ます でした ました した して いる ある する \
         こと もの この その これ それ ため よう",
    ),
    (
        "it",
        "il lo la i gli le un uno una di del della dei delle a al alla da dal in nel nella con su per tra \
         fra e o ma che non si è sono era ha hanno come più anche",
    ),
    (
        "pt",
        "o a os as um uma uns umas de do da dos das em no na nos nas por pelo pela para com sem e ou mas \
         que se não é são foi era tem ao aos mais muito",
    ),
    (
        "nl",
        "de het een en of maar dat die dit van in op aan met voor door naar bij uit om te is zijn was \
         waren heeft hebben wordt worden er niet ook nog zo",
    ),
];

fn process(lang: &str) -> indexer::docview::DocView {
    let config = Config::default();
    let stop_words = StopWords::generic();
    let ctx = PageContext::new(&config, &stop_words).unwrap();
    let path = repo_path(&format!("tests/fixtures/languages/{lang}.html"));
    let raw = RawPage {
        url: format!("https://{lang}.example/story.html"),
        origin: path.display().to_string(),
        bytes: std::fs::read(&path).unwrap(),
        http_charset: None,
        http_language: None,
    };
    process_page(raw, &ctx).unwrap_or_else(|s| panic!("{lang}: skipped: {s:?}")).record
}

#[test]
fn every_page_gets_its_language_whatever_it_declares() {
    for (lang, _) in FUNCTION_WORDS {
        let record = process(lang);
        assert_eq!(record.lang.as_deref(), Some(*lang), "{lang}: keywords {:?}", record.keywords);
    }
}

#[test]
fn keywords_hold_no_function_words_of_the_page_language() {
    for (lang, words) in FUNCTION_WORDS {
        let function_words: Vec<&str> = words.split_whitespace().collect();
        let record = process(lang);
        println!("{lang}: {:?}", record.keywords);
        assert!(record.keywords.len() >= 5, "{lang}: too few keywords {:?}", record.keywords);
        let bad: Vec<&String> = record.keywords.iter().filter(|k| function_words.contains(&k.as_str())).collect();
        assert!(bad.is_empty(), "{lang}: function words {bad:?} among keywords {:?}", record.keywords);
        // Nor single letters or kana (a lone kanji can be a word: 寺, temple).
        let single_letter = |k: &str| {
            k.chars().count() == 1 && !indexer::text::is_cjk(k.chars().next().unwrap())
                || k.chars().count() == 1 && matches!(k.chars().next().unwrap() as u32, 0x3040..=0x30FF)
        };
        assert!(!record.keywords.iter().any(|k| single_letter(k)), "{lang}: {:?}", record.keywords);
    }
}

/// Thai is written without spaces between words: its keywords are words of the story (cut by
/// a dictionary), not a consonant with its vowel signs each. The words below are this page's
/// content words as a Thai reader cuts them, written for this test.
#[test]
fn thai_keywords_are_words_of_the_page() {
    let words = "ตลาด น้ำ ตลาดน้ำ ริม คลอง เปิด อีก ครั้ง หลัง ท่วม น้ำท่วม สาม เดือน อำเภอ บริการ วัน เสาร์ ปิด \
                 พ่อค้า แม่ค้า สอง ร้อย คน พาย เรือ ผลไม้ ขนม อาหาร ขาย เช้า นายอำเภอ กล่าว เทศบาล ซ่อม สะพาน ไม้ \
                 ทางเดิน เดิน ทาง งบประมาณ จังหวัด นักท่องเที่ยว กรุงเทพมหานคร เดินทาง ซื้อ ทุเรียน มะม่วง จำนวน \
                 ชาวบ้าน หวัง ช่วย เศรษฐกิจ ชุมชน ฟื้นตัว ฟื้น ตัว จัด การแสดง แสดง ดนตรี พื้นบ้าน อาทิตย์ ช่วง \
                 ฤดูหนาว ฤดู หนาว หมด ชั่วโมง บอก ประมาณ";
    let words: Vec<&str> = words.split_whitespace().collect();
    let record = process("th");
    assert_eq!(record.lang.as_deref(), Some("th"));
    assert!(record.keywords.len() >= 5, "{:?}", record.keywords);
    let odd: Vec<&String> = record.keywords.iter().filter(|k| !words.contains(&k.as_str())).collect();
    assert!(odd.is_empty(), "not words of the page: {odd:?} among {:?}", record.keywords);
}

#[test]
fn the_page_language_decides_the_stop_words_not_the_declaration() {
    // es.html declares `en` (a template's default) but is Spanish: its keywords are the story's.
    let record = process("es");
    assert!(record.keywords.iter().any(|k| k == "biblioteca"), "{:?}", record.keywords);
}

/// A German page is indexed with German stems and a query is analysed for the collection's
/// languages: "Dorf" finds the page that writes "Dörfern" and "Dörfer", which the English
/// stemmer would leave apart.
#[test]
fn a_query_finds_inflected_words_of_the_pages_language() {
    let pages = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    std::fs::copy(repo_path("tests/fixtures/languages/de.html"), pages.path().join("de.html")).unwrap();
    let english = "<html><head><title>Harbour cranes</title></head><body><article><h1>Harbour cranes</h1>\
        <p>The harbour bought two new cranes this spring, and the dock workers say the loading of ships \
        now takes half the time it took with the old cranes.</p></article></body></html>";
    std::fs::write(pages.path().join("en.html"), english).unwrap();
    build(pages.path(), out.path());
    for (query, page) in [("Dorf", "de.html"), ("crane", "en.html")] {
        let stdout = search(out.path(), query, "abstract");
        let first = stdout.lines().next().unwrap_or_default();
        assert!(first.contains(page), "{query}: {stdout}");
    }
}

/// `indexer build --quiet PAGES --dir OUT`, which must succeed.
fn build(pages: &std::path::Path, out: &std::path::Path) {
    let build = std::process::Command::new(env!("CARGO_BIN_EXE_indexer"))
        .args(["build", "--quiet"])
        .arg(pages)
        .arg("--dir")
        .arg(out)
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
}

/// The JSON lines `indexer search QUERY --index INDEX --dir OUT` prints.
fn search(out: &std::path::Path, query: &str, index: &str) -> String {
    let search = std::process::Command::new(env!("CARGO_BIN_EXE_indexer"))
        .args(["search", query, "--json", "--index", index, "--dir"])
        .arg(out)
        .output()
        .unwrap();
    String::from_utf8_lossy(&search.stdout).into_owned()
}

/// Korean attaches particles to words (가계부채가, "household debt" + subject particle) and Thai
/// writes no spaces between words: a query word finds its page in both, and a page in neither
/// language is not found by them.
#[test]
fn korean_and_thai_query_words_find_their_pages() {
    let pages = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    for lang in ["ko", "th", "es"] {
        let name = format!("{lang}.html");
        std::fs::copy(repo_path(&format!("tests/fixtures/languages/{name}")), pages.path().join(name)).unwrap();
    }
    build(pages.path(), out.path());
    // 가계부채 and 환율 are written only with a particle (가계부채가, 환율의); 기준금리 with
    // one (기준금리를); 금리 inside a compound and with a particle (금리가).
    for (query, page) in [
        ("가계부채", "ko.html"),
        ("환율", "ko.html"),
        ("기준금리", "ko.html"),
        ("금리", "ko.html"),
        ("ทุเรียน", "th.html"),
    ] {
        for index in ["abstract", "fulltext"] {
            let stdout = search(out.path(), query, index);
            assert_eq!(stdout.lines().count(), 1, "{query} ({index}): {stdout}");
            assert!(stdout.contains(page), "{query} ({index}): {stdout}");
        }
    }
}
