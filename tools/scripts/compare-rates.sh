#!/usr/bin/env bash
# compare-rates.sh measures how often `benchspec compare` cries wolf, and
# how often it finds a real change: the three experiments of the issue
# "a compare that never cries wolf", in this order.
#
#   tools/scripts/compare-rates.sh [PAIRS] [OUTDIR]
#
# Every pair is measured the way the README advises for comparing two
# builds: alternate, then pool. A pair is ROUNDS rounds of (A batch,
# B batch), one right after the other; each side's batches are pooled
# with `benchspec merge --pool` (one run per benchmark, the forks of all
# the side's batches), and the two pools are compared. On this VM a
# batch's forks share the machine's state of the seconds they run in
# (tools/scripts/timeslots.go; the README's paragraph on --order interleaved),
# so two batches differ by more than their forks' spread says, and a
# pair of single batches compared cries wolf (sqrt.Sunk +16.6 % A/A) or
# misses a planted change. Alternating makes each side's forks come from
# many batches, spread over the whole pair, and both sides from the same
# stretch of time: the batch-to-batch shift becomes part of the forks'
# spread, which the tests on fork means count, instead of a difference
# between the sides.
#
# 1. A/A, idle: PAIRS (default 10) pairs of the same seeds binary on both
#    sides (tools/scripts/compare-rates.yaml: the 8 seeds benchmarks that need
#    no batches, in avgt, 1 fork × 3 × 100 ms after 2 of warmup), ROUNDS
#    (default 3) rounds, so 3 forks a side, each pair compared at the
#    default threshold (5 %). Every regression or improvement is a false
#    alarm. With 3 forks a side compare's rank test cannot be
#    significant (its p is at least 0.1), so no pair can raise one; the
#    tally says how many Welch's test alone would have raised. ROUNDS=5
#    tests a comparison that can give a verdict.
# 2. Planted: PAIRS pairs of planted.Spin (tools/scripts/compare-planted.yaml:
#    the same iterations, 2 forks a batch), PLANTED_ROUNDS (default 10)
#    rounds, so 20 forks a side from 10 batches, the new side with
#    SEEDS_SPIN_FACTOR=1.05 (5 % more work), compared at
#    --threshold 2%. Each pair should be a REGRESSION.
# 3. A/A, hog: as 1 while `cpu-hog 1` (../shared/tools/cpu-hog, or
#    $CPU_HOG) keeps one core busy for the whole phase. It runs last: the
#    load average it leaves behind would make the ENV_LOAD guard
#    withhold the planted pairs' verdicts.
#
# Every batch runs with --order interleaved (with one fork a run, that is
# the declared order, but the report says so and compare adds no note).
#
# Targets: 0 regressions and 0 improvements in both A/A phases, and at
# least 9 of 10 planted pairs found. An inconclusive pair is no false
# alarm; the counts say how many were inconclusive only because a report
# was measured on a busy machine (ENV_LOAD: a pool carries the check of
# its busiest batch), and what those would have been without that guard,
# so that the test on fork means can be judged on its own. The whole
# sweep takes about 15 minutes on 2 cores (one batch of 8 benchmarks × 1
# fork: about 4–5 s, so an A/A pair about 30 s; a batch of planted.Spin ×
# 2 forks about 1.5 s, a planted pair about 30 s). Run it on an otherwise
# idle machine; the load average is printed before each phase.
#
# At the end it prints what tools/scripts/timeslots.go reads from the pooled
# reports (each fork's start from the batch it came from, pooled_from):
# whether the forks of a pooled side behave as independent samples.
# Reports (NAME-I-R-a.json and -b.json for the batches of round R of
# pair I, NAME-I-a.json and -b.json for the pools) and comparisons
# (NAME-I.cmp.json) stay in OUTDIR (default: a new temporary directory).
# Exit status 0 when every target is met, 1 when one is missed, 2 when
# something could not run.
set -uo pipefail
pairs=${1:-10}
out=${2:-$(mktemp -d)}
rounds=${ROUNDS:-3}
planted_rounds=${PLANTED_ROUNDS:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out" || exit 2
go build -o "$out/seeds" "$root/examples/seeds" || exit 2
go build -o "$out/benchspec" "$root/cmd/benchspec" || exit 2
hog=${CPU_HOG:-$root/../shared/tools/cpu-hog}
[ -x "$hog" ] || { echo "compare-rates: no cpu-hog at $hog (set CPU_HOG)" >&2; exit 2; }

# count PATTERN FILE: the lines of FILE that match PATTERN.
count() { grep -c -- "$1" "$2" 2>/dev/null || true; }

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime; }

met=1
started=$SECONDS

