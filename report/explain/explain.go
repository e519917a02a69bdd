// Package explain says where the time of a changed run went: from the CPU
// profiles of each side's forks, merged per side, it names the functions
// whose CPU time per operation changed most between a base and a new
// build, and only those whose change exceeds the profiles' own sampling
// error.
//
// A verdict says that a run got slower; the next question is where. The
// answer is pprof's -diff_base, done for the user: each side's forks'
// profiles merged (Merge), the functions ranked by the change of their
// flat CPU time per operation (Explain), and the merged profiles written
// (WriteMerged) so that `go tool pprof -diff_base base.pprof new.pprof`
// opens the same pair.
//
// The method. Per side and function, flat time is the CPU time of the
// samples whose innermost frame is the function; cumulative time that of
// the samples with the function anywhere in the stack, counted once per
// sample even when it recurs. A function is a compiled one: what the
// compiler inlined counts as its caller's, as with pprof -noinlines, so
// that a function added to a benchmark is named even when its work is in
// helpers inlined into it. Both times are divided by the operations the
// side measured while profiling, giving ns/op. Functions are ranked by the
// change of flat time: a function added to a benchmark's body is first,
// while every caller's cumulative time grows as much.
//
// The scale. ns/op counts samples times the profile's period. Above the
// kernel's timer tick (often 250 Hz) a requested rate is recorded but not
// delivered, and the ns/op shrink by the ratio; Share and Z are ratios of
// samples on both sides and do not change.
//
// The noise. A function's sample count k is Poisson-like, so its ns/op
// has a standard deviation of about sqrt(k)·period/ops, and a change one
// of z = Δ/sqrt(k_b·(period/ops_b)² + k_n·(period/ops_n)²). A function is
// named only when |z| exceeds the Bonferroni bound at a family-wise
// error of Alpha over the functions that could exceed it (Tarone's
// refinement: a function sampled k times has |z| <= sqrt(k), so the
// many sampled once or twice never count): with 50 such functions,
// |z| > 3.72; with 3, 2.94. The bound counts sampling error
// only, not differences between forks; an unchanged run should not be
// explained at all.
package explain

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/google/pprof/profile"
)

// MaxFileSize bounds a profile file, and its content once decompressed:
// a CPU profile of a fork is kilobytes to a few megabytes.
const MaxFileSize = 64 << 20

// Alpha is the chance, when no function changed, that Explain names one
// anyway (the family-wise error rate of its Bonferroni bound).
const Alpha = 0.01

// Merge reads the CPU profiles of one side's forks and merges them into
// one. A file above MaxFileSize, one that is not a profile, or one that is
// not a CPU profile is an error naming the file.
func Merge(files []string) (*profile.Profile, error) {
	if len(files) == 0 {
		return nil, errors.New("no CPU profiles to merge")
	}
	ps := make([]*profile.Profile, len(files))
	for i, f := range files {
		p, err := read(f)
		if err != nil {
			return nil, err
		}
		ps[i] = p
	}
	p, err := profile.Merge(ps)
	if err != nil {
		return nil, fmt.Errorf("merging %s: %w", strings.Join(files, ", "), err)
	}
	return p, nil
}

