#!/usr/bin/env bash
# Held-out accuracy of the default model's recipe on our own labelled set: for each of the
# nine sample sites, train on the other eight sites' pages plus extra/ (with the default
# model's parameters), build the held-out site with that model, and compare each record's
# code with sample-labels.tsv. Sites are held out whole because pages of one site share
# their template and their topics. A record whose confidence is below classify.min_confidence
# has no code: it counts as neither right nor wrong. Usage (repository root): eval/classify/leave-one-site-out.sh [INDEXER]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/indexer}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pages=eval/sample-corpus/pages
total=0
right=0
empty=0
for site in $(cut -f1 "$pages/urls.tsv" | cut -d/ -f1 | sort -u); do
  grep -v "^#" eval/classify/sample-labels.tsv > "$work/all.tsv"
  held_urls=$(awk -F'\t' -v s="$site" 'index($1, s "/") == 1 { print $2 }' "$pages/urls.tsv")
  printf '%s\n' "$held_urls" > "$work/held.txt"
  grep -v -F -f "$work/held.txt" "$work/all.tsv" > "$work/train.tsv"
  cp "$work/train.tsv" eval/classify/.train-"$site".tsv
  "$bin" classify train --labels eval/classify/.train-"$site".tsv --labels eval/classify/extra --labels eval/classify/wordnet --pages "$pages" \
    --config eval/classify/default-model.toml --out "$work/model.bin" > /dev/null
  rm eval/classify/.train-"$site".tsv
  mkdir -p "$work/site"
  rm -rf "$work/site"/* "$work/build"
  cp -r "$pages/$site" "$work/site/"
  awk -F'\t' -v s="$site" 'index($1, s "/") == 1' "$pages/urls.tsv" > "$work/site/urls.tsv"
  "$bin" build "$work/site" --dir "$work/build" --classifier "$work/model.bin" --replicas off --quiet > /dev/null
  counts=$(python3 - "$work/build/current/docview.jsonl" "$work/all.tsv" <<'PY'
import json, sys
labels = dict(line.rstrip("\n").split("\t") for line in open(sys.argv[2]) if "\t" in line)
records = [json.loads(line) for line in open(sys.argv[1])]
print(len(records), sum(labels.get(r["identifier"]) == r.get("classification_code") for r in records),
      sum(r.get("classification_code") is None for r in records))
PY
)
  read -r n k e <<< "$counts"
  echo "$site: $k of $n pages right, $e without a code (below classify.min_confidence)"
  total=$((total + n))
  right=$((right + k))
  empty=$((empty + e))
done
echo "all sites: $right of $total pages right, $empty without a code, $((total - right - empty)) wrong"
