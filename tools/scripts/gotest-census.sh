#!/bin/bash
# The go test bridge's census (issue 13): for each package, go test's
# result lines (go test -v -run '^$' -bench . -benchtime 1x) against
# benchspec's runs of a spec with include: '.', 1 fork, no warmup and one
# measurement iteration of 10ms, by status, with every name compared.
#
#   tools/scripts/gotest-census.sh [WORKDIR] [PACKAGE...]
#
# WORKDIR (default /tmp/census) gets a scratch module that requires the
# third-party modules (through the module proxy), one spec per package,
# and per package: PKG.gotest.txt, PKG.bs.json, PKG.bs.log. It prints one
# table row per package. Heavy: run it on a quiet machine; it runs one
# package at a time, under nice.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-/tmp/census}
shift || true
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
	pkgs=(strings bytes sort encoding/json internal/strconv regexp crypto/sha256 compress/flate
		github.com/cespare/xxhash/v2 github.com/google/uuid github.com/klauspost/compress/zstd
		github.com/klauspost/compress/s2 github.com/goccy/go-json)
fi
mkdir -p "$work/mod/specs"
cd "$work/mod" || exit 2
if [ ! -f go.mod ]; then
	go mod init census.example/m >/dev/null 2>&1
	go get github.com/cespare/xxhash/v2@v2.3.0 github.com/google/uuid@v1.6.0 \
		github.com/goccy/go-json@v0.12.0 github.com/klauspost/compress@v1.20.4 || exit 2
fi
(cd "$repo" && go build -o "$work/benchspec" ./cmd/benchspec) || exit 2

count() { # gotest.txt bs.json: one table row
	python3 - "$@" <<'EOF'
import collections, json, re, sys
gt, skips, fails = [], set(), set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"^Benchmark(\S+?)(-\d+)?\s+\d+\s+", line)
    if m:
        gt.append(m.group(1))
    m = re.match(r"^\s*--- (SKIP|FAIL): Benchmark(\S+)", line)
    if m:
        (skips if m.group(1) == "SKIP" else fails).add(m.group(2))
runs = json.load(open(sys.argv[2]))["runs"]
st = collections.Counter(r["status"] for r in runs)
byname = {r["benchmark"]: r["status"] for r in runs}
covered = sum(1 for n in gt if byname.get(n) in ("ok", "skipped"))
causes = collections.Counter()
for r in runs:
    if r["status"] == "failed":
        e = (r.get("error") or "").split("\n")
        causes[" ".join(x.strip() for x in e[:2])[:120]] += 1
missing = sorted(set(gt) - set(byname))
print("%d\t%d\t%d\t%d\t%d\t%s\t%s" % (len(gt), covered, st["ok"], st["skipped"], st["failed"],
      "; ".join("%d× %s" % (n, c) for c, n in causes.items()) or "-",
      ("missing: " + ", ".join(missing[:5])) if missing else ""))
EOF
}

printf "package\tgo test lines\tlines ok or skipped\truns ok\tskipped\tfailed\tfailures by cause\tgo test wall\tbenchspec wall\n"
for p in "${pkgs[@]}"; do
	n=$(echo "$p" | tr / _)
	s=specs/$n.yaml
	allow=
	case $p in *.*/*) allow=--allow-packages-outside-module ;; esac
	cat >"$s" <<YAML
version: 1
name: census-$n
defaults:
  forks: 1
  warmup: {iterations: 0}
  measurement: {iterations: 1, time: 10ms}
benchmarks:
  - package: $p
    include: '.'
YAML
	t0=$(date +%s.%N)
	GOTOOLCHAIN=local nice -n 10 go test -v -run '^$' -bench . -benchtime 1x -timeout 30m "$p" >"$work/$n.gotest.txt" 2>&1
	t1=$(date +%s.%N)
	rm -f "$work/$n.bs.json.journal"
	nice -n 10 "$work/benchspec" run $allow --format json --out "$work/$n.bs.json" "$s" >"$work/$n.bs.log" 2>&1
	t2=$(date +%s.%N)
	row=$(count "$work/$n.gotest.txt" "$work/$n.bs.json")
	IFS=$'\t' read -r lines cov ok sk fl causes missing <<<"$row"
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s %s\t%.0fs\t%.0fs\n" "$p" "$lines" "$cov" "$ok" "$sk" "$fl" "$causes" "$missing" \
		"$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
done
