#!/usr/bin/env python3
"""Writes the pages of two cleaning training sets under their own URLs as one WARC file, for a
label-free check of replica detection on data we may tune on.

    python3 eval/replica-benchmark/train_pages_warc.py target/train-pages.warc.gz
    indexer build target/train-pages.warc.gz --dir target/train-pages

The pages of one host in wcxb-train and page-signal (`../shared/data/clean-train/`) are distinct
documents, so a near-replica pair of two pages of one host in the build's replicas.tsv is a false
positive (pairs across hosts are mostly wire copies of one story). Every page of meta.tsv with a
URL and an HTML file is written, in meta.tsv order, wcxb-train first; the HTML bytes are unchanged.
Nothing from ../shared is stored in the repository.
"""

import gzip
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spark"))
from make_warcs import response_record  # noqa: E402

SETS = ["wcxb-train", "page-signal"]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: train_pages_warc.py OUT.warc.gz")
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.environ.get("CLEAN_TRAIN", os.path.join(here, "..", "..", "..", "shared", "data", "clean-train"))
    written = 0
    with open(sys.argv[1], "wb") as out:
        for name in SETS:
            with open(os.path.join(root, name, "meta.tsv"), encoding="utf-8") as f:
                rows = [line.rstrip("\n").split("\t") for line in f][1:]
            for row in rows:
                page_id, url = row[0], row[1] if len(row) > 1 else ""
                path = os.path.join(root, name, "html", f"{page_id}.html.gz")
                if not url or not os.path.exists(path):
                    continue
                with gzip.open(path, "rb") as f:
                    out.write(gzip.compress(response_record(url, f.read()), mtime=0))
                written += 1
    print(f"{written} pages written to {sys.argv[1]}", file=sys.stderr)


if __name__ == "__main__":
    main()
