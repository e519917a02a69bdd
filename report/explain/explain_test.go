package explain_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/pprof/profile"

	"github.com/benchspec/benchspec/report/explain"
)

const period = 1_000_000 // ns: 1000 Hz

// cpuProfile builds a CPU profile as runtime/pprof writes one: each key
// of stacks is a stack, innermost frame first, frames split by ";", and
// the functions of one location (inlined first) by "+"; its value is the
// stack's number of samples.
func cpuProfile(stacks map[string]int64) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     period,
	}
	funcs := map[string]*profile.Function{}
	locs := map[string]*profile.Location{}
	for stack, k := range stacks {
		s := &profile.Sample{Value: []int64{k, k * period}}
		for _, frame := range strings.Split(stack, ";") {
			loc := locs[frame]
			if loc == nil {
				loc = &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(0x1000 + len(p.Location))}
				for _, name := range strings.Split(frame, "+") {
					f := funcs[name]
					if f == nil {
						f = &profile.Function{ID: uint64(len(p.Function) + 1), Name: name}
						funcs[name] = f
						p.Function = append(p.Function, f)
					}
					loc.Line = append(loc.Line, profile.Line{Function: f})
				}
				locs[frame] = loc
				p.Location = append(p.Location, loc)
			}
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

// TestExplainNamesWhatChanged checks the ranking, the per-op scaling, the
// flat and cumulative accounting and the noise bound on profiles whose
// sample counts are set, so the expected values are exact.
func TestExplainNamesWhatChanged(t *testing.T) {
	const ops = 1000
	perOp := func(k float64) float64 { return k * period / ops }
	tests := []struct {
		name      string
		base, new map[string]int64
		newOps    float64
		top       int
		want      []explain.Func
	}{{
		name: "an added function is named, its callers' cumulative growth is not",
		base: map[string]int64{"f;main": 1000},
		new:  map[string]int64{"f;main": 1000, "g;main": 100},
		want: []explain.Func{{Name: "g", NewFlat: perOp(100), NewCum: perOp(100), DeltaFlat: perOp(100), DeltaCum: perOp(100), Share: 0.1, Z: 10}},
	}, {
		name: "a change within its sampling error names nothing",
		base: map[string]int64{"f;main": 1000},
		new:  map[string]int64{"f;main": 1030},
	}, {
		name:   "twice the samples over twice the operations is no change",
		base:   map[string]int64{"f;main": 1000, "g;main": 100},
		new:    map[string]int64{"f;main": 2000, "g;main": 200},
		newOps: 2 * ops,
	}, {
		name: "a recursive function counts once per sample in its cumulative time",
		base: map[string]int64{"h;main": 1000},
		new:  map[string]int64{"h;main": 1000, "f;f;f;main": 200},
		want: []explain.Func{{Name: "f", NewFlat: perOp(200), NewCum: perOp(200), DeltaFlat: perOp(200), DeltaCum: perOp(200), Share: 0.2, Z: 14.142135623730951}},
	}, {
		name: "what was inlined counts as the function it was inlined into",
		base: map[string]int64{"f;main": 500},
		new:  map[string]int64{"f;main": 500, "helper+g;main": 200},
		want: []explain.Func{{Name: "g", NewFlat: perOp(200), NewCum: perOp(200), DeltaFlat: perOp(200), DeltaCum: perOp(200), Share: 0.4, Z: 14.142135623730951}},
	}, {
		name: "the largest change first, either way, at most top",
		base: map[string]int64{"a;main": 1000, "b;main": 400},
		new:  map[string]int64{"a;main": 1000, "c;main": 300, "d;main": 100},
		top:  2,
		want: []explain.Func{
			{Name: "b", BaseFlat: perOp(400), BaseCum: perOp(400), DeltaFlat: -perOp(400), DeltaCum: -perOp(400), Share: -400.0 / 1400, Z: -20},
			{Name: "c", NewFlat: perOp(300), NewCum: perOp(300), DeltaFlat: perOp(300), DeltaCum: perOp(300), Share: 300.0 / 1400, Z: 17.320508075688775},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newOps := tt.newOps
			if newOps == 0 {
				newOps = ops
			}
			e, err := explain.Explain(explain.Side{Profile: cpuProfile(tt.base), Ops: ops}, explain.Side{Profile: cpuProfile(tt.new), Ops: newOps}, tt.top)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, e.Funcs, cmpopts.EquateApprox(1e-9, 0), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Funcs (-want +got):\n%s", diff)
			}
			if e.WithinNoise != (len(tt.want) == 0) {
				t.Errorf("WithinNoise = %v with %d functions named", e.WithinNoise, len(e.Funcs))
			}
			if e.Threshold < 2.5 || e.Threshold > 4 {
				t.Errorf("Threshold = %v, want the Bonferroni z of a few functions at alpha 0.01", e.Threshold)
			}
		})
	}
}

