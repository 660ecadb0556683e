#!/usr/bin/env python3
"""Checks that the Spark job's shards answer as one `indexer build` over the same inputs:
the same pages kept, the same replicas removed (and which copy was kept), and for every query
the same top 10 URLs with the same scores (within 1e-4; pages with equal scores may trade
places) on the abstract and full-text indexes.

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


def close(a, b):
    return abs(a - b) <= SCORE_TOLERANCE * max(1.0, abs(a))


def same_top10(expected, got):
    """The top 10 of one build and of the shards agree: the same scores at every rank, and the
    same page at every rank unless the two pages' scores tie. Shards sum their statistics in
    another order than one build, so pages scored equally can trade places (20.333189 against
    20.333187); a tie at rank 10 can bring in the reference's 11th page, hence the top 20."""
    if len(expected[:10]) != len(got[:10]):
        return False
    for (url, score), (got_url, got_score) in zip(expected[:10], got[:10]):
        if not close(score, got_score):
            return False
        if url != got_url and not any(u == got_url and close(score, s) for u, s in expected):
            return False
    return True


def top(indexer, dirs, query, index, n=20):
    command = [indexer, "search", query, "--json", "--index", index, "-n", str(n)]
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
            expected, got = top(args.indexer, [args.ref], query, index), top(args.indexer, shards, query, index)
            if not same_top10(expected, got):
                rank = next((i for i, (e, g) in enumerate(zip(expected[:10], got[:10])) if e != g), 0)
                failures.append(f"query {qid} ({index}): from rank {rank + 1}, one build {expected[rank:10]}, "
                                f"shards {got[rank:10]}")

    for failure in failures:
        print(f"compare: {failure}", file=sys.stderr)
    print(f"compare: {len(kept_job)} pages kept in {len(shards)} shards, {len(replicas_job)} replicas removed, "
          f"{len(queries)} queries x 2 indexes")
    print(f"compare: {checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
