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
  same-topic  an article and its nearest other article by tf-idf cosine of their words (stories of
              one event from two outlets: Google News clusters in page-signal), each with template
              lines of its own page; pairs sharing more than a tenth of the smaller's word 8-grams are
              skipped (they may be wire copies, which would be replicas)
  hub         an article in its site's template, and a hub page of that site: the article's
              headline and first paragraph among the headlines and first paragraphs of 3-6 others
  pages       page 1 and page 2 of one story split in two, each with the headline and the site's
              template lines (a paginated article)
  aggregator  an article in its site's template, and another site's page of teasers (headline and
              first paragraph) of it and of 3-6 other articles, in that site's template
  commentary  an article, and another site's article (in its own template) that quotes the first
              one's longest paragraphs, up to a third of its words, between its own paragraphs

Every pair says whether its two pages are of one site (`same_site`): the copies and non-replicas
inside one site's template are; syndicated copies and the random, quote, same-topic, aggregator and
commentary pairs are not.

With --real-sites it writes another set instead, of whole pages of real sites (the hosts of
wcxb-train and page-signal with two pages or more), as the copycat pairs are whole pages of one site:
  site-copy   (label "3") a page, and its article (the span of its lines that are in its gold) put
              in place of the article of another page of the same host: one story inside two real
              instances of its site's template (navigation, related links, teasers, footers differ
              as they differ between the site's pages)
  site-pages  (label "0.5") two pages of one host as they are: two stories in one site's template
Each pair of pages gives both copies and one non-replica; a pair is kept when its word-8-gram
overlap (S3, shared 8-grams of the smaller) is at least 0.4, as the copycat pairs were sampled.
Every pair carries `template_share`: the share of the two pages' words outside their articles.

Standard library only; deterministic for its seeds (each draws its own pairs, all written to one
file: three seeds make the choices on it steadier than one). Usage:
  python3 eval/replica-benchmark/make_benchmark.py [--data ../shared/data/clean-train] [--pairs 600]
      [--negatives 120] [--seeds 2004,2005,2006] --out target/replica-benchmark.jsonl
  python3 eval/replica-benchmark/make_benchmark.py --real-sites --out target/replica-sites.jsonl
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


def tfidf_neighbours(articles):
    """For each article, the index of its nearest other article by tf-idf cosine (bag of words)."""
    import math
    bags = []
    df = {}
    for a in articles:
        bag = {}
        for w in re.findall(r"\w+", " ".join(a["paras"]).lower()):
            if len(w) > 2:
                bag[w] = bag.get(w, 0) + 1
        bags.append(bag)
        for w in bag:
            df[w] = df.get(w, 0) + 1
    n = len(articles)
    vectors, postings = [], {}
    for i, bag in enumerate(bags):
        v = {w: (1 + math.log(c)) * math.log(n / df[w]) for w, c in bag.items() if df[w] > 1}
        norm_ = math.sqrt(sum(x * x for x in v.values())) or 1.0
        v = {w: x / norm_ for w, x in v.items()}
        vectors.append(v)
        for w, x in v.items():
            postings.setdefault(w, []).append((i, x))
    return vectors, postings


def nearest(i, vectors, postings, exclude):
    scores = {}
    for w, x in vectors[i].items():
        if len(postings[w]) > 200:  # common words: slow, and little evidence of a shared topic
            continue
        for j, y in postings[w]:
            if j != i:
                scores[j] = scores.get(j, 0.0) + x * y
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    for j, _ in ranked:
        if not exclude(j):
            return j
    return None


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


