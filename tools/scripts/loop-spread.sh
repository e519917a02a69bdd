#!/bin/sh
# loop-spread.sh [PROCESSES] — the cost of benchspec's loop across fresh
# processes, beside testing.B's `for b.Loop()` and `for range b.N`.
#
# Runs the empty loop and sqrt.Sunk in PROCESSES (default 10) fresh
# benchspec forks of each loop form (`for b.Loop()`, `for range
# b.Invocations()`; 150 iterations of 2 ms each) and as many fresh
# testing.B processes of each form (-test.benchtime 300ms), alternating,
# and prints every process's mean with min, median, max, max/min and max
# against the median of `for range b.N` (whose counter stays in a
# register), then each benchspec fork's empty-loop baseline and its
# 10th-percentile iteration (its loop's cost with preemption left out).
# Targets (issue: a loop whose cost does not depend on the process): the
# empty loop max/min ≤ 1.10 and ≤ 1.10 × `for range b.N`; sqrt.Sunk
# max/min ≤ 1.15. About 1 minute for 10; needs a quiet machine: the
# header says how much other processes used the CPUs meanwhile.
#
# Before the loop changes: check out b59169e (the script on the old loop,
# without the Invocations rows) and run it there.
set -eu
cd "$(dirname "$0")/../.."
n=${1:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/selfbench" ./tools/selfbench
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(lscpu 2>/dev/null | grep 'Model name' | tr -s ' '); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
SELFBENCH_LOOP_SPREAD=$n "$tmp/selfbench"
