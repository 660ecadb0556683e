#!/usr/bin/env python3
"""A shard task run twice at once (a retry overlapping a slow attempt, or speculative
execution) must leave exactly one published shard, with no attempt folder behind.

    test_retries.py INDEXER_BINARY WARC_FILE"""

import os
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from indexer_spark import build_shard_task, learn_site_templates_task  # noqa: E402


def main():
    indexer, warc = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    templates = learn_site_templates_task([warc], indexer, "")
    with tempfile.TemporaryDirectory() as out:
        results, errors = [], []

        def attempt():
            try:
                results.append(build_shard_task(0, [warc], 0, out, indexer, "", "", templates, 1))
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=attempt) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # A third attempt after both finished finds the shard published and builds nothing.
        results.append(build_shard_task(0, [warc], 0, out, indexer, "", "", templates, 1))
        failures = [f"attempts failed: {errors}"] if errors else []
        shards = sorted(n for n in os.listdir(out) if n.startswith("shard-"))
        if shards != ["shard-00000"]:
            failures.append(f"published shards: {shards}")
        left = os.listdir(os.path.join(out, "_attempts"))
        if left:
            failures.append(f"attempt folders left behind: {left}")
        builds = os.listdir(os.path.join(out, "shard-00000", "builds"))
        if len(builds) != 1:
            failures.append(f"the shard holds {len(builds)} builds")
        if len({repr(rows) for _, rows in results}) != 1 or not results[0][1]:
            failures.append("the attempts returned different rows")
        if results[-1][0]["built"]:
            failures.append("an attempt after publication built the shard again")
        for failure in failures:
            print(f"test_retries: {failure}", file=sys.stderr)
        print(f"test_retries: {len(results)} attempts, {sum(r[0]['built'] for r in results)} built, one shard published")
        print(f"test_retries: {5 - len(failures)} passed, {len(failures)} failed")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
