package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/report"
	"github.com/google/go-cmp/cmp"
)

// The test binary is the fault suite: started with envMain set it runs
// main (benchspec.Main) on its arguments; its forks and its guard are
// started by Main with their own variables set and run main too.
const envMain = "FAULTSUITE_TEST_MAIN"

// envMark is set to a value unique to each suite process a test starts;
// every process of that run inherits it (forks, the guard, and the
// children the benchmarks start), so that the test can find any that
// survived.
const envMark = "FAULTSUITE_TEST_MARK"

func TestMain(m *testing.M) {
	if os.Getenv(envMain) != "" || os.Getenv(protocol.EnvAssignment) != "" || os.Getenv(protocol.EnvGuard) != "" || os.Getenv(protocol.EnvList) != "" {
		main()
	}
	os.Exit(m.Run())
}

// suiteCmd returns the command that runs the test binary as the suite
// with args, and the mark of its processes. Under -short it skips the
// test: every test here starts real processes.
func suiteCmd(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("end to end (real processes and forks): runs without -short")
	}
	mark := fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
	cmd := exec.Command(os.Args[0], args...)
	// A TMPDIR of its own, where noTempLeft looks for what the batch
	// left: the forks' copy of the suite binary, their scratch
	// directories.
	cmd.Env = append(os.Environ(), envMain+"=1", envMark+"="+mark, "TMPDIR="+t.TempDir(), suitetest.ParentEnv(t))
	return cmd, mark
}

// noTempLeft checks that the batch cmd ran left nothing of benchspec's in
// its TMPDIR (suiteCmd). Call it once noneLeft has seen every process
// of the batch end, the guard included: removing what a killed parent
// left is the guard's last act.
func noTempLeft(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	var tmp string
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	es, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if strings.HasPrefix(e.Name(), "benchspec-") {
			t.Errorf("the batch left %s in its TMPDIR", e.Name())
		}
	}
}

type result struct {
	code           int
	stdout, stderr string
}

// suite runs the suite to the end and checks that it left no process.
func suite(t *testing.T, args ...string) result {
	t.Helper()
	cmd, mark := suiteCmd(t, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	noneLeft(t, mark)
	noTempLeft(t, cmd)
	return result{exitCode(t, err), stdout.String(), stderr.String()}
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("running the suite: %v", err)
	}
	return 0
}

