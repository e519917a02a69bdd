#!/usr/bin/env bash
# start-ab.sh compares what a process of the suite binary costs before
# main, at two commits: the selfbench binary of each, started bare
# (SELFBENCH_CHILD=noop: the runtime and every package init, then exit),
# the two commits' processes taking turns so that a drift of the machine
# weighs on both alike. Then, with FORKS=1, selfbench's item 4 (the
# minimal fork, exec to reaped) of each, taking turns too.
#
#   tools/scripts/start-ab.sh [BASE [NEW [ROUNDS]]]
#
# BASE and NEW are commits (default: HEAD~1 and HEAD; NEW may be "." for
# the work tree), ROUNDS the bare processes per commit (default 200).
# Per commit it prints the median and quartiles of the page faults (from
# getrusage: they hardly depend on the load, and on a VM where a fault
# costs ~30 µs they are most of a process's start), of the CPU time and of
# the wall time, and the number of package inits (GODEBUG=inittrace=1).
# The load average is printed before and after: times taken while it is
# above 1.5 on 2 cores say little; the faults still do. Both binaries are
# written the same way (go build), on purpose: on this VM (ext4, Linux
# 6.18) a byte-identical copy written with cp (large page-cache folios)
# started and exited 1.1-1.4 ms faster than the linker's output, which
# it writes through mmap (2026-12-01 15:09, same page faults), so
# binaries written differently do not compare.
#
# LAZY_YAML=1 builds NEW with a patched copy of gopkg.in/yaml.v3 (in the
# temporary directory, through -modfile: the module is not touched)
# whose two package-level regexps are compiled on first use instead of
# in its init: what that dependency's init costs every fork, e.g.
# LAZY_YAML=1 tools/scripts/start-ab.sh HEAD HEAD.
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:-HEAD~1} new=${2:-HEAD} rounds=${3:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

lazyyaml() { # lazyyaml DIR: a go.mod for DIR whose gopkg.in/yaml.v3 compiles its two regexps on first use
	local y=$tmp/yaml.v3 src
	src=$(cd "$1" && go list -m -f '{{.Dir}}' gopkg.in/yaml.v3)
	cp -r "$src" "$y" && chmod -R u+w "$y"
	python3 - "$y" <<'PY'
import re, sys
d = sys.argv[1]
for f, name in (("resolve.go", "yamlStyleFloat"), ("encode.go", "base60float")):
    p = d + "/" + f
    s = open(p).read()
    s, n = re.subn(r"var %s = regexp\.MustCompile\((`[^`]*`)\)" % name,
                   r"var %sLazy = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(\1) })" % name, s)
    s, m = re.subn(r"\b%s\.MatchString" % name, "%sLazy().MatchString" % name, s)
    if n != 1 or m < 1:
        sys.exit("yaml.v3's %s is not as expected in %s" % (name, f))
    open(p, "w").write(s.replace("import (", "import (\n\t\"sync\"", 1))
open(d + "/go.mod", "w").write('module "gopkg.in/yaml.v3"\n\ngo 1.21\n')
PY
	cp "$1/go.mod" "$tmp/lazy.mod" && cp "$1/go.sum" "$tmp/lazy.sum"
	(cd "$1" && go mod edit -modfile="$tmp/lazy.mod" -replace gopkg.in/yaml.v3="$y")
}

build() { # build REV NAME: the selfbench binary of REV
	local rev=$1 name=$2 dir=$tmp/$2 flags=-buildvcs=false
	if [ "$rev" = . ]; then
		dir=$PWD
	else
		mkdir -p "$dir"
		git archive "$rev" | tar -x -C "$dir"
	fi
	if [ "$name" = new ] && [ "${LAZY_YAML:-0}" = 1 ]; then
		lazyyaml "$dir"
		flags="$flags -modfile=$tmp/lazy.mod"
	fi
	(cd "$dir" && pkg=./tools/selfbench && { [ -d "$pkg" ] || pkg=./examples/selfbench; } && GOFLAGS="$flags" go build -o "$tmp/selfbench-$name" "$pkg")
}
build "$base" base
build "$new" new
echo "base $(git rev-parse --short "$base" 2>/dev/null || echo "$base"), new $new; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for name in base new; do
	echo "$name: $(GODEBUG=inittrace=1 SELFBENCH_CHILD=noop "$tmp/selfbench-$name" 2>&1 | grep -c '^init ') package inits, $(stat -c %s "$tmp/selfbench-$name") bytes"
done

echo "== bare processes, $rounds each (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$rounds" "$tmp/selfbench-base" "$tmp/selfbench-new" <<'EOF'
import os, statistics as st, sys, time
rounds, bins = int(sys.argv[1]), sys.argv[2:]
env = dict(os.environ, SELFBENCH_CHILD="noop")
quiet = [(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
res = {b: ([], [], []) for b in bins}
for i in range(rounds):
    for b in (bins if i % 2 == 0 else bins[::-1]):
        t = time.perf_counter()
        pid = os.posix_spawn(b, [b], env, file_actions=quiet)
        _, _, ru = os.wait4(pid, 0)
        res[b][0].append(ru.ru_minflt)
        res[b][1].append((ru.ru_utime + ru.ru_stime) * 1e3)
        res[b][2].append((time.perf_counter() - t) * 1e3)
def q(v):
    v = sorted(v)
    return st.median(v), v[len(v) // 4], v[3 * len(v) // 4]
for b in bins:
    f, c, w = (q(x) for x in res[b])
    print("%-4s faults %.0f [%.0f–%.0f], CPU %.2f ms [%.2f–%.2f], wall %.2f ms [%.2f–%.2f]" % (
        os.path.basename(b).split("-")[-1], *f, *c, *w))
EOF
echo "   (load average after: $(cut -d' ' -f1-3 /proc/loadavg))"

if [ "${FORKS:-0}" = 1 ]; then
	echo "== selfbench item 4, taking turns (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
	for i in 1 2 3; do
		for name in base new; do
			SELFBENCH_ITEMS=4 "$tmp/selfbench-$name" 2>/dev/null |
				awk -F'|' -v n="$name" '/minimal fork, wall time/ {f=$4} /exec to main/ {m=$4} END {printf "%-4s minimal fork %s, exec to main %s\n", n, f, m}'
		done
	done
fi
