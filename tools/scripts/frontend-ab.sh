#!/usr/bin/env bash
# frontend-ab.sh compares the front end (spec.Parse + plan.Build) of two
# commits, the way tools/selfbench's item 7 measures it: each case in
# a fresh process of the selfbench binary (its frontend child), the two
# commits' processes alternating so that a drift of the machine weighs on
# both alike; then plan's BenchmarkFrontEnd of both, alternating too.
#
#   tools/scripts/frontend-ab.sh [BASE [NEW [ROUNDS]]]
#
# BASE and NEW are commits (default: HEAD~1 and HEAD; NEW may be "." for
# the work tree), ROUNDS the processes per case and commit (default 10).
# For each case it prints the median and the minimum of parse + plan wall
# time, the median CPU time (all threads, the garbage collector's too),
# the peak RSS and, where perf works, the page faults of the whole
# process (a fresh process pays for every page its heap first touches).
# The load average is printed before each case: figures taken while it
# is above 1.5 on 2 cores say little.
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:-HEAD~1} new=${2:-HEAD} rounds=${3:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() { # build REV NAME: the selfbench binary and plan's test binary of REV
	local rev=$1 name=$2 dir=$tmp/$2
	if [ "$rev" = . ]; then
		dir=$PWD
	else
		mkdir -p "$dir"
		git archive "$rev" | tar -x -C "$dir"
	fi
	(cd "$dir" && pkg=./tools/selfbench && { [ -d "$pkg" ] || pkg=./examples/selfbench; } && GOFLAGS=-buildvcs=false go build -o "$tmp/selfbench-$name" "$pkg" &&
		GOFLAGS=-buildvcs=false go test -c -o "$tmp/plan-$name.test" ./plan)
}
build "$base" base
build "$new" new
echo "base $(git rev-parse --short "$base" 2>/dev/null || echo "$base"), new $new; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

perf_ok=0
if perf stat -e page-faults -x, true 2>/dev/null; then perf_ok=1; fi

one() { # one NAME SCALE: one frontend child; prints its JSON with "faults"
	local out
	if [ $perf_ok = 1 ]; then
		out=$(SELFBENCH_CHILD=frontend SELFBENCH_SCALE=$2 perf stat -e page-faults -x, -o "$tmp/perf" "$tmp/selfbench-$1")
		echo "${out%\}},\"faults\":$(cut -d, -f1 <"$tmp/perf" | grep -E '^[0-9]+$' | head -1)}"
	else
		SELFBENCH_CHILD=frontend SELFBENCH_SCALE=$2 "$tmp/selfbench-$1"
		echo
	fi
}

for scale in entries=1000 entries=10000 runs=100000; do
	echo "== $scale (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
	for i in $(seq "$rounds"); do
		if [ $((i % 2)) = 1 ]; then
			one base "$scale" >>"$tmp/base.$scale"
			one new "$scale" >>"$tmp/new.$scale"
		else
			one new "$scale" >>"$tmp/new.$scale"
			one base "$scale" >>"$tmp/base.$scale"
		fi
	done
	for name in base new; do
		python3 - "$name" "$tmp/$name.$scale" <<'EOF'
import json, statistics as st, sys
rs = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
tot = [(r["parse_ns"] + r["plan_ns"]) / 1e6 for r in rs]
med = lambda k: st.median(r[k] for r in rs) / 1e6
line = "%-4s parse+plan median %6.1f ms (min %6.1f; parse %6.1f, plan %6.1f), CPU %6.1f ms, peak RSS %5.1f MiB" % (
    sys.argv[1], st.median(tot), min(tot), med("parse_ns"), med("plan_ns"), med("cpu_ns"), max(r["peak_kib"] for r in rs) / 1024)
if all("faults" in r for r in rs):
    line += ", %d page faults" % st.median(r["faults"] for r in rs)
print(line)
EOF
	done
done

echo "== go test -bench FrontEnd, alternating (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
for i in 1 2 3; do
	for name in base new; do
		"$tmp/plan-$name.test" -test.run '^$' -test.bench FrontEnd -test.benchmem -test.count 1 |
			grep '^BenchmarkFrontEnd' | sed "s/^/$name /"
	done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