// noneLeft fails the test if a process carrying mark is still alive a
// few seconds after the suite ended (the guard needs a moment after a
// SIGKILL of the parent).
func noneLeft(t *testing.T, mark string) {
	t.Helper()
	var left []int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left = marked(mark)
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, pid := range left {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		t.Errorf("process %d (%s) of the run is still alive", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// marked lists the live processes whose environment holds mark.
func marked(mark string) []int {
	want := []byte(envMark + "=" + mark + "\x00")
	dirs, _ := os.ReadDir("/proc")
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || !alive(pid) {
			continue
		}
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err == nil && bytes.Contains(env, want) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// alive reports whether pid is a process that has not exited (a zombie
// has: it only waits to be reaped by whoever inherited it).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// faultSpec is faults.yaml with FAULT_PIDFILE set, in a temporary
// directory, and the pid file's path.
func faultSpec(t *testing.T) (specPath, pidfile string) {
	t.Helper()
	data, err := os.ReadFile("faults.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pidfile = filepath.Join(dir, "pids")
	src := strings.Replace(string(data), "  timeout: 60s\n", fmt.Sprintf("  timeout: 60s\n  env: {FAULT_PIDFILE: %q}\n", pidfile), 1)
	if src == string(data) {
		t.Fatal("faults.yaml has no `  timeout: 60s` line under defaults to add the pid file after")
	}
	return writeFile(t, dir, "faults.yaml", src), pidfile
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// pids reads the "role pid" lines of a pid file, which the suite may be
// writing.
func pids(t *testing.T, path string) map[string][]int {
	t.Helper()
	out := map[string][]int{}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for _, line := range lines[:len(lines)-1] { // the last one is not written yet
		role, pid, ok := strings.Cut(line, " ")
		n, err := strconv.Atoi(pid)
		if !ok || err != nil {
			t.Fatalf("pid file line %q", line)
		}
		out[role] = append(out[role], n)
	}
	return out
}

func readReport(t *testing.T, path string) *report.Report {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("reading the report: %v", err)
	}
	return rep
}

// TestFaultIsolation runs faults.yaml: every misbehaving benchmark fails
// its own run with its cause, the healthy runs between them report their
// numbers, the suite exits 1, and no process of the run is left.
func TestFaultIsolation(t *testing.T) {
	spec, pidfile := faultSpec(t)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, clip(r.stderr))
	}
	rep := readReport(t, out)
	orphans := pids(t, pidfile)["orphan"]
	if len(orphans) != 1 {
		t.Fatalf("pid file: orphans %v, want one", orphans)
	}
	healthy := map[string]int{ // key → measured values (forks × iterations)
		"fault.ok:avgt":     4,
		"fault.work:avgt":   4,
		"fault.flood:avgt":  2,
		"fault.helper:avgt": 2,
	}
	failed := map[string]*regexp.Regexp{
		"fault.panic_loop:avgt":  exact("fork 1: panic: fault: panic in the loop"),
		"fault.panic_setup:avgt": exact("fork 1: panic: fault: panic in setup"),
		"fault.exit:avgt":        exact("fork 1: fork exited with status 3"),
		"fault.nil:avgt":         exact("fork 1: fork exited with status 2: panic: runtime error: invalid memory address or nil pointer dereference"),
		// The runtime detects the deadlock itself only in a binary
		// without cgo; with cgo (net, through gojsonschema) the fork
		// hangs, and its goroutine dump tells: the body's goroutine
		// blocked on the mutex, the fork's main goroutine waiting for it.
		"fault.deadlock:avgt": regexp.MustCompile(`^fork 1: (` +
			regexp.QuoteMeta("fork exited with status 2: fatal error: all goroutines are asleep - deadlock!") + `|` +
			regexp.QuoteMeta("timed out after 10s in warmup iteration 1; every goroutine was blocked (a deadlock): goroutine 1 [") + `(sync\.WaitGroup\.Wait|select)` +
			regexp.QuoteMeta("], goroutine ") + `\d+` + regexp.QuoteMeta(" [sync.Mutex.Lock]") + `)$`),
		"fault.spin:ss": exact("fork 1: timed out after 10s in measurement iteration 3"),
		// The limit stops the heap ("out of memory"), or, when the
		// runtime needs one more thread first (more often on a busy
		// machine), the thread's stack: the cgo binary cannot start it.
		"fault.memory:avgt": regexp.MustCompile(`^fork 1: fork exited with status 2: (` +
			regexp.QuoteMeta("fatal error: out of memory") + `|` +
			regexp.QuoteMeta("runtime/cgo: pthread_create failed: ") + `(Cannot allocate memory|Resource temporarily unavailable))$`),
		// With cgo (gcc at hand) the C library's thread start fails at
		// the limit; without, the runtime's own limit of 10,000 threads
		// comes first.
		"fault.threads:avgt": regexp.MustCompile(`^fork 1: fork exited with status 2: (` +
			regexp.QuoteMeta("runtime/cgo: pthread_create failed: ") + `(Cannot allocate memory|Resource temporarily unavailable)|` +
			regexp.QuoteMeta("fatal error: thread exhaustion") + `)$`),
		"fault.closepipe:avgt": exact("fork 1: the benchmark closed or replaced file descriptor 3 (the result pipe) while running; then the fork exited with status 1"),
		"fault.garbage:avgt":   exact(`fork 1: garbage on the result pipe (file descriptor 3): "this is not a message"`),
		"fault.orphan:avgt":    exact(fmt.Sprintf("fork 1: the fork left 1 process(es) of its group running after it exited: %d (faultsuite.test); killed", orphans[0])),
	}
	tails := map[string]string{ // what the kept output must show
		"fault.panic_loop:avgt": "crashes.func1(",
		"fault.deadlock:avgt":   "sync.(*Mutex).Lock",
		"fault.spin:ss":         "goroutine 1 gp=",
		"fault.nil:avgt":        "[signal SIGSEGV: segmentation violation",
		"fault.memory:avgt":     "crashes.func",
		"fault.threads:avgt":    "crashes.func",
	}
	if raceEnabled {
		failed["fault.memory:avgt"] = exact("fork 1: fork exited with status 66")
		tails["fault.memory:avgt"] = "ThreadSanitizer failed to allocate"
	}
	var keys []string
	for _, run := range rep.Runs {
		keys = append(keys, run.Key)
		if n, ok := healthy[run.Key]; ok {
			if run.Failed() || run.Primary == nil || !(run.Primary.Score > 0) || run.Primary.Count != n {
				t.Errorf("%s: status %s (%s), metric %+v; want a healthy result of %d values", run.Key, run.Status, run.Error, run.Primary, n)
			}
			continue
		}
		want, ok := failed[run.Key]
		if !ok {
			t.Errorf("unexpected run %s", run.Key)
			continue
		}
		if !run.Failed() || !want.MatchString(run.Error) {
			t.Errorf("%s: status %s, error\n\t%q\nwant it to match\n\t%s", run.Key, run.Status, run.Error, want)
		}
		if run.Primary != nil || len(run.SecondaryMetrics) > 0 {
			t.Errorf("%s: a failed run with numbers: %+v %v", run.Key, run.Primary, run.SecondaryMetrics)
		}
		for _, f := range run.Forks {
			if len(f.Iterations) > 0 {
				t.Errorf("%s fork %d: a failed fork with %d iterations", run.Key, f.Fork, len(f.Iterations))
			}
		}
		if w := tails[run.Key]; !strings.Contains(run.StderrTail, w) {
			t.Errorf("%s: the output tail lacks %q:\n%s", run.Key, w, clip(run.StderrTail))
		}
	}
	if len(keys) != len(healthy)+len(failed) {
		t.Errorf("runs %v, want the %d of faults.yaml", keys, len(healthy)+len(failed))
	}
	if alive(orphans[0]) {
		t.Errorf("the orphan %d is alive", orphans[0])
	}
}

func exact(s string) *regexp.Regexp { return regexp.MustCompile("^" + regexp.QuoteMeta(s) + "$") }

func clip(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

const quick = `version: 1
name: resume
defaults:
  forks: 2
  warmup:      {iterations: 1, time: 10ms}
  measurement: {iterations: 2, time: 10ms}
  timeout: 5s
benchmarks:
`

// TestFailOnError: --fail-on-error stops the batch at the first failed
// run and still writes the report of what ran, and ends the journal.
func TestFailOnError(t *testing.T) {
	dir := t.TempDir()
	spec := writeFile(t, dir, "s.yaml", quick+`  - include: '^fault\.ok$'
  - include: '^fault\.panic_loop$'
  - include: '^fault\.work$'
`)
	out := filepath.Join(dir, "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--fail-on-error", "--quiet")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
	}
	rep := readReport(t, out)
	var got []string
	for _, run := range rep.Runs {
		got = append(got, run.Key+" "+run.Status)
	}
	if diff := cmp.Diff([]string{"fault.ok:avgt ok", "fault.panic_loop:avgt failed"}, got); diff != "" || rep.Complete {
		t.Errorf("complete %v, runs (-want +got):\n%s", rep.Complete, diff)
	}
	j := readJournal(t, out+".journal")
	if len(j.forks) != 3 || j.end == nil || j.end.Complete {
		t.Errorf("journal: %d forks, end %+v; want the 3 forks that ran and an end line of an incomplete batch", len(j.forks), j.end)
	}
}

// journal is a journal file as a test reads it, independently of
// executor.LoadJournal.
type journal struct {
	header map[string]any
	forks  []protocol.ForkResult
	keys   []string
	end    *struct{ Complete bool }
}

func readJournal(t *testing.T, path string) journal {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var j journal
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		var line struct {
			Header map[string]any
			Key    string
			Fork   *protocol.ForkResult
			End    *struct{ Complete bool }
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		switch {
		case line.Header != nil:
			j.header = line.Header
		case line.Fork != nil:
			j.forks = append(j.forks, *line.Fork)
			j.keys = append(j.keys, line.Key)
		case line.End != nil:
			j.end = line.End
		}
	}
	return j
}

// byFork maps "key fork" to the journal's PIDs of that fork.
func (j journal) byFork() map[string][]int {
	out := map[string][]int{}
	for i, f := range j.forks {
		k := fmt.Sprintf("%s %d", j.keys[i], f.Fork)
		out[k] = append(out[k], f.PID)
	}
	return out
}

// background starts the suite and returns a function that waits for it
// and returns its exit status and stderr.
func background(t *testing.T, args ...string) (cmd *exec.Cmd, mark string, wait func() (int, string)) {
	t.Helper()
	cmd, mark = suiteCmd(t, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, mark, func() (int, string) {
		err := cmd.Wait()
		return exitCode(t, err), stderr.String()
	}
}

// await polls cond until it holds, failing the test after 30s.
func await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// resumeSpec has three runs of two forks; the helper's forks take about
// 300ms each and note their PIDs when they start, so a test can
// interrupt the batch in the middle of one.
func resumeSpec(t *testing.T) (dir, spec, pidfile string) {
	dir = t.TempDir()
	pidfile = filepath.Join(dir, "pids")
	spec = writeFile(t, dir, "s.yaml", quick+fmt.Sprintf(`  - include: '^fault\.ok$'
  - include: '^fault\.helper$'
    warmup: {iterations: 0}
    measurement: {iterations: 3, time: 100ms}
    env: {FAULT_PIDFILE: %q}
  - include: '^fault\.work$'
`, pidfile))
	return dir, spec, pidfile
}

// interruptAt starts the suite with args, waits until the helper fork
// number n has started, and sends sig to the suite.
func interruptAt(t *testing.T, pidfile string, n int, sig syscall.Signal, args ...string) (code int, stderr string) {
	t.Helper()
	cmd, mark, wait := background(t, args...)
	await(t, fmt.Sprintf("helper fork %d", n), func() bool { return len(pids(t, pidfile)["fork"]) >= n })
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	code, stderr = wait()
	noneLeft(t, mark)
	noTempLeft(t, cmd)
	return code, stderr
}

// TestInterruptAndResume interrupts a batch with SIGINT, refuses a fresh
// batch over its journal, resumes it and interrupts it again with
// SIGTERM, and resumes it to the end: the final report holds every run
// once, and the journal every fork once.
func TestInterruptAndResume(t *testing.T) {
	dir, spec, pidfile := resumeSpec(t)
	out := filepath.Join(dir, "r.json")
	jpath := out + ".journal"
	args := []string{"run", spec, "--format", "json", "--out", out}

	code, stderr := interruptAt(t, pidfile, 1, syscall.SIGINT, args...)
	if code != 130 {
		t.Fatalf("SIGINT: exit %d, want 130; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "interrupted by SIGINT: the report holds the runs finished before it; to finish the batch, run again with --resume "+jpath) {
		t.Errorf("SIGINT: stderr lacks the interruption and how to resume:\n%s", stderr)
	}
	rep := readReport(t, out)
	if rep.Complete || len(rep.Runs) != 1 || rep.Runs[0].Key != "fault.ok:avgt" || rep.Runs[0].Failed() {
		t.Errorf("partial report: complete %v, %d runs; want fault.ok alone, incomplete", rep.Complete, len(rep.Runs))
	}
	first := readJournal(t, jpath)
	if len(first.forks) != 2 || first.end != nil {
		t.Fatalf("journal after SIGINT: %d forks, end %v; want fault.ok's 2 and no end", len(first.forks), first.end)
	}
	for _, pid := range pids(t, pidfile)["helper"] {
		if alive(pid) {
			t.Errorf("the interrupted fork's helper %d is alive", pid)
		}
	}

	// A new batch must not throw the unfinished one away.
	r := suite(t, args...)
	if r.code != 2 || !strings.Contains(r.stderr, jpath+" holds an unfinished batch (2 of 6 forks done") {
		t.Errorf("a new batch over an unfinished journal: exit %d, stderr:\n%s", r.code, r.stderr)
	}

	code, stderr = interruptAt(t, pidfile, 3, syscall.SIGTERM, "run", "--resume", jpath, "--format", "json", "--out", out)
	if code != 143 {
		t.Fatalf("SIGTERM: exit %d, want 143; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "# Resuming "+jpath+": 2 of 6 forks already done") {
		t.Errorf("resume did not say what it resumed:\n%s", stderr)
	}

	// --journal keeps the journal the batch made beside --out, which
	// the resume that completes it would delete, for checkFinished.
	r = suite(t, "run", "--resume", jpath, "--journal", jpath, "--format", "json", "--out", out)
	if r.code != 0 {
		t.Fatalf("final resume: exit %d; stderr:\n%s", r.code, r.stderr)
	}
	checkFinished(t, out, jpath, first)
}

// checkFinished checks the report and journal of a batch finished by a
// resume: every run once and complete, every fork once in the journal,
// the report's forks those of the journal, and the forks of the first
// session not run again.
func checkFinished(t *testing.T, out, jpath string, first journal) {
	t.Helper()
	rep := readReport(t, out)
	var keys []string
	reported := map[string][]int{}
	counts := map[string]int{"fault.ok:avgt": 4, "fault.helper:avgt": 6, "fault.work:avgt": 4} // forks × iterations
	for _, run := range rep.Runs {
		keys = append(keys, run.Key)
		if run.Failed() || run.Primary == nil || run.Primary.Count != counts[run.Key] {
			t.Errorf("%s: status %s (%s), metric %+v; want %d values", run.Key, run.Status, run.Error, run.Primary, counts[run.Key])
		}
		for _, f := range run.Forks {
			k := fmt.Sprintf("%s %d", run.Key, f.Fork)
			reported[k] = append(reported[k], f.PID)
		}
	}
	if diff := cmp.Diff([]string{"fault.ok:avgt", "fault.helper:avgt", "fault.work:avgt"}, keys); diff != "" || !rep.Complete {
		t.Errorf("final report: complete %v, runs (-want +got):\n%s", rep.Complete, diff)
	}
	j := readJournal(t, jpath)
	journaled := j.byFork()
	for k, p := range journaled {
		if len(p) != 1 {
			t.Errorf("journal: %s ran %d times (pids %v)", k, len(p), p)
		}
	}
	if diff := cmp.Diff(journaled, reported); diff != "" {
		t.Errorf("the report's forks are not the journal's (-journal +report):\n%s", diff)
	}
	if j.end == nil || !j.end.Complete {
		t.Errorf("journal end %+v, want a complete batch", j.end)
	}
	for k, p := range first.byFork() {
		if !cmp.Equal(p, reported[k]) {
			t.Errorf("%s ran again after the resume: pid %v, first %v", k, reported[k], p)
		}
	}
}

// TestKillParentAndResume kills the suite with SIGKILL in the middle of
// a fork: the fork and the process it started die with it, the journal
// holds every fork finished before, and --resume finishes the batch.
func TestKillParentAndResume(t *testing.T) {
	dir, spec, pidfile := resumeSpec(t)
	out := filepath.Join(dir, "r.json")
	jpath := out + ".journal"
	code, _ := interruptAt(t, pidfile, 2, syscall.SIGKILL, "run", spec, "--format", "json", "--out", out)
	if code != -1 {
		t.Fatalf("exit %d, want death by SIGKILL", code)
	}
	p := pids(t, pidfile)
	for _, pid := range append(p["fork"], p["helper"]...) {
		if alive(pid) {
			t.Errorf("process %d of the killed batch is alive", pid)
		}
	}
	first := readJournal(t, jpath)
	if got := first.byFork(); len(got) != 3 || got["fault.helper:avgt 1"] == nil {
		t.Fatalf("journal after SIGKILL: %v; want fault.ok's 2 forks and the helper's first", got)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a killed batch wrote a report")
	}
	r := suite(t, "run", "--resume", jpath, "--journal", jpath, "--format", "json", "--out", out) // --journal keeps it for checkFinished
	if r.code != 0 {
		t.Fatalf("resume: exit %d; stderr:\n%s", r.code, r.stderr)
	}
	checkFinished(t, out, jpath, first)
}

// TestResumeRefusesAnotherBatch: a journal resumes only with the spec and
// suite binary that wrote it.
func TestResumeRefusesAnotherBatch(t *testing.T) {
	dir := t.TempDir()
	spec := writeFile(t, dir, "s.yaml", quick+"  - include: '^fault\\.ok$'\n    forks: 1\n")
	jpath := filepath.Join(dir, "j")
	if r := suite(t, "run", spec, "--journal", jpath, "--quiet"); r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if r := suite(t, "run", "--resume", jpath, "--quiet"); r.code != 0 {
		t.Errorf("resuming a finished batch: exit %d, want 0; stderr:\n%s", r.code, r.stderr)
	}

	// Another build: the same binary with a byte appended.
	exe, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	other := writeFile(t, dir, "suite", string(exe)+"\x00")
	os.Chmod(other, 0o755)
	cmd := exec.Command(other, "run", "--resume", jpath)
	cmd.Env = append(os.Environ(), envMain+"=1")
	stderr, err := cmd.CombinedOutput()
	if code := exitCode(t, err); code != 2 || !strings.Contains(string(stderr), "run: cannot resume "+jpath+": the suite binary changed since the journal was written") {
		t.Errorf("another build: exit %d, want 2; stderr:\n%s", code, stderr)
	}

	writeFile(t, dir, "s.yaml", quick+"  - include: '^fault\\.ok$'\n    forks: 2\n")
	r := suite(t, "run", "--resume", jpath)
	if r.code != 2 || !strings.Contains(r.stderr, "run: cannot resume "+jpath+": spec "+spec+" changed since the journal was written") {
		t.Errorf("a changed spec: exit %d, want 2; stderr:\n%s", r.code, r.stderr)
	}
}

// TestResourceLimitValue: an invalid limit is refused before anything
// runs, at the value (line 10, column 32), not at its entry.
func TestResourceLimitValue(t *testing.T) {
	spec := writeFile(t, t.TempDir(), "s.yaml", quick+"  - include: '^fault\\.ok$'\n    env: {BENCHSPEC_RLIMIT_AS: 2GB}\n")
	r := suite(t, "validate", spec)
	want := spec + `:10:32: benchmarks[0].env.BENCHSPEC_RLIMIT_AS: invalid size "2GB": want a positive number of bytes with an optional B, KiB, MiB, GiB or TiB suffix, such as 4GiB`
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant 2 and\n%s", r.code, r.stderr, want)
	}
}