def generate(loaded, seed, args, templates):
    """The pairs of one seed: `args.pairs` copies and `args.negatives` non-replicas of each kind."""
    rng = random.Random(seed)
    articles = list(loaded)
    rng.shuffle(articles)
    out = []

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
        out.append({"pair_id": f"{seed}-pos-{k}", "label_raw": "3", "edits": kinds,
                    "same_site": kinds[0] == "same-site",
                    "src_doc": "\n".join(src), "target_doc": "\n".join(copy)})
    kinds = ["random", "template", "quote", "same-site", "teaser", "same-topic", "hub", "pages", "aggregator",
             "commentary"]
    vectors, postings = None, None
    for k in range(args.negatives * len(kinds)):
        a = articles[rng.randrange(len(articles))]
        b = articles[rng.randrange(len(articles))]
        while b["id"] == a["id"]:
            b = articles[rng.randrange(len(articles))]
        kind = kinds[k % len(kinds)]
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
        elif kind == "same-topic":
            if vectors is None:
                vectors, postings = tfidf_neighbours(articles)
            i = articles.index(a)
            j = nearest(i, vectors, postings, lambda j: overlap(articles[j]["paras"], pa) > 0.1)
            b = articles[j] if j is not None else b
            pb = list(b["paras"])
            size = int(min(words(pa), words(pb)) * rng.uniform(0.2, 1.0))
            pa = site_page(pa, template_chunk(rng, template_of(a), size))
            pb = site_page(pb, template_chunk(rng, template_of(b), size))
        elif kind == "hub":
            others = [articles[rng.randrange(len(articles))] for _ in range(rng.randint(3, 6))]
            items = [[x["paras"][0], x["paras"][1]] for x in others]
            items.insert(rng.randrange(len(items) + 1), pa[:2])
            template = template_chunk(rng, template_of(a), int(words(pa) * rng.uniform(0.2, 1.0)))
            pa, pb = site_page(pa, template), site_page([p for item in items for p in item], template)
        elif kind == "aggregator":
            others = [articles[rng.randrange(len(articles))] for _ in range(rng.randint(3, 6))]
            items = [[x["paras"][0], x["paras"][1]] for x in others]
            items.insert(rng.randrange(len(items) + 1), pa[:2])
            size = int(words(pa) * rng.uniform(0.2, 1.0))
            pa = site_page(pa, template_chunk(rng, template_of(a), size))
            pb = site_page([p for item in items for p in item], template_chunk(rng, template_of(b), size))
        elif kind == "commentary":
            quoted, count = [], 0
            for p in sorted(pa[1:], key=lambda p: -len(p.split())):
                if count + len(p.split()) > words(pa) / 3:
                    break
                quoted.append(p)
                count += len(p.split())
            quoted = quoted or [max(pa[1:], key=lambda p: len(p.split()))]
            for p in quoted:
                pb.insert(rng.randrange(1, len(pb) + 1), p)
            size = int(words(pa) * rng.uniform(0.2, 1.0))
            pa = site_page(pa, template_chunk(rng, template_of(a), size))
            pb = site_page(pb, template_chunk(rng, template_of(b), size))
        elif kind == "pages":
            half = max(2, len(pa) // 2)
            template = template_chunk(rng, template_of(a), int(words(pa) * rng.uniform(0.2, 1.0)))
            pa, pb = site_page(pa[:half], template), site_page(pa[:1] + pa[half:], template)
        out.append({"pair_id": f"{seed}-neg-{k}", "label_raw": "0.5", "edits": [kind],
                    "same_site": kind not in ("random", "quote", "same-topic", "aggregator", "commentary"),
                    "src_doc": "\n".join(pa), "target_doc": "\n".join(pb)})
    return out


def site_pages(data):
    """host -> the pages of wcxb-train and page-signal on it (hosts with two pages or more), each as
    its visible lines and the span of them that holds its article (lines found in its gold)."""
    hosts = {}
    for name in ["wcxb-train", "page-signal"]:
        folder = os.path.join(data, name)
        with open(os.path.join(folder, "meta.tsv"), encoding="utf-8") as meta:
            next(meta)
            for row in meta:
                cols = row.rstrip("\n").split("\t")
                if len(cols) < 2 or "//" not in cols[1] or "gold_not_visible" in (cols[2] if len(cols) > 2 else ""):
                    continue
                gold = open(os.path.join(folder, "gold", cols[0] + ".txt"), encoding="utf-8").read()
                if len(gold.split()) < 50:
                    continue
                try:
                    raw = gzip.open(os.path.join(folder, "html", cols[0] + ".html.gz")).read().decode("utf-8", "replace")
                    parser = VisibleLines()
                    parser.feed(raw)
                    parser.close()
                except Exception:  # a page html.parser cannot read is left out
                    continue
                normalised = norm(gold)
                inside = [i for i, line in enumerate(parser.lines) if norm(line) and norm(line) in normalised]
                if inside:
                    host = cols[1].split("/")[2].lower()
                    hosts.setdefault(host, []).append(
                        {"lines": parser.lines, "first": inside[0], "last": inside[-1]})
    return {host: pages for host, pages in sorted(hosts.items()) if len(pages) >= 2}


def real_site_pairs(data):
    out = []
    for host, pages in site_pages(data).items():
        for i, a in enumerate(pages):
            for b in pages[i + 1:]:
                if overlap(a["lines"], b["lines"]) < 0.4:
                    continue
                article_words = sum(words(p["lines"][p["first"]:p["last"] + 1]) for p in (a, b))
                share = 1 - article_words / max(1, words(a["lines"]) + words(b["lines"]))
                for x, y in ((a, b), (b, a)):
                    copy = y["lines"][:y["first"]] + x["lines"][x["first"]:x["last"] + 1] + y["lines"][y["last"] + 1:]
                    if overlap(x["lines"], copy) >= 0.4:
                        out.append({"pair_id": f"site-{len(out)}", "label_raw": "3", "edits": ["site-copy"],
                                    "same_site": True, "host": host, "template_share": round(share, 3),
                                    "src_doc": "\n".join(x["lines"]), "target_doc": "\n".join(copy)})
                out.append({"pair_id": f"site-{len(out)}", "label_raw": "0.5", "edits": ["site-pages"],
                            "same_site": True, "host": host, "template_share": round(share, 3),
                            "src_doc": "\n".join(a["lines"]), "target_doc": "\n".join(b["lines"])})
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "..", "shared", "data", "clean-train"))
    parser.add_argument("--pairs", type=int, default=600, help="copies per seed")
    parser.add_argument("--negatives", type=int, default=120, help="non-replicas of each kind per seed")
    parser.add_argument("--seeds", default="2004,2005,2006",
                        help="comma-separated; each seed draws its own pairs, all written to one file")
    parser.add_argument("--real-sites", action="store_true",
                        help="write the whole-page pairs of real sites instead (see above)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    out = []
    if args.real_sites:
        out = real_site_pairs(args.data)
        loaded = []
    else:
        loaded = load(args.data)
        templates = {}
        for seed in [int(x) for x in args.seeds.split(",")]:
            out += generate(loaded, seed, args, templates)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for pair in out:
            f.write(json.dumps(pair, ensure_ascii=False) + "\n")
    copies = sum(1 for pair in out if pair["label_raw"] == "3")
    source = "whole pages of real sites" if args.real_sites else f"{len(loaded)} articles"
    print(f"{len(out)} pairs ({copies} copies, {len(out) - copies} non-replicas) from {source} -> {args.out}")


if __name__ == "__main__":
    main()