# pair NAME I ROUNDS SPEC THRESHOLD [NEW-ENV...]: ROUNDS rounds of an
# A batch and a B batch of SPEC, each side's batches pooled into
# $out/NAME-I-a.json and -b.json, and their comparison in
# $out/NAME-I.cmp.json.
pair() {
	local name=$1 i=$2 n=$3 spec=$4 th=$5 r side
	shift 5
	for r in $(seq "$n"); do
		"$out/seeds" run --quiet --order interleaved --format json --out "$out/$name-$i-$r-a.json" "$spec" || return 2
		env "$@" "$out/seeds" run --quiet --order interleaved --format json --out "$out/$name-$i-$r-b.json" "$spec" || return 2
	done
	for side in a b; do
		local batches=()
		for r in $(seq "$n"); do batches+=("$out/$name-$i-$r-$side.json"); done
		"$out/benchspec" merge --pool --out "$out/$name-$i-$side.json" "${batches[@]}" || return 2
	done
	"$out/benchspec" compare --threshold "$th" --format json --out "$out/$name-$i.cmp.json" \
		"$out/$name-$i-a.json" "$out/$name-$i-b.json"
	[ $? -le 1 ] || return 2
}

# tally NAME PREFIX: prints PREFIX and the verdicts of the comparisons
# NAME-*.cmp.json; sets TALLY_REGR and TALLY_IMPR.
tally() {
	local regr=0 impr=0 inc=0 unch=0 wouldr=0 wouldi=0 rankr=0 ranki=0 f
	for f in "$out/$1"-*.cmp.json; do
		regr=$((regr + $(count '"verdict": "regression"' "$f")))
		impr=$((impr + $(count '"verdict": "improvement"' "$f")))
		inc=$((inc + $(count '"verdict": "inconclusive"' "$f")))
		unch=$((unch + $(count '"verdict": "unchanged"' "$f")))
		wouldr=$((wouldr + $(count '"reason": "would be a regression' "$f")))
		wouldi=$((wouldi + $(count '"reason": "would be an improvement' "$f")))
		rankr=$((rankr + $(count "\"reason\": \"Welch's test on the fork means would call it a regression" "$f")))
		ranki=$((ranki + $(count "\"reason\": \"Welch's test on the fork means would call it an improvement" "$f")))
	done
	echo "$2regressions $regr, improvements $impr, inconclusive $inc (of which $((wouldr + wouldi)) only for the machine's load: $wouldr would be regressions, $wouldi improvements; $((rankr + ranki)) only for the rank test: Welch alone would call $rankr regressions, $ranki improvements), unchanged $unch"
	TALLY_REGR=$regr
	TALLY_IMPR=$impr
}

# aa NAME: PAIRS A/A pairs of the 8 benchmarks.
aa() {
	local t0=$SECONDS
	echo "A/A $1: $pairs pairs of $rounds rounds (A, B) × 1 fork; load average before: $(load)"
	for i in $(seq "$pairs"); do
		pair "$1" "$i" "$rounds" "$root/scripts/compare-rates.yaml" 5% || exit 2
	done
	tally "$1" "A/A $1: $pairs pairs × 8 benchmarks, $rounds forks a side, $((SECONDS - t0)) s: "
	if [ "$TALLY_REGR" != 0 ] || [ "$TALLY_IMPR" != 0 ]; then met=0; fi
}

aa idle

# The planted pairs run before the hog: the load average it leaves
# behind would make the ENV_LOAD guard withhold their verdicts.
t0=$SECONDS
echo "planted +5 %: $pairs pairs of $planted_rounds rounds (A, B) × 2 forks at --threshold 2%; load average before: $(load)"
found=0 missed=""
for i in $(seq "$pairs"); do
	pair planted "$i" "$planted_rounds" "$root/scripts/compare-planted.yaml" 2% SEEDS_SPIN_FACTOR=1.05 || exit 2
	if [ "$(count '"verdict": "regression"' "$out/planted-$i.cmp.json")" = 1 ]; then
		found=$((found + 1))
	else
		missed="$missed $i"
	fi
done
tally planted "planted +5 %: $pairs pairs, $((planted_rounds * 2)) forks a side, $((SECONDS - t0)) s: "
echo "planted +5 %: found in $found of $pairs${missed:+ (missed in pairs$missed)}"
if [ $((found * 10)) -lt $((pairs * 9)) ]; then met=0; fi

"$hog" 1 100000 >/dev/null 2>&1 &
hogpid=$!
trap 'kill "$hogpid" 2>/dev/null' EXIT
sleep 5 # let the hog show in the load average
aa hog
kill "$hogpid" 2>/dev/null
wait "$hogpid" 2>/dev/null
trap - EXIT


echo "whole sweep: $((SECONDS - started)) s; reports in $out"
# Whether the forks of a pooled side behave as independent samples
# (README: "Comparing two builds: alternate, then pool").
echo "fork independence (go run tools/scripts/timeslots.go $out):"
(cd "$root" && go run ./scripts/timeslots.go "$out") || exit 2
if [ "$met" = 1 ]; then
	echo "targets met: 0 false alarms in both A/A phases, the planted slowdown found in at least 9 of 10"
	exit 0
fi
echo "targets missed (see above)"
exit 1
