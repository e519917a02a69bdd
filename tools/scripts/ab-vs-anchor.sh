#!/usr/bin/env bash
# ab-vs-anchor.sh: ab and its anchor, round by round in the same minutes:
# each round one `benchspec ab` batch at its defaults (ab-rates.sh) and
# one pair of go test alternated 10 x 500 ms + benchstat
# (benchstat-rates.sh), on planted.Spin at FACTOR beside its unchanged
# twin. Prints both lines of every round: verdicts, estimates, pairs and
# why ab stopped, and each side's wall time.
#
#   tools/scripts/ab-vs-anchor.sh FACTOR [ROUNDS] [THRESHOLD] [BASE_FACTOR]
#   tools/scripts/ab-vs-anchor.sh 1.02 10          # +2 %
#   ../shared/tools/cpu-hog 1 & tools/scripts/ab-vs-anchor.sh 1.02 10
set -euo pipefail
cd "$(dirname "$0")"
factor=${1:?factor}; rounds=${2:-10}; threshold=${3:-1%}; base=${4:-1}
for i in $(seq "$rounds"); do
  printf 'round %d ab     ' "$i"; ./ab-rates.sh "$factor" 1 "$threshold" "$base"
  printf 'round %d anchor ' "$i"; ./benchstat-rates.sh "$factor" 1 10 "$base"
done
