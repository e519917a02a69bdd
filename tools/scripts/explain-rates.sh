#!/usr/bin/env bash
# explain-rates.sh: how often benchspec ab --explain names a planted
# function, and what --explain costs in wall time. Builds examples/seeds
# twice, the new build's planted.Spin calling plantedExtra for EXTRA of
# its work (-ldflags -X main.spinExtra; "" for A/A), then runs, ROUNDS
# times, ab without and with --explain on planted.Spin and its unchanged
# twin planted.Twin (ab's defaults, --threshold THRESHOLD), and prints
# per round each run's verdict, where main.plantedExtra stands in its
# "where" list (rank, z and the threshold; "none" when no list, "noise"
# when within the sampling error) and both wall times.
#
#   tools/scripts/explain-rates.sh 0.1  10 1%   # +10 %
#   tools/scripts/explain-rates.sh 0.02 10 1%   # +2 %
#   tools/scripts/explain-rates.sh ""   10 1%   # A/A
set -euo pipefail
cd "$(dirname "$0")/../.."
extra=${1?extra}; rounds=${2:-10}; threshold=${3:-1%}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
go build -o "$dir/benchspec" ./cmd/benchspec
go build -o "$dir/a" ./examples/seeds
go build -ldflags "-X main.spinExtra=$extra" -o "$dir/b" ./examples/seeds
cat > "$dir/spec.yaml" <<YAML
version: 1
name: explain-rates
benchmarks:
  - include: '^planted\.(Spin|Twin)$'
YAML
for i in $(seq "$rounds"); do
  line=""
  for flags in "" "--explain"; do
    start=$(date +%s.%N)
    "$dir/benchspec" ab $flags --quiet --base "$dir/a" --new "$dir/b" --threshold "$threshold" --format json "$dir/spec.yaml" > "$dir/r.json" || true
    end=$(date +%s.%N)
    line+=$(python3 - "$dir/r.json" "$start" "$end" "$flags" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["comparison"]
out = []
for p in r["pairs"]:
    s = f'{p["benchmark"]} {p["verdict"]} {p["base"]["forks"]}p'
    if sys.argv[4]:
        w = p.get("where")
        if w is None:
            s += " none" + (" (" + p["where_note"] + ")" if p.get("where_note") else "")
        elif w["within_noise"]:
            s += f' noise ({w["base_samples"]}/{w["new_samples"]} samples)'
        else:
            names = [f["name"] for f in w["functions"]]
            if "main.plantedExtra" in names:
                f = w["functions"][names.index("main.plantedExtra")]
                s += f' plantedExtra #{names.index("main.plantedExtra")+1} z {f["z"]:.1f}>{w["threshold"]:.1f}'
            else:
                s += " other: " + ",".join(names[:2])
    out.append(s)
print((" explain: " if sys.argv[4] else "ab: ") + " | ".join(out) + f' | {float(sys.argv[3])-float(sys.argv[2]):.1f}s ', end="")
PY
)
  done
  echo "$line"
done
