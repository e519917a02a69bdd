#!/usr/bin/env bash
# compare-rates.sh measures how often `benchspec compare` cries wolf, and
# how often it finds a real change: the three experiments of the issue
# "a compare that never cries wolf", in this order.
#
#   scripts/compare-rates.sh [PAIRS] [OUTDIR]
#
# 1. A/A, idle: PAIRS (default 10) pairs of reports of the same seeds
#    binary, run one right after the other (scripts/compare-rates.yaml:
#    the 8 seeds benchmarks that need no batches, in avgt, 3 forks ×
#    3 × 100 ms), each pair compared at the default threshold (5 %).
#    Every regression or improvement is a false alarm.
# 2. Planted: PAIRS pairs of planted.Spin (scripts/compare-planted.yaml,
#    the same iterations, 20 forks), the new side with
#    SEEDS_SPIN_FACTOR=1.05 (5 % more work), compared at --threshold 2%.
#    Each pair should be a REGRESSION.
#
# Every batch runs with --order interleaved: forks that run back to back
# share the machine's state of those seconds (go run
# scripts/timeslots.go OUTDIR shows it on the reports), so in declared
# order a run's three forks vary less than two batches do, and Welch's
# interval on them is too narrow. Interleaved, a run's forks are spread
# over its batch (about 4 s apart). planted.Spin is alone in its batch,
# where every order is the same: its 20 forks span about 10 s instead of
# 5 forks' 2.6 s, so the two sides' means average more of the host's
# states, and the test has 38 degrees of freedom instead of 8.
# 3. A/A, hog: as 1 while `cpu-hog 1` (../shared/tools/cpu-hog, or
#    $CPU_HOG) keeps one core busy for the whole phase. It runs last: the
#    load average it leaves behind would make the ENV_LOAD guard
#    withhold the planted pairs' verdicts.
#
# Targets: 0 regressions and 0 improvements in both A/A phases, and at
# least 9 of 10 planted pairs found. An inconclusive pair is no false
# alarm; the counts say how many were inconclusive only because a report
# was measured on a busy machine (ENV_LOAD), and what those would have
# been without that guard, so that the test on fork means can be judged
# on its own. The whole sweep takes about 12 minutes on 2 cores (one
# report of 8 benchmarks: about 13 s; of planted.Spin: about 11 s). Run
# it on an otherwise idle machine; the load average is printed before
# each phase.
#
# At the end it prints what scripts/timeslots.go reads from the reports:
# how much the forks of a batch still share the machine's state.
# Reports and comparisons stay in OUTDIR (default: a new temporary
# directory). Exit status 0 when every target is met, 1 when one is
# missed, 2 when something could not run.
set -uo pipefail
pairs=${1:-10}
out=${2:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
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

# pair NAME I SPEC [THRESHOLD] [NEW-ENV...]: two reports of SPEC and
# their comparison in $out/NAME-I.cmp.json.
pair() {
	local name=$1 i=$2 spec=$3 th=$4
	shift 4
	"$out/seeds" run --quiet --order interleaved --format json --out "$out/$name-$i-a.json" "$spec" || return 2
	env "$@" "$out/seeds" run --quiet --order interleaved --format json --out "$out/$name-$i-b.json" "$spec" || return 2
	"$out/benchspec" compare --threshold "$th" --format json --out "$out/$name-$i.cmp.json" \
		"$out/$name-$i-a.json" "$out/$name-$i-b.json"
	[ $? -le 1 ] || return 2
}

# tally NAME PREFIX: prints PREFIX and the verdicts of the comparisons
# NAME-*.cmp.json; sets TALLY_REGR and TALLY_IMPR.
tally() {
	local regr=0 impr=0 inc=0 unch=0 wouldr=0 wouldi=0 f
	for f in "$out/$1"-*.cmp.json; do
		regr=$((regr + $(count '"verdict": "regression"' "$f")))
		impr=$((impr + $(count '"verdict": "improvement"' "$f")))
		inc=$((inc + $(count '"verdict": "inconclusive"' "$f")))
		unch=$((unch + $(count '"verdict": "unchanged"' "$f")))
		wouldr=$((wouldr + $(count '"reason": "would be a regression' "$f")))
		wouldi=$((wouldi + $(count '"reason": "would be an improvement' "$f")))
	done
	echo "$2regressions $regr, improvements $impr, inconclusive $inc (of which $((wouldr + wouldi)) only for the machine's load: $wouldr would be regressions, $wouldi improvements), unchanged $unch"
	TALLY_REGR=$regr
	TALLY_IMPR=$impr
}

# aa NAME: PAIRS A/A pairs of the 8 benchmarks.
aa() {
	local t0=$SECONDS
	echo "A/A $1: $pairs pairs; load average before: $(load)"
	for i in $(seq "$pairs"); do
		pair "$1" "$i" "$root/scripts/compare-rates.yaml" 5% || exit 2
	done
	tally "$1" "A/A $1: $pairs pairs × 8 benchmarks, $((SECONDS - t0)) s: "
	if [ "$TALLY_REGR" != 0 ] || [ "$TALLY_IMPR" != 0 ]; then met=0; fi
}

aa idle

# The planted pairs run before the hog: the load average it leaves
# behind would make the ENV_LOAD guard withhold their verdicts.
t0=$SECONDS
echo "planted +5 %: $pairs pairs at --threshold 2%; load average before: $(load)"
found=0 missed=""
for i in $(seq "$pairs"); do
	pair planted "$i" "$root/scripts/compare-planted.yaml" 2% SEEDS_SPIN_FACTOR=1.05 || exit 2
	if [ "$(count '"verdict": "regression"' "$out/planted-$i.cmp.json")" = 1 ]; then
		found=$((found + 1))
	else
		missed="$missed $i"
	fi
done
tally planted "planted +5 %: $pairs pairs, $((SECONDS - t0)) s: "
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
# How much the forks of a batch still share with interleaving (README:
# "Run the two batches of a comparison with --order interleaved").
echo "fork independence (go run scripts/timeslots.go $out):"
(cd "$root" && go run ./scripts/timeslots.go "$out") || exit 2
if [ "$met" = 1 ]; then
	echo "targets met: 0 false alarms in both A/A phases, the planted slowdown found in at least 9 of 10"
	exit 0
fi
echo "targets missed (see above)"
exit 1
