package benchspec_test

import (
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/benchspec/benchspec"
)

// The dead-code trap, twice: the same loop with the result of math.Sqrt
// dropped, once as a go test benchmark, whose `for b.Loop()` the compiler
// keeps alive, and once through benchspec's B, where nothing does.
func gotestSqrtDropped(b *testing.B) {
	x := 0.0
	for b.Loop() {
		_ = math.Sqrt(x)
		x++
	}
}

func nativeSqrtDropped(b *benchspec.B) {
	x := 0.0
	for b.Loop() {
		_ = math.Sqrt(x)
		x++
	}
}

func init() {
	benchspec.RegisterTesting("gotest.SqrtDropped", gotestSqrtDropped)
	benchspec.Register("native.SqrtDropped", nativeSqrtDropped)
	benchspec.RegisterTesting("gotest.BN", func(b *testing.B) {
		b.SetBytes(8)
		s := make([]float64, 8)
		for i := 0; i < b.N; i++ {
			s[i%8] += math.Sqrt(float64(i))
		}
		b.ReportMetric(3, "widgets/op")
	})
}

func TestRegisterTestingRunsInForks(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^gotest\.BN$'
    modes: [avgt, thrpt, ss]
    measurement: {batch_size: 100}
    warmup: {batch_size: 100}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet")
	if r.Code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
	}
	rep, data := readReport(t, out)
	validateResult(t, data)
	var modes []string
	for _, run := range rep.Runs {
		modes = append(modes, run.Mode.String())
		if run.Failed() || run.Primary == nil || run.Primary.Count != 6 {
			t.Fatalf("%s: %s, want Cnt 6 (2 forks × 3 iterations)", run.Key, run.Error)
		}
		for _, unit := range []string{"B/op", "allocs/op", "MB/s", "widgets/op"} {
			if _, ok := run.SecondaryMetrics[unit]; !ok {
				t.Errorf("%s: no secondary metric %s", run.Key, unit)
			}
		}
		for _, f := range run.Forks {
			if f.PID == 0 || len(f.Iterations) != 4 {
				t.Errorf("%s fork %d: pid %d, %d iterations; want a process with 1 warmup + 3 measurement", run.Key, f.Fork, f.PID, len(f.Iterations))
			}
			for _, it := range f.Iterations {
				if run.Mode == "ss" && (it.Invocations != 100 || it.Ops != 1) {
					t.Errorf("ss: iteration of %d invocations and %v ops, want one batch of 100 as 1 op", it.Invocations, it.Ops)
				}
			}
		}
	}
	if !slices.Equal(modes, []string{"avgt", "thrpt", "ss"}) {
		t.Errorf("modes %v", modes)
	}
}

func TestRegisterTestingKeepsLoopBodiesAlive(t *testing.T) {
	// What the compiler did, read from the machine code: testing.B.Loop
	// keeps the dropped sqrt, benchspec's B does not. Unlike timing the
	// two against the empty loop, this holds on a busy machine.
	for fn, want := range sqrtIn(t, "gotestSqrtDropped", "nativeSqrtDropped") {
		if want != (fn == "gotestSqrtDropped") {
			t.Errorf("%s: square root instruction in its machine code %v, want %v (testing.B.Loop keeps its body alive; benchspec's B lets the compiler drop an unused result)", fn, want, !want)
		}
	}
	spec := writeSpec(t, quick+`  - include: 'SqrtDropped$'
    measurement: {iterations: 8, time: 1ms}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet")
	if r.Code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
	}
	rep, _ := readReport(t, out)
	// DEAD_CODE compares the median call with the fastest empty-loop
	// iteration of the fork: a busy machine slows the median more than the
	// fastest, so it moves a live body's ratio up, away from the threshold
	// (2×; the kept sqrt costs about 6× the empty loop).
	for _, run := range rep.Runs {
		if run.Benchmark != "gotest.SqrtDropped" {
			continue
		}
		for _, d := range run.Diagnostics {
			if d.Code == "DEAD_CODE" {
				t.Errorf("gotest.SqrtDropped: DEAD_CODE (%s), want none: testing.B.Loop keeps its body alive", d.Message)
			}
		}
	}
}

// sqrtIn reports for each of this package's functions fns whether its
// machine code has a square root instruction (math.Sqrt is an intrinsic:
// SQRTSD on amd64, FSQRTD on arm64). It disassembles a test binary built
// with symbols, as go test strips the one it runs.
func sqrtIn(t *testing.T, fns ...string) map[string]bool {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "benchspec.test")
	if out, err := exec.Command("go", "test", "-c", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	const pkg = "github.com/benchspec/benchspec_test."
	out, err := exec.Command("go", "tool", "objdump", "-s", "^"+regexp.QuoteMeta(pkg)+"("+strings.Join(fns, "|")+")$", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool objdump: %v\n%s", err, out)
	}
	has := map[string]bool{}
	fn := ""
	for line := range strings.Lines(string(out)) {
		if name, ok := strings.CutPrefix(line, "TEXT "+pkg); ok {
			fn, _, _ = strings.Cut(name, "(")
			has[fn] = false
			continue
		}
		// file:line, address, encoding, instruction, separated by tabs;
		// the mnemonic is the instruction's first word.
		f := strings.FieldsFunc(line, func(r rune) bool { return r == '\t' })
		if fn == "" || len(f) < 4 {
			continue
		}
		if w := strings.Fields(f[3]); len(w) > 0 && strings.Contains(strings.ToUpper(w[0]), "SQRT") {
			has[fn] = true
		}
	}
	for _, fn := range fns {
		if _, ok := has[fn]; !ok {
			t.Fatalf("go tool objdump found no function %s:\n%s", fn, out)
		}
	}
	return has
}

func TestRegisterTestingRefusesSampleAndThreads(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^gotest\.BN$'
    modes: [sample]
    threads: 2
`)
	r := suite(t, "validate", spec)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2; stderr:\n%s", r.Code, r.Stderr)
	}
	for _, want := range []string{
		spec + `:10:12: benchmarks[0].modes: sample mode is not available for go test benchmarks (func(*testing.B)) such as "gotest.BN"`,
		spec + `:11:14: benchmarks[0].threads: threads: 2 is not available for go test benchmarks`,
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr:\n%s\nwant it to contain\n%s", r.Stderr, want)
		}
	}
}

func TestRegisterTestingMisuse(t *testing.T) {
	for name, f := range map[string]func(){
		"nil":    func() { benchspec.RegisterTesting("gotest.nil", nil) },
		"params": func() { benchspec.RegisterTesting("gotest.params", func(*testing.B) {}, benchspec.Params{"n": {"1"}}) },
		"dup":    func() { benchspec.RegisterTesting("gotest.BN", func(*testing.B) {}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: RegisterTesting did not panic", name)
				}
			}()
			f()
		}()
	}
}
