#!/bin/sh
# baseline-sweep.sh [PROCESSES] [SETTINGS] — how the fork's empty-loop
# floor (DEAD_CODE's yardstick) depends on the baseline's setting.
#
# For each setting (comma-separated NxD or NxD+Ww: N iterations of D per
# loop form after W warmup iterations, W 1 when left out; default: the
# list in tools/selfbench/baselinesweep.go), runs PROCESSES (default
# 30) fresh processes, taking turns across settings, each measuring the
# fork's calibration with that baseline and then the reference floors
# (the fastest of 20 × 1 ms per form) in the same process, and prints
# per setting the baseline's time and its floor's error against the
# reference: median, range, and how many processes came out more than
# 3 % high (DEAD_CODE's false-alarm side) or low (its miss side). About
# 80 ms per process; needs a quiet machine for figures to quote: the
# header says how much other processes used the CPUs meanwhile. Under
# load for direction: `cpu-hog 1 60` (/work/shared/tools) beside it.
set -eu
cd "$(dirname "$0")/../.."
n=${1:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/selfbench" ./tools/selfbench
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(lscpu 2>/dev/null | grep 'Model name' | tr -s ' '); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
SELFBENCH_BASELINE_SWEEP=$n SELFBENCH_BASELINE_SETTINGS=${2:-} "$tmp/selfbench"
