#!/bin/sh
# What one minimal fork costs the machine, from outside: page faults and
# CPU time (task-clock, parent and fork together) of `selfbench run` with
# 1 and with 21 forks of fork.Minimal (one 1 ms iteration, no warmup);
# the difference over 20 is the cost of a fork. Faults are the robust
# figure (they do not depend on the load; on a PVM guest each costs
# ~30 µs); the milliseconds are meaningful only on a quiet machine (the
# load average is printed). Also the start of the binary alone (`help`)
# and of a Go hello world, the floor of any Go process here.
#
#   tools/scripts/fork-faults.sh [selfbench binary]   # default: builds one
#
# Needs perf (perf stat). Prints one line per measurement.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${1:-}
if [ -z "$bin" ]; then
	bin=$tmp/selfbench
	go build -o "$bin" ./tools/selfbench
fi
for n in 1 21; do
	cat >"$tmp/min$n.yaml" <<EOF
version: 1
name: forkfaults
benchmarks:
  - include: '^fork\.Minimal\$'
    modes: [avgt]
    forks: $n
    warmup:      {iterations: 0}
    measurement: {iterations: 1, time: 1ms}
EOF
done
printf 'package main\nfunc main() { println("hello") }\n' >"$tmp/hello.go"
(cd "$tmp" && GO111MODULE=off go build -o hello hello.go)

# stat CMD...: "<task-clock ms> <page faults>", means over 10 runs.
stat() {
	perf stat -x, -e task-clock,page-faults -r 10 "$@" 2>&1 >/dev/null |
		awk -F, '$3=="task-clock"{t=$1} $3=="page-faults"{f=$1} END{printf "%.2f %.0f\n", t, f}'
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
set -- $(stat "$tmp/hello")
echo "hello world: $1 ms, $2 faults"
set -- $(stat "$bin" help)
echo "$(basename "$bin") help: $1 ms, $2 faults"
set -- $(stat "$bin" run "$tmp/min1.yaml" --results-dir "$tmp/res")
t1=$1 f1=$2
set -- $(stat "$bin" run "$tmp/min21.yaml" --results-dir "$tmp/res")
echo "per fork (21 forks - 1 fork)/20: $(echo "$1 $t1" | awk '{printf "%.2f", ($1-$2)/20}') ms CPU, $(echo "$2 $f1" | awk '{printf "%.0f", ($1-$2)/20}') faults"
