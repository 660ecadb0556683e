#!/usr/bin/env python3
"""Checks that the Spark job's shards answer as one `indexer build` over the same inputs:
the same pages kept, the same replicas removed (and which copy was kept), and for every query
the same top 10 URLs with the same scores on the abstract and full-text indexes.

    compare.py --indexer target/release/indexer --ref REF_BUILD --job JOB_OUT --queries Q.tsv

Exits 1 on any difference, naming it."""

import argparse
import glob
import json
import os
import subprocess
import sys

SCORE_TOLERANCE = 1e-4


def docview_urls(build_dir):
    with open(os.path.join(build_dir, "current", "docview.jsonl"), encoding="utf-8") as f:
        return [json.loads(line)["identifier"] for line in f if line.strip()]


def reference_replicas(ref):
    """(removed, kept, kind) of one build's replicas.tsv."""
    with open(os.path.join(ref, "current", "replicas.tsv"), encoding="utf-8") as f:
        return {tuple(line.rstrip("\n").split("\t")[:3]) for line in f if line.strip()}


def job_replicas(out):
    found = set()
    for path in glob.glob(os.path.join(out, "removals", "shard-*.tsv")):
        with open(path, encoding="utf-8") as f:
            for line in f:
                removed, kept, kind, _ = line.rstrip("\n").split("\t")
                if kind != "url":
                    found.add((removed, kept, kind))
    return found


def top10(indexer, dirs, query, index):
    command = [indexer, "search", query, "--json", "--index", index, "-n", "10"]
    for d in dirs:
        command += ["--dir", d]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"compare: {' '.join(command)} failed: {done.stderr.strip()}")
    return [(hit["url"], hit["score"]) for hit in map(json.loads, done.stdout.splitlines())]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--indexer", required=True)
    parser.add_argument("--ref", required=True, help="the build folder of one indexer build over all inputs")
    parser.add_argument("--job", required=True, help="the Spark job's --out folder")
    parser.add_argument("--queries", required=True, help="id<TAB>query lines")
    args = parser.parse_args(argv)

    shards = sorted(glob.glob(os.path.join(args.job, "shard-*")))
    failures, checks = [], 0

    kept_ref = docview_urls(args.ref)
    kept_job = [url for shard in shards for url in docview_urls(shard)]
    checks += 1
    if sorted(kept_ref) != sorted(kept_job):
        only_ref = sorted(set(kept_ref) - set(kept_job))[:5]
        only_job = sorted(set(kept_job) - set(kept_ref))[:5]
        failures.append(f"kept pages differ: {len(kept_ref)} in one build, {len(kept_job)} in the shards "
                        f"(only in the build: {only_ref}; only in the shards: {only_job})")
    replicas_ref, replicas_job = reference_replicas(args.ref), job_replicas(args.job)
    checks += 1
    if replicas_ref != replicas_job:
        failures.append(f"replicas differ: only in one build {sorted(replicas_ref - replicas_job)[:5]}, "
                        f"only in the job {sorted(replicas_job - replicas_ref)[:5]}")

    with open(args.queries, encoding="utf-8") as f:
        queries = [line.rstrip("\n").split("\t", 1) for line in f if "\t" in line]
    for qid, query in queries:
        for index in ("abstract", "fulltext"):
            checks += 1
            expected, got = top10(args.indexer, [args.ref], query, index), top10(args.indexer, shards, query, index)
            same = [u for u, _ in expected] == [u for u, _ in got] and all(
                abs(a - b) <= SCORE_TOLERANCE * max(1.0, abs(a)) for (_, a), (_, b) in zip(expected, got)
            )
            if not same:
                failures.append(f"query {qid} ({index}): one build {expected[:3]}..., shards {got[:3]}...")

    for failure in failures:
        print(f"compare: {failure}", file=sys.stderr)
    print(f"compare: {len(kept_job)} pages kept in {len(shards)} shards, {len(replicas_job)} replicas removed, "
          f"{len(queries)} queries x 2 indexes")
    print(f"compare: {checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
