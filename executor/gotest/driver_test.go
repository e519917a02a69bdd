package gotest

import (
	"errors"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExactPatternQuotesEachLevel(t *testing.T) {
	tests := map[string]string{
		"BenchmarkIndex":                     `^BenchmarkIndex$`,
		"BenchmarkSum/size=8#01":             `^BenchmarkSum$/^size=8#01$`,
		"BenchmarkSum/odd_name_(x.y)":        `^BenchmarkSum$/^odd_name_\(x\.y\)$`,
		"BenchmarkToLower/#00":               `^BenchmarkToLower$/^#00$`,
		`BenchmarkQ/a\x01[b]|c`:              `^BenchmarkQ$/^a\\x01\[b\]\|c$`,
		"BenchmarkDecode/Digits/Huffman/1e4": `^BenchmarkDecode$/^Digits$/^Huffman$/^1e4$`,
	}
	for name, want := range tests {
		if got := ExactPattern(name); got != want {
			t.Errorf("ExactPattern(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSourceParsesForBothTestPackages(t *testing.T) {
	for _, ext := range []bool{false, true} {
		src, err := Source("codec_test", ext, []string{"BenchmarkB", "BenchmarkA"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
		if err != nil {
			t.Fatalf("generated source does not parse: %v\n%s", err, src)
		}
		if !strings.Contains(string(src), "func "+DriverTest(ext)+"(") || len(f.Imports) != 5 {
			t.Errorf("generated source lacks %s or imports more than flag, os, runtime, syscall, testing:\n%s", DriverTest(ext), src)
		}
	}
}

func TestJobEncodeRefusesWhatTheDriverCannotRead(t *testing.T) {
	j := &Job{Benchmarks: []Bench{{Func: "BenchmarkA", Pattern: "^a\tb$"}}}
	if _, err := j.Encode(); err == nil {
		t.Error("a tab in a pattern was encoded")
	}
	j = &Job{Benchmarks: []Bench{{Func: "BenchmarkA", Pattern: "^BenchmarkA$"}}, Phases: []Phase{{Name: "warmup", Benchtime: "200ms", Count: 2}}}
	got, err := j.Encode()
	if want := "bench\tBenchmarkA\t^BenchmarkA$\nphase\twarmup\t200ms\t2\n"; err != nil || got != want {
		t.Errorf("Encode = %q, %v; want %q", got, err, want)
	}
}

func TestExactSkipLeavesOutOnlyDeeperNames(t *testing.T) {
	if got, want := ExactSkip("BenchmarkX/32_types"), `^BenchmarkX$/^32_types$/.`; got != want {
		t.Errorf("ExactSkip = %q, want %q", got, want)
	}
	j := &Job{Benchmarks: []Bench{{Func: "BenchmarkX", Pattern: "^BenchmarkX$", Skip: ExactSkip("BenchmarkX")}}}
	if got, err := j.Encode(); err != nil || got != "bench\tBenchmarkX\t^BenchmarkX$\t^BenchmarkX$/.\n" {
		t.Errorf("Encode = %q, %v", got, err)
	}
}

func TestReaderKeepsOnlyTestingsFraming(t *testing.T) {
	out := "\x16procs\t4\n" +
		"goos: linux\ngoarch: amd64\ncpu: Some CPU   \n" +
		"\x16begin\tBenchmarkX\tmeasurement\t1\n" +
		"BenchmarkX\n" + // verbose mode's bare name
		"BenchmarkX/a-4   \t 100\t 12.5 ns/op\n" +
		"--- BENCH: BenchmarkX/a-4\n    x_test.go:9: BenchmarkX/a-4 1 0.0001 ns/op\n" +
		"--- SKIP: BenchmarkX/b\n    x_test.go:3: not here\n    second line\n" +
		"--- FAIL: BenchmarkX/c\n    x_test.go:4: broken\n" +
		"\x16end\n\x16done\n"
	r := NewReader(strings.NewReader(out))
	b, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Results) != 1 || b.Results[0].Name != "BenchmarkX/a" || b.Results[0].Result.Iters != 100 {
		t.Errorf("results %+v, want BenchmarkX/a alone, without -4", b.Results)
	}
	if d := cmp.Diff([]Outcome{{"BenchmarkX/b", "x_test.go:3: not here\nsecond line"}}, b.Skips); d != "" {
		t.Errorf("skips (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Outcome{{"BenchmarkX/c", "x_test.go:4: broken"}}, b.Fails); d != "" {
		t.Errorf("fails (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][2]string{{"goos", "linux"}, {"goarch", "amd64"}, {"cpu", "Some CPU   "}}, r.Labels); d != "" {
		t.Errorf("labels (-want +got):\n%s", d)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) || !r.Done || r.Procs != 4 {
		t.Errorf("end: %v, done %v, procs %d", err, r.Done, r.Procs)
	}
	if got := r.StripProcs("BenchmarkSub/size-4-4"); got != "BenchmarkSub/size-4" {
		t.Errorf("StripProcs = %q, want one suffix removed", got)
	}
	// A result outside an iteration is nobody's.
	r = NewReader(strings.NewReader("BenchmarkX-4 \t 1\t 0.0001 ns/op\n\x16bogus\n"))
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "unknown line") {
		t.Errorf("err = %v, want the unknown framing line refused", err)
	}
}

// TestSourceIsGofmted checks that Source writes what gofmt would print,
// as it did when it ran its output through go/format (which suite
// binaries no longer link): for one function and for many, of very
// different name lengths, non-ASCII names included, in both test
// packages.
func TestSourceIsGofmted(t *testing.T) {
	lists := [][]string{
		{"BenchmarkA"},
		{"BenchmarkB", "BenchmarkA"},
		{"Benchmark", "BenchmarkX", "Benchmark_a_rather_long_name_with_Digits_0123456789", "Benchmark2", "BenchmarkÜnïcode"},
	}
	for _, funcs := range lists {
		for _, ext := range []bool{false, true} {
			src, err := Source("codec_test", ext, funcs)
			if err != nil {
				t.Fatal(err)
			}
			want, err := format.Source(src)
			if err != nil {
				t.Fatalf("generated source does not parse: %v\n%s", err, src)
			}
			if diff := cmp.Diff(string(want), string(src)); diff != "" {
				t.Errorf("Source(%v, external %v) is not as gofmt prints it (-gofmt +Source):\n%s", funcs, ext, diff)
			}
		}
	}
}
