#!/usr/bin/env python3
"""Builds the near-replica benchmark from TRAINING data: copies made by construction.

Reads the gold texts (and pages) of ../shared/data/clean-train (training data for cleaners, disjoint
from every evaluation set) and writes pairs in the format of the webis copycat pairs (JSON Lines with
pair_id, label_raw, src_doc, target_doc, plus the edits made), so that
`indexer eval replicas --pairs FILE` reads it like the judged pairs.

Positives (label "3"): an article and a copy of it with one to three of the edits syndication and
scraping make on the web:
  credit      a credit box or syndication note added at the top or the bottom
  headline    the headline replaced by another one
  trim        one paragraph dropped, or the story cut short (up to a quarter of its words)
  reorder     a paragraph moved elsewhere
  boilerplate lines of the page's own template (its visible text outside the gold) left in,
              10-60% of the article's length, at the top, the bottom or both
  rewrite     a few words of one or two sentences changed
  same-site   (half of the copies, with or without one of the edits above) the article and its
              copy each inside a page of the article's site: template lines 0.3-8 times the
              article's length, a tenth to a third of them differing between the two pages
Negatives (label "0.5"): two different articles
  random      as they come
  template    both carry the same template lines (20-150% of the article's length), as two stories
              of one site do when cleaning leaves some of the template in
  quote       the second quotes one paragraph of the first
  same-site   each inside a page of one site, as for the copies above
  teaser      two short items (one or two paragraphs) in one site's template, redrawn until
              their word-8-gram overlap is at least 0.4, as the copycat pairs were sampled

Standard library only; deterministic for a seed. Usage:
  python3 eval/replica-benchmark/make_benchmark.py [--data ../shared/data/clean-train] [--pairs 600]
      [--seed 2004] --out target/replica-benchmark.jsonl
"""

import argparse
import gzip
import html.parser
import json
import os
import random
import re

SETS = ["dragnet-train", "wcxb-train", "page-signal"]
MIN_WORDS = 120
MIN_PARAGRAPHS = 3

CREDITS = [
    "This article first appeared in {src} and is republished here with permission.",
    "Originally published by {src}. Reprinted with the permission of the author.",
    "This story was produced by {src} and is shared with our readers under a content partnership.",
    "Republished from {src}. Read the original article on their website.",
    "{src} | Syndicated content. Copyright the original publisher, all rights reserved.",
    "Source: {src}. This report is distributed by a news agency and has not been edited by our staff.",
]
SOURCES = ["The Valley Courier", "Northern Ledger", "Harbour Post", "Science Wire Service", "City Weekly",
           "Regional News Agency", "The Evening Dispatch", "Coastal Times"]
BLOCK_TAGS = {"p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "br", "section",
              "article", "header", "footer", "nav", "aside", "dd", "dt", "blockquote", "pre", "form", "option"}
SKIP_TAGS = {"script", "style", "noscript", "template", "title", "head"}


