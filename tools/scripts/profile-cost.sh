#!/usr/bin/env bash
# profile-cost.sh: what the CPU profiler (250 Hz) costs a measured fork.
# One batch, forks of two runs of planted.Twin interleaved (--order
# interleaved), one run with profilers: [cpu], one without, at ab's fork
# shape (1 + 2 iterations of 20 ms); prints each run's score and the
# ratio of the profiled run's fork means to the plain run's, with a 99 %
# interval (Welch, fork means). ROUNDS batches of FORKS forks a run.
#
#   tools/scripts/profile-cost.sh [FORKS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
forks=${1:-40}; rounds=${2:-3}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
go build -o "$dir/benchspec" ./cmd/benchspec
go build -o "$dir/a" ./examples/seeds
cat > "$dir/spec.yaml" <<YAML
version: 1
name: profile-cost
defaults:
  forks: $forks
  warmup: {iterations: 1, time: 20ms}
  measurement: {iterations: 2, time: 20ms}
benchmarks:
  - include: '^planted\.Twin$'
  - include: '^planted\.Twin$'
    profilers: [cpu]
YAML
for i in $(seq "$rounds"); do
  rm -rf "$dir/prof"
  "$dir/benchspec" run --suite "$dir/a" --quiet --order interleaved --profiles "$dir/prof" --format json --out "$dir/r$i.json" "$dir/spec.yaml"
  python3 - "$dir/r$i.json" <<'PY'
import json, sys, math, statistics as st
r = json.load(open(sys.argv[1]))
means = []
for run in r["runs"]:
    fm = [st.mean(it["score"] for it in f["iterations"] if it["phase"] == "measurement") for f in run["forks"] if not f["warmup"]]
    means.append(fm)
    print(f'{run["key"]:24s} {st.mean(fm):9.2f} ns/op over {len(fm)} forks, profiles: {sum(1 for f in run["forks"] if f.get("profiles"))}')
a, b = means
d = st.mean(b) / st.mean(a) - 1
se = math.sqrt(st.variance(a) / len(a) + st.variance(b) / len(b)) / st.mean(a)
print(f'profiled / plain - 1 = {100*d:+.2f}% [{100*(d-2.6*se):+.2f}%, {100*(d+2.6*se):+.2f}%] (99%)')
PY
done
