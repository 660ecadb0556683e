//! Web page integration (§6): the DocView record of a page, built from its tag tree and its
//! topic content — identifier, type, content classification code, title, keywords, abstract,
//! topic content and relevant hyperlinks.

mod summary;

use std::borrow::Cow;
use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::clean::{BlockWeights, FeatureVector, TopicContent, feature_vector};
use crate::config::DocViewConfig;
use crate::tagtree::{BlockType, TagTree};
use crate::text::{StopWords, for_each_token, page_language};

pub use summary::{abstract_of, paragraphs};

/// A hyperlink kept in a DocView record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hyperlink {
    pub url: String,
    pub anchor: String,
}

/// An image of an image page's topic content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageImage {
    pub src: String,
    pub alt: String,
}

/// The DocView model of one page (§2), as written to `docview.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocView {
    /// The page URL.
    pub identifier: String,
    /// topic, hub or image (§4.1).
    #[serde(rename = "type")]
    pub page_type: BlockType,
    /// The content classification code (§2, §6): a category code of the classifier's
    /// scheme (by default Table 1's 01–12); absent when classification is off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classification_code: Option<String>,
    /// How sure the classifier is of the code, in (0, 1] (see `classify::Prediction`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classification_confidence: Option<f32>,
    pub title: String,
    pub keywords: Vec<String>,
    #[serde(rename = "abstract")]
    pub summary: String,
    pub topic_content: String,
    pub relevant_hyperlinks: Vec<Hyperlink>,
    /// The images of an image page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<PageImage>,
    /// The purified topic content page (§4.2).
    pub topic_html: String,
    /// The near-replica fingerprint (§5), hex; absent for pages too short to have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// The charset the page was decoded with.
    pub charset: String,
    /// The page's language, a BCP 47 primary subtag (`en`, `zh`, `es`): identified from the
    /// topic content and the declarations (see `text::page_language`); absent only for a page
    /// without letters and without a declared language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}

/// Everything §6 needs about one cleaned page.
pub struct IntegrationInput<'a> {
    pub url: &'a str,
    pub tree: &'a TagTree,
    pub content: &'a TopicContent,
    pub weights: &'a BlockWeights,
    /// The build's stop words; the page's language adds its own list to them.
    pub stop_words: &'a StopWords,
    /// The language the HTTP response declared (`Content-Language`), if any; `<html lang>`
    /// comes from the tree and is read first.
    pub http_language: Option<&'a str>,
}

/// The parts of a DocView record §6 extracts (the caller adds charset and fingerprint).
pub struct Integrated {
    pub record: DocView,
    /// The feature vector of the topic content (Formula 2), reused by the fingerprint stage.
    pub topic_vector: FeatureVector,
    /// The build's stop words with the list of the page's language, for the later stages.
    pub stop_words: StopWords,
}

/// Builds the DocView record of a cleaned page.
pub fn integrate(input: &IntegrationInput<'_>, config: &DocViewConfig) -> Integrated {
    let IntegrationInput { url, tree, content, weights, stop_words, http_language } = *input;
    let base = url::Url::parse(url).ok();
    let topic_content = content.text(tree);
    let lang = language_of(tree, &topic_content, http_language);
    let stop_words = &stop_words.for_language(lang.as_deref());
    let topic_vector = feature_vector(tree, &content.nodes, weights, stop_words);
    let keywords: Vec<String> = topic_vector.top(config.keywords).into_iter().map(|(t, _)| t.to_string()).collect();
    let title = title_of(tree, &topic_vector, config);
    let summary = abstract_of(tree, content, &topic_vector, stop_words, config);
    let relevant_hyperlinks = relevant_hyperlinks(tree, content, &topic_vector, stop_words, base.as_ref(), config);
    let images = if content.page_type == BlockType::Image {
        tree.images
            .iter()
            .filter(|image| content.keep[image.node])
            .map(|image| PageImage {
                src: resolve(base.as_ref(), &image.src).unwrap_or_else(|| image.src.clone()),
                alt: image.alt.clone(),
            })
            .collect()
    } else {
        Vec::new()
    };
    let record = DocView {
        identifier: url.to_string(),
        page_type: content.page_type,
        classification_code: None,
        classification_confidence: None,
        topic_content,
        topic_html: content.html(tree, &title, base.as_ref()),
        title,
        keywords,
        summary,
        relevant_hyperlinks,
        images,
        fingerprint: None,
        charset: String::new(),
        lang,
    };
    Integrated { record, topic_vector, stop_words: stop_words.clone() }
}

