package cli

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// These tests run the two real binaries, built once: cmd/benchspec, and
// examples/quickstart built as "mysuite", a suite whose name is not
// benchspec's, so that messages must name the program that runs.

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// TestMain removes the binaries once every test has run: 29 MB a run.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func binaries(t *testing.T) (benchspecBin, suiteBin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binaries")
	}
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "cli-binaries-")
		if buildErr != nil {
			return
		}
		for name, pkg := range map[string]string{"benchspec": "../../../../cmd/benchspec", "mysuite": "../../../../examples/quickstart"} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, name), pkg).CombinedOutput()
			if err != nil {
				buildErr = errors.New(string(out))
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatalf("building the binaries: %v", buildErr)
	}
	return filepath.Join(binDir, "benchspec"), filepath.Join(binDir, "mysuite")
}

type result struct {
	code           int
	stdout, stderr string
}

// execIn runs bin with args in dir; stdout goes to the file at stdoutPath
// when it is not "" (and is then not captured).
func execIn(t *testing.T, dir, stdoutPath, bin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	// The suite hands its command line to the benchspec program built
	// beside it.
	cmd.Env = append(os.Environ(), "BENCHSPEC_PARENT="+filepath.Join(filepath.Dir(bin), "benchspec"))
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if stdoutPath != "" {
		f, err := os.OpenFile(stdoutPath, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return result{ee.ExitCode(), stdout.String(), stderr.String()}
	}
	if err != nil {
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return result{0, stdout.String(), stderr.String()}
}

// quickSpec measures mysuite's one benchmark as briefly as a spec may.
const quickSpec = `version: 1
name: quick
defaults:
  forks: 1
  warmup:      {iterations: 0}
  measurement: {iterations: 1, time: 10ms}
benchmarks:
  - include: 'strings\.Repeat'
`

func writeQuickSpec(t *testing.T) (dir, path string) {
	dir = t.TempDir()
	path = filepath.Join(dir, "quick.yaml")
	if err := os.WriteFile(path, []byte(quickSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// TestBothValidatesGiveOneVerdict: the standalone validate and a suite's
// say the same of the same spec, at the same positions — once said "ok"
// and the other refused env at the entry's line. The suite adds, after
// them, what only its registry knows: entries that select nothing.
func TestBothValidatesGiveOneVerdict(t *testing.T) {
	bs, suite := binaries(t)
	for _, path := range []string{"testdata/bad/fork_env.yaml", "testdata/bad/bad_names.yaml", "testdata/good/minimal.yaml"} {
		a := execIn(t, "../../../../spec", "", bs, "validate", path)
		b := execIn(t, "../../../../spec", "", suite, "validate", path)
		if a.code != b.code {
			t.Errorf("%s: benchspec validate exit %d, the suite's %d", path, a.code, b.code)
		}
		if strings.HasPrefix(path, "testdata/bad/") {
			golden, err := os.ReadFile(filepath.Join("../../../../spec", strings.TrimSuffix(path, ".yaml")+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			want := string(golden) + spec.Summary(1, strings.Count(string(golden), "\n")) + "\n"
			if a.code != 2 || a.stderr != want || b.stderr != want && !(strings.HasPrefix(b.stderr, string(golden)) && strings.Contains(b.stderr, "matches no registered benchmark")) {
				t.Errorf("%s: exit %d and %d; want 2 and\n%s\nbenchspec:\n%s\nsuite:\n%s", path, a.code, b.code, want, a.stderr, b.stderr)
			}
			continue
		}
		// The suite adds what only a registry knows: the plan.
		if a.code != 0 || !strings.HasPrefix(b.stderr, a.stderr) || !strings.Contains(b.stderr, "\n1 runs, estimated ") {
			t.Errorf("%s: exit %d; benchspec:\n%s\nsuite:\n%s", path, a.code, a.stderr, b.stderr)
		}
	}
}

// TestMistakesGetShortMessagesAndSuggestions: a mistyped command or flag
// gets one line naming the likely one and a pointer to the usage, exit 2.
func TestMistakesGetShortMessagesAndSuggestions(t *testing.T) {
	bs, suite := binaries(t)
	dir, specPath := writeQuickSpec(t)
	tests := []struct {
		bin  string
		args []string
		want string
	}{
		{suite, []string{"rn"}, "mysuite: unknown command \"rn\"; did you mean \"run\"?\nRun 'mysuite help' for usage.\n"},
		{bs, []string{"rn"}, "benchspec: unknown command \"rn\"; did you mean \"run\"?\nRun 'benchspec help' for usage.\n"},
		{bs, []string{"frobnicate"}, "benchspec: unknown command \"frobnicate\"\nRun 'benchspec help' for usage.\n"},
		{suite, []string{"run", specPath, "--fromat", "json"}, "mysuite run: flag provided but not defined: -fromat; did you mean --format?\nRun 'mysuite run -h' for usage.\n"},
		{suite, []string{"plan", "--shard-from-evn", specPath}, "mysuite plan: flag provided but not defined: -shard-from-evn; did you mean --shard-from-env?\nRun 'mysuite plan -h' for usage.\n"},
		{bs, []string{"report", "r.json", "--fromat", "json"}, "benchspec report: flag provided but not defined: -fromat; did you mean --format?\nRun 'benchspec report -h' for usage.\n"},
		{bs, []string{"validate"}, "benchspec validate: no spec files given\nRun 'benchspec validate -h' for usage.\n"},
		{suite, []string{"run", specPath, "--shards", "2"}, "mysuite run: --shards goes with --shard-from-env\nRun 'mysuite run -h' for usage.\n"},
	}
	for _, tt := range tests {
		r := execIn(t, dir, "", tt.bin, tt.args...)
		if r.code != 2 || r.stdout != "" {
			t.Errorf("%s %q: exit %d, stdout %q; want 2 and nothing", filepath.Base(tt.bin), tt.args, r.code, r.stdout)
		}
		if diff := cmp.Diff(tt.want, r.stderr); diff != "" {
			t.Errorf("%s %q: stderr (-want +got):\n%s", filepath.Base(tt.bin), tt.args, diff)
		}
	}
}

// TestUsageNamesTheProgram: the usage says the name the binary runs
// under, and --shards says plan takes it alone (which works).
func TestUsageNamesTheProgram(t *testing.T) {
	_, suite := binaries(t)
	dir, specPath := writeQuickSpec(t)
	r := execIn(t, dir, "", suite, "help")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: mysuite <command>") || strings.Contains(r.stdout, "[--suite SUITE]") {
		t.Errorf("help: exit %d, stdout:\n%s\nwant the usage of mysuite", r.code, r.stdout)
	}
	r = execIn(t, dir, "", suite, "plan", "-h")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: mysuite plan") || !strings.Contains(r.stdout, "each run falls in (alone)") {
		t.Errorf("plan -h: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	r = execIn(t, dir, "", suite, "plan", "--shards", "2", specPath)
	if r.code != 0 || !strings.Contains(r.stdout, "shard 1/2: 1 runs") {
		t.Errorf("plan --shards 2: exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestOutputsThatCannotBeWrittenFail: --out /dev/full and a stdout on
// /dev/full fail the command, and the device stays a device.
func TestOutputsThatCannotBeWrittenFail(t *testing.T) {
	bs, suite := binaries(t)
	requireDevices(t, "/dev/full")
	dir, specPath := writeQuickSpec(t)
	report := filepath.Join(dir, "r.json")
	if r := execIn(t, dir, "", suite, "run", specPath, "--format", "json", "--out", report, "--quiet"); r.code != 0 {
		t.Fatalf("run: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, c := range []struct {
		bin    string
		stdout string
		args   []string
	}{
		{suite, "", []string{"run", specPath, "--out", "/dev/full", "--quiet"}},
		{bs, "", []string{"report", report, "--out", "/dev/full"}},
		{bs, "", []string{"merge", report, "--out", "/dev/full"}},
		{bs, "", []string{"compare", report, report, "--out", "/dev/full"}},
		{suite, "/dev/full", []string{"run", specPath, "--quiet"}},
		{suite, "/dev/full", []string{"list"}},
		{suite, "/dev/full", []string{"plan", specPath}},
		{suite, "/dev/full", []string{"help"}},
		{suite, "/dev/full", []string{"validate", "-h"}},
		{bs, "/dev/full", []string{"schema"}},
		{bs, "/dev/full", []string{"report", report}},
		{bs, "/dev/full", []string{"--help"}},
	} {
		r := execIn(t, dir, c.stdout, c.bin, c.args...)
		if r.code == 0 || !strings.Contains(r.stderr, "no space left on device") {
			t.Errorf("%s %q (stdout %q): exit %d, stderr:\n%s\nwant a failure naming the full device", filepath.Base(c.bin), c.args, c.stdout, r.code, r.stderr)
		}
		if fi, err := os.Stat("/dev/full"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("%s %q: /dev/full is no longer a character device: %v, %v", filepath.Base(c.bin), c.args, fi.Mode(), err)
		}
	}
}

// TestRunToDevicesAndTheJournal: --out /dev/null and /dev/stdout write to
// the device (the report shows on stdout), leave no /dev/null.journal,
// and the journal that no flag asked for — in the working directory when
// --out is no file, beside the report when it is — is gone once the batch
// completes; --journal's stays.
func TestRunToDevicesAndTheJournal(t *testing.T) {
	_, suite := binaries(t)
	requireDevices(t, "/dev/null")
	dir, specPath := writeQuickSpec(t)
	r := execIn(t, dir, "", suite, "run", specPath, "--format", "json", "--out", "/dev/null")
	if r.code != 0 || !strings.Contains(r.stderr, "# Journal: quick.journal (deleted when the batch completes") {
		t.Errorf("--out /dev/null: exit %d, stderr:\n%s\nwant the journal announced in the working directory", r.code, r.stderr)
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a character device: %v, %v", fi.Mode(), err)
	}
	if _, err := os.Lstat("/dev/null.journal"); err == nil {
		t.Errorf("/dev/null.journal exists")
	}
	r = execIn(t, dir, "", suite, "run", specPath, "--format", "json", "--out", "/dev/stdout", "--quiet")
	if r.code != 0 || !strings.Contains(r.stdout, `"benchmark": "strings.Repeat"`) {
		t.Errorf("--out /dev/stdout: exit %d, stdout:\n%s\nstderr:\n%s\nwant the report on stdout", r.code, r.stdout, r.stderr)
	}
	report := filepath.Join(dir, "r.json")
	if r = execIn(t, dir, "", suite, "run", specPath, "--format", "json", "--out", report); r.code != 0 || !strings.Contains(r.stderr, "# Journal: "+report+".journal") {
		t.Errorf("--out r.json: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	kept := filepath.Join(dir, "kept.journal")
	if r = execIn(t, dir, "", suite, "run", specPath, "--out", report, "--journal", kept, "--quiet"); r.code != 0 {
		t.Errorf("--journal: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"kept.journal", "quick.yaml", "r.json"}, names); diff != "" {
		t.Errorf("files left in the working directory (-want +got):\n%s", diff)
	}
}
