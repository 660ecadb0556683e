#!/usr/bin/env python3
"""Counts the records of WARC and ARC files by type with warcio, the reference reader.

Usage: warcio_counts.py FILE...   (prints <file name><TAB><type><TAB><count>, sorted)

The reference counts of ../shared/data/real-warc/ are kept in
tests/fixtures/input/real-warc/warcio-counts.tsv, which tests/real_crawls.rs compares with our
reader's counts; eval/crawl/warcio_counts.sh reruns warcio and checks the file is current.
ARC files are read with arc2warc, as warcio does by default for `warcio index`: the ARC file
header counts as a warcinfo record and every other record as a response.
"""
import collections
import os
import sys

from warcio.archiveiterator import ArchiveIterator

rows = []
for path in sys.argv[1:]:
    counts = collections.Counter()
    with open(path, "rb") as f:
        for record in ArchiveIterator(f, arc2warc=True):
            counts[record.rec_type] += 1
    for kind, n in counts.items():
        rows.append((os.path.basename(path), kind, n))
for name, kind, n in sorted(rows):
    print(f"{name}\t{kind}\t{n}")
