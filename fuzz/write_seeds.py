#!/usr/bin/env python3
"""Writes the committed seeds of the crawl-reader fuzz targets, fuzz/corpus/{warc_reader,arc_reader}/seed-*:
the repository's own crawl fixtures (tests/fixtures/input/*/input.*, written by make_fixtures.py) and small WARC
and ARC files written here, one per quirk of real crawlers' files. Every seed starts with the byte that tells the
target how to write the file (fuzz_targets/crawl_common.rs): 0 as it is, 1 gzipped one member per record, 2 gzipped
in members of a fixed size (the next byte), 3 one member per record with one damaged (the next byte); +4 also
accepts plain text. Deterministic: rerunning writes the same bytes. (The seven seeds of warc_reader named
`seed-*.warc*` were written by hand for issue #5; they got the leading 0 byte when the targets took it.)

Also the seeds of the `http_body` target, fuzz/corpus/http_body/seed-*: two bytes that say how the response is made
(fuzz_targets/http_body.rs: the Content-Encoding, chunked, the cap on the decoded body; where the body is clipped),
then the body: real Brotli, zstd, gzip and deflate bodies, whole, clipped and corrupt.

Brotli and zstd bodies need the Python packages `brotli` and `zstandard` (used only here; the seeds committed were
written with brotli 1.2.1 and zstandard 0.25.0, whose output may differ in other versions), e.g. in a venv:
    python3 -m venv /tmp/seeds-venv && /tmp/seeds-venv/bin/pip install brotli zstandard
    /tmp/seeds-venv/bin/python fuzz/write_seeds.py

Usage: python3 fuzz/write_seeds.py"""
import glob
import gzip
import os
import sys
import zlib

try:
    import brotli
    import zstandard
except ImportError as missing:
    sys.exit(f"write_seeds.py needs the Python packages brotli and zstandard ({missing}): "
             "python3 -m venv /tmp/seeds-venv && /tmp/seeds-venv/bin/pip install brotli zstandard, "
             "then run it with /tmp/seeds-venv/bin/python")

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


SEEDS = {"warc_reader": {}, "arc_reader": {}, "http_body": {}}


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

# Brotli and zstd bodies (Content-Encoding br and zstd, decoded since 5e88834; the zstd window capped since a8ae86a).
def varied_text(words):
    """Words of little redundancy, so compressed bodies are longer than a few blocks' headers."""
    state, out = 1, []
    for _ in range(words):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2 ** 64
        out.append("w%x" % (state >> 44))
    return " ".join(out).encode()


LONG_PAGE = b"<html><body><h1>Harbour log</h1><p>" + varied_text(1500) + b"</p></body></html>"


def br(data, quality=5):
    return brotli.compress(data, quality=quality)


def zst(data, level=3):
    return zstandard.ZstdCompressor(level=level).compress(data)


def zst_stream(data, window_log):
    """A zstd frame without a content size, so its header holds a Window_Descriptor (RFC 8878, 3.1.1.1.2)."""
    params = zstandard.ZstdCompressionParameters.from_level(3, window_log=window_log, write_content_size=False)
    writer = zstandard.ZstdCompressor(compression_params=params).compressobj()
    return writer.compress(data) + writer.flush()


def flip(data, at):
    return data[:at] + bytes([data[at] ^ 0x55]) + data[at + 1:]


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
# A frame asking for a dictionary (Dictionary_ID_Flag 1, id 7) that no decoder here has, around a raw block.
ZSTD_WITH_DICT = ZSTD_MAGIC + b"\x01\x00\x07" + (1 | 5 << 3).to_bytes(3, "little") + b"<p>ok"
# A skippable frame (RFC 8878, 3.1.2) after a real one.
ZSTD_SKIPPABLE = b"\x50\x2a\x4d\x18" + (4).to_bytes(4, "little") + b"skip"

