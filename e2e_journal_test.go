package benchspec_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/executor"
)

func init() {
	// e2e.waits, when $E2E_WAIT_STARTED is set, creates that file and
	// waits (two minutes at most) until $E2E_WAIT_GO exists: a fork a
	// test holds in the middle of a batch.
	benchspec.Register("e2e.waits", func(b *benchspec.B) {
		if started := os.Getenv("E2E_WAIT_STARTED"); started != "" {
			os.WriteFile(started, nil, 0o644)
			for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(os.Getenv("E2E_WAIT_GO")); err == nil {
					break
				}
			}
		}
		for b.Loop() {
		}
	})
}

// waitsSpec has three runs of one fork; the second, e2e.waits, is the
// one a test holds.
const waitsSpec = `version: 1
name: e2e
defaults:
  forks: 1
  warmup:      {iterations: 1, time: 5ms}
  measurement: {iterations: 1, time: 5ms}
  timeout: 3m
benchmarks:
  - include: '^e2e\.marked$'
  - include: '^e2e\.waits$'
  - include: '^e2e\.param$'
`

// heldBatch writes waitsSpec in a new directory and points e2e.waits at
// two files there; it returns the directory, the spec, and the files
// that say the fork started and let it go on.
func heldBatch(t *testing.T) (dir, spec, started, goOn string) {
	t.Helper()
	suitetest.SkipShort(t)
	dir = t.TempDir()
	spec = filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(spec, []byte(waitsSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	started, goOn = filepath.Join(dir, "started"), filepath.Join(dir, "go")
	t.Setenv("E2E_WAIT_STARTED", started)
	t.Setenv("E2E_WAIT_GO", goOn)
	return dir, spec, started, goOn
}

// startBatch starts the suite with args in the background; its stderr
// goes into the buffer returned.
func startBatch(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	var stderr bytes.Buffer
	cmd, err := suitetest.Start(nil, io.Discard, &stderr, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, &stderr
}

// awaitFile waits until path exists.
func awaitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", path)
		}
	}
}

// interruptHeld runs the suite with args until e2e.waits has started,
// then interrupts it (SIGINT) and returns its stderr.
func interruptHeld(t *testing.T, started string, args ...string) string {
	t.Helper()
	cmd, stderr := startBatch(t, args...)
	awaitFile(t, started)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); cmd.ProcessState.ExitCode() != 130 {
		t.Fatalf("interrupted batch: %v, want exit 130; stderr:\n%s", err, stderr)
	}
	os.Remove(started)
	return stderr.String()
}

// TestTwoResumesOfOneJournal (issue 36, class B): while one run resumes
// a journal, a second `run --resume` of it fails at once, exit 2, naming
// the journal and that another run holds it; the first finishes the
// batch, and the journal holds every fork once.
func TestTwoResumesOfOneJournal(t *testing.T) {
	dir, spec, started, goOn := heldBatch(t)
	j := filepath.Join(dir, "j.journal")
	interruptHeld(t, started, "run", spec, "--quiet", "--journal", j)

	first, stderr := startBatch(t, "run", "--resume", j, "--quiet", "--format", "json", "--out", filepath.Join(dir, "r.json"))
	awaitFile(t, started)
	r := suite(t, "run", "--resume", j, "--quiet")
	if r.Code != 2 || !strings.Contains(r.Stderr, "journal "+j+": another benchspec run holds it") {
		t.Errorf("a second resume = %d, want 2 naming the journal held; stderr:\n%s", r.Code, r.Stderr)
	}
	r = suite(t, "run", spec, "--quiet", "--journal", j)
	if r.Code != 2 || !strings.Contains(r.Stderr, "another benchspec run holds it") {
		t.Errorf("a new batch over the held journal = %d, want 2; stderr:\n%s", r.Code, r.Stderr)
	}
	if err := os.WriteFile(goOn, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("the first resume: %v; stderr:\n%s", err, stderr)
	}
	st, err := executor.LoadJournal(j)
	if err != nil {
		t.Fatalf("the journal after both: %v", err)
	}
	if !st.Complete || len(st.Forks) != 3 {
		t.Errorf("the journal: complete %v, %d forks; want the batch's 3, complete", st.Complete, len(st.Forks))
	}
}

// TestResumeCompletesTheImplicitJournal (issue 36): the journal a run
// made beside --out, announced as deleted when the batch completes, is
// deleted by the resume that completes it, whose progress counts the
// runs left ([1/2], [2/2]), not the plan's.
func TestResumeCompletesTheImplicitJournal(t *testing.T) {
	dir, spec, started, goOn := heldBatch(t)
	out := filepath.Join(dir, "r.json")
	jpath := out + ".journal"
	stderr := interruptHeld(t, started, "run", spec, "--format", "json", "--out", out)
	if !strings.Contains(stderr, "# Journal: "+jpath+" (deleted when the batch completes") {
		t.Errorf("the batch did not announce its journal as deleted on completion; stderr:\n%s", stderr)
	}
	if err := os.WriteFile(goOn, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := suite(t, "run", "--resume", jpath, "--format", "json", "--out", out)
	if r.Code != 0 {
		t.Fatalf("resume = %d; stderr:\n%s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "[1/2] e2e.waits:avgt: ok") || !strings.Contains(r.Stderr, "[2/2] e2e.param/p=a/b:avgt: ok") || strings.Contains(r.Stderr, "/3]") {
		t.Errorf("the resume's progress does not count the 2 runs left; stderr:\n%s", r.Stderr)
	}
	if _, err := os.Stat(jpath); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the journal of the completed batch: %v, want it deleted", err)
	}
	if rep, _ := readReport(t, out); !rep.Complete || len(rep.Runs) != 3 {
		t.Errorf("the report: complete %v, %d runs; want the 3, complete", rep.Complete, len(rep.Runs))
	}
}
