#!/usr/bin/env bash
# The peer in the evaluation harness: Pyserini (Anserini on Lucene) over the same collections.
# Installs pyserini==2.3.0 in a venv (2.4 fetches index metadata at import and fails offline) without
# its declared dependencies, which pull torch and transformers (about 6 GB) for the dense and learned
# searchers: only pyjnius (Python to Java), tqdm and pandas, which the Lucene indexer's and searcher's
# modules import, and warcio for the pages (about 300 MB, most of it Anserini's jar). Then it writes
# TREC runs of every collection to indexer-data/peer/<name>/:
#   pyserini-bm25-clean.run           BM25 (k1 0.9, b 0.4: Anserini's defaults), clean documents
#   pyserini-bm25-k1.2-b0.75-clean.run BM25 (k1 1.2, b 0.75), clean documents
#   pyserini-bm25-rm3-clean.run       BM25 + RM3 (fbDocs 10, fbTerms 10, original weight 0.5)
#   pyserini-bm25-pagetext.run        BM25 (0.9, 0.4) over the pages' visible text
# `indexer eval report --config eval/<name>.toml` then shows them beside our searches.
# Needs Python >= 3.12 and a JDK >= 21 (PYTHON and JAVA_HOME override the ones found).
# A collection of ../shared/data/ir without an ir-web crawl (cranfield) gets the three runs of clean
# documents, under the documents' own ids.
# Usage: eval/peer/pyserini.sh [collection ...]   (default: cacm cisi medline adi)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
shared="$(cd "${SHARED:-$root/../shared/data}" && pwd)"
venv="${PYSERINI_VENV:-$root/indexer-data/peer/venv}"
work="$root/indexer-data/peer"

find_python() {
  for p in "${PYTHON:-}" python3.13 python3.12 "$HOME"/.pyenv/versions/3.1[2-9]*/bin/python; do
    [ -n "$p" ] && command -v "$p" >/dev/null 2>&1 || continue
    if "$p" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then echo "$p"; return; fi
  done
  echo "pyserini.sh: no Python >= 3.12 found (set PYTHON=...)" >&2; exit 1
}
find_java() {
  for j in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [ -n "$j" ] && [ -x "$j/bin/java" ] || continue
    v=$("$j/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
    if [ "${v:-0}" -ge 21 ]; then echo "$j"; return; fi
  done
  echo "pyserini.sh: no JDK >= 21 found (Anserini needs jdk.incubator.vector; set JAVA_HOME=...)" >&2; exit 1
}

export JAVA_HOME="$(find_java)"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pyserini, jnius, tqdm, pandas, warcio' 2>/dev/null; then
  py="$(find_python)"
  echo "== installing pyserini 2.3.0 into $venv (with $py)"
  "$py" -m venv "$venv"
  "$venv/bin/pip" install --quiet --progress-bar off --no-deps pyserini==2.3.0
  "$venv/bin/pip" install --quiet --progress-bar off pyjnius tqdm pandas warcio
fi
# eval/bench/anserini.sh keeps Pyserini 0.22.1 (for Java 17) in a venv of its own; these runs
# need 2.3.0's search API, so a venv holding another release is refused, not used.
have=$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("pyserini"))')
if [ "$have" != "2.3.0" ]; then
  echo "pyserini.sh: $venv holds pyserini $have, not 2.3.0 (eval/bench/anserini.sh's venv?); set PYSERINI_VENV to another folder or remove it" >&2
  exit 1
fi

collections=("$@")
[ ${#collections[@]} -gt 0 ] || collections=(cacm cisi medline adi)
for name in "${collections[@]}"; do
  echo "== $name"
  out="$work/$name"
  mkdir -p "$out"
  "$venv/bin/python" "$root/eval/peer/pyserini_runs.py" --shared "$shared" --name "$name" --work "$work/build-$name" --out "$out"
done