class VisibleLines(html.parser.HTMLParser):
    """The page's visible text, one line per block."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines, self.current, self.skip = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in SKIP_TAGS:
            self.skip += 1
        elif tag in BLOCK_TAGS:
            self.flush()

    def handle_endtag(self, tag):
        if tag in SKIP_TAGS:
            self.skip = max(0, self.skip - 1)
        elif tag in BLOCK_TAGS:
            self.flush()

    def handle_data(self, data):
        if not self.skip:
            self.current.append(data)

    def flush(self):
        line = " ".join(" ".join(self.current).split())
        if line:
            self.lines.append(line)
        self.current = []


def norm(text):
    return " ".join(re.findall(r"\w+", text.lower()))


def paragraphs(text):
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n|\n", text) if p.strip()]


def template_lines(html_path, gold_text):
    """Lines of the page's visible text that are not in its gold: the page's template."""
    try:
        raw = gzip.open(html_path).read().decode("utf-8", "replace")
        parser = VisibleLines()
        parser.feed(raw)
        parser.close()
    except Exception:  # a page html.parser cannot read just has no template lines
        return []
    gold = norm(gold_text)
    return [line for line in parser.lines if len(line.split()) >= 2 and norm(line) not in gold]


def load(data):
    articles = []
    for name in SETS:
        folder = os.path.join(data, name)
        skip = set()
        with open(os.path.join(folder, "meta.tsv"), encoding="utf-8") as meta:
            next(meta)
            for row in meta:
                cols = row.rstrip("\n").split("\t")
                if "gold_not_visible" in (cols[2] if len(cols) > 2 else ""):
                    skip.add(cols[0])
        for file in sorted(os.listdir(os.path.join(folder, "gold"))):
            page_id = file[: -len(".txt")]
            if page_id in skip:
                continue
            text = open(os.path.join(folder, "gold", file), encoding="utf-8").read()
            paras = paragraphs(text)
            if len(text.split()) < MIN_WORDS or len(paras) < MIN_PARAGRAPHS:
                continue
            articles.append({"id": f"{name}/{page_id}", "paras": paras,
                             "html": os.path.join(folder, "html", page_id + ".html.gz")})
    return articles


def words(paras):
    return sum(len(p.split()) for p in paras)


def template_chunk(rng, lines, target_words):
    if not lines:
        return []
    start = rng.randrange(len(lines))
    chunk, count = [], 0
    for line in lines[start:] + lines[:start]:
        if count >= target_words:
            break
        chunk.append(line)
        count += len(line.split())
    return chunk


def overlap(pa, pb, n=8):
    """Shared word 8-grams over the smaller page's, as the copycat pairs were sampled (S3)."""
    def grams(paras):
        tokens = " ".join(paras).lower().split()
        return {tuple(tokens[i:i + n]) for i in range(max(1, len(tokens) - n + 1))}
    a, b = grams(pa), grams(pb)
    return len(a & b) / max(1, min(len(a), len(b)))


