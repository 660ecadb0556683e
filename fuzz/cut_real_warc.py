#!/usr/bin/env python3
"""Cuts the WARC files of ../shared/data/real-warc/ into single-record seed files for the crawl-reader fuzz
targets, written OUTSIDE the repository (they are third parties' data: never commit them). For each file, its first
records (at most --records, each at most --max-bytes): for warc_reader, the record as stored (a .warc.gz member
kept as it is, compressed; a plain WARC's record as its bytes); for arc_reader, each response record of an http(s)
URL framed as an ARC v1 record after an ARC file header (plain, and also gzipped per record). Every seed starts with
the byte that tells the target how to write it (0: as it is; 1: gzipped per record; fuzz_targets/crawl_common.rs).

Usage: python3 fuzz/cut_real_warc.py [--data ../shared/data/real-warc] [--out /tmp/real-warc-seeds]
Writes <out>/warc_reader/ and <out>/arc_reader/ and prints how many seeds each got."""
import argparse
import glob
import os
import zlib


def members(data):
    """(compressed member, inflated bytes) of each gzip member."""
    while data:
        d = zlib.decompressobj(31)
        try:
            inflated = d.decompress(data)
        except zlib.error:
            return
        if not d.eof:
            return
        used = len(data) - len(d.unused_data)
        yield data[:used], inflated
        data = d.unused_data


def plain_records(data):
    """Each record of a plain WARC, with its separator."""
    at = 0
    while at < len(data):
        end = data.find(b"\r\n\r\n", at)
        if end < 0:
            return
        head = data[at:end]
        length = next((int(l.split(b":", 1)[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")), None)
        if length is None:
            return
        stop = end + 4 + length
        while data[stop:stop + 2] == b"\r\n":
            stop += 2
        yield data[at:stop]
        at = stop


def header(record):
    head = record.split(b"\r\n\r\n", 1)[0]
    fields = {}
    for line in head.split(b"\r\n")[1:]:
        if b":" in line:
            k, v = line.split(b":", 1)
            fields[k.strip().lower()] = v.strip()
    return fields


def as_arc(record):
    fields = header(record)
    uri = fields.get(b"warc-target-uri", b"").strip(b"<>")
    if fields.get(b"warc-type") != b"response" or not uri.lower().startswith(b"http"):
        return None
    block = record.split(b"\r\n\r\n", 1)[1][:int(fields.get(b"content-length", b"0"))]
    http_head = block.split(b"\r\n\r\n", 1)[0]
    ctype = next((l.split(b":", 1)[1].strip().split(b";")[0] for l in http_head.split(b"\r\n")
                  if l.lower().startswith(b"content-type:")), b"no-type") or b"no-type"
    body = b"1 0 Real records\nURL IP-address Archive-date Content-type Archive-length\n\n"
    filedesc = b"filedesc://real.arc 0.0.0.0 20000101000000 text/plain " + str(len(body)).encode() + b"\n" + body + b"\n"
    line = uri.replace(b" ", b"%20") + b" 192.0.2.1 20000101000000 " + ctype.replace(b" ", b"") + b" " + str(len(block)).encode()
    return filedesc + line + b"\n" + block + b"\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data", "real-warc"))
    parser.add_argument("--out", default="/tmp/real-warc-seeds")
    parser.add_argument("--records", type=int, default=60)
    parser.add_argument("--max-bytes", type=int, default=64 * 1024)
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(args.data, "*", "*.warc*")))
    if not files:
        raise SystemExit(f"no WARC files under {args.data}")
    counts = {"warc_reader": 0, "arc_reader": 0}
    for target in counts:
        os.makedirs(os.path.join(args.out, target), exist_ok=True)

    def write(target, name, how, data):
        with open(os.path.join(args.out, target, name), "wb") as f:
            f.write(bytes([how]) + data)
        counts[target] += 1

    for path in files:
        data = open(path, "rb").read()
        stem = os.path.basename(path)
        pairs = list(members(data)) if data[:2] == b"\x1f\x8b" else [(r, r) for r in plain_records(data)]
        for i, (stored, record) in enumerate(pairs[:args.records]):
            if len(stored) > args.max_bytes:
                continue
            write("warc_reader", f"{stem}-{i:03}", 0, stored)
            arc = as_arc(record)
            if arc is not None and len(arc) <= args.max_bytes:
                write("arc_reader", f"{stem}-{i:03}", 0, arc)
                write("arc_reader", f"{stem}-{i:03}-gz", 1, arc)
    for target, n in counts.items():
        print(f"{target}: {n} seeds in {os.path.join(args.out, target)}")


if __name__ == "__main__":
    main()
