#!/usr/bin/env bash
# precision-vs-fixed.sh: the wall time `precision` takes to bring seeds
# benchmarks within ±1 % (99.9 % error, forks as the unit), against the
# smallest fixed forks × iterations plan that gets there.
#
#   tools/scripts/precision-vs-fixed.sh [OUTDIR]
#
# Environment: BENCH, a regexp of seeds benchmarks (default
# '^(planted\.Spin|sqrt\.Sunk|virtual\.Call)$'); ERROR, the target
# (default 1%).
#
# 1. precision: one batch, every benchmark in avgt starting at 3 forks
#    of 2 warmup and 3 measurement iterations of 100 ms, with
#    `precision: {error: 1%, max_forks: 20, max_time: 10m}`: forks are
#    added (with more iterations where the variance components say they
#    pay more) until the error is within the target or a bound is hit.
# 2. fixed: batches of fixed plans, forks ∈ {3, 5, 10, 20} × measurement
#    iterations ∈ {3, 6, 12} (same warmup and iteration time), in order of
#    their planned cost, each with the benchmarks no cheaper plan brought
#    within the target yet, until every benchmark has one or the plans
#    run out. A plan reaches the target when its report's error is within
#    it: one batch per plan, so a plan near the edge may reach it in one
#    batch and miss it in the next.
#
# Wall time is the sum of the run's forks' wall times (process start to
# exit), from the JSON reports. Prints one line per benchmark and keeps
# the reports in OUTDIR (default: a new temporary directory). Takes a few
# minutes per benchmark on 2 cores; run it on an otherwise idle machine.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
bench=${BENCH:-'^(planted\.Spin|sqrt\.Sunk|virtual\.Call)$'}
target=${ERROR:-1%}
mkdir -p "$out" || exit 2
command -v jq >/dev/null || { echo "precision-vs-fixed: needs jq" >&2; exit 2; }
go build -o "$out/seeds" "$root/examples/seeds" || exit 2
frac=$(echo "$target" | tr -d ' %' | awk '{print $1/100}')

# spec FILE FORKS ITERATIONS REGEXP [PRECISION]
spec() {
	cat >"$1" <<EOF
version: 1
name: precision-vs-fixed
defaults:
  forks: $2
  warmup:      {iterations: 2, time: 100ms}
  measurement: {iterations: $3, time: 100ms}
  time_unit: ns
benchmarks:
  - include: '$4'
    modes: [avgt]
EOF
	if [ -n "${5:-}" ]; then echo "    precision: $5" >>"$1"; fi
}

# runs REPORT: per run "benchmark relative-error wall-seconds forks
# iterations-per-fork reason", one line each.
runs() {
	jq -r '.runs[] | select(.status == "ok") | [.benchmark,
		(if .primary_metric.score_error == null then "inf" else (.primary_metric.score_error / .primary_metric.score | fabs | tostring) end),
		(([.forks[].wall_ns] | add) / 1e9 | tostring),
		(.primary_metric.variance.forks | tostring),
		((.precision.fork_iterations // [.primary_metric.raw_data[] | length]) | map(tostring) | join(",")),
		(.precision.reason // "-")] | @tsv' "$1"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
spec "$out/precision.yaml" 3 3 "$bench" "{error: $target, max_forks: 20, max_time: 10m}"
"$out/seeds" run --quiet --format json --out "$out/precision.json" "$out/precision.yaml" || exit 2
declare -A pwall perr preason pforks piters fixed
while IFS=$'\t' read -r name rel wall forks iters reason; do
	perr[$name]=$rel pwall[$name]=$wall preason[$name]=$reason pforks[$name]=$forks piters[$name]=$iters
done < <(runs "$out/precision.json")
names=("${!pwall[@]}")
[ ${#names[@]} -gt 0 ] || { echo "precision-vs-fixed: no benchmark matches $bench" >&2; exit 2; }

# Fixed plans in order of planned cost, forks × (warmup + measurement).
for plan in $(for f in 3 5 10 20; do for n in 3 6 12; do echo "$((f * (n + 3))) $f $n"; done; done | sort -n | awk '{print $2"x"$3}'); do
	pending=()
	for name in "${names[@]}"; do [ -z "${fixed[$name]:-}" ] && pending+=("$name"); done
	[ ${#pending[@]} -gt 0 ] || break
	re="^($(printf '%s\n' "${pending[@]}" | sed 's/\./\\./g' | paste -sd'|'))\$"
	f=${plan%x*} n=${plan#*x}
	spec "$out/fixed-$plan.yaml" "$f" "$n" "$re"
	"$out/seeds" run --quiet --format json --out "$out/fixed-$plan.json" "$out/fixed-$plan.yaml" || exit 2
	while IFS=$'\t' read -r name rel wall forks iters reason; do
		if [ "$rel" != inf ] && awk -v r="$rel" -v t="$frac" 'BEGIN { exit !(r <= t) }'; then
			fixed[$name]="$plan $rel $wall"
		fi
	done < <(runs "$out/fixed-$plan.json")
done

pct() { awk -v r="$1" 'BEGIN { if (r == "inf") print "n/a"; else printf "±%.2f%%", 100 * r }'; }
for name in $(printf '%s\n' "${names[@]}" | sort); do
	line="$name: precision ${preason[$name]}, $(pct "${perr[$name]}") after ${pforks[$name]} forks (iterations ${piters[$name]}) in $(printf '%.1f' "${pwall[$name]}") s"
	if [ -n "${fixed[$name]:-}" ]; then
		read -r plan rel wall <<<"${fixed[$name]}"
		line="$line; smallest fixed plan within $target: ${plan/x/ forks × } iterations, $(pct "$rel") in $(printf '%.1f' "$wall") s"
	else
		line="$line; no fixed plan up to 20 forks × 12 iterations reached $target"
	fi
	echo "$line"
done
echo "reports in $out"
