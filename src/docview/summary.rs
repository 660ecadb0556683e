//! The abstract (§6): paragraphs from the topic root, key sentences from each paragraph.

use std::collections::{HashMap, HashSet};

use super::keyword_weight;
use crate::clean::{FeatureVector, TopicContent};
use crate::config::DocViewConfig;
use crate::tagtree::{Item, TagTree, collapse_whitespace};
use crate::text::{StopWords, for_each_token, is_cjk, split_sentences, terms};

/// The paragraphs of the topic content (§6 step 1): the children of the topic root, each with
/// the kept text of its subtree. Text the root holds itself between children (a heading, a
/// loose line) forms paragraphs too, in order.
pub fn paragraphs(tree: &TagTree, content: &TopicContent) -> Vec<String> {
    let Some(root) = content.root else {
        return Vec::new();
    };
    let keep = |id| content.keep[id];
    if tree.is_leaf(root) {
        return vec![tree.render_subtree_text(root, keep)];
    }
    let mut out = Vec::new();
    let mut own = String::new();
    let flush = |own: &mut String, out: &mut Vec<String>| {
        if !own.trim().is_empty() {
            out.push(own.trim().to_string());
        }
        own.clear();
    };
    for item in &tree.nodes[root].items {
        match item {
            Item::Text { text, .. } if keep(root) => own.push_str(text),
            Item::Break if keep(root) => own.push('\n'),
            Item::Child(child) => {
                flush(&mut own, &mut out);
                let text = tree.render_subtree_text(*child, keep);
                if !text.is_empty() {
                    out.push(text);
                }
            }
            _ => {}
        }
    }
    flush(&mut own, &mut out);
    out
}

/// The abstract (§6 step 2), bounded relative to its page: the headline (when the topic
/// content holds it), then, of the topic content's other `n` sentences (utility lines left
/// out, see [`is_utility`]),
/// `min(δ, n, max(abstract_min_sentences, ⌈abstract_share × n⌉))`. The paper fixes δ = 15
/// for every page; on pages of 10 to 20 sentences that is nearly the whole text, and an
/// abstract as long as its page summarizes nothing. Each paragraph's quota δ_i is in
/// proportion to its size in terms (largest remainders, never more than it has); in each
/// paragraph the δ_i sentences with the highest weight, where a sentence weighs the sum of
/// the weights of the θ top keywords it contains. Sentences are given in document order, so
/// the abstract reads as the page does.
pub fn abstract_of(
    tree: &TagTree,
    content: &TopicContent,
    topic_vector: &FeatureVector,
    stop_words: &StopWords,
    config: &DocViewConfig,
) -> String {
    let headline = content.headline(tree);
    let mut headline_seen = false;
    // The headline's sentence, wherever it is; a line that runs on after the headline (a
    // byline on the same line) goes on as a sentence of its own.
    let mut without_headline = |sentence: &str| -> Option<String> {
        let sentence = collapse_whitespace(sentence);
        let after_headline = headline.as_deref().filter(|_| !headline_seen).and_then(|h| {
            // At a word's end: "Glacier melt" is not the start of "Glacier melting is …".
            sentence
                .strip_prefix(h)
                .filter(|rest| !rest.starts_with(char::is_alphanumeric) || !h.ends_with(char::is_alphanumeric))
        });
        match after_headline {
            Some(rest) => {
                headline_seen = true;
                Some(rest.trim().to_string()).filter(|rest| !rest.is_empty())
            }
            None => Some(sentence),
        }
    };
    let paragraphs: Vec<Vec<String>> = paragraphs(tree, content)
        .iter()
        .map(|p| {
            split_sentences(p)
                .into_iter()
                .filter_map(&mut without_headline)
                .filter(|s| !is_utility(s))
                .collect::<Vec<_>>()
        })
        .filter(|s| !s.is_empty())
        .collect();
    // A sentence the page writes again (a paragraph repeated for another layout, a heading
    // repeating the headline) says nothing new: the abstract keeps its first occurrence only,
    // and the budget goes to other sentences.
    let mut seen: HashSet<String> =
        headline.as_deref().filter(|_| headline_seen).map(str::to_lowercase).into_iter().collect();
    let paragraphs: Vec<Vec<String>> = paragraphs
        .into_iter()
        .map(|p| p.into_iter().filter(|s| seen.insert(s.to_lowercase())).collect::<Vec<_>>())
        .filter(|s| !s.is_empty())
        .collect();
    let keywords: HashMap<&str, f64> = topic_vector.top(config.abstract_keywords).into_iter().collect();
    let sizes: Vec<usize> = paragraphs.iter().map(|p| p.iter().map(|s| terms(s).len()).sum()).collect();
    let available: Vec<usize> = paragraphs.iter().map(Vec::len).collect();
    let budget = sentence_budget(available.iter().sum(), config);
    let quotas = quotas(&sizes, &available, budget);
    // The headline leads the abstract, as it leads the page for a reader; it is not one of
    // the sentences the budget counts.
    let mut chosen: Vec<&str> = headline.as_deref().filter(|_| headline_seen).into_iter().collect();
    for (sentences, quota) in paragraphs.iter().zip(quotas) {
        let mut ranked: Vec<(usize, f64)> =
            sentences.iter().enumerate().map(|(i, s)| (i, keyword_weight(s, &keywords, stop_words))).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut picked: Vec<usize> = ranked.into_iter().take(quota).map(|(i, _)| i).collect();
        picked.sort_unstable();
        chosen.extend(picked.into_iter().map(|i| sentences[i].as_str()));
    }
    join_sentences(&chosen)
}