/// The page's language: identified from the topic content, or when that is too short to
/// tell (a headline, an image page), from the title and the visible text, with the declarations.
fn language_of(tree: &TagTree, topic_content: &str, http_language: Option<&str>) -> Option<String> {
    page_language(&[tree.lang.as_deref(), http_language], language_texts(tree, topic_content))
}

/// The texts a page's language is identified from, best first: the topic content, then the
/// title and the visible text (made only when asked for).
pub fn language_texts<'a>(tree: &'a TagTree, topic_content: &'a str) -> impl Iterator<Item = Cow<'a, str>> {
    std::iter::once(Cow::Borrowed(topic_content))
        .chain(std::iter::once_with(|| Cow::Owned(format!("{}\n{}", tree.title, tree.visible_text()))))
}

/// The page title (§6): `<title>`, unless it is empty or one that editing tools generate
/// ("Untitled Document", "New Page 1"), in which case the top keywords stand in for it.
pub fn title_of(tree: &TagTree, topic_vector: &FeatureVector, config: &DocViewConfig) -> String {
    let normalized: String =
        tree.title.to_lowercase().chars().filter(|c| !c.is_ascii_digit()).collect::<String>().trim().to_string();
    let generated = normalized.is_empty() || config.generated_titles.iter().any(|t| t.to_lowercase() == normalized);
    if generated {
        topic_vector.top(config.title_keywords).into_iter().map(|(t, _)| t).collect::<Vec<_>>().join(" ")
    } else {
        tree.title.clone()
    }
}

fn resolve(base: Option<&url::Url>, href: &str) -> Option<String> {
    let lower = href.trim().to_ascii_lowercase();
    if lower.is_empty()
        || lower.starts_with('#')
        || ["javascript:", "mailto:", "tel:", "data:"].iter().any(|p| lower.starts_with(p))
    {
        return None;
    }
    match base {
        Some(base) => base.join(href.trim()).ok().map(|u| u.to_string()),
        None => url::Url::parse(href.trim()).ok().map(|u| u.to_string()),
    }
}

/// Relevant hyperlinks (§6, the algorithm at the end of the section). On a topic page, every
/// hub block whose text has a cosine similarity (Formula 3) above β with the topic vector
/// has its links accepted. On a hub page, the central hub blocks kept by cleaning are the
/// main links. Links are resolved against the page URL and deduplicated.
fn relevant_hyperlinks(
    tree: &TagTree,
    content: &TopicContent,
    topic_vector: &FeatureVector,
    stop_words: &StopWords,
    base: Option<&url::Url>,
    config: &DocViewConfig,
) -> Vec<Hyperlink> {
    let mut counts = fnv::FnvHashMap::default();
    let accepted_blocks: Vec<usize> = match content.page_type {
        BlockType::Hub => content.nodes.clone(),
        BlockType::Empty => Vec::new(),
        BlockType::Topic | BlockType::Image => (0..tree.nodes.len())
            .filter(|&id| tree.nodes[id].own_type == BlockType::Hub)
            .filter(|&id| {
                let terms = tree.nodes[id].terms.keyword_candidates().filter_map(|term| stop_words.content_term(term));
                topic_vector.cosine_with_counts(terms, &mut counts) > config.link_similarity
            })
            .collect(),
    };
    let accepted: HashSet<usize> = accepted_blocks.into_iter().collect();
    let mut seen = HashSet::new();
    tree.links
        .iter()
        .filter(|link| accepted.contains(&link.node) && !link.anchor.is_empty())
        .filter_map(|link| {
            let url = resolve(base, &link.href)?;
            seen.insert(url.clone()).then(|| Hyperlink { url, anchor: link.anchor.clone() })
        })
        .collect()
}

