#!/usr/bin/env bash
# seeds-warnings.sh: the warnings of three consecutive runs of the seeds
# suite (examples/seeds/seeds.yaml), per run: which benchmarks drew which
# diagnostic, and what it measured. On an idle machine a benchmark that
# does real work should draw no warning unless its numbers really are
# unsound (then the message says what was measured); the planted dead
# body (sqrt.Dropped) and the empty loop are expected to draw DEAD_CODE.
# Each run also prints DEAD_CODE's ratio for every avgt and thrpt run, so
# that the margin shows: how close sound benchmarks come to 3, and how
# far below it the dead ones stay.
#
#   tools/scripts/seeds-warnings.sh [RUNS] [OUTDIR]
#
# About a minute and a half per run on 2 cores. Reports stay in OUTDIR
# (default: a new temporary directory).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
out=${2:-$(mktemp -d)}
mkdir -p "$out" || exit 2
command -v jq >/dev/null || { echo "seeds-warnings: needs jq" >&2; exit 2; }
go build -o "$out/seeds" "$root/examples/seeds" || exit 2
for i in $(seq "$runs"); do
	echo "run $i: load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	"$out/seeds" run --quiet --format json --out "$out/seeds-$i.json" "$root/examples/seeds/seeds.yaml"
	[ $? -le 1 ] || exit 2
	jq -r '.runs[] | . as $r | (.diagnostics // [])[] | select(.severity == "warning") |
		"  \($r.benchmark) \($r.mode): \(.code): \(.message)"' "$out/seeds-$i.json"
	jq -r '"  " + ([.runs[] | select(any((.diagnostics // [])[]; .severity == "warning")) | "\(.benchmark) \(.mode)"] | length | tostring) + " of " + (.runs | length | tostring) + " runs warned"' "$out/seeds-$i.json"
	# DEAD_CODE's margin: for every avgt and thrpt run of one call per
	# invocation, the median over its measured iterations of the call time
	# over the fork's empty-loop floor (the fastest baseline iteration of
	# either loop form), as report/diag computes it; under 3 is DEAD_CODE.
	jq -r 'def med: sort | if length == 0 then null elif length % 2 == 1 then .[length/2|floor] else (.[length/2-1] + .[length/2]) / 2 end;
		"  DEAD_CODE ratio (under 3 fires): " + ([.runs[] | select((.mode == "avgt" or .mode == "thrpt") and .settings.ops_per_invocation == 1 and .settings.measurement.batch_size == 1 and .threads == 1) |
			"\(.benchmark) \(.mode) " + ([.forks[] | select((.warmup | not) and .error == "") |
				([(.timer.baseline_ns // [])[], (.timer.baseline_invocations_ns // [])[] | select(. != null and . > 0)] | min) as $floor |
				select($floor != null) | .iterations[] | select(.phase == "measurement" and .invocations > 0) | .time_ns / .invocations / $floor] |
				med | if . == null then "-" else (. * 100 | round / 100 | tostring) end)] | join(", "))' "$out/seeds-$i.json"
done
echo "reports in $out"
