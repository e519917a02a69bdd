#!/usr/bin/env bash
# The nightly history end to end, through real runs: twelve batches of
# examples/history into one results directory, planted.Work at cost 1.00
# in the first six and 1.08 in the last six (steady.Work unchanged), then
# benchspec history with --fail-on-regression; then the same twelve
# batches with no change. Expect exactly one change point, at batch 7,
# for planted.Work and exit 1; then none and exit 0.
#
#   tools/scripts/planted-regression.sh [OUTDIR]
#
# Run it on a quiet machine: on a busy one the scores scatter by more
# than the planted 8 %, each night's own error says so, and history
# rightly finds nothing (on a shared Linux machine, `chrt -f 10
# tools/scripts/planted-regression.sh` as root lends the batches a quiet CPU
# for the minute they take). OUTDIR (default: a new temporary directory)
# keeps the results directories and the HTML pages.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
bin=$out/bin
go build -o "$bin/history-suite" ./examples/history || exit 2
go build -o "$bin/benchspec" ./cmd/benchspec || exit 2

batches() { # DIR COST_OF_BATCH_7_TO_12
  for i in $(seq 12); do
    cost=1.00
    if (( i >= 7 )); then cost=$2; fi
    BENCHSPEC_EXAMPLE_COST=$cost "$bin/history-suite" run --quiet --results-dir "$1" \
      --label "night-$i" --format json --out /dev/null examples/history/history.yaml || exit 2
  done
}

for case in planted:1.08 unchanged:1.00; do
  name=${case%%:*}
  dir=$out/$name
  echo "== $name: 6 batches at cost 1.00, 6 at ${case##*:} ($dir)"
  batches "$dir" "${case##*:}"
  "$bin/benchspec" history "$dir" --format html --out "$out/$name.html"
  "$bin/benchspec" history "$dir" --fail-on-regression
  echo "exit status: $?"
  echo
done
echo "HTML pages: $out/planted.html $out/unchanged.html"
