#!/usr/bin/env python3
"""indexer at crawl scale on Apache Spark.

    spark-submit --files target/release/indexer spark/indexer_spark.py \\
        --inputs warcs.txt --out /shared/indexer-out --shards 64

1. Stop words: one task learns the list one `indexer build` over all the inputs would learn
   (`indexer stop-words` over the first pages, in input order), so every shard shares it.
   Site templates the same way: one task runs `indexer site-templates` over all the inputs in
   order (every input is read; only the pages each host's sample takes are parsed), and every
   shard build cleans with them (`--site-templates`), as one build over all the inputs would.
2. Shard builds: the input list is cut into --shards contiguous slices; each slice is a Spark
   task that runs `indexer build --shard` into a private attempt folder and renames it into
   place (a retried or speculative attempt finding the shard published discards its own), and
   returns the shard's replica signatures as rows.
3. The global replica join, as Spark work: rows are grouped on the URL digest, the exact-copy
   MD5, the keyword fingerprint and each MinHash LSH band; only rows that share a key with
   another row are candidates (never all pairs). The candidates are then resolved in the order
   one build over all the inputs reads its pages (computed from the shards' record counts and
   the build's read settings), as that build's replica detector would: first copy kept. This
   resolution runs on the driver: its cost grows with the candidate rows, not with all pages.
4. Each shard with removals gets its list (out/removals/shard-NNNNN.tsv) and a task runs
   `indexer replicas apply` on it (idempotent, published atomically).
5. A summary: pages read, skipped by reason, replicas removed within and across shards, time
   per stage, shards written (printed, and out/job-summary.json).

Search the result with `indexer search QUERY --dir out/shard-00000 --dir out/shard-00001 ...`.

The pure functions (read order, candidate keys, resolution) need no Spark: test_join.py tests
them without a JVM.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid

# --- pure functions: the build's read order and the replica resolution -------------------


def read_order(record_counts, batch_size, parallel_files):
    """The rank of each record in the order one build over all inputs reads them.

    `record_counts[s]` is the number of records of input s. The build keeps up to
    `parallel_files` inputs open and takes one batch of `batch_size` records from each in
    turn; an exhausted input's turn opens the next input at the end of the round (see
    src/pipeline/lanes.rs). Returns {(source, batch number): rank of the batch's first record}.
    """
    batch_size, parallel_files = max(1, batch_size), max(1, parallel_files)
    waiting = iter(range(len(record_counts)))
    lanes = collections.deque()
    for _ in range(parallel_files):
        source = next(waiting, None)
        if source is None:
            break
        lanes.append([source, 0])
    starts, rank = {}, 0
    while lanes:
        lane = lanes.popleft()
        source, done = lane
        if done < record_counts[source]:
            taken = min(batch_size, record_counts[source] - done)
            starts[(source, done // batch_size)] = rank
            rank += taken
            lane[1] += taken
            lanes.append(lane)
        else:
            following = next(waiting, None)
            if following is not None:
                lanes.append([following, 0])
    return starts


def rank_of(starts, batch_size, source, record):
    return starts[(source, record // batch_size)] + record % batch_size


def join_keys(row, bands, width):
    """The keys a row is grouped on: URL digest, exact MD5, keyword fingerprint, LSH bands."""
    keys = [("url", row["url_digest"])]
    if row["duplicate_url"]:
        # Not indexed by its shard: only its URL matters (which copy one build keeps).
        return keys
    if row.get("exact"):
        keys.append(("exact", row["exact"]))
    if row.get("keyword"):
        keys.append(("keyword", row["keyword"]))
    minhash = row.get("minhash")
    if minhash:
        for band in range(bands):
            keys.append(("band", band, tuple(minhash[band * width : (band + 1) * width])))
    return keys


def shared_members(group):
    """(rank, key) for each row of a key group that more than one row shares; else nothing."""
    key, ranks = group
    ranks = set(ranks)
    return [(rank, key) for rank in ranks] if len(ranks) > 1 else []


def minhash_similarity(a, b):
    """gaoya's compute_minhash_similarity: the share of equal positions."""
    return sum(1 for x, y in zip(a, b) if x == y) / len(a)


def site_of(url):
    """The site of a URL as the build's detector takes it (src/clean/mod.rs `site_of`): the
    lower-case host; the URL itself for file URLs and URLs without a host."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return url
    if parts.scheme == "file" or not parts.hostname:
        return url
    return parts.hostname.lower()


class PairRule:
    """src/replicas/signature.rs `PairRule`: resemblance J ≥ `resemblance`, or the estimated
    containment of the smaller shingle set in the larger, J (a + b) / ((1 + J) min(a, b)),
    ≥ `containment` at a size ratio min / max ≥ `min_ratio`; unknown sizes (0): J alone."""

    def __init__(self, resemblance, containment=1.0, min_ratio=1.0):
        self.resemblance, self.containment, self.min_ratio = resemblance, containment, min_ratio

    def accepts(self, j, a, b):
        if j >= self.resemblance:
            return True
        small, large = min(a or 0, b or 0), max(a or 0, b or 0)
        if small == 0 or j <= 0:
            return False
        return min(1.0, j * (small + large) / ((1 + j) * small)) >= self.containment and small / large >= self.min_ratio


class NearRule:
    """src/replicas/signature.rs `NearRule`: one PairRule for pages of one site, one for two."""

    def __init__(self, same_site, cross_site, length=None):
        # `length`: the hashes the build's LSH index compares (its bands × band width).
        self.same_site, self.cross_site, self.length = same_site, cross_site, length

    @staticmethod
    def of(manifest):
        def get(key):
            return manifest.get(key, 1.0)
        return NearRule(
            PairRule(manifest["minhash_threshold"], get("containment_threshold"), get("containment_min_ratio")),
            PairRule(manifest.get("cross_site_minhash_threshold", manifest["minhash_threshold"]),
                     get("cross_site_containment_threshold"), get("cross_site_containment_min_ratio")),
        )

    def key(self):
        return tuple(vars(r)[k] for r in (self.same_site, self.cross_site) for k in ("resemblance", "containment", "min_ratio"))

    def accepts(self, same_site, j, a, b):
        return (self.same_site if same_site else self.cross_site).accepts(j, a, b)


def resolve(candidates, rule):
    """Decides the candidate rows as one build's replica detector would.

    `candidates`: rows sharing at least one join key with another row, each with its `rank`
    and `keys` (the shared ones only: a key no other row has cannot match). Rows are taken in
    rank order; a row whose URL was read before is a duplicate URL; otherwise it is an exact
    replica of a kept row with its exact MD5, else a near replica of the kept row with its
    keyword fingerprint, or of the most similar kept row in one of its LSH buckets that `rule`
    (a NearRule, or a number: a resemblance threshold alone) accepts (ties: the earliest), else
    it is kept.

    A shard indexes the first copy of a URL in its own order. When one build would have kept
    another copy of that shard (two inputs of the shard holding the URL, read in another order
    by one build), the shard's copy stands in for it: `conflicts` counts these.

    Returns (removals, conflicts); a removal is a dict with the removed and kept rows' shard
    and URL and the kind (url, exact or near).
    """
    if not isinstance(rule, NearRule):
        rule = NearRule(PairRule(rule), PairRule(rule))
    seen_urls = {}
    stand_in = {}
    kept_exact, kept_keyword, buckets, kept_minhash = {}, {}, collections.defaultdict(list), {}
    removals, conflicts = [], 0
    for row in sorted(candidates, key=lambda r: r["rank"]):
        digest = row["url_digest"]
        if row["duplicate_url"]:
            if digest not in seen_urls:
                # One build would keep this copy; the shard kept an earlier one of its own.
                conflicts += 1
                seen_urls[digest] = row
                stand_in[digest] = row["shard"]
            continue
        if digest in seen_urls:
            if stand_in.get(digest) == row["shard"]:
                del stand_in[digest]
            else:
                removals.append(removal(row, seen_urls[digest], "url"))
                continue
        seen_urls[digest] = row
        keys = row["keys"]
        match = None
        exact = next((k[1] for k in keys if k[0] == "exact"), None)
        if exact is not None and exact in kept_exact:
            match = (kept_exact[exact], "exact")
        keyword = next((k[1] for k in keys if k[0] == "keyword"), None)
        if match is None and keyword is not None and keyword in kept_keyword:
            match = (kept_keyword[keyword], "near")
        bands = [k for k in keys if k[0] == "band"]
        if match is None and bands:
            similar = {}
            for band in bands:
                for kept in buckets.get(band, ()):
                    if kept["rank"] not in similar:
                        similar[kept["rank"]] = (
                            minhash_similarity(kept_minhash[kept["rank"]][: rule.length], row["minhash"][: rule.length]),
                            kept,
                        )
            best = None
            site = site_of(row["url"])
            for rank, (similarity, kept) in similar.items():
                accepted = rule.accepts(site_of(kept["url"]) == site, similarity, kept.get("shingles"), row.get("shingles"))
                if accepted and (best is None or (similarity, -rank) > (best[0], -best[1]["rank"])):
                    best = (similarity, kept)
            if best is not None:
                match = (best[1], "near")
        if match is not None:
            removals.append(removal(row, match[0], match[1]))
            continue
        if exact is not None:
            kept_exact[exact] = row
        if keyword is not None:
            kept_keyword[keyword] = row
        if bands:
            kept_minhash[row["rank"]] = row["minhash"]
            for band in bands:
                buckets[band].append(row)
    return removals, conflicts


def removal(row, kept, kind):
    return {
        "removed": row["url"],
        "shard": row["shard"],
        "kept": kept["url"],
        "kept_shard": kept["shard"],
        "kind": kind,
    }


def contiguous_slices(n_items, n_slices):
    """`n_slices` contiguous (start, end) slices of `n_items`, sizes differing by at most 1."""
    n_slices = max(1, min(n_slices, n_items))
    base, extra = divmod(n_items, n_slices)
    slices, start = [], 0
    for i in range(n_slices):
        end = start + base + (1 if i < extra else 0)
        slices.append((start, end))
        start = end
    return slices


def shard_name(index):
    return f"shard-{index:05d}"


# --- what runs on executors ------------------------------------------------------------------


def find_indexer(given):
    """The indexer binary: the path given, a file shipped with --files, or `indexer` on PATH."""
    if given and os.path.isfile(given) and os.access(given, os.X_OK):
        return os.path.abspath(given)
    name = os.path.basename(given) if given else "indexer"
    try:
        from pyspark import SparkFiles

        shipped = SparkFiles.get(name)
        if os.path.isfile(shipped):
            if not os.access(shipped, os.X_OK):
                os.chmod(shipped, 0o755)
            return shipped
    except Exception:  # noqa: BLE001 - no SparkContext here: not shipped
        pass
    on_path = shutil.which(name)
    if on_path:
        return on_path
    raise RuntimeError(
        f"indexer binary {given or 'indexer'} not found: ship it with spark-submit --files "
        "path/to/indexer, install it on every executor's PATH, or give --indexer /absolute/path"
    )


def localize(path, scratch):
    """A local path for an input: itself when local, else a copy in `scratch` made by the
    Hadoop file system client (`hadoop fs -copyToLocal`), for hdfs://, s3a:// and the like."""
    if path.startswith("file://"):
        return path[len("file://") :]
    if "://" not in path:
        return path
    hadoop = shutil.which("hadoop")
    if hadoop is None:
        raise RuntimeError(
            f"{path}: reading a Hadoop file system URL needs the `hadoop` client on the executors' "
            "PATH (or mount the file system and give local paths)"
        )
    target = os.path.join(scratch, f"{len(os.listdir(scratch)):05d}-{os.path.basename(path.rstrip('/'))}")
    subprocess.run([hadoop, "fs", "-copyToLocal", path, target], check=True, capture_output=True)
    return target


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return done


def learn_stop_words_task(paths, indexer, config_text):
    """One task: the stop-word list over the first inputs, localized one at a time until the
    sample is full (usually the first input)."""
    binary = find_indexer(indexer)
    with tempfile.TemporaryDirectory(prefix="indexer-stop-words-") as scratch:
        config = write_config(scratch, config_text)
        local = []
        words = ""
        for path in paths:
            local.append(localize(path, scratch))
            command = [binary, "stop-words", *local, "-o", os.path.join(scratch, "stop-words.txt")]
            done = run(command + (["--config", config] if config else []))
            with open(os.path.join(scratch, "stop-words.txt"), encoding="utf-8") as f:
                words = f.read()
            sampled = re.search(r"from (\d+) pages \(sample of (\d+)", done.stderr)
            if sampled is None or int(sampled.group(1)) >= int(sampled.group(2)):
                break
        return words


def learn_site_templates_task(paths, indexer, config_text):
    """One task: the site templates over all the inputs, in input order (the text of the
    file `indexer site-templates` writes)."""
    binary = find_indexer(indexer)
    with tempfile.TemporaryDirectory(prefix="indexer-site-templates-") as scratch:
        config = write_config(scratch, config_text)
        local = [localize(p, scratch) for p in paths]
        target = os.path.join(scratch, "site-templates.tsv")
        run([binary, "site-templates", *local, "-o", target] + (["--config", config] if config else []))
        with open(target, encoding="utf-8") as f:
            return f.read()


def write_config(scratch, config_text):
    if not config_text:
        return None
    path = os.path.join(scratch, "config.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(config_text)
    return path


def build_shard_task(shard, paths, first_source, out, indexer, config_text, stop_words, templates, threads):
    """One task: builds one shard into a private attempt folder and publishes it by renaming;
    returns (meta, rows). A second attempt (retry, speculation) that finds the shard published
    discards its own build, so exactly one is published."""
    binary = find_indexer(indexer)
    final = os.path.join(out, shard_name(shard))
    attempts = os.path.join(out, "_attempts")
    os.makedirs(attempts, exist_ok=True)
    started = time.time()
    attempt = None
    if not os.path.isdir(final):
        attempt = os.path.join(attempts, f"{shard_name(shard)}-{uuid.uuid4().hex}")
        with tempfile.TemporaryDirectory(prefix="indexer-shard-") as scratch:
            config = write_config(scratch, config_text)
            words = os.path.join(scratch, "stop-words.txt")
            with open(words, "w", encoding="utf-8") as f:
                f.write(stop_words)
            site_templates = os.path.join(scratch, "site-templates.tsv")
            with open(site_templates, "w", encoding="utf-8") as f:
                f.write(templates)
            local = [localize(p, scratch) for p in paths]
            command = [binary, "build", "--shard", "--quiet", "--json", "--stop-words", words,
                       "--site-templates", site_templates, "--threads", str(threads), "--dir", attempt, *local]
            run(command + (["--config", config] if config else []))
        try:
            os.rename(attempt, final)
        except OSError:
            if not os.path.isdir(final):
                raise
            shutil.rmtree(attempt, ignore_errors=True)
    build = os.path.join(final, "current")
    with open(os.path.join(build, "shard.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    with open(os.path.join(build, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    rows = []
    with open(os.path.join(build, "signatures.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                row["shard"] = shard
                row["source"] += first_source
                rows.append(row)
    meta = {
        "shard": shard,
        "first_source": first_source,
        "manifest": manifest,
        "summary": summary,
        "seconds": time.time() - started,
        "built": attempt is not None,
    }
    return meta, rows


def apply_task(out, shard, indexer):
    binary = find_indexer(indexer)
    done = run([binary, "replicas", "apply", "--json", "--dir", os.path.join(out, shard_name(shard)),
                "--list", os.path.join(out, "removals", shard_name(shard) + ".tsv")])
    return json.loads(done.stdout)


# --- the driver --------------------------------------------------------------------------------


def read_inputs(args):
    paths = list(args.paths)
    if args.inputs:
        base = os.path.dirname(os.path.abspath(args.inputs))
        with open(args.inputs, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    paths.append(line if "://" in line or os.path.isabs(line) else os.path.join(base, line))
    return [p if "://" in p else os.path.abspath(p) for p in paths]


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Build indexer shards on Spark and remove replicas across them as one build would.",
        epilog="Example: spark-submit --files target/release/indexer spark/indexer_spark.py "
        "--inputs warcs.txt --out /shared/out --shards 64",
    )
    parser.add_argument("paths", nargs="*", help="input WARC files (local paths or Hadoop file system URLs)")
    parser.add_argument("--inputs", help="a file of input paths, one a line (# comments), in build order")
    parser.add_argument("--out", required=True, help="output folder, on a file system every executor shares")
    parser.add_argument("--shards", type=int, default=0, help="number of shards (default: the default parallelism)")
    parser.add_argument("--indexer", default="indexer", help="the indexer binary (path, --files name, or on PATH)")
    parser.add_argument("--config", help="an indexer config TOML for every build (as `indexer build --config`)")
    parser.add_argument("--threads", type=int, default=1, help="threads of each shard build (default 1)")
    parser.add_argument("--master", help="Spark master when not run by spark-submit, e.g. local[2]")
    parser.add_argument("--overwrite", action="store_true", help="replace the shards of an earlier run in --out")
    args = parser.parse_args(argv)

    paths = read_inputs(args)
    if not paths:
        parser.error("no inputs: give WARC paths or --inputs FILE")
    out = os.path.abspath(args.out)
    earlier = [n for n in os.listdir(out) if n.startswith("shard-")] if os.path.isdir(out) else []
    if earlier and not args.overwrite:
        parser.error(f"{out} holds shards of an earlier run; give --overwrite to replace them, or another --out")
    for name in earlier + ["_attempts", "removals"]:
        shutil.rmtree(os.path.join(out, name), ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    config_text = open(args.config, encoding="utf-8").read() if args.config else ""

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("indexer").config("spark.ui.showConsoleProgress", "false")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    stages = {}
    started = time.time()

    # 1. Stop words: one task over the first inputs.
    t = time.time()
    indexer = args.indexer
    stop_words = sc.parallelize([0], 1).map(lambda _: learn_stop_words_task(paths, indexer, config_text)).first()
    stages["stop_words"] = time.time() - t
    t = time.time()
    templates = sc.parallelize([0], 1).map(lambda _: learn_site_templates_task(paths, indexer, config_text)).first()
    stages["site_templates"] = time.time() - t

    # 2. Shard builds: contiguous slices of the inputs, one task each.
    t = time.time()
    slices = contiguous_slices(len(paths), args.shards or sc.defaultParallelism)
    jobs = [(shard, paths[a:b], a) for shard, (a, b) in enumerate(slices)]
    threads = args.threads
    built = (
        sc.parallelize(jobs, len(jobs))
        .map(lambda job: build_shard_task(job[0], job[1], job[2], out, indexer, config_text, stop_words, templates, threads))
        .persist()
    )
    metas = sorted(built.map(lambda pair: pair[0]).collect(), key=lambda m: m["shard"])
    stages["shard_builds"] = time.time() - t

    # 3. The global join.
    t = time.time()
    manifests = [m["manifest"] for m in metas]
    settings = {(m["batch_size"], m["parallel_files"], m["detector"], m["minhash_bands"], m["minhash_band_width"],
                 NearRule.of(m).key()) for m in manifests}
    if len(settings) != 1:
        raise SystemExit(f"indexer_spark: the shards were built with different settings: {sorted(settings)}")
    batch_size, parallel_files, detector, bands, width, _ = settings.pop()
    rule = NearRule.of(manifests[0])
    rule.length = bands * width
    counts = [s["records"] for m in manifests for s in m["sources"]]
    starts = sc.broadcast(read_order(counts, batch_size, parallel_files))

    def ranked(row):
        row["rank"] = rank_of(starts.value, batch_size, row["source"], row["record"])
        return row

    rows = built.flatMap(lambda pair: pair[1]).map(ranked)
    shared = (
        rows.flatMap(lambda r: [(key, r["rank"]) for key in join_keys(r, bands, width)])
        .groupByKey()
        .flatMap(shared_members)
        .groupByKey()
    )
    candidates = (
        rows.map(lambda r: (r["rank"], r))
        .join(shared)
        .map(lambda pair: dict(pair[1][0], keys=list(pair[1][1])))
        .collect()
    )
    stages["join"] = time.time() - t
    # The candidates are decided on the driver, in read order: whether a page is kept depends
    # on the decisions before it (a removed page keeps nothing out), as in one build.
    t = time.time()
    removals, conflicts = resolve(candidates, rule)
    stages["resolve"] = time.time() - t

    # 4. Removal lists, applied by one task per changed shard.
    t = time.time()
    os.makedirs(os.path.join(out, "removals"), exist_ok=True)
    by_shard = collections.defaultdict(list)
    for r in removals:
        by_shard[r["shard"]].append(r)
    for shard, items in by_shard.items():
        with open(os.path.join(out, "removals", shard_name(shard) + ".tsv"), "w", encoding="utf-8") as f:
            for r in sorted(items, key=lambda r: r["removed"]):
                f.write(f"{r['removed']}\t{r['kept']}\t{r['kind']}\t{shard_name(r['kept_shard'])}\n")
    changed = sorted(by_shard)
    applied = (
        sc.parallelize(changed, max(1, len(changed))).map(lambda s: apply_task(out, s, indexer)).collect()
        if changed
        else []
    )
    stages["apply"] = time.time() - t
    shutil.rmtree(os.path.join(out, "_attempts"), ignore_errors=True)

    summary = job_summary(metas, removals, conflicts, applied, stages, time.time() - started, len(candidates))
    with open(os.path.join(out, "job-summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2, sort_keys=True)
        f.write("\n")
    print_summary(summary, out)
    spark.stop()
    return 0


def job_summary(metas, removals, conflicts, applied, stages, elapsed, candidates):
    skipped = collections.Counter()
    for m in metas:
        skipped.update(m["summary"].get("skipped", {}))
    removed = collections.Counter()
    for r in removals:
        where = "within_shards" if r["shard"] == r["kept_shard"] else "across_shards"
        removed[f"{where}.{r['kind']}"] += 1
    # Duplicate URLs across shards are skipped records, as in one build.
    skipped["duplicate-url"] += removed.pop("within_shards.url", 0) + removed.pop("across_shards.url", 0)
    pages_read = sum(m["summary"]["pages_read"] for m in metas)
    indexed = sum(m["summary"]["pages_indexed"] for m in metas) - len(removals)
    return {
        "pages_read": pages_read,
        "pages_indexed": indexed,
        "skipped": dict(sorted((k, v) for k, v in skipped.items() if v)),
        "replicas": {
            "within_shards": {k: removed.get(f"within_shards.{k}", 0) for k in ("exact", "near")},
            "across_shards": {k: removed.get(f"across_shards.{k}", 0) for k in ("exact", "near")},
        },
        "url_copy_conflicts": conflicts,
        "join_candidates": candidates,
        "shards_written": len(metas),
        "shards_built_by_this_run": sum(1 for m in metas if m["built"]),
        "shards_changed": len(applied),
        "seconds": {"total": round(elapsed, 3), **{k: round(v, 3) for k, v in stages.items()}},
        "shard_build_seconds": [round(m["seconds"], 3) for m in metas],
        "pages_per_second": round(pages_read / elapsed, 1) if elapsed > 0 else None,
    }


def print_summary(s, out):
    skipped = ", ".join(f"{k} {v}" for k, v in s["skipped"].items()) or "none"
    w, a = s["replicas"]["within_shards"], s["replicas"]["across_shards"]
    secs = s["seconds"]
    print(f"pages read      {s['pages_read']}")
    print(f"pages indexed   {s['pages_indexed']}")
    print(f"skipped         {sum(s['skipped'].values())} ({skipped})")
    print(f"replicas        within shards {w['exact']} exact, {w['near']} near; "
          f"across shards {a['exact']} exact, {a['near']} near")
    if s["url_copy_conflicts"]:
        print(f"warning         {s['url_copy_conflicts']} URLs read twice within a shard: the shard's first copy "
              "stands for the copy one build would keep")
    print(f"shards          {s['shards_written']} written to {out} ({s['shards_changed']} changed by the join)")
    print(f"time            {secs['total']:.1f} s: stop words {secs['stop_words']:.1f}, site templates "
          f"{secs['site_templates']:.1f}, shard builds "
          f"{secs['shard_builds']:.1f}, join {secs['join']:.1f} (grouping on Spark) + {secs['resolve']:.1f} "
          f"(resolving {s['join_candidates']} candidates on the driver), apply {secs['apply']:.1f}; "
          f"{s['pages_per_second']} pages/s")
    print(f"search          indexer search QUERY --dir {out}/shard-00000 ...")


if __name__ == "__main__":
    sys.exit(main())