COMPRESSED_BODIES = [
    (b"br", b"whole", br(PAGE)),
    (b"br", b"long", br(LONG_PAGE)),
    (b"br", b"clipped", br(LONG_PAGE)[:len(br(LONG_PAGE)) * 2 // 3]),
    (b"br", b"corrupt", flip(br(LONG_PAGE), len(br(LONG_PAGE)) // 2)),
    (b"br", b"plain-text", PAGE),
    (b"br", b"quality-11", br(PAGE, quality=11)),
    (b"zstd", b"whole", zst(PAGE)),
    (b"zstd", b"long", zst(LONG_PAGE, level=19)),
    (b"zstd", b"clipped", zst(LONG_PAGE)[:len(zst(LONG_PAGE)) * 2 // 3]),
    (b"zstd", b"corrupt", flip(zst(LONG_PAGE), len(zst(LONG_PAGE)) // 2)),
    (b"zstd", b"window-16mib", zst_stream(PAGE, 24)),
    (b"zstd", b"window-8mib", zst_stream(PAGE, 23)),
    (b"zstd", b"two-frames-and-skippable", zst(PAGE) + ZSTD_SKIPPABLE + zst(b"<p>second frame</p>")),
    (b"zstd", b"dictionary", ZSTD_WITH_DICT),
    (b"zstd", b"plain-text", PAGE),
    (b"ZSTD", b"upper-case", zst(PAGE)),
]


def compressed_records(make):
    return b"".join(make(encoding, name, http(body, headers=b"Content-Type: text/html\\r\\nContent-Encoding: " +
                                                   encoding + b"\\r\\n"))
                    for encoding, name, body in COMPRESSED_BODIES)


br_zstd_warc = compressed_records(
    lambda encoding, name, block: warc(b"response", b"http://w9.example/" + encoding + b"/" + name, block)) + warc(
    b"response", b"http://w9.example/chunked-br",
    http(chunked(br(LONG_PAGE), [100, 4000]),
         headers=b"Content-Type: text/html\\r\\nTransfer-Encoding: chunked\\r\\nContent-Encoding: br\\r\\n"))
seed("warc_reader", "br-zstd-bodies", AS_IS, br_zstd_warc)
seed("warc_reader", "br-zstd-bodies-members", MEMBERS, br_zstd_warc)
seed("warc_reader", "br-zstd-bodies-accept-text", AS_IS | TEXT, warc(
    b"response", b"http://w9.example/text", http(br(b"Plain words, brotli-compressed.\\n"),
                                                 headers=b"Content-Type: text/plain\\r\\nContent-Encoding: br\\r\\n")))
br_zstd_arc = filedesc() + compressed_records(
    lambda encoding, name, block: arc(b"http://a9.example/" + encoding + b"/" + name, b"text/html", block))
seed("arc_reader", "br-zstd-bodies", AS_IS, br_zstd_arc)
seed("arc_reader", "br-zstd-bodies-members", MEMBERS, br_zstd_arc)

# Files gzipped in members shorter than the "WARC/" or "filedesc://" a file is sniffed by (6d2c03f): the target
# cuts them in members of 1 and 3 bytes (SIZED, the next byte + 1); also written here with an empty first member.
small_warc = (warc(b"response", b"http://w10.example/", http(PAGE)) +
              warc(b"response", b"http://w10.example/zstd", http(zst(PAGE), headers=b"Content-Encoding: zstd\\r\\n")))
small_arc = filedesc() + arc(b"http://a10.example/", b"text/html", http(PAGE))
for target, small in (("warc_reader", small_warc), ("arc_reader", small_arc)):
    seed(target, "sniff-members-of-1-byte", SIZED, small, bytes([0]))
    seed(target, "sniff-members-of-3-bytes", SIZED, small, bytes([2]))
    tiny = [b"", small[:1], small[1:3], small[3:4], small[4:]]
    seed(target, "sniff-empty-and-tiny-members", AS_IS, b"".join(gzip.compress(m, mtime=0) for m in tiny))

# http_body: the first byte is the encoding (ENCODINGS: 0 none, 1 gzip, 2 x-gzip, 3 deflate, 4 br, 5 zstd,
# 6 compress, 7 identity) + 8 chunked + 16 * the cap (MAX_BODIES: 0 16, 1 256, 2 4096, 3 1 MiB); the second where
# the body is clipped for the second parse (a share of 256).
NO_ENCODING, GZIP, X_GZIP, DEFLATE, BR, ZSTD, COMPRESS, IDENTITY = range(8)
CHUNKED, CAP_16, CAP_256, CAP_4096, CAP_1MIB = 8, 0, 16, 32, 48
CLIP_TWO_THIRDS = 170
http_bodies = [(BR if encoding.lower() == b"br" else ZSTD, name, body) for encoding, name, body in COMPRESSED_BODIES]
http_bodies += [
    (GZIP, b"whole", gzip.compress(LONG_PAGE, mtime=0)),
    (X_GZIP, b"two-members", gzip.compress(PAGE, mtime=0) + gzip.compress(b"<p>more", mtime=0)),
    (DEFLATE, b"zlib", zlib.compress(LONG_PAGE)),
    (DEFLATE, b"raw", zlib.compress(LONG_PAGE)[2:-4]),
    (COMPRESS, b"lzw", b"\\x1f\\x9d\\x90<p>"),
    (IDENTITY, b"page", PAGE),
    (NO_ENCODING, b"page", PAGE),
]
for encoding, name, body in http_bodies:
    label = "%s-%s" % (["none", "gzip", "x-gzip", "deflate", "br", "zstd", "compress", "identity"][encoding],
                       name.decode())
    seed("http_body", label, encoding | CAP_1MIB, body, bytes([CLIP_TWO_THIRDS]))
    if encoding in (BR, ZSTD) and name == b"long":
        seed("http_body", label + "-cap-4096", encoding | CAP_4096, body, bytes([CLIP_TWO_THIRDS]))
        seed("http_body", label + "-cap-256", encoding | CAP_256, body, bytes([CLIP_TWO_THIRDS]))
        seed("http_body", label + "-chunked", encoding | CHUNKED | CAP_1MIB, chunked(body, [100, 200, 100000]),
             bytes([CLIP_TWO_THIRDS]))
        seed("http_body", label + "-clipped-early", encoding | CAP_1MIB, body, bytes([8]))

for target, seeds in SEEDS.items():
    folder = os.path.join(FUZZ, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    for name, data in sorted(seeds.items()):
        with open(os.path.join(folder, "seed-" + name), "wb") as f:
            f.write(data)
    print(f"{target}: {len(seeds)} seeds written")
