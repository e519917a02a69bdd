#!/usr/bin/env bash
# benchstat-rates.sh: the anchor ab is measured against — go test's own
# best practice for two builds: their test binaries alternated ROUNDS
# times (-benchtime 500ms -count 1 each) and compared with benchstat.
# The benchmark is planted.Spin's body (2000 × FACTOR multiply-xor
# steps, -ldflags -X) beside an unchanged twin, as in ab-rates.sh.
#
#   tools/scripts/benchstat-rates.sh FACTOR [PAIRS] [ROUNDS] [BASE_FACTOR]
#   tools/scripts/benchstat-rates.sh 1     6       # A/A
#   tools/scripts/benchstat-rates.sh 1.02  6       # planted +2 %
#   tools/scripts/benchstat-rates.sh 0.021 6 10 0.02  # the ~22 ns chain
#
# Prints, per pair, benchstat's change and p-value for Spin, and the
# pair's wall time.
set -euo pipefail
cd "$(dirname "$0")/../.."
factor=${1:?factor}; pairs=${2:-6}; rounds=${3:-10}; base=${4:-1}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
go build -o "$dir/benchstat" golang.org/x/perf/cmd/benchstat
mkdir "$dir/spin"
cat > "$dir/spin/go.mod" <<'MOD'
module spin

go 1.24
MOD
cat > "$dir/spin/spin_test.go" <<'GO'
package spin

import (
	"math"
	"strconv"
	"testing"
)

var spinFactor string

var sink uint64

func steps(factor string) int {
	if factor == "" {
		return 2000
	}
	f, err := strconv.ParseFloat(factor, 64)
	if err != nil {
		panic(err)
	}
	return int(math.Round(2000 * f))
}

func spin(b *testing.B, n int) {
	x := uint64(1)
	for b.Loop() {
		for range n {
			x = x*0x9E3779B97F4A7C15 ^ x>>29
		}
	}
	sink = x
}

func BenchmarkSpin(b *testing.B) { spin(b, steps(spinFactor)) }
func BenchmarkTwin(b *testing.B) { spin(b, steps("")) }
GO
(cd "$dir/spin" && go test -c -o "$dir/a.test" -ldflags "-X spin.spinFactor=$base" . &&
  go test -c -o "$dir/b.test" -ldflags "-X spin.spinFactor=$factor" .)
for p in $(seq "$pairs"); do
  start=$(date +%s.%N)
  : > "$dir/a.txt"; : > "$dir/b.txt"
  for r in $(seq "$rounds"); do
    "$dir/a.test" -test.run '^$' -test.bench . -test.benchtime 500ms -test.count 1 >> "$dir/a.txt"
    "$dir/b.test" -test.run '^$' -test.bench . -test.benchtime 500ms -test.count 1 >> "$dir/b.txt"
  done
  end=$(date +%s.%N)
  line=$("$dir/benchstat" -format csv "$dir/a.txt" "$dir/b.txt" 2>/dev/null | grep -m1 '^Spin' || true)
  printf '%s wall %.1fs\n' "$line" "$(echo "$end - $start" | bc)"
done
