"""Pyserini runs of one collection (called by pyserini.sh, inside its venv).

Documents: the clean documents of shared/data/ir/<name>/docs.jsonl (title + text) and the
visible text of the pages of shared/data/ir-web/<name>/pages.warc.gz (<body> without script,
style, noscript, template), each under its page URL, so that ir-web's qrels score both.
Pyserini's defaults throughout: DefaultLuceneDocumentGenerator, Anserini's English analyzer
(StandardTokenizer, Lucene's 33 stop words, Porter stemmer), 1,000 hits.
"""

import argparse
import csv
import html.parser
import json
import os
import subprocess
import sys


class VisibleText(html.parser.HTMLParser):
    HIDDEN = {"script", "style", "noscript", "template", "head"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.depth > 0:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth == 0:
            self.parts.append(data)

    def text(self):
        return " ".join(" ".join(self.parts).split())


def clean_documents(shared, name, out_dir, web=True):
    """The clean documents under their page URLs, or under their own ids for a collection that
    has no ir-web crawl (`web` false: ir/<name>/ alone, e.g. cranfield built from docs.jsonl)."""
    urls = {}
    if web:
        with open(os.path.join(shared, "ir-web", name, "urls.tsv"), newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                urls[row["docid"]] = row["url"]
    os.makedirs(out_dir, exist_ok=True)
    count = 0
    with open(os.path.join(shared, "ir", name, "docs.jsonl")) as f, open(os.path.join(out_dir, "docs.jsonl"), "w") as out:
        for line in f:
            doc = json.loads(line)
            url = urls.get(doc["id"]) if web else doc["id"]
            if url is None:
                sys.exit(f"{name}: document {doc['id']} has no page URL in urls.tsv")
            out.write(json.dumps({"id": url, "contents": f"{doc['title']}\n{doc['text']}"}) + "\n")
            count += 1
    return count


def page_texts(shared, name, out_dir):
    from warcio.archiveiterator import ArchiveIterator

    os.makedirs(out_dir, exist_ok=True)
    count = 0
    with open(os.path.join(shared, "ir-web", name, "pages.warc.gz"), "rb") as f, open(
        os.path.join(out_dir, "docs.jsonl"), "w"
    ) as out:
        for record in ArchiveIterator(f):
            if record.rec_type != "response":
                continue
            url = record.rec_headers.get_header("WARC-Target-URI")
            body = record.content_stream().read().decode("utf-8", errors="replace")
            parser = VisibleText()
            parser.feed(body)
            out.write(json.dumps({"id": url, "contents": parser.text()}) + "\n")
            count += 1
    return count


def run(*args):
    subprocess.run([sys.executable, "-m", *args], check=True, stdout=subprocess.DEVNULL)


def index(docs_dir, index_dir):
    run("pyserini.index.lucene", "--collection", "JsonCollection", "--input", docs_dir, "--index", index_dir,
        "--generator", "DefaultLuceneDocumentGenerator", "--threads", "2", "--storeDocvectors")


def read_topics(path):
    """Topics as pyserini.search.lucene reads a TSV of numeric ids (Anserini's TsvIntTopicReader):
    qid<TAB>query, in numeric order of the ids."""
    topics = []
    with open(path) as f:
        for line in f:
            if line.strip():
                qid, query = line.rstrip("\n").split("\t", 1)
                topics.append((int(qid), query))
    return sorted(topics)


def search(index_dir, topics, output, k1, b, rm3=False):
    """One run, with the Java calls `python -m pyserini.search.lucene --bm25 [--rm3] --hits 1000`
    makes (LuceneSearcher: SimpleSearcher.set_bm25, set_rm3 with Pyserini's defaults, search per
    topic; its TREC writer's format and tag). The module itself is not run: its package imports
    the dense and learned-sparse searchers, hence torch and transformers, which the BM25 and RM3
    path never uses (see pyserini.sh)."""
    from pyserini.pyclass import autoclass

    searcher = autoclass("io.anserini.search.SimpleSearcher")(index_dir)
    searcher.set_bm25(float(k1), float(b))
    if rm3:
        # LuceneSearcher.set_rm3's defaults: fbTerms 10, fbDocs 10, original query weight 0.5,
        # no debug output, non-English terms filtered; the index keeps document vectors.
        searcher.set_rm3(None, 10, 10, 0.5, False, True)
    with open(output, "w") as out:
        for qid, query in topics:
            for rank, hit in enumerate(searcher.search(query, 1000), start=1):
                out.write(f"{qid} Q0 {hit.docid.strip()} {rank} {hit.score:.6f} Anserini\n")
    searcher.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shared", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    a = parser.parse_args()
    web = os.path.isdir(os.path.join(a.shared, "ir-web", a.name))
    topics = read_topics(os.path.join(a.shared, "ir-web" if web else "ir", a.name, "topics.tsv"))
    clean = os.path.join(a.work, "clean")
    pages = os.path.join(a.work, "pages")
    count = clean_documents(a.shared, a.name, os.path.join(clean, "docs"), web)
    page_count = page_texts(a.shared, a.name, os.path.join(pages, "docs")) if web else 0
    print(f"{a.name}: {count} clean documents, {page_count} pages, {len(topics)} topics", flush=True)
    for kind in (clean, pages) if web else (clean,):
        index(os.path.join(kind, "docs"), os.path.join(kind, "index"))
    runs = [
        ("pyserini-bm25-clean", clean, 0.9, 0.4, False),
        ("pyserini-bm25-k1.2-b0.75-clean", clean, 1.2, 0.75, False),
        ("pyserini-bm25-rm3-clean", clean, 0.9, 0.4, True),
    ]
    if web:
        runs.append(("pyserini-bm25-pagetext", pages, 0.9, 0.4, False))
    os.makedirs(a.out, exist_ok=True)
    for run_name, kind, k1, b, rm3 in runs:
        search(os.path.join(kind, "index"), topics, os.path.join(a.out, run_name + ".run"), k1, b, rm3)
        print(f"{a.name}: {run_name}.run", flush=True)


if __name__ == "__main__":
    main()
