#!/usr/bin/env bash
# A real peer, side by side with `indexer bench`'s figures: Anserini (through Pyserini 0.22.1,
# the last release whose Anserini runs on Java 11-17) indexing the same crawl's pages on one
# thread, against `indexer build --threads 1` on the same machine in the same run. Both are
# pinned to one CPU with taskset when it exists.
#   eval/bench/anserini.sh [WARC]     (default ../shared/data/ir-web/cacm/pages.warc.gz)
# The pages are converted outside the timings (eval/bench/anserini_inputs.py) into
# - HtmlCollection (a tar.gz of .html files): Anserini's own HTML handling, Jsoup's text of
#   each page, indexed with its English analyzer (Porter stemming, stop words), positions
#   and document vectors: the fair peer of our full-text index;
# - JsonCollection with the raw HTML as contents: no HTML handling, markup indexed as text
#   (shown for the cost of Anserini's indexing alone).
# Prints pages/s of each (wall time of the process, JVM start included for Anserini, process
# start for ours) and indexer / Anserini. Installs Pyserini into a venv (PYSERINI_VENV,
# default ~/.cache/indexer/pyserini-venv) and says why when it cannot.
set -euo pipefail
cd "$(dirname "$0")/../.."
warc=${1:-../shared/data/ir-web/cacm/pages.warc.gz}
bin=$(realpath "${INDEXER:-target/release/indexer}")
venv=${PYSERINI_VENV:-$HOME/.cache/indexer/pyserini-venv}
[ -f "$warc" ] || { echo "eval/bench/anserini.sh: $warc is missing" >&2; exit 2; }
[ -x "$bin" ] || { echo "eval/bench/anserini.sh: $bin is missing: cargo build --release" >&2; exit 2; }
command -v java >/dev/null || { echo "eval/bench/anserini.sh: no java on PATH (Anserini 0.22 needs Java 11-17)" >&2; exit 2; }
export JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
if ! "$venv/bin/python" -c "import pyserini" >/dev/null 2>&1; then
  echo "installing Pyserini 0.22.1 into $venv" >&2
  log=$(mktemp)
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install pyserini==0.22.1; } >"$log" 2>&1; then
    echo "eval/bench/anserini.sh: Pyserini could not be installed into $venv:" >&2
    tail -5 "$log" >&2
    exit 2
  fi
fi
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c 0); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pages=$(python3 eval/bench/anserini_inputs.py "$warc" "$work")

now() { date +%s.%N; }
anserini() {  # collection input
  local t0 t1
  t0=$(now)
  "${pin[@]}" "$venv/bin/python" -m pyserini.index.lucene --collection "$1" --input "$2" --index "$work/index-$1" \
    --generator DefaultLuceneDocumentGenerator --threads 1 --storePositions --storeDocvectors > "$work/$1.log" 2>&1
  t1=$(now)
  indexed=$(sed -n 's/.*Total \([0-9,]*\) documents indexed.*/\1/p' "$work/$1.log" | tr -d ,)
  echo "$1 $indexed $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
}
t0=$(now)
"${pin[@]}" "$bin" build --threads 1 --quiet --json --dir "$work/ours" "$warc" > "$work/ours.json"
t1=$(now)
ours="indexer $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pages_indexed"])' "$work/ours.json") $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
html=$(anserini HtmlCollection "$work/html")
json=$(anserini JsonCollection "$work/json")
python3 - "$pages" "$ours" "$html" "$json" <<'EOF'
import sys
pages = int(sys.argv[1])
rows = [a.split() for a in sys.argv[2:]]
ours = pages / float(rows[0][2])
print(f"{pages} HTML pages; one thread each")
print("run\tpages indexed\tseconds\tpages/s\tindexer / this")
names = {"indexer": "indexer build --threads 1 (both indexes, cleaning, replicas)",
         "HtmlCollection": "Anserini HtmlCollection (Jsoup text, positions, docvectors)",
         "JsonCollection": "Anserini JsonCollection (raw HTML as text, positions, docvectors)"}
for name, indexed, seconds in rows:
    rate = pages / float(seconds)
    print(f"{names[name]}\t{indexed}\t{float(seconds):.1f}\t{rate:.0f}\t{ours / rate:.2f}")
EOF
