#!/usr/bin/env bash
# The Spark job, tested for real: Spark local mode with 2 workers over the sample corpus split
# into 4 WARC files and the cacm crawl split into 4; the shards must answer as one
# `indexer build` over the same files (same pages kept, same replicas removed, same top 10 and
# scores for every query on both indexes). Installs PySpark into a venv and a Java runtime from
# Debian's packages if missing; skips with the reason when neither can be had.
# Usage: spark/ci.sh [INDEXER_BINARY]   (default target/release/indexer, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/indexer}
[ -x "$bin" ] || cargo build --release --quiet
bin=$(realpath "$bin")

echo "== Spark job: the join's pure parts (read order, replica resolution) and the ranking check"
python3 spark/test_join.py
python3 spark/test_compare.py

if ! command -v java >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing a Java runtime (openjdk-17-jre-headless) for Spark"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless; } >/dev/null 2>&1 || true
  fi
fi
if ! command -v java >/dev/null 2>&1; then
  echo "skipped the Spark job test: no Java runtime, and openjdk-17-jre-headless could not be installed"
  exit 0
fi
venv=${INDEXER_SPARK_VENV:-$HOME/.cache/indexer/spark-venv}
if ! "$venv/bin/python" -c "import pyspark" >/dev/null 2>&1; then
  echo "installing PySpark 3.5.7 into $venv"
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q pyspark==3.5.7; }; then
    echo "skipped the Spark job test: PySpark could not be installed into $venv"
    exit 0
  fi
fi
py="$venv/bin/python"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== Spark job: a shard task run twice at once publishes one shard"
python3 spark/make_warcs.py folder eval/sample-corpus/pages 4 "$work/sample-in"
"$py" spark/test_retries.py "$bin" "$work/sample-in/part-00000.warc"

# One build over the WARC files, the job over the same files, and the comparison.
check() {
  local name=$1 queries=$2
  mapfile -t inputs < <(sed "s|^|$work/$name-in/|" "$work/$name-in/inputs.txt")
  echo "== Spark job on $name (${#inputs[@]} WARC files, local[2]) against one indexer build"
  "$bin" build --quiet --dir "$work/$name-ref" "${inputs[@]}" | sed -n '1,2p;5p' | sed 's/^/one build: /'
  "$py" spark/indexer_spark.py --master 'local[2]' --inputs "$work/$name-in/inputs.txt" \
    --out "$work/$name-out" --shards 4 --indexer "$bin" 2>&1 | grep -v -e WARN -e 'setLogLevel' -e '^\s*$' |
    sed 's/^/spark job: /'
  "$py" spark/compare.py --indexer "$bin" --ref "$work/$name-ref" --job "$work/$name-out" --queries "$queries"
}
check sample queries/sample.tsv

cacm=../shared/data/ir-web/cacm
if [ -f "$cacm/pages.warc.gz" ]; then
  python3 spark/make_warcs.py warc "$cacm/pages.warc.gz" 4 "$work/cacm-in"
  check cacm "$cacm/topics.tsv"
else
  echo "skipped the Spark job on cacm: $cacm is absent"
fi
