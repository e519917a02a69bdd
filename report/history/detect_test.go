package history

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/report"
)

// levels returns a series of n points per level, each level's value
// times 1 + noise·N(0,1) from a fixed seed: the same series every time.
func levels(unit string, noise float64, n int, values ...float64) *Series {
	rng := rand.New(rand.NewPCG(1, 2))
	s := &Series{Suite: "s", Key: "b:avgt", Unit: unit, Better: better(unit)}
	for _, v := range values {
		for range n {
			x := v * (1 + noise*rng.NormFloat64())
			s.Points = append(s.Points, Point{Batch: len(s.Points) + 1, Score: report.Float(x),
				Error: report.Float(x * 0.002), Stdev: report.Float(x * 0.001), Count: 10})
		}
	}
	return s
}

func better(unit string) string {
	if unit == "ops/us" {
		return "higher"
	}
	return "lower"
}

func analyzed(s *Series, opts Options) *Series {
	h := &History{Series: []Series{*s}}
	Analyze(h, opts)
	return &h.Series[0]
}

// where returns the (index, batch, direction) of each change point.
func where(s *Series) [][3]any {
	out := [][3]any{}
	for _, cp := range s.ChangePoints {
		out = append(out, [3]any{cp.Index, cp.Batch, cp.Direction})
	}
	return out
}

func TestChangePoints(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    *Series
		opts Options
		want [][3]any
	}{
		{"planted 8 % in time per op", levels("ns/op", 0.01, 6, 100, 108), Options{}, [][3]any{{6, 7, Regression}}},
		{"no change", levels("ns/op", 0.01, 12, 100), Options{}, [][3]any{}},
		{"faster is an improvement", levels("ns/op", 0.01, 6, 100, 90), Options{}, [][3]any{{6, 7, Improvement}}},
		{"fewer ops per time is a regression", levels("ops/us", 0.01, 6, 10, 9), Options{}, [][3]any{{6, 7, Regression}}},
		{"up and back down", levels("ns/op", 0.01, 10, 100, 120, 100), Options{}, [][3]any{{10, 11, Regression}, {20, 21, Improvement}}},
		{"a small step is below --min-change", levels("ns/op", 0.002, 8, 100, 102), Options{}, [][3]any{}},
		{"the same step counts at 1 %", levels("ns/op", 0.002, 8, 100, 102), Options{MinChange: 0.01}, [][3]any{{8, 9, Regression}}},
		{"a long history keeps a recent small change", levels("ns/op", 0.01, 60, 100, 200, 210), Options{}, [][3]any{{60, 61, Regression}, {120, 121, Regression}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := analyzed(tc.s, tc.opts)
			if diff := cmp.Diff(tc.want, where(got)); diff != "" {
				t.Errorf("change points (index, batch, direction) (-want +got):\n%s", diff)
			}
		})
	}
}

// TestChangeMagnitude checks a planted change's estimate: its interval
// holds the planted change, and p is below the threshold.
func TestChangeMagnitude(t *testing.T) {
	s := analyzed(levels("ns/op", 0.01, 6, 100, 108), Options{})
	if len(s.ChangePoints) != 1 {
		t.Fatalf("change points %v, want one", where(s))
	}
	cp := s.ChangePoints[0]
	if lo, hi := float64(cp.ChangeCI[0]), float64(cp.ChangeCI[1]); !(lo < 0.08 && 0.08 < hi && lo < float64(cp.Change) && float64(cp.Change) < hi) {
		t.Errorf("change %v, interval [%v, %v]: want an interval around the change that holds 0.08", cp.Change, lo, hi)
	}
	if math.Abs(float64(cp.Change)-0.08) > 0.02 {
		t.Errorf("change %v, want about 0.08", cp.Change)
	}
	if !(cp.P <= DefaultP) {
		t.Errorf("p = %v, want ≤ %v", cp.P, DefaultP)
	}
}

// TestOwnSpreadCounts checks that a point's own error enters the test:
// scores that repeat exactly have no spread between them, and a 3 % step
// between such scores is a change — unless each score's own spread says
// it could not tell 3 % apart.
func TestOwnSpreadCounts(t *testing.T) {
	step := func(stdev float64) *Series {
		s := &Series{Unit: "ns/op", Better: "lower"}
		for i := range 12 {
			v := 100.0
			if i >= 6 {
				v = 103
			}
			s.Points = append(s.Points, Point{Batch: i + 1, Score: report.Float(v), Stdev: report.Float(stdev), Count: 4})
		}
		return s
	}
	opts := Options{MinChange: 0.01}
	if got := where(analyzed(step(0), opts)); len(got) != 1 {
		t.Errorf("exact scores, no own spread: change points %v, want one at index 6", got)
	}
	if got := where(analyzed(step(20), opts)); len(got) != 0 {
		t.Errorf("each score ± 20 ns (stdev, 4 iterations): change points %v, want none", got)
	}
}

