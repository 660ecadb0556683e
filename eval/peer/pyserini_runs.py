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


def clean_documents(shared, name, out_dir):
    urls = {}
    with open(os.path.join(shared, "ir-web", name, "urls.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            urls[row["docid"]] = row["url"]
    os.makedirs(out_dir, exist_ok=True)
    count = 0
    with open(os.path.join(shared, "ir", name, "docs.jsonl")) as f, open(os.path.join(out_dir, "docs.jsonl"), "w") as out:
        for line in f:
            doc = json.loads(line)
            url = urls.get(doc["id"])
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


def search(index_dir, topics, output, *extra):
    run("pyserini.search.lucene", "--index", index_dir, "--topics", topics, "--output", output, "--hits", "1000",
        "--bm25", *extra)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shared", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    a = parser.parse_args()
    topics = os.path.join(a.shared, "ir-web", a.name, "topics.tsv")
    clean = os.path.join(a.work, "clean")
    pages = os.path.join(a.work, "pages")
    print(f"{a.name}: {clean_documents(a.shared, a.name, os.path.join(clean, 'docs'))} clean documents, "
          f"{page_texts(a.shared, a.name, os.path.join(pages, 'docs'))} pages", flush=True)
    for kind in (clean, pages):
        index(os.path.join(kind, "docs"), os.path.join(kind, "index"))
    runs = [
        ("pyserini-bm25-clean", clean, ["--k1", "0.9", "--b", "0.4"]),
        ("pyserini-bm25-k1.2-b0.75-clean", clean, ["--k1", "1.2", "--b", "0.75"]),
        # pyserini.search.lucene's --rm3 takes Anserini's defaults: fbTerms 10, fbDocs 10,
        # original query weight 0.5.
        ("pyserini-bm25-rm3-clean", clean, ["--k1", "0.9", "--b", "0.4", "--rm3"]),
        ("pyserini-bm25-pagetext", pages, ["--k1", "0.9", "--b", "0.4"]),
    ]
    for run_name, kind, extra in runs:
        search(os.path.join(kind, "index"), topics, os.path.join(a.out, run_name + ".run"), *extra)
        print(f"{a.name}: {run_name}.run", flush=True)


if __name__ == "__main__":
    main()
