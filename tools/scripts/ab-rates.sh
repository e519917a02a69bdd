#!/usr/bin/env bash
# ab-rates.sh: how often benchspec ab calls a planted change (and none)
# a regression. Builds examples/seeds twice, the new build's planted.Spin
# FACTOR times the base's steps (-ldflags -X main.spinFactor), then runs
# `benchspec ab` ROUNDS times at THRESHOLD on planted.Spin and its
# unchanged twin planted.Twin (a spec that names them and nothing else:
# ab's defaults), and prints each run's verdict, estimate, interval,
# pairs and why it stopped, and the wall time of each batch.
#
#   tools/scripts/ab-rates.sh FACTOR [ROUNDS] [THRESHOLD] [BASE_FACTOR]
#   tools/scripts/ab-rates.sh 1      10 1%     # A/A
#   tools/scripts/ab-rates.sh 1.02   10 1%     # planted +2 %
#   tools/scripts/ab-rates.sh 0.021  10 1% 0.02  # the ~22 ns chain, 40 vs 42 steps
#
# AB_FLAGS adds flags to ab (AB_FLAGS=--duet=false: pairs one fork after
# the other).
set -euo pipefail
cd "$(dirname "$0")/../.."
factor=${1:?factor}; rounds=${2:-10}; threshold=${3:-1%}; base=${4:-1}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
go build -o "$dir/benchspec" ./cmd/benchspec
go build -ldflags "-X main.spinFactor=$base" -o "$dir/a" ./examples/seeds
go build -ldflags "-X main.spinFactor=$factor" -o "$dir/b" ./examples/seeds
# AB_DEFAULTS, a YAML flow mapping, sets the spec's defaults (the
# built-in ones when unset), e.g. '{forks: 40, measurement: {time: 50ms}}'.
cat > "$dir/spec.yaml" <<YAML
version: 1
name: ab-rates
defaults: ${AB_DEFAULTS:-{\}}
benchmarks:
  - include: '^planted\.(Spin|Twin)$'
YAML
for i in $(seq "$rounds"); do
  start=$(date +%s.%N)
  "$dir/benchspec" ab ${AB_FLAGS:-} --quiet --base "$dir/a" --new "$dir/b" --threshold "$threshold" --format json "$dir/spec.yaml" > "$dir/r.json" || true
  end=$(date +%s.%N)
  python3 - "$dir/r.json" "$start" "$end" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["comparison"]
out = []
for p in r["pairs"]:
    ci = p.get("change_ci") or [None, None]
    out.append(f'{p["benchmark"]:12s} {p["verdict"]:12s} {100*p["change"]:+.2f}% [{100*ci[0]:+.2f}%, {100*ci[1]:+.2f}%] {p["base"]["forks"]:4d} pairs {p.get("stop", "")}')
print(" | ".join(out) + f' | wall {float(sys.argv[3])-float(sys.argv[2]):.1f}s')
PY
done
