#!/usr/bin/env python3
"""Word-boundary precision, recall and F1 of Japanese segmentations against MeCab with UniDic.

Reference: MeCab (fugashi) with UniDic (unidic-lite), short-unit words. Candidates, each a set
of word boundaries:
  (a) today:  the shared tokenizer (indexer::text::for_each_word), as the library of the
              commit this runs on cuts: before TinySegmenter shipped, script changes and jieba
              for kanji stretches of three or more; since, TinySegmenter on the runs that hold
              a kana and jieba on the others (then this row is the shipped cut);
  (b) tiny:   TinySegmenter (the tiniestsegmenter crate) over every CJK run;
  (c) hybrid: TinySegmenter over the CJK runs that hold a kanji, (a) elsewhere.
Both come from `cargo run --release --example japanese_segmentation` (one line of spans each).

Pre-registered choice rule (written before any figure was seen): the candidate among (b) and
(c) with the best boundary F1 ships if its F1 beats (a)'s by at least 0.02; else nothing ships.

Scored positions: the places between two adjacent characters of a CJK run (Han and kana, as
indexer::text::is_cjk), where all three candidates and the reference must decide whether a
word ends. A position is a boundary of a segmentation when one of its words starts or ends
there. Spaces, punctuation and Latin text are not scored (every candidate cuts them alike).

Data (not written for the tuning of any candidate):
  news:    the sentences of the hironsancorpus package (PyPI, MIT; Japanese news text tagged
           for named entities; its surface forms joined back into sentences);
  ours:    the visible text of tests/fixtures/languages/ja.html (written for our tests).
The Japanese pages of ../shared/data/real-warc/ were looked for: a build of every file
identifies no page as `ja`, and the files hold 0-26 kana each (mojibake in binary records).

Run (from the repository root; never part of cargo test):
  python3 -m venv /tmp/ja-venv && /tmp/ja-venv/bin/pip install fugashi unidic-lite hironsancorpus
  cargo build --release --example japanese_segmentation
  nice -n 19 /tmp/ja-venv/bin/python eval/segmentation/measure.py
Prints the figures per data set and over both, and the throughput of the cuts.
"""

import html.parser
import os
import subprocess
import sys
import time

import fugashi
import hironsan.corpus

EXAMPLE = os.path.join("target", "release", "examples", "japanese_segmentation")


def is_cjk(c):
    o = ord(c)
    return (0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF
            or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FA1F)


def is_kanji(c):
    return is_cjk(c) and not 0x3040 <= ord(c) <= 0x30FF


def news_sentences():
    path = os.path.join(os.path.dirname(hironsan.corpus.__file__), "iob_sents.txt")
    sentences, words = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                words.append(line.split("\t")[0])
            elif words:
                sentences.append("".join(words))
                words = []
    if words:
        sentences.append("".join(words))
    return sentences


