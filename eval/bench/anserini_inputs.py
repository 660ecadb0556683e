#!/usr/bin/env python3
"""The pages of a WARC file as Anserini collections, for eval/bench/anserini.sh:
OUT/html/pages.tar.gz (one .html file a page: Anserini's HtmlCollection, whose documents
Anserini strips of markup with Jsoup) and OUT/json/pages.jsonl ({"id", "contents"} with the
page's HTML as contents: JsonCollection, which indexes the contents as they are).

    anserini_inputs.py pages.warc.gz OUT

Prints the number of pages. Response records whose HTTP status is not 200 or whose content
type is not HTML are left out, as `indexer build` does not index them."""

import io
import json
import os
import sys
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spark"))

from make_warcs import warc_records  # noqa: E402


def html_pages(path):
    for kind, url, block in warc_records(path):
        if kind != "response":
            continue
        head, _, body = block.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else ""
        content_type = next((l.split(":", 1)[1].strip().lower() for l in lines[1:] if l.lower().startswith("content-type:")), "")
        if status == "200" and "html" in content_type:
            yield url, body


def main():
    warc, out = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(out, "html"), exist_ok=True)
    os.makedirs(os.path.join(out, "json"), exist_ok=True)
    count = 0
    with tarfile.open(os.path.join(out, "html", "pages.tar.gz"), "w:gz") as tar, open(
        os.path.join(out, "json", "pages.jsonl"), "w", encoding="utf-8"
    ) as jsonl:
        for url, body in html_pages(warc):
            name = f"page-{count:06d}.html"
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
            jsonl.write(json.dumps({"id": url, "contents": body.decode("utf-8", "replace")}) + "\n")
            count += 1
    print(count)


if __name__ == "__main__":
    main()
