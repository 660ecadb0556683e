//! Information cells (§3.1, Definition 2) read off the tag tree, and the cell score
//! (Formula 1).
//!
//! The paper's cell is a run of visible text enclosed tightly by `>` and `<` in the source. Our
//! tag tree keeps the visible text of a page as [`Item::Text`] runs of its containers, in
//! document order; a run ends at a container edge, a line break, an image or a change of link,
//! and inline formatting tags (`<b>`, `<span>` …) inside it are already merged away. So one
//! cell = one non-blank `Item::Text` of a node, walked in document order. Cells are a little
//! coarser than the paper's (`Some <b>bold</b> text` is one cell, not three).
//!
//! The source code between two cells (SCD, §3.2) and each cell's source code span (for the
//! visible ratio V) are not in the tag tree either: the parser's DOM has no source offsets. We
//! measure the markup the tree does keep, re-serialised: every container's opening tag with
//! its id/class (`<div class="…">`) and closing tag, `<br>`, `<img src alt>`, and the
//! `<a href>` … `</a>` around anchor text. Scripts, styles, comments, inline tags and other
//! attributes are not counted, so our code lengths are shorter than the paper's.

use crate::config::MountainConfig;
use crate::tagtree::{Item, NodeId, TagTree};

/// One information cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The container whose own text the cell is.
    pub node: NodeId,
    /// Index of the cell's [`Item::Text`] in the node's items.
    pub item: usize,
    /// L: visible characters (the text trimmed of white space at its ends).
    pub chars: usize,
    /// Of which CJK ideographs or kana (to tell the page's language for γ).
    pub cjk_chars: usize,
    /// P: sentence-segmentation punctuation marks.
    pub punctuation: usize,
    /// S: the text ends with a full stop.
    pub full_stopped: bool,
    /// A: the text is anchor text.
    pub anchor: bool,
    /// Source code between the previous cell (or the page start) and this one, in characters.
    pub code_before: f64,
    /// Source code between this cell and the next one (or the page end).
    pub code_after: f64,
}

impl Cell {
    /// V: the visible share of the cell's source code span, which runs from the middle of the
    /// code before the cell to the middle of the code after it (§3.1).
    pub fn visible_ratio(&self) -> f64 {
        let span = self.chars as f64 + (self.code_before + self.code_after) / 2.0;
        if span > 0.0 { self.chars as f64 / span } else { 0.0 }
    }

    /// The cell's text in `tree`.
    pub fn text<'t>(&self, tree: &'t TagTree) -> &'t str {
        match tree.nodes.get(self.node).and_then(|n| n.items.get(self.item)) {
            Some(Item::Text { text, .. }) => text.trim(),
            _ => "",
        }
    }
}

/// Characters of an opening tag besides its name: `<`, `>`.
const OPEN_TAG_FRAME: f64 = 2.0;
/// Characters of a closing tag besides its name: `</`, `>`.
const CLOSE_TAG_FRAME: f64 = 3.0;
/// Characters of ` class=""` around an id/class value.
const ATTRIBUTE_FRAME: f64 = 9.0;

/// The cells of a page in document order.
pub fn cells(tree: &TagTree, config: &MountainConfig) -> Vec<Cell> {
    let mut out: Vec<Cell> = Vec::new();
    // Markup seen since the last cell.
    let mut pending = 0.0;
    let mut open_link: Option<usize> = None;
    let mut stack = vec![(TagTree::ROOT, 0usize)];
    while let Some((id, i)) = stack.pop() {
        let Some(node) = tree.nodes.get(id) else { continue };
        let Some(item) = node.items.get(i) else {
            if id != TagTree::ROOT {
                pending += node.tag.len() as f64 + CLOSE_TAG_FRAME + close_link(&mut open_link);
            }
            continue;
        };
        stack.push((id, i + 1));
        match item {
            Item::Child(child) => {
                pending += close_link(&mut open_link);
                if let Some(c) = tree.nodes.get(*child) {
                    let hint = if c.hint.is_empty() { 0.0 } else { c.hint.len() as f64 + ATTRIBUTE_FRAME };
                    pending += c.tag.len() as f64 + OPEN_TAG_FRAME + hint;
                }
                stack.push((*child, 0));
            }
            Item::Break => pending += 4.0,
            Item::Image(index) => {
                if let Some(image) = tree.images.get(*index) {
                    pending += (image.src.len() + image.alt.len()) as f64 + 17.0;
                }
            }
            Item::Text { text, link } => {
                if open_link != *link {
                    pending += close_link(&mut open_link);
                    if let Some(l) = tree.links.get(link.unwrap_or(usize::MAX)) {
                        pending += l.href.len() as f64 + 11.0;
                    }
                    open_link = *link;
                }
                let trimmed = text.trim();
                if trimmed.is_empty() {
                    continue;
                }
                if let Some(previous) = out.last_mut() {
                    previous.code_after = pending;
                }
                out.push(measure(id, i, trimmed, link.is_some(), pending, config));
                pending = 0.0;
            }
        }
    }
    if let Some(last) = out.last_mut() {
        last.code_after = pending;
    }
    out
}

