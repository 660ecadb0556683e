//! Word boundaries of Japanese text, for `eval/segmentation/measure.py`: reads lines of text on
//! standard input and writes, for each, one line of two tab-separated fields, each the byte
//! offsets `start-end` of the words (space-separated): the words of the shared tokenizer
//! ([`indexer::text::for_each_word`], what every stage's terms come from) and the words of
//! TinySegmenter (the `tiniestsegmenter` crate) over each CJK run of the line. The script composes the
//! candidates it measures from the two.

use std::io::{BufRead, Write};

fn spans(words: impl IntoIterator<Item = (usize, usize)>) -> String {
    words.into_iter().map(|(a, b)| format!("{a}-{b}")).collect::<Vec<_>>().join(" ")
}

/// The maximal stretches of [`indexer::text::is_cjk`] characters (Han and kana), with their
/// offsets: the runs the shared tokenizer segments as CJK.
fn cjk_runs(line: &str) -> Vec<(usize, &str)> {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (start, indexer::text::is_cjk(c)) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                runs.push((s, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    runs
}

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line?;
        let mut ours = Vec::new();
        indexer::text::for_each_word(&line, |word, start, _| ours.push((start, start + word.len())));
        let mut tiny = Vec::new();
        for (run_start, run) in cjk_runs(&line) {
            let mut at = run_start;
            for word in tiniestsegmenter::tokenize(run) {
                tiny.push((at, at + word.len()));
                at += word.len();
            }
        }
        writeln!(out, "{}\t{}", spans(ours), spans(tiny))?;
    }
    Ok(())
}