func read(path string) (*profile.Profile, error) {
	// Non-blocking, and regular files only: a path from a report may name
	// a FIFO or a device, which would hang or never end.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := readBounded(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		// profile.Parse would decompress without a bound.
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			data, err = readBounded(zr)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: decompressing: %w", path, err)
		}
	}
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := values(p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

func readBounded(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err == nil && len(data) > MaxFileSize {
		err = fmt.Errorf("larger than %d MiB, the most a CPU profile may be", MaxFileSize>>20)
	}
	return data, err
}

// WriteMerged writes p, gzip-compressed as pprof writes it, to a new file
// at path; it never replaces a file, so an existing path is an error.
func WriteMerged(path string, p *profile.Profile) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	err = p.Write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Side is one build's CPU profile of a run: its forks' profiles merged,
// and the operations measured while they ran.
type Side struct {
	Profile *profile.Profile
	Ops     float64
}

// Func is one function's CPU time per operation on each side, in ns/op.
type Func struct {
	Name      string  `json:"name"` // as pprof shows it (Function.Name)
	BaseFlat  float64 `json:"base_flat"`
	NewFlat   float64 `json:"new_flat"`
	BaseCum   float64 `json:"base_cum"`
	NewCum    float64 `json:"new_cum"`
	DeltaFlat float64 `json:"delta_flat"` // NewFlat - BaseFlat
	DeltaCum  float64 `json:"delta_cum"`  // NewCum - BaseCum
	Share     float64 `json:"share"`      // DeltaFlat over the base side's CPU time per op
	Z         float64 `json:"z"`          // DeltaFlat in units of its sampling error
}

// Explanation is where a run's CPU time per operation changed.
type Explanation struct {
	// Funcs are the functions whose flat change exceeds Threshold, the
	// largest |DeltaFlat| first.
	Funcs       []Func  `json:"functions"`
	BaseSamples int64   `json:"base_samples"` // the samples each side's profile holds
	NewSamples  int64   `json:"new_samples"`
	BaseTotal   float64 `json:"base_total"` // each side's CPU time per op, in ns/op
	NewTotal    float64 `json:"new_total"`
	Threshold   float64 `json:"threshold"`    // the |Z| a function had to exceed
	WithinNoise bool    `json:"within_noise"` // no function's change exceeds it
	// BaseProfile and NewProfile are the merged profiles' files, when
	// they were written (WriteMerged).
	BaseProfile string `json:"base_profile,omitempty"`
	NewProfile  string `json:"new_profile,omitempty"`
}

// Explain compares the sides' CPU time per operation by function and
// returns at most top functions (all when top <= 0) whose flat change
// exceeds its sampling error.
func Explain(base, new Side, top int) (Explanation, error) {
	b, err := tally(base, "base")
	if err != nil {
		return Explanation{}, err
	}
	n, err := tally(new, "new")
	if err != nil {
		return Explanation{}, err
	}
	e := Explanation{BaseSamples: int64(math.Round(b.samples)), NewSamples: int64(math.Round(n.samples)),
		BaseTotal: b.ns / base.Ops, NewTotal: n.ns / new.Ops}
	names := append(slices.Collect(maps.Keys(b.funcs)), slices.Collect(maps.Keys(n.funcs))...)
	slices.Sort(names)
	var counts []float64 // flat samples of each function that has any
	for _, name := range slices.Compact(names) {
		fb, fn := b.funcs[name], n.funcs[name]
		if k := fb.flatK + fn.flatK; k > 0 {
			counts = append(counts, k)
		}
		f := Func{Name: name,
			BaseFlat: fb.flat / base.Ops, NewFlat: fn.flat / new.Ops,
			BaseCum: fb.cum / base.Ops, NewCum: fn.cum / new.Ops}
		f.DeltaFlat, f.DeltaCum = f.NewFlat-f.BaseFlat, f.NewCum-f.BaseCum
		if e.BaseTotal > 0 {
			f.Share = f.DeltaFlat / e.BaseTotal
		}
		if sd := math.Sqrt(variance(fb, base.Ops) + variance(fn, new.Ops)); sd > 0 {
			f.Z = f.DeltaFlat / sd
		}
		e.Funcs = append(e.Funcs, f)
	}
	e.Threshold = tarone(counts)
	e.Funcs = slices.DeleteFunc(e.Funcs, func(f Func) bool { return !(math.Abs(f.Z) > e.Threshold) })
	slices.SortFunc(e.Funcs, func(x, y Func) int {
		return cmp.Or(cmp.Compare(math.Abs(y.DeltaFlat), math.Abs(x.DeltaFlat)), cmp.Compare(x.Name, y.Name))
	})
	if top > 0 && len(e.Funcs) > top {
		e.Funcs = e.Funcs[:top]
	}
	e.WithinNoise = len(e.Funcs) == 0
	if e.Funcs == nil {
		e.Funcs = []Func{} // JSON: [], not null
	}
	return e, nil
}

// tarone is the bound on |Z| for a family of functions with the given
// flat sample counts: Bonferroni's over only the functions that could
// exceed it (Tarone, Biometrics 1990). A function with k samples has
// |Z| <= sqrt(k) however they fall between the sides, so one sampled a
// few times can never be named and costs the others nothing.
func tarone(counts []float64) float64 {
	for m := 1; ; m++ {
		th := bonferroni(m)
		if countFunc(counts, func(k float64) bool { return math.Sqrt(k) > th }) <= m {
			return th
		}
	}
}

func countFunc(xs []float64, f func(float64) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}

// bonferroni is the two-sided normal quantile at Alpha/m.
func bonferroni(m int) float64 {
	return math.Sqrt2 * math.Erfinv(1-Alpha/float64(max(m, 1)))
}

// variance of a function's flat ns/op: k samples of ns/k each, Poisson.
func variance(f fn, ops float64) float64 {
	if f.flatK == 0 {
		return 0
	}
	return f.flat * f.flat / (f.flatK * ops * ops)
}

// fn is a function's CPU time on one side: flat and cumulative
// nanoseconds, and flat samples.
type fn struct{ flat, cum, flatK float64 }

type tallied struct {
	funcs       map[string]fn
	ns, samples float64
}

func tally(s Side, side string) (tallied, error) {
	if s.Profile == nil || !(s.Ops > 0) {
		return tallied{}, fmt.Errorf("%s side: no profile or no operations (%v)", side, s.Ops)
	}
	count, err := values(s.Profile)
	if err != nil {
		return tallied{}, fmt.Errorf("%s side: %w", side, err)
	}
	t := tallied{funcs: map[string]fn{}}
	seen := map[string]bool{}
	for _, smp := range s.Profile.Sample {
		ns, k := count(smp)
		t.ns += ns
		t.samples += k
		clear(seen)
		for i, loc := range smp.Location {
			name := function(loc)
			f := t.funcs[name]
			if i == 0 {
				f.flat += ns
				f.flatK += k
			}
			if !seen[name] {
				seen[name] = true
				f.cum += ns
			}
			t.funcs[name] = f
		}
	}
	return t, nil
}

// values returns how to read a sample of p: its CPU nanoseconds and its
// number of samples; an error when p is not a CPU profile.
func values(p *profile.Profile) (func(*profile.Sample) (ns, k float64), error) {
	cpu, samples := -1, -1
	for i, st := range p.SampleType {
		switch {
		case st.Type == "cpu" && st.Unit == "nanoseconds":
			cpu = i
		case st.Type == "samples" && st.Unit == "count":
			samples = i
		}
	}
	if cpu < 0 {
		var types []string
		for _, st := range p.SampleType {
			types = append(types, st.Type+"/"+st.Unit)
		}
		return nil, fmt.Errorf("not a CPU profile: no cpu/nanoseconds among its sample types %v", types)
	}
	if samples < 0 && p.Period <= 0 {
		return nil, errors.New("CPU profile without a sample count or a period")
	}
	return func(s *profile.Sample) (float64, float64) {
		ns := float64(s.Value[cpu])
		if samples >= 0 {
			return ns, float64(s.Value[samples])
		}
		return ns, ns / float64(p.Period)
	}, nil
}

// function is the name of the compiled function of a location: the
// last of its lines, into which the others were inlined.
func function(loc *profile.Location) string {
	if n := len(loc.Line); n > 0 && loc.Line[n-1].Function != nil && loc.Line[n-1].Function.Name != "" {
		return loc.Line[n-1].Function.Name
	}
	return fmt.Sprintf("%#x", loc.Address)
}
