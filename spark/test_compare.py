#!/usr/bin/env python3
"""Tests of compare.py's ranking check (no Spark, no indexer). Run: python3 spark/test_compare.py"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compare import same_top10  # noqa: E402

REFERENCE = [("a", 9.0), ("b", 7.5), ("c", 7.5), ("d", 3.0)]


class SameTop10(unittest.TestCase):
    def test_the_same_ranking_agrees(self):
        self.assertTrue(same_top10(REFERENCE, list(REFERENCE)))

    def test_tied_pages_may_trade_places(self):
        swapped = [("a", 9.0), ("c", 7.500001), ("b", 7.5), ("d", 3.0)]
        self.assertTrue(same_top10(REFERENCE, swapped))

    def test_untied_pages_may_not(self):
        self.assertFalse(same_top10(REFERENCE, [("b", 9.0), ("a", 7.5), ("c", 7.5), ("d", 3.0)]))

    def test_a_score_off_by_more_than_the_tolerance_differs(self):
        self.assertFalse(same_top10(REFERENCE, [("a", 9.01), ("b", 7.5), ("c", 7.5), ("d", 3.0)]))

    def test_a_missing_or_extra_hit_differs(self):
        self.assertFalse(same_top10(REFERENCE, REFERENCE[:3]))
        self.assertFalse(same_top10(REFERENCE[:3], REFERENCE))

    def test_a_tie_across_rank_10_may_bring_in_the_eleventh_page(self):
        reference = [(f"p{i}", 20.0 - i) for i in range(9)] + [("x", 5.0), ("y", 5.0)]
        shards = reference[:9] + [("y", 5.0), ("x", 5.0)]
        self.assertTrue(same_top10(reference, shards))
        other = reference[:9] + [("z", 5.0)]
        self.assertFalse(same_top10(reference, other))


if __name__ == "__main__":
    unittest.main()
