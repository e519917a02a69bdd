#!/usr/bin/env bash
# complexity-rates.sh: how often the complexity fit names the class a
# body has. Runs examples/complexity (a body of n steps, one of n² steps,
# slices.Sort of n random ints; 5 sizes each, 20 forks) BATCHES times
# and prints each batch's complexity lines, then the count of each
# benchmark's classes.
#
#   tools/scripts/complexity-rates.sh [BATCHES]
set -euo pipefail
cd "$(dirname "$0")/../.."
batches=${1:-10}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
go build -o "$dir/suite" ./examples/complexity
go build -o "$dir/benchspec" ./cmd/benchspec
date -u; lscpu | grep 'Model name' || true
for i in $(seq "$batches"); do
  "$dir/benchspec" run --quiet --suite "$dir/suite" examples/complexity/complexity.yaml |
    grep '^Complexity:' | tee -a "$dir/lines" | sed "s/^/batch $i: /"
done
echo "classes per benchmark over $batches batches:"
sed -E 's/^Complexity: ([^ ]+) [^:]+: ([^ ]+( or [^:]+: cannot tell)?).*/\1 \2/' "$dir/lines" | sort | uniq -c
