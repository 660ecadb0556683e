#!/usr/bin/env python3
"""Splits a crawl into several WARC files, as a crawl on a cluster comes: the inputs of the
Spark job's tests and benchmark.

    make_warcs.py folder eval/sample-corpus/pages 4 OUT   # a folder of pages with urls.tsv
    make_warcs.py warc pages.warc.gz 4 OUT [--repeat K]  # a WARC file; K copies under new URLs

Writes OUT/part-00000.warc ... (contiguous runs of records, in input order) and OUT/inputs.txt
listing them in order. --repeat K writes the crawl K times, copy k > 0 under URLs ending in
`?copy=k` (as `indexer bench --scale` names copies), for the growth of the replica join with the number of pages.
"""

import argparse
import gzip
import os
import sys
import uuid


def folder_pages(folder):
    """(url, html bytes) of the pages of a folder with a urls.tsv manifest, in the order the
    folder input walks it (sorted by name at every level)."""
    urls = {}
    with open(os.path.join(folder, "urls.tsv"), encoding="utf-8") as f:
        for line in f:
            path, _, url = line.rstrip("\n").partition("\t")
            if url:
                urls[path] = url
    records = []

    def walk(directory, relative):
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            rel = f"{relative}/{name}" if relative else name
            if os.path.isdir(path):
                walk(path, rel)
            elif name.endswith((".html", ".htm")) and rel in urls:
                with open(path, "rb") as f:
                    records.append((urls[rel], f.read()))

    walk(folder, "")
    return records


def copy_url(url, copy):
    """The URL of copy `copy` (0: the original), as `indexer bench --scale` names copies."""
    if copy == 0:
        return url
    address, hash_mark, fragment = url.partition("#")
    separator = "&" if "?" in address else "?"
    return f"{address}{separator}copy={copy}{hash_mark}{fragment}"


def response_record(url, html):
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + html
    return record_bytes(url, block)


def record_bytes(url, block, warc_type="response"):
    header = (
        "WARC/1.0\r\n"
        f"WARC-Type: {warc_type}\r\n"
        f"WARC-Target-URI: {url}\r\n"
        "WARC-Date: 2024-01-01T00:00:00Z\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, url)}>\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(block)}\r\n\r\n"
    )
    return header.encode("utf-8") + block + b"\r\n\r\n"


def warc_records(path):
    """(WARC type, target URI, block) of every record of a WARC file, plain or gzip."""
    opener = gzip.open if path.endswith(".gz") else open
    records = []
    with opener(path, "rb") as f:
        while True:
            line = f.readline()
            if not line:
                break
            if not line.strip():
                continue
            if not line.startswith(b"WARC/"):
                raise SystemExit(f"{path}: not a WARC record at {line[:40]!r}")
            headers = {}
            while True:
                line = f.readline()
                if not line or not line.strip():
                    break
                name, _, value = line.decode("utf-8", "replace").partition(":")
                headers[name.strip().lower()] = value.strip()
            block = f.read(int(headers.get("content-length", "0")))
            records.append((headers.get("warc-type", ""), headers.get("warc-target-uri", ""), block))
    return records


def write_parts(records, parts, out):
    os.makedirs(out, exist_ok=True)
    parts = max(1, min(parts, len(records)))
    base, extra = divmod(len(records), parts)
    names, start = [], 0
    for i in range(parts):
        end = start + base + (1 if i < extra else 0)
        name = f"part-{i:05d}.warc"
        with open(os.path.join(out, name), "wb") as f:
            for record in records[start:end]:
                f.write(record)
        names.append(name)
        start = end
    with open(os.path.join(out, "inputs.txt"), "w", encoding="utf-8") as f:
        f.write("".join(f"{name}\n" for name in names))
    return names


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["folder", "warc"])
    parser.add_argument("source")
    parser.add_argument("parts", type=int)
    parser.add_argument("out")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    if args.kind == "folder":
        pages = folder_pages(args.source)
        copies = [[response_record(copy_url(url, k), html) for url, html in pages] for k in range(args.repeat)]
    else:
        crawl = [r for r in warc_records(args.source) if r[0] in ("response", "resource")]
        copies = [
            [record_bytes(copy_url(url, k), block, kind) for kind, url, block in crawl]
            for k in range(args.repeat)
        ]
    records = [r for copy in copies for r in copy]
    names = write_parts(records, args.parts, args.out)
    print(f"{len(records)} records in {len(names)} WARC files in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
