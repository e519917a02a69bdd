package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHostedRunFaultsStayTheirOwn runs forks: 0 runs, which share one
// process (the host): a run that closes or replaces one of the host's
// standard files, or changes its directory, fails with that cause and
// the next run gets a new host; a run that leaves a process running, in
// a session or group of its own or not, fails naming it, and the
// process is killed. The healthy runs between them are measured.
func TestHostedRunFaultsStayTheirOwn(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pids")
	writeFile(t, dir, "host.yaml", `version: 1
name: host
defaults:
  forks: 0
  warmup:      {iterations: 1, time: 20ms}
  measurement: {iterations: 2, time: 20ms}
  timeout: 5s
benchmarks:
  - include: '^fault\.ok$'
  - include: '^fault\.closestd$'
  - include: '^fault\.(setsid|setpgid|orphan)$'
  - include: '^fault\.work$'
`)
	cmd, mark := suiteCmd(t, "run", "host.yaml", "--format", "json", "--out", "r.json")
	cmd.Dir = dir
	// The host has the batch's environment, not a run's env.
	cmd.Env = append(cmd.Env, "FAULT_PIDFILE="+pidfile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	code := exitCode(t, cmd.Run())
	noneLeft(t, mark)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (failed runs, the batch complete); stderr:\n%s", code, clip(stderr.String()))
	}
	p := pids(t, pidfile)
	if len(p["setsid"]) != 1 || len(p["setpgid"]) != 1 || len(p["orphan"]) != 1 {
		t.Fatalf("pid file: %v; want one setsid, one setpgid and one orphan child", p)
	}
	broke := func(what string) string {
		return "fork 1: the benchmark " + what + ": forks: 0 runs share one process, which the next run needs as it was; the host ends and the next forks: 0 run starts a new one"
	}
	left := func(pid int) string {
		return fmt.Sprintf("fork 1: the run left 1 process(es) running after it ended: %d (faultsuite.test); killed (forks: 0 runs share one process, beside which they would have run on)", pid)
	}
	want := map[string]string{
		"fault.ok:avgt":                   "ok",
		"fault.closestd/what=stdin:avgt":  broke("closed its standard input (fd 0, the host's assignments)"),
		"fault.closestd/what=stdout:avgt": broke("closed its standard output (fd 1)"),
		"fault.closestd/what=stderr:avgt": broke("closed its standard error (fd 2)"),
		"fault.closestd/what=dup:avgt":    broke("replaced its standard input (fd 0, the host's assignments)"),
		"fault.closestd/what=chdir:avgt":  broke("changed its working directory"),
		"fault.setsid:avgt":               left(p["setsid"][0]),
		"fault.setpgid:avgt":              left(p["setpgid"][0]),
		"fault.orphan:avgt":               left(p["orphan"][0]),
		"fault.work:avgt":                 "ok",
	}
	got := map[string]string{}
	for _, run := range readReport(t, filepath.Join(dir, "r.json")).Runs {
		got[run.Key] = run.Error
		if !run.Failed() {
			got[run.Key] = run.Status
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	for role, list := range p {
		for _, pid := range list {
			if alive(pid) {
				t.Errorf("%s child %d is alive", role, pid)
			}
		}
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("stderr:\n%s", clip(stderr.String()))
	}
}