/// Sum of keyword weights over the terms of `text` (a sentence's weight, §6). A page's
/// keywords are its content terms ([`StopWords::content_term`]): without an elided article or
/// preposition (`association` for `l'association`) and, on a Korean page, without the final
/// particle (`기준금리` for `기준금리를`). The sentence writes the words as they are, so a word
/// that is no keyword counts for its content term.
pub(crate) fn keyword_weight(
    text: &str,
    keywords: &std::collections::HashMap<&str, f64>,
    stop_words: &StopWords,
) -> f64 {
    let mut weight = 0.0;
    for_each_token(text, |token| {
        let term = token.text.as_ref();
        weight += keywords
            .get(term)
            .or_else(|| stop_words.content_term(term).filter(|t| t.len() < term.len()).and_then(|t| keywords.get(t)))
            .copied()
            .unwrap_or(0.0)
    });
    weight
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::{CleanerKind, Layout, block_weights, clean_page};
    use crate::config::Config;
    use crate::tagtree::build_tag_tree;

    fn record(html: &str, url: &str) -> DocView {
        let config = Config::default();
        let weighty = config.block_weight.forces.keys().cloned().collect();
        let tree = build_tag_tree(html, &config.tag_tree, &weighty);
        let weights = block_weights(&tree, &config.block_weight);
        let layout = Layout::of(&tree, &config.layout);
        let content = clean_page(&tree, &layout, &weights, CleanerKind::DocView, &config);
        let stop_words = StopWords::generic();
        let input = IntegrationInput {
            url,
            tree: &tree,
            content: &content,
            weights: &weights,
            stop_words: &stop_words,
            http_language: None,
        };
        integrate(&input, &config.docview).record
    }

    const STORY: &str = "<html><head><title>Untitled Document</title></head><body>\
        <div id=nav><a href='/'>Home</a> <a href='/about'>About us</a></div>\
        <div id=story><h1>Glacier melt</h1>\
        <p>The glacier lost more ice this summer than in any year on record. Glacier scientists measured the melt with drones.</p>\
        <p>Meltwater from the glacier feeds the valley rivers. Farmers worry about the rivers in late summer.</p></div>\
        <div id=related><a href='/glacier-retreat'>Glacier retreat in the Alps</a> <a href='/glacier-ice'>Ice loss on the glacier</a></div>\
        <div id=ads><a href='https://ads.example/buy'>Buy cheap shoes now</a></div></body></html>";

    #[test]
    fn a_korean_sentence_weighs_its_keywords_written_with_particles() {
        // Written for this test: "the Bank of Korea raised the base rate (object particle)";
        // the page's keyword is the word without its particle (StopWords::content_term).
        let keywords = std::collections::HashMap::from([("기준금리", 2.0), ("kelp", 1.0)]);
        let korean = StopWords::generic().for_language(Some("ko"));
        assert_eq!(keyword_weight("한국은행이 기준금리를 올렸다", &keywords, &korean), 2.0);
        assert_eq!(keyword_weight("기준금리 기준금리", &keywords, &korean), 4.0);
        assert_eq!(keyword_weight("Kelp forests", &keywords, &korean), 1.0);
        assert_eq!(keyword_weight("전문가", &keywords, &korean), 0.0);
    }

    #[test]
    fn a_sentence_weighs_its_keywords_written_with_an_elided_article() {
        // Written for this test: "the association of the beekeepers opened the hive"; the
        // page's keywords are the words without the elided article (StopWords::content_term).
        let keywords = std::collections::HashMap::from([("association", 2.0), ("apiculteurs", 1.0), ("alba", 1.0)]);
        let french = StopWords::generic().for_language(Some("fr"));
        assert_eq!(keyword_weight("L'association des apiculteurs a ouvert la ruche", &keywords, &french), 3.0);
        assert_eq!(keyword_weight("dell'alba", &keywords, &StopWords::generic().for_language(Some("it"))), 1.0);
        // An English page strips nothing: the generic lists hold no elided words.
        assert_eq!(keyword_weight("L'association", &keywords, &StopWords::generic()), 0.0);
    }

    #[test]
    fn no_keyword_is_a_piece_of_an_address_an_escape_or_a_time() {
        // Written for this test: a forum post whose text holds addresses, escapes and times.
        let html = "<html><head><title>Harbour tides</title></head><body><div id=post>\
            <p>Tide charts for the harbour: http://tides.example/charts/harbour.html and \
            http://tides.example/charts/bay.html (www.tides.example/bay).</p>\
            <p>Posted 12:21pm, edited 12:40pm. Search link: \
            https://tides.example/search?q=harbour%2Fcharts%3Aspring&sort=-%2Fmetadata%2Fdate</p>\
            <p>Mail ann@tides.example for the harbour tide charts. Harbour tides rise twice a day.</p>\
            </div></body></html>";
        let r = record(html, "https://forum.example/post/7");
        let prose = "tide charts for the harbour posted edited search link mail harbour tides rise twice a day";
        assert!(r.keywords.iter().any(|k| k == "harbour"), "{:?}", r.keywords);
        for keyword in &r.keywords {
            assert!(prose.split(' ').any(|word| word == keyword), "{keyword:?} in {:?}", r.keywords);
        }
    }

    #[test]
    fn record_has_keywords_abstract_and_relevant_links() {
        let r = record(STORY, "https://news.example/2024/glacier.html");
        assert_eq!(r.page_type, BlockType::Topic);
        assert_eq!(r.keywords[0], "glacier");
        assert_eq!(r.title, format!("{} {}", r.keywords[0], r.keywords[1]));
        assert!(r.summary.contains("The glacier lost more ice"));
        let links: Vec<&str> = r.relevant_hyperlinks.iter().map(|l| l.url.as_str()).collect();
        assert!(links.contains(&"https://news.example/glacier-retreat"), "{links:?}");
        assert!(!links.iter().any(|l| l.contains("ads.example") || l.ends_with("/about")), "{links:?}");
        assert!(r.topic_html.contains("<h1>") || r.topic_html.contains("Glacier melt"));
        assert!(r.classification_code.is_none());
    }

    #[test]
    fn the_abstract_takes_a_sentence_the_page_repeats_once() {
        // Written for this test: the headline written again as a heading, and a paragraph the
        // page repeats (as pages do for a second layout).
        let paragraph = "The ferry to the island runs again after the storm. Its captain says the harbour wall \
            held. Tickets cost the same as last year.";
        let html = format!(
            "<html><head><title>Ferry runs again</title></head><body><article><h1>Ferry runs again</h1>\
             <h2>Ferry runs again</h2><p>{paragraph}</p><p>{paragraph}</p></article></body></html>"
        );
        let r = record(&html, "https://news.example/ferry");
        let sentences = crate::text::split_sentences(&r.summary);
        assert!(r.summary.contains("The ferry to the island runs again"), "{}", r.summary);
        for sentence in ["Ferry runs again", "The ferry to the island runs again", "Tickets cost the same"] {
            assert_eq!(r.summary.matches(sentence).count(), 1, "{sentence:?} in {:?} ({sentences:?})", r.summary);
        }
    }

    #[test]
    fn real_titles_are_kept_and_json_has_the_docview_fields() {
        let r = record(&STORY.replace("Untitled Document", "Glacier melt | News"), "https://news.example/g");
        assert_eq!(r.title, "Glacier melt | News");
        let json = serde_json::to_value(&r).unwrap();
        for field in ["identifier", "type", "title", "keywords", "abstract", "topic_content", "relevant_hyperlinks"] {
            assert!(json.get(field).is_some(), "missing {field}");
        }
        assert!(json.get("classification_code").is_none());
        assert_eq!(json["type"], "topic");
    }
}
