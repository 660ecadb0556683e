#!/usr/bin/env python3
"""Tests of the Spark job's pure parts (no Spark, no JVM): the build's read order and the
replica resolution. Run: python3 spark/test_join.py"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from indexer_spark import (  # noqa: E402
    NearRule, PairRule, contiguous_slices, join_keys, rank_of, read_order, resolve, site_of,
)

BANDS, WIDTH = 4, 2


def row(rank, url, shard=0, exact=None, minhash=None, keyword=None, duplicate_url=False, shingles=None):
    r = {
        "shingles": shingles,
        "rank": rank,
        "url": url,
        "url_digest": "d-" + url,
        "shard": shard,
        "exact": exact,
        "keyword": keyword,
        "minhash": minhash,
        "duplicate_url": duplicate_url,
    }
    return r


def with_shared_keys(rows):
    """Each row with the keys it shares with another row, as the Spark join hands them over."""
    members = {}
    for r in rows:
        for key in join_keys(r, BANDS, WIDTH):
            members.setdefault(key, set()).add(r["rank"])
    for r in rows:
        r["keys"] = [k for k in join_keys(r, BANDS, WIDTH) if len(members[k]) > 1]
    return rows


def removed(rows, threshold=0.75):
    """`threshold`: a resemblance for every pair, or a NearRule."""
    removals, conflicts = resolve(with_shared_keys(rows), threshold)
    return {(r["removed"], r["kept"], r["kind"]) for r in removals}, conflicts


class ReadOrder(unittest.TestCase):
    def test_inputs_take_turns_by_batch_as_the_build_reads_them(self):
        # As src/pipeline/lanes.rs's test: input0 [0..3] [3]; input1 [0..2]; input2 opens when
        # input1 ends: [0..3] [3..5].
        starts = read_order([4, 2, 5], batch_size=3, parallel_files=2)
        self.assertEqual(starts, {(0, 0): 0, (1, 0): 3, (0, 1): 5, (2, 0): 6, (2, 1): 9})
        ranks = sorted(rank_of(starts, 3, s, r) for s, n in enumerate([4, 2, 5]) for r in range(n))
        self.assertEqual(ranks, list(range(11)))

    def test_one_open_input_is_plain_input_order_and_empty_inputs_pass_their_turn(self):
        starts = read_order([2, 0, 3], batch_size=2, parallel_files=1)
        self.assertEqual([rank_of(starts, 2, 2, r) for r in range(3)], [2, 3, 4])

    def test_slices_are_contiguous_and_even(self):
        self.assertEqual(contiguous_slices(10, 4), [(0, 3), (3, 6), (6, 8), (8, 10)])
        self.assertEqual(contiguous_slices(2, 4), [(0, 1), (1, 2)])


class Resolve(unittest.TestCase):
    def test_the_first_copy_is_kept_exact_and_near(self):
        a = [1, 2, 3, 4, 5, 6, 7, 8]
        near_a = [1, 2, 3, 4, 5, 6, 7, 9]  # 7/8 of a
        far = [1, 2, 0, 0, 0, 0, 0, 0]  # shares a band with a, 2/8 only
        result, _ = removed([
            row(0, "a", 0, exact="x", minhash=a),
            row(1, "b", 1, exact="x", minhash=a),
            row(2, "c", 1, exact="y", minhash=near_a),
            row(3, "d", 0, exact="z", minhash=far),
        ])
        self.assertEqual(result, {("b", "a", "exact"), ("c", "a", "near")})

    def test_a_removed_page_keeps_nothing_out(self):
        # c is near b but b was removed as a copy of a, and c is not near a: c is kept.
        a = [1, 1, 1, 1, 1, 1, 1, 1]
        b = [1, 1, 1, 1, 1, 1, 2, 2]  # 6/8 of a
        c = [3, 3, 1, 1, 1, 1, 2, 2]  # 6/8 of b, 4/8 of a
        result, _ = removed([row(0, "a", minhash=a), row(1, "b", minhash=b), row(2, "c", minhash=c)])
        self.assertEqual(result, {("b", "a", "near")})

    def test_the_most_similar_kept_page_ties_to_the_earliest(self):
        p = [1, 2, 3, 4, 5, 6, 7, 8]
        q = [5, 5, 3, 4, 0, 0, 0, 0]  # 2/8 of p: kept
        r = [1, 2, 3, 4, 9, 9, 7, 8]  # 6/8 of p, 2/8 of q
        s = [1, 2, 3, 4, 5, 6, 7, 0]  # 7/8 of p, 3/8 of q
        result, _ = removed([row(0, "p", minhash=p), row(1, "q", minhash=q),
                             row(2, "r", minhash=r), row(3, "s", minhash=s)])
        self.assertEqual(result, {("r", "p", "near"), ("s", "p", "near")})
        # Equally similar to two kept pages: the earlier is kept.
        k1, k2, t = [1, 1, 2, 2, 3, 3, 4, 4], [1, 1, 2, 2, 5, 5, 6, 6], [1, 1, 2, 2, 3, 3, 6, 6]
        for first, second in [("k1", "k2"), ("k2", "k1")]:
            pages = {"k1": k1, "k2": k2}
            result, _ = removed([row(0, first, minhash=pages[first]), row(1, second, minhash=pages[second]),
                                 row(2, "t", minhash=t)], threshold=0.7)
            self.assertEqual(result, {("t", first, "near")})

    def test_pages_of_two_sites_take_the_cross_site_rule(self):
        # As src/replicas/mod.rs: resemblance 5/8 is a replica across sites (≥ 0.5), not
        # within one (< 0.85).
        rule = NearRule(PairRule(0.85), PairRule(0.5))
        a = [1, 2, 3, 4, 5, 6, 7, 8]
        b = [1, 2, 3, 4, 5, 0, 0, 0]
        same, _ = removed([row(0, "https://a.example/1", minhash=a), row(1, "https://A.example/2", minhash=b)], rule)
        self.assertEqual(same, set())
        cross, _ = removed([row(0, "https://a.example/1", minhash=a), row(1, "https://b.example/1", minhash=b)], rule)
        self.assertEqual(cross, {("https://b.example/1", "https://a.example/1", "near")})
        self.assertEqual(site_of("file:///x/y.html"), "file:///x/y.html")

    def test_containment_takes_the_shingle_counts(self):
        # J 0.5 with 50 and 100 shingles: containment 0.5 * 150 / (1.5 * 50) = 1, ratio 0.5.
        rule = NearRule(PairRule(0.85, 0.9, 0.5), PairRule(0.85, 0.9, 0.5))
        a = [1, 2, 3, 4, 5, 6, 7, 8]
        b = [1, 2, 3, 4, 0, 0, 0, 0]
        result, _ = removed([row(0, "https://a.example/1", minhash=a, shingles=100),
                             row(1, "https://a.example/2", minhash=b, shingles=50)], rule)
        self.assertEqual(result, {("https://a.example/2", "https://a.example/1", "near")})
        # Sizes unknown (rows of an older shard): the resemblance alone.
        result, _ = removed([row(0, "https://a.example/1", minhash=a), row(1, "https://a.example/2", minhash=b)], rule)
        self.assertEqual(result, set())

    def test_keyword_fingerprints_join_on_equality(self):
        result, _ = removed([row(0, "a", keyword="k"), row(1, "b", keyword="k"), row(2, "c", keyword="j")])
        self.assertEqual(result, {("b", "a", "near")})

    def test_a_url_read_before_is_a_duplicate_and_never_a_kept_page(self):
        result, conflicts = removed([
            row(0, "u", 0, exact="x"),
            row(1, "u", 1, exact="y"),
            row(2, "v", 1, exact="y"),
        ])
        # The second u is skipped before the replica check: v is the first with y.
        self.assertEqual((result, conflicts), ({("u", "u", "url")}, 0))

    def test_a_shard_that_kept_a_later_copy_of_a_url_stands_in_for_the_first(self):
        # Shard 1 read u at rank 5 first (its own order), then at rank 1, which one build keeps.
        result, conflicts = removed([
            row(1, "u", 1, exact="x", duplicate_url=True),
            row(3, "u", 0, exact="z"),
            row(5, "u", 1, exact="x"),
        ])
        self.assertEqual(result, {("u", "u", "url")})
        self.assertEqual(conflicts, 1)
        removals, _ = resolve(with_shared_keys([
            row(1, "u", 1, exact="x", duplicate_url=True), row(3, "u", 0, exact="z"), row(5, "u", 1, exact="x")]), 0.8)
        self.assertEqual([(r["shard"], r["kept_shard"]) for r in removals], [(0, 1)])


if __name__ == "__main__":
    unittest.main()