/// How many of a page's `sentences` its abstract takes: a share of them, at least a floor
/// (a short text keeps its few sentences), at most δ.
fn sentence_budget(sentences: usize, config: &DocViewConfig) -> usize {
    let share = (config.abstract_share.clamp(0.0, 1.0) * sentences as f64).ceil() as usize;
    share.max(config.abstract_min_sentences).min(config.abstract_sentences).min(sentences)
}

/// Whether a sentence is page furniture inside the article rather than its text: a byline
/// and date line, a share/like/reply bar, a font-size toggle, a view counter, "read more".
/// General rule, not a list of pages' strings: such a line does not end like a sentence,
/// has few words of text, and more than half of its words are numbers, single CJK characters standing
/// alone (大 中 小), or words of the small user-interface vocabulary below, which names
/// the controls and labels of web pages in several languages.
pub fn is_utility(sentence: &str) -> bool {
    let trimmed = sentence.trim_end_matches(|c: char| c.is_whitespace() || "»›>→】]）)".contains(c));
    if trimmed.ends_with(['.', '!', '?', '。', '！', '？', '…']) {
        return false;
    }
    let mut words = 0usize;
    let mut furniture = 0usize;
    for_each_token(sentence, |token| {
        words += 1;
        let text = token.text.as_ref();
        let single_cjk = text.chars().count() == 1 && text.chars().all(is_cjk);
        if single_cjk || is_number(text) || is_interface_word(text) {
            furniture += 1;
        }
    });
    let text_words = words - furniture;
    furniture > text_words && text_words <= MAX_UTILITY_TEXT_WORDS
}

/// A number as pages write counts and dates: digits with grouping or decimal marks.
fn is_number(token: &str) -> bool {
    token.chars().any(|c| c.is_ascii_digit()) && token.chars().all(|c| c.is_ascii_digit() || ",.:'".contains(c))
}

/// A utility line has at most this many words besides its furniture (a name, a site, a
/// section): a line with more is text, even when it names a date and an author.
const MAX_UTILITY_TEXT_WORDS: usize = 6;

/// Words of web-page controls and labels (lower case; Chinese as jieba segments them):
/// sharing and social buttons, reading controls, counters, bylines and dates.
fn is_interface_word(word: &str) -> bool {
    const WORDS: &[&str] = &[
        // English
        "by",
        "posted",
        "updated",
        "published",
        "author",
        "editor",
        "source",
        "share",
        "shares",
        "shared",
        "like",
        "likes",
        "reply",
        "replies",
        "flag",
        "report",
        "tweet",
        "pin",
        "email",
        "print",
        "save",
        "saved",
        "bookmark",
        "comment",
        "comments",
        "view",
        "views",
        "hits",
        "clicks",
        "read",
        "more",
        "font",
        "size",
        "text",
        "a",
        "follow",
        "subscribe",
        "permalink",
        "link",
        "copy",
        "min",
        "mins",
        "ago",
        "am",
        "pm",
        "jan",
        "january",
        "feb",
        "february",
        "mar",
        "march",
        "apr",
        "april",
        "may",
        "jun",
        "june",
        "jul",
        "july",
        "aug",
        "august",
        "sep",
        "sept",
        "september",
        "oct",
        "october",
        "nov",
        "november",
        "dec",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "facebook",
        "twitter",
        "linkedin",
        "whatsapp",
        "reddit",
        "pinterest",
        "x",
        "st",
        "nd",
        "rd",
        "th",
        // German, French, Spanish, Italian, Portuguese
        "von",
        "mai",
        "juni",
        "juli",
        "okt",
        "dez",
        "märz",
        "teilen",
        "drucken",
        "kommentare",
        "mehr",
        "lesen",
        "weiterlesen",
        "par",
        "partager",
        "imprimer",
        "commentaires",
        "lire",
        "suite",
        "de",
        "compartir",
        "imprimir",
        "comentarios",
        "leer",
        "más",
        "condividi",
        "stampa",
        "commenti",
        "leggi",
        "compartilhar",
        "comentários",
        // Chinese
        "作者",
        "记者",
        "编辑",
        "责任编辑",
        "来源",
        "发布",
        "发布时间",
        "时间",
        "日期",
        "年",
        "月",
        "日",
        "时",
        "分",
        "字号",
        "字体",
        "点击",
        "点击数",
        "点击率",
        "阅读",
        "阅读数",
        "浏览",
        "浏览次数",
        "次",
        "人次",
        "分享",
        "分享到",
        "收藏",
        "打印",
        "关闭",
        "关闭窗口",
        "评论",
        "回复",
        "举报",
        "点赞",
        "赞",
        "转发",
        "更多",
        "全文",
        "返回",
        "顶部",
        "大",
        "中",
        "小",
        "默认",
        "我要",
        "纠错",
    ];
    WORDS.contains(&word)
}