class Visible(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.lines = []

    def handle_data(self, data):
        if data.strip():
            self.lines.append(data.strip())


def our_lines():
    parser = Visible()
    with open("tests/fixtures/languages/ja.html", encoding="utf-8") as f:
        parser.feed(f.read())
    return parser.lines


def char_offsets(text):
    """Byte offset -> character index, for the Rust spans."""
    table, b = {}, 0
    for i, c in enumerate(text):
        table[b] = i
        b += len(c.encode("utf-8"))
    table[b] = len(text)
    return table


def scored_positions(text):
    return {i for i in range(1, len(text)) if is_cjk(text[i - 1]) and is_cjk(text[i])}


def boundaries(spans):
    out = set()
    for a, b in spans:
        out.add(a)
        out.add(b)
    return out


def mecab_spans(tagger, text):
    spans, at = [], 0
    for word in tagger(text):
        start = text.find(word.surface, at)
        if start < 0:
            continue
        spans.append((start, start + len(word.surface)))
        at = start + len(word.surface)
    return spans


def rust_spans(lines):
    proc = subprocess.run([EXAMPLE], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    out = []
    for text, row in zip(lines, proc.stdout.split("\n")):
        offsets = char_offsets(text)
        fields = row.split("\t")
        out.append([[(offsets[int(a)], offsets[int(b)]) for a, b in (s.split("-") for s in f.split())]
                    for f in fields])
    return out


def cjk_runs(text):
    runs, start = [], None
    for i, c in enumerate(text + " "):
        if is_cjk(c) and start is None:
            start = i
        elif not is_cjk(c) and start is not None:
            runs.append((start, i))
            start = None
    return runs


def hybrid(text, ours, tiny):
    """TinySegmenter's boundaries inside runs that hold a kanji, ours inside the others."""
    kanji_runs = [(a, b) for a, b in cjk_runs(text) if any(is_kanji(c) for c in text[a:b])]
    inside = lambda p: any(a < p < b for a, b in kanji_runs)
    return {p for p in boundaries(ours) if not inside(p)} | {p for p in boundaries(tiny) if inside(p)}


def kinds(text, scored):
    """The scored positions, all (key None) and by the scripts on either side: between two
    kanji, between two kana, between a kanji and a kana (for the breakdown, not the rule)."""
    out = {None: scored, "kanji|kanji": set(), "kana|kana": set(), "kanji|kana": set()}
    for p in scored:
        k = is_kanji(text[p - 1]) + is_kanji(text[p])
        out[["kana|kana", "kanji|kana", "kanji|kanji"][k]].add(p)
    return out


def prf(counts):
    tp, fp, fn = counts
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def measure(name, lines, tagger, totals):
    lines = [line for line in lines if any(is_cjk(c) for c in line)]
    rust = rust_spans(lines)
    counts = {k: [0, 0, 0] for k in ("today", "tiny", "hybrid")}
    chars = positions = 0
    for text, (ours, tiny) in zip(lines, rust):
        scored = scored_positions(text)
        chars += sum(b - a for a, b in cjk_runs(text))
        positions += len(scored)
        gold = boundaries(mecab_spans(tagger, text)) & scored
        for key, cut in (("today", boundaries(ours)), ("tiny", boundaries(tiny)), ("hybrid", hybrid(text, ours, tiny))):
            cut &= scored
            for kind, where in kinds(text, scored).items():
                for tally in (counts, totals):
                    c = tally.setdefault((key, kind), [0, 0, 0]) if kind else tally[key]
                    c[0] += len(cut & gold & where)
                    c[1] += len((cut - gold) & where)
                    c[2] += len((gold - cut) & where)
    totals["chars"] += chars
    totals["positions"] += positions
    report(name, len(lines), chars, positions, counts)


def report(name, lines, chars, positions, counts):
    print(f"{name}: {lines} lines, {chars} CJK characters, {positions} scored positions")
    for key in ("today", "tiny", "hybrid"):
        p, r, f = prf(counts[key])
        by_kind = "  ".join(f"{kind} F1 {prf(counts.get((key, kind), [0, 0, 0]))[2]:.3f}"
                            for kind in ("kanji|kanji", "kanji|kana", "kana|kana"))
        print(f"  {key:7} P {p:.3f}  R {r:.3f}  F1 {f:.3f}   ({by_kind})")


def main():
    if not os.path.exists(EXAMPLE):
        sys.exit(f"{EXAMPLE} is missing: cargo build --release --example japanese_segmentation")
    tagger = fugashi.Tagger()
    totals = {k: [0, 0, 0] for k in ("today", "tiny", "hybrid")}
    totals["chars"] = totals["positions"] = 0
    news = news_sentences()
    measure("news (hironsancorpus)", news, tagger, totals)
    measure("ours (tests/fixtures/languages/ja.html)", our_lines(), tagger, totals)
    report("both", "-", totals["chars"], totals["positions"], totals)
    today, best = prf(totals["today"])[2], max(prf(totals["tiny"])[2], prf(totals["hybrid"])[2])
    winner = "tiny" if prf(totals["tiny"])[2] >= prf(totals["hybrid"])[2] else "hybrid"
    verdict = f"{winner} ships" if best - today >= 0.02 else "nothing ships"
    print(f"rule, against the library's cut of this commit: best of tiny/hybrid F1 {best:.3f} vs today "
          f"{today:.3f} (delta {best - today:+.3f}): {verdict}")
    lines = [line for line in news + our_lines() if any(is_cjk(c) for c in line)]
    timing = subprocess.run([EXAMPLE, "--time"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                            check=True)
    print("throughput over the CJK runs of both (one process, one thread):")
    print(timing.stdout, end="")


if __name__ == "__main__":
    main()
