#!/usr/bin/env python3
"""Writes the committed seeds of the crawl-reader fuzz targets, fuzz/corpus/{warc_reader,arc_reader}/seed-*:
the repository's own crawl fixtures (tests/fixtures/input/*/input.*, written by make_fixtures.py) and small WARC
and ARC files written here, one per quirk of real crawlers' files. Every seed starts with the byte that tells the
target how to write the file (fuzz_targets/crawl_common.rs): 0 as it is, 1 gzipped one member per record, 2 gzipped
in members of a fixed size (the next byte), 3 one member per record with one damaged (the next byte); +4 also
accepts plain text. Deterministic: rerunning writes the same bytes. (The seven seeds of warc_reader named
`seed-*.warc*` were written by hand for issue #5; they got the leading 0 byte when the targets took it.)

Usage: python3 fuzz/write_seeds.py"""
import glob
import gzip
import os
import zlib

FUZZ = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(FUZZ, "..", "tests", "fixtures", "input")

AS_IS, MEMBERS, SIZED, DAMAGED, TEXT = 0, 1, 2, 3, 4

PAGE = (b"<html><head><title>Tide tables</title></head><body><h1>Tide tables</h1>"
        b"<p>High water at the north quay is at six and again after dusk; the ferry waits for it.</p></body></html>")


def http(body, status=b"200 OK", headers=b"Content-Type: text/html; charset=utf-8\r\n", eol=b"\r\n"):
    return b"HTTP/1.1 " + status + eol + headers.replace(b"\r\n", eol) + eol + body


def warc(kind, uri, block, version=b"WARC/1.0", content_type=b"application/http; msgtype=response", extra=b"",
         sep=b"\r\n\r\n", eol=b"\r\n", length=None):
    head = (version + eol + b"WARC-Type: " + kind + eol + (b"WARC-Target-URI: " + uri + eol if uri else b"") +
            b"WARC-Date: 2024-05-01T10:00:00Z" + eol + extra + b"Content-Type: " + content_type + eol +
            b"Content-Length: " + (str(len(block)).encode() if length is None else length) + eol + eol)
    return head + block + sep


def arc(url, content_type, block, ip=b"192.0.2.9", date=b"20010203040506", v2=b"", eol=b"\n", length=None):
    size = str(len(block)).encode() if length is None else length
    return url + b" " + ip + b" " + date + b" " + content_type + b" " + v2 + size + eol + block + eol


def filedesc(version=b"1", fields=b"URL IP-address Archive-date Content-type Archive-length"):
    body = version + b" 0 Seed Crawl\n" + fields + b"\n\n"
    return b"filedesc://seed.arc 0.0.0.0 20010203040506 text/plain " + str(len(body)).encode() + b"\n" + body + b"\n"


def chunked(body, sizes, ext=b""):
    out, at = b"", 0
    for size in sizes:
        out += b"%x%s\r\n%s\r\n" % (size, ext, body[at:at + size])
        at += size
    return out + b"0\r\nX-Trailer: yes\r\n\r\n"


SEEDS = {"warc_reader": {}, "arc_reader": {}}


def seed(target, name, how, data, extra=b""):
    SEEDS[target][name] = bytes([how]) + extra + data


# The repository's crawl fixtures, as they are; the plain ones also gzipped per record.
for path in sorted(glob.glob(os.path.join(FIXTURES, "*", "input.*"))):
    case = os.path.basename(os.path.dirname(path))
    data = open(path, "rb").read()
    target = "arc_reader" if ".arc" in os.path.basename(path) else "warc_reader"
    seed(target, "fixture-" + case, AS_IS, data)
    if not path.endswith(".gz"):
        seed(target, "fixture-" + case + "-members", MEMBERS, data)

