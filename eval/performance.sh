#!/bin/sh
# Regenerates the performance reports of issue #5 in eval/reports/performance/:
# sample-corpus/ and cacm/ (report.md, report.json, throughput.svg each). Run it on a quiet
# machine: every figure is a timing. cacm is skipped, with the reason, when ../shared is absent.
#
#   CARGO_TARGET_DIR=/path/to/target eval/performance.sh
set -eu
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
cargo build --release --bin indexer
indexer="$target/release/indexer"
"$indexer" bench eval/sample-corpus/pages --threads 1,2 --report eval/reports/performance/sample-corpus
cacm=../shared/data/ir-web/cacm/pages.warc.gz
if [ -f "$cacm" ]; then
    "$indexer" bench "$cacm" --threads 1,2 --scale 10 --report eval/reports/performance/cacm
else
    echo "skipping cacm: $cacm is absent"
fi
