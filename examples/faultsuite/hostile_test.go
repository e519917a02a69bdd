package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHostileForks runs hostile.yaml from the directory that holds the
// spec and the journal: forged result streams fail their runs with the
// cause, except a well-formed one (the documented limit); a Goexit fails
// promptly; processes that left the fork's group or session are killed
// and named; a fork that empties its working directory leaves the
// batch's files alone; one that signals its parent does not stop the
// batch.
func TestHostileForks(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("hostile.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(dir, "pids")
	src := strings.Replace(string(data), "  timeout: 5s\n", fmt.Sprintf("  timeout: 5s\n  env: {FAULT_PIDFILE: %q}\n", pidfile), 1)
	writeFile(t, dir, "hostile.yaml", src)
	cmd, mark := suiteCmd(t, "run", "hostile.yaml", "--format", "json", "--out", "r.json", "--journal", "j")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := exitCode(t, cmd.Run())
	noneLeft(t, mark)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (failed runs, the batch complete); stderr:\n%s", code, clip(stderr.String()))
	}
	for _, name := range []string{"hostile.yaml", "j", "pids"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the batch's file %s: %v", name, err)
		}
	}
	rep := readReport(t, filepath.Join(dir, "r.json"))
	p := pids(t, pidfile)
	if len(p["setsid"]) != 1 || len(p["setpgid"]) != 1 {
		t.Fatalf("pid file: %v; want one setsid and one setpgid child", p)
	}
	const counts = " (the run has 1 warmup and 2 measurement iterations)"
	left := func(pid int) string {
		return fmt.Sprintf("fork 1: the fork left 1 process(es) outside its group (another process group or session) running after it exited: %d (faultsuite.test); killed", pid)
	}
	want := map[string]string{
		"fault.ok:avgt":                   "ok",
		"fault.work:avgt":                 "ok",
		"fault.unlink:avgt":               "ok",
		"fault.sigparent:avgt":            "ok",
		"fault.forge/stream=perfect:avgt": "ok", // a plausible well-formed forgery: what a benchmark can still do on purpose
		"fault.forge/stream=ops:avgt":     "fork 1: warmup iteration 1: 1e+12 operations, where 1 invocations with ops_per_invocation 1 make 1: the operations do not follow from the invocations",
		"fault.forge/stream=floor:avgt":   "fork 1: warmup iteration 1: 1000000000000 invocations in 1000 ns make 1e-09 ns per call, …",
		"fault.forge/stream=wall:avgt":    "fork 1: warmup iteration 1: its iterations claim 10s of timed work, but the fork has run for only …",
		"fault.forge/stream=profile:avgt": `fork 1: the fork reported 1 profile file(s), but the batch asked for none (no --profiles)`,
		"fault.tidkill:avgt":              "ok", // the batch was not stopped: exit 1, not 143
		"fault.ptrace:avgt":               "ok",
		"fault.fatal_huge:avgt":           "fork 1: fatal fatal …",
		"fault.nan_metric:avgt":           `fork 1: benchmark fault.nan_metric:avgt reported metric "things/op" as NaN in warmup iteration 1: a metric must be a finite number (b.ReportMetric)`,
		"fault.ignores_n:avgt":            "fork 1: warmup iteration 1: 1000000000 invocations in …",
		"fault.forge/stream=done:avgt":    "fork 1: the fork reported done before warmup iteration 1" + counts,
		"fault.forge/stream=extra:avgt":   "fork 1: the fork reported measurement iteration 3 after its last iteration" + counts,
		"fault.forge/stream=repeat:avgt":  "fork 1: the fork reported measurement iteration 1 where measurement iteration 2 was due" + counts,
		"fault.forge/stream=zero:avgt":    "fork 1: warmup iteration 1: 1e+12 operations in no time",
		"fault.forge/stream=short:avgt":   "fork 1: the fork reported done before measurement iteration 2" + counts,
		"fault.forge/stream=twice:avgt":   `fork 1: the fork sent a "done" message after it reported its end`,
		"fault.goexit:avgt":               "fork 1: the benchmark called runtime.Goexit (directly or through a helper such as testing's FailNow or SkipNow), which ended its goroutine",
		"fault.setsid:avgt":               left(p["setsid"][0]),
		"fault.setpgid:avgt":              left(p["setpgid"][0]),
	}
	got := map[string]string{}
	for _, run := range rep.Runs {
		got[run.Key] = run.Error
		// A want ending in … is a prefix: the rest holds measured times.
		if w := want[run.Key]; strings.HasSuffix(w, "…") && strings.HasPrefix(run.Error, strings.TrimSuffix(w, "…")) {
			got[run.Key] = w
		}
		// testing's b.N ramp reaches 10⁹ within the warmup iteration
		// unless one 1 ms call of fault.ignores_n stalled for the whole
		// 20 ms (a busy host): then the measurement iteration is caught.
		if run.Key == "fault.ignores_n:avgt" && strings.HasPrefix(run.Error, "fork 1: measurement iteration ") && strings.Contains(run.Error, ": 1000000000 invocations in ") {
			got[run.Key] = want[run.Key]
		}
		if !run.Failed() {
			got[run.Key] = run.Status
			if run.Primary == nil || run.Primary.Count != 2 {
				t.Errorf("%s: %+v; want 2 measured values", run.Key, run.Primary)
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	// 50 MB of b.Fatalf text: cut, with its marker, in the report and on
	// stderr; the report stays small.
	for _, run := range rep.Runs {
		if run.Key == "fault.fatal_huge:avgt" && (len(run.Error) > 70<<10 || !strings.Contains(run.Error, "… [truncated ")) {
			t.Errorf("fault.fatal_huge: an error of %d bytes; want it cut to about 64 KiB with a marker", len(run.Error))
		}
		if run.Key == "fault.ignores_n:avgt" && !strings.Contains(run.Error, "than this fork's empty loop iteration") {
			t.Errorf("fault.ignores_n: %s", run.Error)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "r.json")); err != nil || fi.Size() > 2<<20 {
		t.Errorf("the report: %v, %d bytes; want at most 2 MiB", err, fi.Size())
	}
	if stderr.Len() > 2<<20 {
		t.Errorf("%d bytes on stderr; want at most 2 MiB", stderr.Len())
	}
	for role, list := range p {
		for _, pid := range list {
			if alive(pid) {
				t.Errorf("%s child %d is alive", role, pid)
			}
		}
	}
}

// TestKillParentLeavesNoSession kills the suite with SIGKILL while a fork
// runs whose child started a session of its own: the guard finds the
// child by the batch's mark and kills it (noneLeft).
func TestKillParentLeavesNoSession(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pids")
	spec := writeFile(t, dir, "s.yaml", quick+fmt.Sprintf(`  - include: '^fault\.setsid$'
    forks: 1
    warmup: {iterations: 0}
    measurement: {iterations: 100, time: 100ms}
    env: {FAULT_PIDFILE: %q}
`, pidfile))
	code, _ := interruptAtRole(t, pidfile, "setsid", syscall.SIGKILL, "run", spec, "--quiet")
	if code != -1 {
		t.Fatalf("exit %d, want death by SIGKILL", code)
	}
	// The guard notices its parent's death and kills the marked
	// processes on its own schedule: wait for that (generously, for a busy
	// machine); a child that survives fails the wait.
	pid := pids(t, pidfile)["setsid"][0]
	await(t, fmt.Sprintf("the setsid child %d to be killed after its batch was", pid), func() bool { return !alive(pid) })
}

// interruptAtRole is interruptAt for the first pid file line of role.
func interruptAtRole(t *testing.T, pidfile, role string, sig syscall.Signal, args ...string) (int, string) {
	t.Helper()
	cmd, mark, wait := background(t, args...)
	await(t, role+" child", func() bool { return len(pids(t, pidfile)[role]) > 0 })
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	code, stderr := wait()
	noneLeft(t, mark)
	noTempLeft(t, cmd)
	return code, stderr
}

// TestResumeRefusesTamperedJournal: every fork line of a journal is
// checked against the plan before a batch resumes; an edited one is
// refused with its line number and exit status 2.
func TestResumeRefusesTamperedJournal(t *testing.T) {
	dir := t.TempDir()
	spec := writeFile(t, dir, "s.yaml", quick+"  - include: '^fault\\.ok$'\n")
	jpath := filepath.Join(dir, "j")
	if r := suite(t, "run", spec, "--journal", jpath, "--quiet"); r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	orig, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	if r := suite(t, "run", "--resume", jpath, "--quiet"); r.code != 0 {
		t.Fatalf("resuming the untouched journal: exit %d; stderr:\n%s", r.code, r.stderr)
	}
	for name, tc := range map[string]struct {
		re, repl string
		want     string
	}{
		"wrong key":           {`"key":"fault.ok:avgt"`, `"key":"fault.work:avgt"`, `:2: key "fault.work:avgt", but run 0 of the plan is fault.ok:avgt`},
		"fork range":          {`"fork":\{"run":0,"fork":2`, `"fork":{"run":0,"fork":7`, ":3: fork 7 of fault.ok:avgt, which has 2 fork(s)"},
		"warmup flag":         {`"fork":1,"warmup":false`, `"fork":1,"warmup":true`, ":2: fork 1 of fault.ok:avgt recorded with warmup true; it is a measured fork"},
		"no time":             {`"time_ns":[0-9.e+]+`, `"time_ns":0`, ":2: fork 1 of fault.ok:avgt: warmup iteration 1: "},
		"sub-nanosecond time": {`"time_ns":[0-9.e+]+`, `"time_ns":1e-300`, ":2: fork 1 of fault.ok:avgt: warmup iteration 1: a time of 1e-300 ns, less than the clock's nanosecond"},
		"negative ops":        {`"ops":[0-9.e+]+`, `"ops":-5`, ":2: fork 1 of fault.ok:avgt: warmup iteration 1: negative result (ops -5"},
		// Numbers that their own raw data contradict (plausible.go).
		"ops off invocations":  {`"ops":[0-9.e+]+`, `"ops":1e+15`, ":2: fork 1 of fault.ok:avgt: warmup iteration 1: 1e+15 operations, where "},
		"1 ns for all":         {`"time_ns":[0-9.e+]+`, `"time_ns":1`, ":2: fork 1 of fault.ok:avgt: warmup iteration 1: "},
		"longer than the fork": {`"time_ns":[0-9.e+]+`, `"time_ns":1e+12`, ":2: fork 1 of fault.ok:avgt: warmup iteration 1: its iterations claim 16m40s of timed work, but the fork has run for only "},
		"an iteration missing": {`,\{"phase":"measurement","index":2,[^{}]*\}`, ``, ":2: fork 1 of fault.ok:avgt ends before measurement iteration 2 (the run has 1 warmup and 2 measurement iterations)"},
	} {
		tampered := regexp.MustCompile(tc.re).ReplaceAllString(string(orig), tc.repl)
		if tampered == string(orig) {
			t.Fatalf("%s: %s does not occur in the journal:\n%s", name, tc.re, orig)
		}
		// Only the first line that matched: the others stay genuine.
		first := regexp.MustCompile(tc.re).FindStringIndex(string(orig))
		tampered = string(orig[:first[0]]) + regexp.MustCompile(tc.re).ReplaceAllString(string(orig[first[0]:first[1]]), tc.repl) + string(orig[first[1]:])
		if err := os.WriteFile(jpath, []byte(tampered), 0o644); err != nil {
			t.Fatal(err)
		}
		r := suite(t, "run", "--resume", jpath, "--quiet")
		if r.code != 2 || !strings.Contains(r.stderr, "cannot resume "+jpath+": "+jpath+tc.want) {
			t.Errorf("%s: exit %d, want 2; stderr:\n%s\nwant it to contain %q", name, r.code, r.stderr, tc.want)
		}
	}
}