non_pages = open(os.path.join(FIXTURES, "non-pages", "input.warc"), "rb").read()
seed("warc_reader", "fixture-non-pages-accept-text", AS_IS | TEXT, non_pages)
seed("warc_reader", "fixture-non-pages-clipped-member", DAMAGED, non_pages, bytes([2 * 3]))
seed("warc_reader", "fixture-non-pages-flipped-member", DAMAGED, non_pages, bytes([2 * 5 + 1]))
seed("warc_reader", "fixture-non-pages-sized-members", SIZED, non_pages, bytes([99]))
arc_plain = open(os.path.join(FIXTURES, "arc", "input.arc"), "rb").read()
seed("arc_reader", "fixture-arc-clipped-member", DAMAGED, arc_plain, bytes([2 * 1]))
seed("arc_reader", "fixture-arc-flipped-member", DAMAGED, arc_plain, bytes([2 * 3 + 1]))
seed("arc_reader", "fixture-arc-sized-members", SIZED, arc_plain, bytes([63]))

# WARC quirks.
seed("warc_reader", "warc11-bracketed-folded-uri", AS_IS, b"".join([
    warc(b"response", b"<http://w1.example/a>", http(PAGE), version=b"WARC/1.1"),
    b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://w1.example/\r\n  folded/part\r\n"
    b"Content-Type: application/http; msgtype=response\r\nContent-Length: " + str(len(http(PAGE))).encode() +
    b"\r\n\r\n" + http(PAGE) + b"\r\n\r\n",
]))
seed("warc_reader", "warc017-lf-only", AS_IS, b"".join([
    warc(b"response", b"http://w2.example/", http(PAGE, eol=b"\n"), version=b"WARC/0.17", eol=b"\n", sep=b"\n\n"),
    warc(b"resource", b"http://w2.example/r.html", PAGE, content_type=b"text/html", eol=b"\n", sep=b"\n"),
]))
seed("warc_reader", "record-kinds", AS_IS | TEXT, b"".join([
    warc(b"conversion", b"http://w3.example/", b"Plain words of a converted page.\n", content_type=b"text/plain"),
    warc(b"continuation", b"http://w3.example/big", b"rest of a segment"),
    warc(b"surprise", b"http://w3.example/x", http(PAGE)),
    warc(b"response", b"http://w3.example/no-type", http(PAGE, headers=b""), content_type=b""),
    warc(b"response", b"http://w3.example/xhtml",
         http(b"<?xml version='1.0'?><!DOCTYPE html><html><body><p>x</p></body></html>",
              headers=b"Content-Type: application/octet-stream\r\n")),
    warc(b"response", b"urn:x-seed:thing", http(PAGE)),
]))
seed("warc_reader", "bad-lengths", AS_IS, b"".join([
    warc(b"response", b"http://w4.example/a", http(PAGE), length=b"twelve"),
    warc(b"response", b"http://w4.example/b", http(PAGE), length=b"-5"),
    warc(b"response", b"http://w4.example/c", http(PAGE), length=b"18446744073709551615"),
    warc(b"response", b"http://w4.example/d", http(PAGE), length=b"99999"),
]))
seed("warc_reader", "header-junk-lines", AS_IS, (
    b"garbage before the first record\r\n" +
    warc(b"response", b"http://w5.example/", http(PAGE), extra=b"this line has no colon\r\nX-\xff\xfe: \xc3\x28\r\n") +
    b"more garbage between\r\n" + warc(b"response", b"http://w5.example/\xe9t\xe9", http(PAGE)) + b"trailing"))