fn close_link(open_link: &mut Option<usize>) -> f64 {
    if open_link.take().is_some() { 4.0 } else { 0.0 }
}

fn measure(node: NodeId, item: usize, text: &str, anchor: bool, code_before: f64, config: &MountainConfig) -> Cell {
    let (mut chars, mut cjk_chars, mut punctuation) = (0, 0, 0);
    for c in text.chars() {
        chars += 1;
        if crate::text::is_cjk(c) {
            cjk_chars += 1;
        }
        if config.punctuation.contains(c) {
            punctuation += 1;
        }
    }
    // Closing quotes and brackets may follow the full stop: `He left.”`
    let last = text.trim_end_matches(['"', '\'', '”', '’', ')', ']', '」', '』', '）']).chars().next_back();
    let full_stopped = last.is_some_and(|c| config.full_stops.contains(c));
    Cell { node, item, chars, cjk_chars, punctuation, full_stopped, anchor, code_before, code_after: 0.0 }
}

/// γ for the page: the CJK value when CJK characters make at least `cjk_share` of its cells'
/// characters, the Latin value otherwise.
pub fn page_gamma(cells: &[Cell], config: &MountainConfig) -> f64 {
    let chars: usize = cells.iter().map(|c| c.chars).sum();
    let cjk: usize = cells.iter().map(|c| c.cjk_chars).sum();
    if chars > 0 && cjk as f64 >= config.cjk_share * chars as f64 { config.gamma_cjk } else { config.gamma_latin }
}

/// Formula 1: CS = (L/γ + P)(1 + αS)(1 + βA)V.
pub fn cell_score(cell: &Cell, gamma: f64, config: &MountainConfig) -> f64 {
    let s = if cell.full_stopped { 1.0 } else { 0.0 };
    let a = if cell.anchor { 1.0 } else { 0.0 };
    (cell.chars as f64 / gamma + cell.punctuation as f64)
        * (1.0 + config.alpha * s)
        * (1.0 + config.beta * a)
        * cell.visible_ratio()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(html: &str) -> TagTree {
        TagTree::with_default_config(html)
    }

    fn cell(chars: usize, punctuation: usize, full_stopped: bool, anchor: bool, code: f64) -> Cell {
        Cell {
            node: 0,
            item: 0,
            chars,
            cjk_chars: 0,
            punctuation,
            full_stopped,
            anchor,
            code_before: code,
            code_after: code,
        }
    }

    #[test]
    fn formula_1_combines_length_punctuation_full_stop_anchor_and_visible_ratio() {
        let config = MountainConfig::default();
        // 150 characters, 3 marks, full stopped, no code around it: (150/75 + 3) × 1.5 × 1 × 1.
        assert!((cell_score(&cell(150, 3, true, false, 0.0), 75.0, &config) - 7.5).abs() < 1e-12);
        // Anchor text of 10 characters in 30 characters of code on either side:
        // (10/75 + 0) × 1 × 0.5 × 10/(10 + 30).
        let link = cell_score(&cell(10, 0, false, true, 30.0), 75.0, &config);
        assert!((link - 10.0 / 75.0 * 0.5 * 0.25).abs() < 1e-12);
        // γ = 1 when the language is unknown: length counts as much as punctuation.
        assert!((cell_score(&cell(4, 1, false, false, 0.0), 1.0, &config) - 5.0).abs() < 1e-12);
    }

    #[test]
    fn cells_are_text_runs_in_document_order_with_their_code_between() {
        let t = tree(
            "<body><div id=nav><a href='/home'>Home</a> <a href='/news'>News</a></div>\
             <p>A sentence, with <b>bold</b> words. Another one!</p><p>“Quoted.”</p></body>",
        );
        let cells = cells(&t, &MountainConfig::default());
        let texts: Vec<&str> = cells.iter().map(|c| c.text(&t)).collect();
        assert_eq!(texts, ["Home", "News", "A sentence, with bold words. Another one!", "“Quoted.”"]);
        assert!(cells[0].anchor && cells[1].anchor && !cells[2].anchor);
        assert_eq!((cells[2].punctuation, cells[2].full_stopped), (3, true));
        assert!(cells[3].full_stopped);
        // Between "Home" and "News": `</a>` and `<a href='/news'>` (5 + 11 characters).
        assert_eq!(cells[0].code_after, 4.0 + 5.0 + 11.0);
        assert_eq!(cells[1].code_before, cells[0].code_after);
        // Before the paragraph: `</a>`, `</div>`, `<p>`.
        assert_eq!(cells[2].code_before, 4.0 + 6.0 + 3.0);
        assert!(cells[2].visible_ratio() > 0.8 && cells[0].visible_ratio() < 0.4);
    }

    #[test]
    fn chinese_pages_use_the_chinese_gamma() {
        let config = MountainConfig::default();
        let zh = cells(&tree("<p>北京大学的新闻。</p><p>ok</p>"), &config);
        assert_eq!(page_gamma(&zh, &config), config.gamma_cjk);
        let en = cells(&tree("<p>Plain English text.</p>"), &config);
        assert_eq!(page_gamma(&en, &config), config.gamma_latin);
        assert_eq!(page_gamma(&[], &config), config.gamma_latin);
    }
}
