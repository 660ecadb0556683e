#!/usr/bin/env bash
# Recounts the records of ../shared/data/real-warc/ with warcio (installed in a venv under
# ~/.cache/indexer/) and checks tests/fixtures/input/real-warc/warcio-counts.tsv against it.
# With --update, rewrites the file instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=../shared/data/real-warc
expected=tests/fixtures/input/real-warc/warcio-counts.tsv
venv=${XDG_CACHE_HOME:-$HOME/.cache}/indexer/warcio-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet warcio
fi
actual=$("$venv/bin/python" eval/crawl/warcio_counts.py $(find "$data" -name '*.warc*' -o -name '*.arc*' | sort))
if [ "${1:-}" = "--update" ]; then
  mkdir -p "$(dirname "$expected")"
  printf '%s\n' "$actual" > "$expected"
  echo "wrote $expected"
else
  diff <(printf '%s\n' "$actual") "$expected" && echo "warcio counts of $data match $expected"
fi
