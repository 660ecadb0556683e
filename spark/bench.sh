#!/usr/bin/env bash
# The Spark job against one `indexer build` on the same machine, and how the replica join's
# cost grows with the number of pages: the cacm crawl repeated K times under new URLs (copy
# k > 0 of a page is an exact replica of copy 0, so every repeat adds a page to a join group),
# split into 4 WARC files, for each K given.
#   spark/bench.sh [K...]        (default: 1 2 5 10)
# Prints a TSV table: pages, the build's and the job's wall seconds and pages/s (the job's wall
# time includes starting Spark), job_vs_build = job pages/s ÷ build pages/s, the job's stages
# (join: grouping on Spark; resolve: deciding the candidates on the driver), the join's
# candidate rows (rows sharing a key with another row) and the replicas removed.
# Needs the venv spark/ci.sh installs and ../shared/data/ir-web/cacm.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${INDEXER:-target/release/indexer}")
py=${INDEXER_SPARK_VENV:-$HOME/.cache/indexer/spark-venv}/bin/python
cacm=../shared/data/ir-web/cacm/pages.warc.gz
[ -x "$bin" ] || { echo "spark/bench.sh: $bin is missing: cargo build --release" >&2; exit 2; }
[ -f "$cacm" ] || { echo "spark/bench.sh: $cacm is missing" >&2; exit 2; }
"$py" -c "import pyspark" 2>/dev/null || { echo "spark/bench.sh: no PySpark in $py: run spark/ci.sh first" >&2; exit 2; }
repeats=("$@")
[ ${#repeats[@]} -gt 0 ] || repeats=(1 2 5 10)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
printf 'copies\tpages\tbuild_s\tbuild_pages_s\tjob_s\tjob_pages_s\tjob_vs_build\tstop_words_s\tshard_builds_s\tjoin_s\tresolve_s\tapply_s\tjoin_candidates\treplicas_removed\n'
for k in "${repeats[@]}"; do
  rm -rf "$work"/*
  python3 spark/make_warcs.py warc "$cacm" 4 "$work/in" --repeat "$k" 2>/dev/null
  mapfile -t inputs < <(sed "s|^|$work/in/|" "$work/in/inputs.txt")
  t0=$(now)
  "$bin" build --quiet --json --dir "$work/ref" "${inputs[@]}" > "$work/build.json"
  t1=$(now)
  "$py" spark/indexer_spark.py --master 'local[2]' --inputs "$work/in/inputs.txt" --out "$work/out" \
    --shards 4 --indexer "$bin" > "$work/job.log" 2>&1 || { cat "$work/job.log" >&2; exit 1; }
  t2=$(now)
  python3 - "$k" "$t0" "$t1" "$t2" "$work/build.json" "$work/out/job-summary.json" <<'EOF'
import json, sys
k, t0, t1, t2 = sys.argv[1], *map(float, sys.argv[2:5])
build, job = json.load(open(sys.argv[5])), json.load(open(sys.argv[6]))
if build["pages_indexed"] != job["pages_indexed"]:
    sys.exit(f"spark/bench.sh: {k} copies: the build indexed {build['pages_indexed']}, the job {job['pages_indexed']}")
pages, b, j, s = build["pages_read"], t1 - t0, t2 - t1, job["seconds"]
removed = sum(sum(v.values()) for v in job["replicas"].values())
print("\t".join(map(str, [k, pages, f"{b:.1f}", f"{pages / b:.0f}", f"{j:.1f}", f"{pages / j:.0f}", f"{b / j:.2f}",
                          s["stop_words"], s["shard_builds"], s["join"], s["resolve"], s["apply"], job["join_candidates"], removed])))
EOF
done
