#!/bin/sh
# compare-rates.sh measures how often `benchspec compare` cries wolf, and
# how often it finds a real change.
#
#   scripts/compare-rates.sh [PAIRS] [OUTDIR]
#
# A/A: PAIRS pairs of reports of the same seeds binary, run one right
# after the other (scripts/compare-rates.yaml: 8 benchmarks in avgt,
# 3 forks × 3 × 100 ms), each pair compared at the default threshold
# (5 %); every regression or improvement is a false alarm.
# Planted: PAIRS pairs of planted.Spin, the new side with
# SEEDS_SPIN_FACTOR=1.05 (5 % more work), compared at --threshold 2%;
# each pair should be a regression.
#
# Set HOG=1 to run the A/A pairs again while ../shared/tools/cpu-hog 1
# (or CPU_HOG) keeps one core busy. Reports stay in OUTDIR (default a
# temporary directory); the counts are printed at the end.
set -eu
pairs=${1:-10}
out=${2:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
go build -o "$out/seeds" "$root/examples/seeds"
go build -o "$out/benchspec" "$root/cmd/benchspec"
spec="$root/scripts/compare-rates.yaml"

count() {
	n=$(grep -c "\"verdict\": \"$1\"" "$2" 2>/dev/null || true)
	echo "${n:-0}"
}

# aa NAME: PAIRS A/A pairs; prints the verdict counts.
aa() {
	regr=0 impr=0 inc=0 unch=0
	for i in $(seq "$pairs"); do
		"$out/seeds" run --quiet --format json --out "$out/$1-$i-a.json" "$spec"
		"$out/seeds" run --quiet --format json --out "$out/$1-$i-b.json" "$spec"
		"$out/benchspec" compare --format json --out "$out/$1-$i.cmp.json" "$out/$1-$i-a.json" "$out/$1-$i-b.json" || true
		regr=$((regr + $(count regression "$out/$1-$i.cmp.json")))
		impr=$((impr + $(count improvement "$out/$1-$i.cmp.json")))
		inc=$((inc + $(count inconclusive "$out/$1-$i.cmp.json")))
		unch=$((unch + $(count unchanged "$out/$1-$i.cmp.json")))
	done
	echo "A/A $1: $pairs pairs × 8 benchmarks: regressions $regr, improvements $impr, inconclusive $inc, unchanged $unch"
}

aa idle
if [ "${HOG:-0}" = 1 ]; then
	hog=${CPU_HOG:-$root/../shared/tools/cpu-hog}
	"$hog" 1 100000 &
	hogpid=$!
	trap 'kill $hogpid 2>/dev/null || true' EXIT
	aa hog
	kill "$hogpid" 2>/dev/null || true
fi

planted="$root/scripts/compare-planted.yaml"
regr=0 other=""
for i in $(seq "$pairs"); do
	"$out/seeds" run --quiet --format json --out "$out/planted-$i-a.json" "$planted"
	SEEDS_SPIN_FACTOR=1.05 "$out/seeds" run --quiet --format json --out "$out/planted-$i-b.json" "$planted"
	"$out/benchspec" compare --threshold 2% --format json --out "$out/planted-$i.cmp.json" "$out/planted-$i-a.json" "$out/planted-$i-b.json" || true
	if [ "$(count regression "$out/planted-$i.cmp.json")" = 1 ]; then
		regr=$((regr + 1))
	else
		other="$other $i"
	fi
done
echo "planted +5 %: $pairs pairs at --threshold 2%: regressions $regr${other:+ (not in pairs$other)}"
echo "reports in $out"
