//! Word boundaries of Japanese text, for `eval/segmentation/measure.py`: reads lines of text on
//! standard input and writes, for each, one line of two tab-separated fields, each the byte
//! offsets `start-end` of the words (space-separated): the words of the shared tokenizer
//! ([`indexer::text::for_each_word`], what every stage's terms come from) and the words of
//! TinySegmenter (the `tiniestsegmenter` crate) over each CJK run of the line. The script composes the
//! candidates it measures from the two. With `--time`, it prints the characters per second of
//! each cut over the CJK runs of the input instead.

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

/// Characters per second of the shared tokenizer, of TinySegmenter and of jieba (HMM on, as the
/// tokenizer calls it) over the CJK runs of `lines`, each timed over the same text repeated
/// until a second has passed, in one process.
fn throughput(lines: &[String]) {
    let runs: Vec<&str> = lines.iter().flat_map(|l| cjk_runs(l)).map(|(_, r)| r).collect();
    let chars: usize = runs.iter().map(|r| r.chars().count()).sum();
    let jieba = jieba_rs::Jieba::new();
    indexer::text::load_dictionary();
    let time = |name: &str, cut: &mut dyn FnMut(&str) -> usize| {
        let (start, mut rounds, mut words) = (std::time::Instant::now(), 0u32, 0usize);
        while rounds == 0 || start.elapsed().as_secs_f64() < 1.0 {
            words += runs.iter().map(|r| cut(r)).sum::<usize>();
            rounds += 1;
        }
        let rate = f64::from(rounds) * chars as f64 / start.elapsed().as_secs_f64();
        println!("{name}\t{rate:.0} chars/s\t({chars} characters x {rounds}, {words} words)");
    };
    time("tokenizer", &mut |r| {
        let mut n = 0;
        indexer::text::for_each_word(r, |_, _, _| n += 1);
        n
    });
    time("tinysegmenter", &mut |r| tiniestsegmenter::tokenize(r).len());
    time("jieba", &mut |r| jieba.cut(r, true).len());
}

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    if std::env::args().nth(1).as_deref() == Some("--time") {
        let lines: Vec<String> = stdin.lock().lines().collect::<Result<_, _>>()?;
        throughput(&lines);
        return Ok(());
    }
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