// TestThresholdIsBonferroniOverSampledFunctions: main has no flat
// samples and is no comparison; f and g are two, so the bound is the
// normal quantile at 1 - 0.01/(2·2).
func TestThresholdIsBonferroniOverSampledFunctions(t *testing.T) {
	side := explain.Side{Profile: cpuProfile(map[string]int64{"f;main": 10, "g;main": 10}), Ops: 1}
	e, err := explain.Explain(side, side, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2.807033768; math.Abs(e.Threshold-want) > 1e-6 {
		t.Errorf("Threshold = %v, want %v", e.Threshold, want)
	}
}

func TestExplainRefusesWhatItCannotScale(t *testing.T) {
	cpu := cpuProfile(map[string]int64{"f": 10})
	heap := &profile.Profile{SampleType: []*profile.ValueType{{Type: "inuse_space", Unit: "bytes"}}}
	for name, sides := range map[string][2]explain.Side{
		"no operations":  {{Profile: cpu}, {Profile: cpu, Ops: 1}},
		"no profile":     {{Profile: cpu, Ops: 1}, {Ops: 1}},
		"a heap profile": {{Profile: cpu, Ops: 1}, {Profile: heap, Ops: 1}},
	} {
		if _, err := explain.Explain(sides[0], sides[1], 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

var sink uint64

// f is the benchmark's work; g adds a tenth of it in the new build.
//
//go:noinline
func f() { sink = xorshift(sink, 1000) }

//go:noinline
func g() { sink = xorshift(sink, 100) }

func xorshift(x uint64, n int) uint64 {
	x |= 1
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// profileFork runs body ops times under a CPU profile of the test
// process, as a fork's profiler does, and returns the file.
func profileFork(t *testing.T, path string, ops int, body func()) string {
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// A rate above pprof's 100 Hz: set first, StartCPUProfile's own
	// setting is then refused (with a line on stderr) and the profile
	// records the rate in force. The kernel's tick may deliver less.
	runtime.SetCPUProfileRate(1e9 / period)
	if err := pprof.StartCPUProfile(out); err != nil {
		t.Fatal(err)
	}
	for range ops {
		body()
	}
	pprof.StopCPUProfile()
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExplainOnRealProfiles profiles two builds of a benchmark body in
// this process, the new one calling a non-inlined function that does a
// tenth more work, and checks that Explain names that function first.
func TestExplainOnRealProfiles(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles about 2 s of CPU")
	}
	// Operations for about 0.2 s per fork; forks, alternating sides as ab
	// does, until each side holds enough samples at whatever rate the
	// kernel delivers.
	start := time.Now()
	for range 1000 {
		f()
	}
	ops := max(1000, int(200*time.Millisecond/(time.Since(start)/1000)))
	dir := t.TempDir()
	var baseFiles, newFiles []string
	var base, new explain.Side
	for fork := 0; fork < 2 || samples(base) < 300 && fork < 40; fork++ {
		baseFiles = append(baseFiles, profileFork(t, filepath.Join(dir, fmt.Sprintf("base-%d.pprof", fork)), ops, f))
		newFiles = append(newFiles, profileFork(t, filepath.Join(dir, fmt.Sprintf("new-%d.pprof", fork)), ops, func() { f(); g() }))
		base, new = merge(t, baseFiles, ops), merge(t, newFiles, ops)
	}
	if base.Profile.Period != period {
		t.Fatalf("profile period %d ns, want %d: the rate set before StartCPUProfile was not recorded", base.Profile.Period, period)
	}
	e, err := explain.Explain(base, new, 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d forks, %d and %d samples, threshold |z| > %.2f", len(baseFiles), e.BaseSamples, e.NewSamples, e.Threshold)
	for _, f := range e.Funcs {
		t.Logf("%-60s %+8.1f ns/op flat (%+.1f%%, z %+.1f), %+8.1f cum", f.Name, f.DeltaFlat, 100*f.Share, f.Z, f.DeltaCum)
	}
	if len(e.Funcs) == 0 || !strings.HasSuffix(e.Funcs[0].Name, "explain_test.g") {
		t.Fatalf("the added function g is not named first: %+v", e.Funcs)
	}
	if g := e.Funcs[0]; g.BaseFlat != 0 || g.Share < 0.03 || g.Share > 0.3 {
		t.Errorf("g: base %v ns/op, share %.3f; want 0 and about 0.1", g.BaseFlat, g.Share)
	}
	same, err := explain.Explain(base, base, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !same.WithinNoise || len(same.Funcs) != 0 {
		t.Errorf("the same profiles on both sides: WithinNoise %v, named %+v", same.WithinNoise, same.Funcs)
	}
}

func merge(t *testing.T, files []string, opsPerFork int) explain.Side {
	t.Helper()
	p, err := explain.Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	return explain.Side{Profile: p, Ops: float64(opsPerFork * len(files))}
}

func samples(s explain.Side) (n int64) {
	for _, smp := range s.Profile.Sample {
		n += smp.Value[0]
	}
	return n
}

func TestMergeRefusesWhatIsNotACPUProfile(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, write func(*os.File) error) string {
		path := filepath.Join(dir, name)
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := write(out); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := filepath.Join(dir, "good.pprof")
	if err := explain.WriteMerged(good, cpuProfile(map[string]int64{"f": 1})); err != nil {
		t.Fatal(err)
	}
	bytesOf := func(b []byte) func(*os.File) error {
		return func(f *os.File) error { _, err := f.Write(b); return err }
	}
	tests := map[string]struct {
		path, want string
	}{
		"missing": {filepath.Join(dir, "missing.pprof"), "no such file"},
		"empty":   {file("empty.pprof", bytesOf(nil)), "empty.pprof"},
		"corrupt": {file("corrupt.pprof", bytesOf([]byte("not a profile\x00\xff"))), "corrupt.pprof"},
		"heap": {file("heap.pprof", func(f *os.File) error { return pprof.Lookup("heap").WriteTo(f, 0) }),
			"heap.pprof: not a CPU profile"},
		"oversized": {file("big.pprof", func(f *os.File) error { return f.Truncate(explain.MaxFileSize + 1) }),
			"big.pprof: larger than 64 MiB"},
		"a gzip bomb": {file("bomb.pprof", func(f *os.File) error {
			zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
			if _, err := zw.Write(make([]byte, explain.MaxFileSize+1)); err != nil {
				return err
			}
			return zw.Close()
		}), "bomb.pprof: decompressing: larger than 64 MiB"},
	}
	for name, tt := range tests {
		_, err := explain.Merge([]string{good, tt.path})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, tt.want)
		}
	}
	if _, err := explain.Merge(nil); err == nil {
		t.Error("Merge of no files: no error")
	}
}

func TestWriteMergedWritesANewFileOnly(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.pprof"), filepath.Join(dir, "b.pprof")
	for path, k := range map[string]int64{a: 3, b: 4} {
		if err := explain.WriteMerged(path, cpuProfile(map[string]int64{"f;main": k})); err != nil {
			t.Fatal(err)
		}
	}
	merged, err := explain.Merge([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "base.pprof")
	if err := explain.WriteMerged(out, merged); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the merged profile does not parse: %v", err)
	}
	if len(p.Sample) != 1 || p.Sample[0].Value[0] != 7 {
		t.Errorf("merged samples %v, want one stack of 7", p.Sample)
	}
	err = explain.WriteMerged(out, cpuProfile(map[string]int64{"g": 1}))
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("writing over an existing file: error %v, want one that it exists", err)
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(again, data) {
		t.Error("the existing file was changed")
	}
}
