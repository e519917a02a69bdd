#!/bin/sh
# What a minimal fork does after main, at two commits: the selfbench
# binary of each runs ROUNDS forks of fork.Minimal (one 1 ms iteration)
# directly — started with the assignment a batch gives it and a result
# pipe on fd 3, the two binaries taking turns — under
# `perf record -e page-faults`. Per commit it prints the page faults from
# main.main on (median and spread; they hardly depend on the load), the
# faults of the median fork one by one (what was touched, by which
# function), and the fork's own times from its metrics (main to body,
# body to loop end: the iteration and its report, loop end to reaped).
# Faults before main depend on where the linker put each package (a
# change anywhere shifts them by a few): compare those with
# tools/scripts/start-ab.sh.
#
#   tools/scripts/fork-aftermain.sh [BASE [NEW [ROUNDS]]]
#
# BASE and NEW are commits (default HEAD~1 and HEAD; NEW may be "." for
# the work tree), ROUNDS the forks per commit (default 30). Needs perf,
# strace (to read the assignment a batch passes) and python3.
set -eu
cd "$(dirname "$0")/../.."
base=${1:-HEAD~1} new=${2:-HEAD} rounds=${3:-30}
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

build() { # build REV NAME: the selfbench binary of REV
	rev=$1 dir=$tmp/src-$2
	if [ "$rev" = . ]; then
		dir=$PWD
	else
		mkdir -p "$dir"
		git archive "$rev" | tar -x -C "$dir"
	fi
	(cd "$dir" && pkg=./tools/selfbench && { [ -d "$pkg" ] || pkg=./examples/selfbench; } && GOFLAGS=-buildvcs=false go build -o "$tmp/fork-$2" "$pkg")
}
build "$base" base
build "$new" new

# The assignment of one fork of fork.Minimal, as a batch passes it.
cat >"$tmp/min.yaml" <<EOF
version: 1
name: aftermain
benchmarks:
  - include: '^fork\.Minimal\$'
    modes: [avgt]
    forks: 1
    warmup:      {iterations: 0}
    measurement: {iterations: 1, time: 1ms}
EOF
strace -f -qq -e trace=execve -v -s 1000000 -o "$tmp/execve" \
	"$tmp/fork-new" run "$tmp/min.yaml" --results-dir "$tmp/res" >/dev/null 2>&1

echo "base $(git rev-parse --short "$base" 2>/dev/null || echo "$base"), new $new; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load average $(cut -d' ' -f1-3 /proc/loadavg)"
perf record -q -e page-faults -c 1 -d -o "$tmp/perf.data" -- python3 - "$tmp" "$rounds" >"$tmp/times" <<'EOF'
import os, re, sys, json, time
tmp, rounds = sys.argv[1], int(sys.argv[2])
m = re.search(r'"BENCHSPEC_FORK=((?:[^"\\]|\\.)*)"', open(tmp + "/execve").read())
assignment = bytes(m.group(1), "latin1").decode("unicode_escape")
env = dict(os.environ, BENCHSPEC_FORK=assignment, BENCHSPEC_BATCH="aftermain")
bins = [tmp + "/fork-base", tmp + "/fork-new"]
times = {b: [] for b in bins}
for i in range(rounds):
    for b in (bins if i % 2 == 0 else bins[::-1]):
        r, w = os.pipe()
        fa = [(os.POSIX_SPAWN_DUP2, w, 3), (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
        start = time.time_ns()
        pid = os.posix_spawn(b, [b], env, file_actions=fa)
        os.close(w)
        out = b""
        while chunk := os.read(r, 65536):
            out += chunk
        os.close(r)
        _, status = os.waitpid(pid, 0)
        end = time.time_ns()
        done = [json.loads(l) for l in out.decode().splitlines() if '"done"' in l]
        if status != 0 or not done:
            sys.exit("%s: a fork failed (status %d): %s" % (b, status, out.decode()[-500:]))
        mt = done[0]["metrics"]
        times[b].append(((mt["body_unix_ns"] - mt["main_unix_ns"]) / 1e6, (mt["loop_end_unix_ns"] - mt["body_unix_ns"]) / 1e6, (end - mt["loop_end_unix_ns"]) / 1e6))
json.dump({os.path.basename(b): v for b, v in times.items()}, sys.stdout)
EOF
perf script -i "$tmp/perf.data" -F comm,pid,ip,sym,addr 2>/dev/null >"$tmp/faults"
python3 - "$tmp" <<'EOF'
import collections, json, statistics as st, sys
tmp = sys.argv[1]
times = json.load(open(tmp + "/times"))
procs = collections.defaultdict(list)
for line in open(tmp + "/faults"):
    p = line.split()
    if len(p) >= 5 and p[0].startswith("fork-"):
        procs[(p[0], p[1])].append((p[2], p[-1]))  # data address, ip's function
for name in ("fork-base", "fork-new"):
    after = []
    for (comm, pid), faults in procs.items():
        if comm == name:
            i = next((k for k, f in enumerate(faults) if f[1] == "main.main"), None)
            if i is not None:
                after.append(faults[i:])
    after.sort(key=len)
    n = [len(a) for a in after]
    t = times[name]
    med = lambda k: st.median(x[k] for x in t)
    print("%s: %d forks; faults from main.main on: median %d (%d-%d); main to body %.2f ms, body to loop end %.2f ms, loop end to reaped %.2f ms" % (
        name[5:], len(n), st.median(n), min(n), max(n), med(0), med(1), med(2)))
    for addr, fn in after[len(after) // 2]:
        print("    %-16s %s" % (addr, fn))
EOF