def edit(rng, article, other, template):
    paras = list(article["paras"])
    kinds = rng.sample(["credit", "headline", "trim", "reorder", "boilerplate", "rewrite"], rng.choice([1, 2, 2, 3]))
    n = words(paras)
    for kind in kinds:
        if kind == "credit":
            line = rng.choice(CREDITS).format(src=rng.choice(SOURCES))
            paras = [line] + paras if rng.random() < 0.5 else paras + [line]
        elif kind == "headline":
            paras[0] = other["paras"][0]
        elif kind == "trim":
            if rng.random() < 0.5 and len(paras) > 3:
                body = [i for i in range(1, len(paras)) if len(paras[i].split()) <= n // 4]
                if body:
                    del paras[rng.choice(body)]
            else:
                keep, count = [], 0
                for p in paras:
                    if count >= 0.75 * n and len(keep) >= 2:
                        break
                    keep.append(p)
                    count += len(p.split())
                paras = keep
        elif kind == "reorder" and len(paras) > 3:
            moved = paras.pop(rng.randrange(1, len(paras)))
            paras.insert(rng.randrange(1, len(paras) + 1), moved)
        elif kind == "boilerplate":
            chunk = template_chunk(rng, template, int(n * rng.uniform(0.10, 0.60)))
            where = rng.choice(["top", "bottom", "both"])
            half = len(chunk) // 2
            if where == "top":
                paras = chunk + paras
            elif where == "bottom":
                paras = paras + chunk
            else:
                paras = chunk[:half] + paras + chunk[half:]
        elif kind == "rewrite":
            for _ in range(rng.choice([1, 2])):
                i = rng.randrange(len(paras))
                tokens = paras[i].split()
                for _ in range(min(3, len(tokens))):
                    j = rng.randrange(len(tokens))
                    tokens[j] = rng.choice(["also", "now", "reportedly", "still", "recently", "largely", "new"])
                paras[i] = " ".join(tokens)
    return kinds, paras


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "..", "shared", "data", "clean-train"))
    parser.add_argument("--pairs", type=int, default=600, help="positives, and as many negatives")
    parser.add_argument("--seed", type=int, default=2004)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    articles = load(args.data)
    rng.shuffle(articles)
    out = []
    templates = {}

    def template_of(article):
        if article["id"] not in templates:
            templates[article["id"]] = template_lines(article["html"], "\n".join(article["paras"]))
        return templates[article["id"]]

    def site_page(article, template):
        """The article inside a page of its site: the site's template lines around it; a
        site's pages vary a little (a tenth to a third of the template lines are replaced by
        lines of another page's template)."""
        chunk = list(template)
        other = template_of(articles[rng.randrange(len(articles))])
        if other:
            for i in rng.sample(range(len(chunk)), int(len(chunk) * rng.uniform(0.1, 0.33))):
                chunk[i] = rng.choice(other)
        half = rng.randrange(len(chunk) + 1)
        return chunk[:half] + article + chunk[half:]

    for k in range(args.pairs):
        a = articles[k % len(articles)]
        other = articles[(k * 7 + 3) % len(articles)]
        if k % 2 == 0:
            kinds, copy = edit(rng, a, other, template_of(a))
            src = a["paras"]
        else:
            # The same story at two addresses of one site (what shares a canonical link).
            kinds, copy = edit(rng, a, other, []) if rng.random() < 0.5 else ([], list(a["paras"]))
            template = template_chunk(rng, template_of(a), int(words(a["paras"]) * rng.uniform(0.3, 8.0)))
            src, copy = site_page(a["paras"], template), site_page(copy, template)
            kinds = ["same-site"] + kinds
        out.append({"pair_id": f"pos-{k}", "label_raw": "3", "edits": kinds,
                    "src_doc": "\n".join(src), "target_doc": "\n".join(copy)})
    for k in range(args.pairs):
        a = articles[rng.randrange(len(articles))]
        b = articles[rng.randrange(len(articles))]
        while b["id"] == a["id"]:
            b = articles[rng.randrange(len(articles))]
        kind = ["random", "template", "quote", "same-site", "teaser"][k % 5]
        pa, pb = list(a["paras"]), list(b["paras"])
        if kind == "template":
            chunk = template_chunk(rng, template_of(a), int(min(words(pa), words(pb)) * rng.uniform(0.2, 1.5)))
            pa, pb = chunk + pa, chunk + pb
        elif kind == "quote":
            quoted = max(pa[1:], key=lambda p: len(p.split()))
            pb.insert(rng.randrange(1, len(pb) + 1), quoted)
        elif kind == "same-site":
            template = template_chunk(rng, template_of(a), int(min(words(pa), words(pb)) * rng.uniform(0.3, 8.0)))
            pa, pb = site_page(pa, template), site_page(pb, template)
        elif kind == "teaser":
            # Two short items of one site (a product, a listing entry, a stub), mostly template:
            # like the copycat non-replicas, pages sharing a canonical link whose word-8-gram
            # overlap is at least 0.4; drawn until the pair has that overlap.
            for _ in range(20):
                template = template_chunk(rng, template_of(a), 10_000)
                pa, pb = site_page(a["paras"][:rng.choice([1, 2])], template), site_page(b["paras"][:rng.choice([1, 2])], template)
                if overlap(pa, pb) >= 0.4:
                    break
        out.append({"pair_id": f"neg-{k}", "label_raw": "0.5", "edits": [kind],
                    "src_doc": "\n".join(pa), "target_doc": "\n".join(pb)})
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for pair in out:
            f.write(json.dumps(pair, ensure_ascii=False) + "\n")
    print(f"{len(out)} pairs ({args.pairs} copies, {args.pairs} non-replicas) from {len(articles)} articles "
          f"-> {args.out}")


if __name__ == "__main__":
    main()
