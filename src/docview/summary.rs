//! The abstract (§6): paragraphs from the topic root, key sentences from each paragraph.

use std::collections::HashMap;

use super::keyword_weight;
use crate::clean::{FeatureVector, TopicContent};
use crate::config::DocViewConfig;
use crate::tagtree::{Item, TagTree};
use crate::text::{split_sentences, terms};

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

/// The abstract (§6 step 2): δ sentences in all, each paragraph's quota δ_i in proportion to
/// its size in terms (largest remainders, never more than it has); in each paragraph the δ_i
/// sentences with the highest weight, where a sentence weighs the sum of the weights of the θ
/// top keywords it contains. Sentences are given in document order.
pub fn abstract_of(
    tree: &TagTree,
    content: &TopicContent,
    topic_vector: &FeatureVector,
    config: &DocViewConfig,
) -> String {
    let paragraphs: Vec<Vec<String>> = paragraphs(tree, content)
        .iter()
        .map(|p| split_sentences(p).into_iter().map(str::to_string).collect::<Vec<_>>())
        .filter(|s| !s.is_empty())
        .collect();
    let keywords: HashMap<&str, f64> = topic_vector.top(config.abstract_keywords).into_iter().collect();
    let sizes: Vec<usize> = paragraphs.iter().map(|p| p.iter().map(|s| terms(s).len()).sum()).collect();
    let quotas = quotas(&sizes, &paragraphs.iter().map(Vec::len).collect::<Vec<_>>(), config.abstract_sentences);
    let mut chosen: Vec<&str> = Vec::new();
    for (sentences, quota) in paragraphs.iter().zip(quotas) {
        let mut ranked: Vec<(usize, f64)> =
            sentences.iter().enumerate().map(|(i, s)| (i, keyword_weight(s, &keywords))).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut picked: Vec<usize> = ranked.into_iter().take(quota).map(|(i, _)| i).collect();
        picked.sort_unstable();
        chosen.extend(picked.into_iter().map(|i| sentences[i].as_str()));
    }
    join_sentences(&chosen)
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
    fn chinese_sentences_join_without_spaces() {
        assert_eq!(join_sentences(&["今天下雨。", "明天晴。", "Then"]), "今天下雨。明天晴。Then");
        assert_eq!(join_sentences(&["One.", "Two."]), "One. Two.");
    }
}