// TestForksAreTheUnit checks that a point's own spread is its forks':
// each night's iterations agree to 0.1 % within their forks, but its 3
// forks' means scatter by 5 %, so a 3 % step between scores that repeat
// exactly cannot be told from the forks a night drew. Counting the
// 3 × 10 iterations as independent samples would make it a change.
func TestForksAreTheUnit(t *testing.T) {
	step := func(forkStdev report.Float) *Series {
		s := &Series{Unit: "ns/op", Better: "lower"}
		for i := range 12 {
			v := 100.0
			if i >= 6 {
				v = 103
			}
			// three fork means v − sd, v, v + sd: median v, MAD sd
			median, mad := report.Float(v), forkStdev
			if !forkStdev.Valid() {
				median = report.NaN()
			}
			s.Points = append(s.Points, Point{Batch: i + 1, Score: report.Float(v), Stdev: report.Float(v * 0.001), Count: 30,
				Forks: 3, ForkStdev: forkStdev, ForkMedian: median, ForkMAD: mad})
		}
		return s
	}
	opts := Options{MinChange: 0.01}
	if got := where(analyzed(step(5), opts)); len(got) != 0 {
		t.Errorf("fork means ± 5 ns: change points %v, want none", got)
	}
	// With one fork, or no fork means in the data (an index entry of
	// before the fork model), the iterations' spread is the floor.
	if got := where(analyzed(step(report.NaN()), opts)); len(got) != 1 {
		t.Errorf("no fork spread, iterations ± 0.1 %%: change points %v, want one at index 6", got)
	}
	for _, tc := range []struct {
		p    Point
		want float64
	}{
		{Point{Forks: 3, ForkStdev: 6, Stdev: 1, Count: 30}, 12},
		{Point{Forks: 1, ForkStdev: report.NaN(), Stdev: 2, Count: 4}, 1},
		{Point{Forks: 0, ForkStdev: report.NaN(), Stdev: report.NaN()}, 0},
	} {
		if got := tc.p.OwnVariance(); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%+v: own variance %v, want %v", tc.p, got, tc.want)
		}
	}
}

// equateNaN makes NaN equal to NaN: a number that does not exist is the
// same however often it is computed.
var equateNaN = cmp.Comparer(func(a, b report.Float) bool { return a == b || a != a && b != b })

func TestDeterministic(t *testing.T) {
	a := analyzed(levels("ns/op", 0.03, 20, 100, 104, 97, 110), Options{MinChange: 0.02})
	for range 3 {
		b := analyzed(levels("ns/op", 0.03, 20, 100, 104, 97, 110), Options{MinChange: 0.02})
		if diff := cmp.Diff(a, b, equateNaN); diff != "" {
			t.Fatalf("same input, another result (-first +again):\n%s", diff)
		}
	}
}

func TestRegressed(t *testing.T) {
	with := func(s *Series, last ...float64) *Series {
		for _, v := range last {
			s.Points = append(s.Points, Point{Batch: len(s.Points) + 1, Score: report.Float(v), Stdev: report.Float(0.1), Count: 10})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		s    *Series
		want bool
	}{
		{"newest change a regression", levels("ns/op", 0.01, 6, 100, 108), true},
		{"reverted by the newest point", with(levels("ns/op", 0.01, 6, 100, 108), 101), false},
		{"the newest point still slow", with(levels("ns/op", 0.01, 6, 100, 108), 106), true},
		{"newest change an improvement", levels("ns/op", 0.01, 6, 100, 120, 100), false},
		{"no change", levels("ns/op", 0.01, 12, 100), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := analyzed(tc.s, Options{}); got.Regressed != tc.want {
				t.Errorf("regressed %v, want %v (change points %v)", got.Regressed, tc.want, where(got))
			}
		})
	}
}

// TestBestSplit checks E-Divisive's split on small hand-made samples.
func TestBestSplit(t *testing.T) {
	for _, tc := range []struct {
		z    []float64
		want int
	}{
		{[]float64{1, 1, 1, 5, 5, 5}, 3},
		{[]float64{5, 1, 1, 1, 1, 1}, 1},
		{[]float64{1, 1, 1, 1, 1, 9}, 5},
		{[]float64{0, 0, 10, 10, 0, 0}, 2}, // ties go to the earliest split
	} {
		if got, _, ok := bestSplit(tc.z); !ok || got != tc.want {
			t.Errorf("bestSplit(%v) = %d, %v; want %d", tc.z, got, ok, tc.want)
		}
	}
	if _, _, ok := bestSplit([]float64{1}); ok {
		t.Errorf("bestSplit of one point: ok, want none")
	}
}

// TestLongNoiseHasNoChanges checks a thousand nights of 2 % noise: in a
// series that long, short runs of outliers pass a test made at every
// point, and must not come out as pairs of changes around them. Only the
// newest nights may stand apart (TestNewestNightAlone): here, by chance,
// the last two of seed 1 do.
func TestLongNoiseHasNoChanges(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 3))
		s := &Series{Unit: "ns/op", Better: "lower"}
		for i := range 1000 {
			v := 100 * (1 + 0.02*rng.NormFloat64())
			s.Points = append(s.Points, Point{Batch: i + 1, Score: report.Float(v), Stdev: 1, Count: 15})
		}
		got := analyzed(s, Options{})
		for _, cp := range got.ChangePoints {
			if cp.Index < len(s.Points)-2 {
				t.Errorf("seed %d: change points %v, want none but after the newest two nights", seed, where(got))
				break
			}
		}
	}
}

// TestNewestNightAlone checks that a regression on the newest night
// alone is a change point, while the same outlier inside the series is
// not.
func TestNewestNightAlone(t *testing.T) {
	s := levels("ns/op", 0.01, 20, 100)
	s.Points = append(s.Points, Point{Batch: 21, Score: 120, Stdev: 1, Count: 10})
	if got := where(analyzed(s, Options{})); len(got) != 1 || got[0][1] != 21 {
		t.Errorf("a 20 %% slower newest night: change points %v, want one at batch 21", got)
	}
	inner := levels("ns/op", 0.01, 20, 100)
	inner.Points[10].Score, inner.Points[11].Score = 120, 121
	if got := where(analyzed(inner, Options{})); len(got) != 0 {
		t.Errorf("20 %% outliers at batches 11 and 12: change points %v, want none", got)
	}
}