/// Splits `total` sentences over paragraphs in proportion to `sizes`, capped by `available`.
fn quotas(sizes: &[usize], available: &[usize], total: usize) -> Vec<usize> {
    let all: usize = available.iter().sum();
    if all <= total {
        return available.to_vec();
    }
    let size_sum: usize = sizes.iter().sum::<usize>().max(1);
    let exact: Vec<f64> = sizes.iter().map(|&s| total as f64 * s as f64 / size_sum as f64).collect();
    let mut quota: Vec<usize> = exact.iter().zip(available).map(|(e, &a)| (e.floor() as usize).min(a)).collect();
    let mut assigned: usize = quota.iter().sum();
    while assigned < total {
        // The paragraph furthest below its exact share that still has sentences left.
        let next = (0..quota.len())
            .filter(|&i| quota[i] < available[i])
            .max_by(|&a, &b| (exact[a] - quota[a] as f64).total_cmp(&(exact[b] - quota[b] as f64)).then(b.cmp(&a)));
        match next {
            Some(i) => {
                quota[i] += 1;
                assigned += 1;
            }
            None => break,
        }
    }
    quota
}

fn join_sentences(sentences: &[&str]) -> String {
    let mut out = String::new();
    for s in sentences {
        let cjk_end = out.chars().last().is_some_and(|c| "。！？；…」』”".contains(c));
        if !out.is_empty() && !cjk_end {
            out.push(' ');
        }
        out.push_str(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotas_follow_paragraph_size_and_sum_to_delta() {
        assert_eq!(quotas(&[100, 50, 50], &[20, 20, 20], 4), [2, 1, 1]);
        assert_eq!(quotas(&[10, 10], &[1, 9], 4), [1, 3]);
        assert_eq!(quotas(&[1, 1], &[2, 1], 15), [2, 1]);
        assert_eq!(quotas(&[0, 0], &[3, 3], 2).iter().sum::<usize>(), 2);
    }

    #[test]
    fn utility_lines_are_recognised_in_several_languages() {
        for line in [
            "By Maria Lopez, 14 February 2022",
            "12 likes · Reply · Share · Report",
            "Text size: A A A",
            "Read more »",
            "Views: 4,512",
            "Von Jan Meier | 3. Mai 2021",
            "作者：李华 2023年6月1日",
            "【字号 大 中 小】 点击：2048 次",
            "作者：记者 王强 来源：日报 发布时间：2023年09月12日 点击：512 【字号：大 中 小】",
        ] {
            assert!(is_utility(line), "{line}");
        }
        for line in [
            "The harbour reopened on 14 February 2022 after two years of repairs.",
            "Why the tide tables matter",
            "Share prices fell by a third",
            "今年夏天，水库的水位下降了三米。",
            "Photo: Maria Lopez",
        ] {
            assert!(!is_utility(line), "{line}");
        }
    }

    #[test]
    fn the_budget_is_a_share_of_the_page_with_a_floor_and_delta_as_cap() {
        let config = DocViewConfig { abstract_share: 0.3, abstract_min_sentences: 3, ..DocViewConfig::default() };
        assert_eq!(sentence_budget(2, &config), 2);
        assert_eq!(sentence_budget(5, &config), 3);
        assert_eq!(sentence_budget(12, &config), 4);
        assert_eq!(sentence_budget(40, &config), 12);
        assert_eq!(sentence_budget(400, &config), config.abstract_sentences);
    }

    #[test]
    fn chinese_sentences_join_without_spaces() {
        assert_eq!(join_sentences(&["今天下雨。", "明天晴。", "Then"]), "今天下雨。明天晴。Then");
        assert_eq!(join_sentences(&["One.", "Two."]), "One. Two.");
    }
}