seed("warc_reader", "content-encodings", AS_IS, b"".join([
    warc(b"response", b"http://w6.example/zlib",
         http(zlib.compress(PAGE), headers=b"Content-Type: text/html\r\nContent-Encoding: deflate\r\n")),
    warc(b"response", b"http://w6.example/raw-deflate",
         http(zlib.compress(PAGE)[2:-4], headers=b"Content-Type: text/html\r\nContent-Encoding: deflate\r\n")),
    warc(b"response", b"http://w6.example/stale-br",
         http(PAGE, headers=b"Content-Type: text/html\r\nContent-Encoding: br\r\n")),
    warc(b"response", b"http://w6.example/clipped-gzip",
         http(gzip.compress(PAGE * 4, mtime=0)[:90], headers=b"Content-Type: text/html\r\nContent-Encoding: x-gzip\r\n")),
    warc(b"response", b"http://w6.example/chunked-gzip",
         http(chunked(gzip.compress(PAGE, mtime=0), [40, 1000]),
              headers=b"Content-Type: text/html\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n")),
]))
seed("warc_reader", "chunk-quirks", AS_IS, b"".join([
    warc(b"response", b"http://w7.example/ext", http(chunked(PAGE, [7, 60, 500], ext=b";name=v"),
                                                      headers=b"Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n")),
    warc(b"response", b"http://w7.example/short", http(b"ff\r\n<p>not that long\r\n",
                                                        headers=b"Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n")),
    warc(b"response", b"http://w7.example/bad-size", http(b"zz\r\n<p>x\r\n0\r\n\r\n",
                                                           headers=b"Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n")),
]))
seed("warc_reader", "http-quirks", AS_IS, b"".join([
    warc(b"response", b"http://w8.example/0.9", b"<html><body>no status line</body></html>"),
    warc(b"response", b"http://w8.example/redirect", http(b"", status=b"301 Moved", headers=b"Location: /x\r\n")),
    warc(b"response", b"http://w8.example/no-end", b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n"),
    warc(b"response", b"http://w8.example/odd", http(PAGE, status=b"2000 Fine",
                                                     headers=b"Content-Type: text/html; charset=\"\"\r\n")),
    warc(b"response", b"http://w8.example/lang", http(PAGE, headers=b"Content-Type: text/html;charset='gbk'\r\n"
                                                               b"Content-Language: de-AT\r\n")),
]))

# ARC quirks.
seed("arc_reader", "arc-v2", AS_IS, filedesc(b"2", b"URL IP-address Archive-date Content-type Result-code Checksum "
                                                   b"Location Offset Filename Archive-length") +
     arc(b"http://a1.example/", b"text/html", http(PAGE), v2=b"200 ABCDEF - 0 seed.arc ") +
     arc(b"http://a1.example/img.png", b"image/png", http(b"\x89PNG", headers=b"Content-Type: image/png\r\n"),
         v2=b"200 ABCDEF - 400 seed.arc "))
seed("arc_reader", "arc-junk-and-spaces", AS_IS, filedesc() + b"a line that is no record\n" +
     arc(b"http://a2.example/a page.html", b"text/html", http(PAGE)) + b"\n\n\xff\xfe junk\n" +
     arc(b"http://a2.example/\xe9", b"text/html", http(PAGE)))
seed("arc_reader", "arc-crlf-and-lengths", AS_IS, filedesc() +
     arc(b"http://a3.example/crlf", b"text/html", http(PAGE), eol=b"\r\n") +
     arc(b"http://a3.example/short", b"text/html", http(PAGE), length=b"40") +
     arc(b"http://a3.example/huge", b"text/html", http(PAGE), length=b"99999999"))
seed("arc_reader", "arc-non-http", AS_IS | TEXT, filedesc() +
     arc(b"ftp://a4.example/readme.txt", b"text/plain", b"Plain words from an FTP site.\n") +
     arc(b"http://a4.example/no-headers", b"text/html", PAGE) +
     arc(b"http://a4.example/robots.txt", b"text/plain", http(b"User-agent: *\n", headers=b"Content-Type: text/plain\r\n")) +
     arc(b"filedesc://second.arc", b"text/plain", b"1 0 again\n"))
seed("arc_reader", "arc-header-only", AS_IS, filedesc())

for target, seeds in SEEDS.items():
    folder = os.path.join(FUZZ, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    for name, data in sorted(seeds.items()):
        with open(os.path.join(folder, "seed-" + name), "wb") as f:
            f.write(data)
    print(f"{target}: {len(seeds)} seeds written")
