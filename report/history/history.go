package history

import (
	"math"
	"strings"
	"time"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/stats"
)

// SchemaVersion is the version of the JSON history
// (schemas/history.schema.json). New fields are added without a bump.
const SchemaVersion = 1

// Method names the change point detection in the JSON history.
const Method = "e-divisive-means+student-t"

// Defaults of Options.
const (
	// DefaultMinChange is the smallest relative change of the level that
	// counts, as compare's default threshold: 5 %.
	DefaultMinChange = 0.05
	// DefaultP is the significance a change must reach, Hunter's default:
	// at one nightly series per benchmark, a false alarm per thousand
	// tested changes.
	DefaultP = 0.001
	// DefaultWindow is the number of points E-Divisive looks at at once
	// (Hunter's default).
	DefaultWindow = 50
)

// Options configure the detection; zero fields take the defaults.
type Options struct {
	MinChange float64 // smallest |relative change| that counts: 0.05 for 5 %
	P         float64 // largest p-value of a change that counts
	Window    int     // points per E-Divisive window
}

func (o Options) withDefaults() Options {
	if o.MinChange <= 0 {
		o.MinChange = DefaultMinChange
	}
	if o.P <= 0 {
		o.P = DefaultP
	}
	if o.Window < 2 {
		o.Window = DefaultWindow
	}
	return o
}

// History is the nightly history of one or more results directories.
type History struct {
	SchemaVersion int      `json:"schema_version"`
	Method        string   `json:"method"`
	MinChange     float64  `json:"min_change"`
	P             float64  `json:"p"`
	Batches       []Batch  `json:"batches"`
	Series        []Series `json:"series"`
}

// Batch is one batch of a suite: one report, or the shards of one plan
// that ran one after the other.
type Batch struct {
	Number       int       `json:"number"` // 1-based, in the order the batches ran
	Suite        string    `json:"suite"`
	Files        []string  `json:"files"` // its reports
	Start        time.Time `json:"start"`
	Complete     bool      `json:"complete"`
	Revision     string    `json:"revision,omitempty"`
	RevisionTime string    `json:"revision_time,omitempty"`
	Label        string    `json:"label,omitempty"`
}

// ShortRevision is the first 12 characters of a revision, as git shows
// commits, with its "+dirty".
func ShortRevision(rev string) string {
	base, dirty := strings.CutSuffix(rev, "+dirty")
	if len(base) > 12 {
		base = base[:12]
	}
	if dirty {
		base += "+dirty"
	}
	return base
}

// Series is the history of one run key of one suite: a point per batch
// in which the run succeeded.
type Series struct {
	Suite     string            `json:"suite"`
	Key       string            `json:"key"`
	Benchmark string            `json:"benchmark"`
	Params    map[string]string `json:"params"`
	Mode      string            `json:"mode"`
	Threads   int               `json:"threads"`
	Unit      string            `json:"unit"`   // of the newest point; older ones are converted to it
	Better    string            `json:"better"` // "higher" or "lower"
	Points    []Point           `json:"points"`
	// FailedBatches are the batches in which the run ran and failed.
	FailedBatches []int `json:"failed_batches"`
	// OtherUnit counts points left out because their unit cannot be
	// converted to Unit (the spec changed the mode's kind of unit).
	OtherUnit    int           `json:"other_unit,omitempty"`
	ChangePoints []ChangePoint `json:"change_points"`
	// Detectable is, for a series without change points, the smallest
	// relative change of its level that the detection could have told
	// apart from its noise at all: the (1 − P) half-width of a change
	// between its two halves, relative to its level (the best split it
	// has; a change at the newest night needs more). Null with fewer
	// than three points or with change points. TooNoisy is set when
	// Detectable is above MinChange: the series is not steady, it
	// cannot tell.
	Detectable report.Float `json:"detectable"`
	TooNoisy   bool         `json:"too_noisy,omitempty"`
	// Regressed is set when the newest change point is a regression that
	// the newest point does not revert (see Regressed).
	Regressed bool `json:"regressed"`
}

// Point is a run's score in one batch, in the series' unit.
type Point struct {
	Batch int          `json:"batch"`
	Score report.Float `json:"score"`
	Error report.Float `json:"error"` // 99.9 % half-width, as in the report
	Count int          `json:"count"`
	Stdev report.Float `json:"stdev"` // of the iteration scores
	// Forks is the number of forks behind the score, and ForkStdev the
	// standard deviation of their means (null with fewer than two): the
	// score's own variance is ForkStdev² / Forks, forks being its
	// independent unit.
	Forks     int          `json:"forks"`
	ForkStdev report.Float `json:"fork_stdev"`
	// ForkMedian is the median of the fork means and ForkMAD their
	// median absolute deviation from it: the night's robust level and
	// spread (Level, LevelVariance). Null when unknown.
	ForkMedian report.Float `json:"fork_median"`
	ForkMAD    report.Float `json:"fork_mad"`
	Revision   string       `json:"revision,omitempty"`
	Label      string       `json:"label,omitempty"`
}

// Direction of a change point, by the unit.
const (
	Regression  = "regression"
	Improvement = "improvement"
)

// ChangePoint is a lasting change of a series' level.
type ChangePoint struct {
	// Index is the position in Points of the first point after the
	// change; Batch is that point's batch.
	Index int `json:"index"`
	Batch int `json:"batch"`
	// RevisionBefore and RevisionAfter are the revisions of the points
	// either side: the change came in between (or with the environment).
	RevisionBefore string       `json:"revision_before,omitempty"`
	RevisionAfter  string       `json:"revision_after,omitempty"`
	LabelBefore    string       `json:"label_before,omitempty"`
	LabelAfter     string       `json:"label_after,omitempty"`
	MeanBefore     report.Float `json:"mean_before"` // of the points back to the previous change
	MeanAfter      report.Float `json:"mean_after"`  // of the points up to the next change
	// Change is (MeanAfter − MeanBefore) / MeanBefore, with its
	// confidence interval at level 1 − P.
	Change    report.Float    `json:"change"`
	ChangeCI  [2]report.Float `json:"change_ci"`
	P         report.Float    `json:"p"`
	Direction string          `json:"direction"`
}

// Analyze detects the change points of every series of h in place and
// sets each series' verdict. Same history, same options: same result.
func Analyze(h *History, opts Options) {
	opts = opts.withDefaults()
	h.SchemaVersion, h.Method, h.MinChange, h.P = SchemaVersion, Method, opts.MinChange, opts.P
	for i := range h.Series {
		analyze(&h.Series[i], opts)
	}
}

func analyze(s *Series, opts Options) {
	d := &detector{x: make([]float64, len(s.Points)), own: make([]float64, len(s.Points)), opts: opts}
	for i, p := range s.Points {
		d.x[i] = p.Level()
		d.own[i] = p.LevelVariance()
	}
	s.ChangePoints = []ChangePoint{}
	for _, c := range d.detect() {
		before, after := s.Points[c.index-1], s.Points[c.index]
		lo, hi := c.test.interval(opts.P)
		cp := ChangePoint{Index: c.index, Batch: after.Batch,
			RevisionBefore: before.Revision, RevisionAfter: after.Revision,
			LabelBefore: before.Label, LabelAfter: after.Label,
			MeanBefore: report.Float(c.test.mean1), MeanAfter: report.Float(c.test.mean2),
			Change: report.Float(c.test.rel()), ChangeCI: [2]report.Float{report.Float(lo), report.Float(hi)},
			P: report.Float(c.test.p), Direction: Improvement}
		if (s.Better == "lower") == (c.test.mean2 > c.test.mean1) {
			cp.Direction = Regression
		}
		s.ChangePoints = append(s.ChangePoints, cp)
	}
	s.Detectable, s.TooNoisy = report.NaN(), false
	if len(s.ChangePoints) == 0 {
		if v := d.detectable(); !math.IsNaN(v) {
			s.Detectable = report.Float(v)
			s.TooNoisy = v > opts.MinChange
		}
	}
	s.Regressed = regressed(s)
}

// Level is the point's level for the change point detection: the
// median of its fork means. A busy machine slows some forks of a night
// far more than others (a CPU hog takes the core a fork ran on for part
// of its life); the mean of the forks moves with each such fork, the
// median only when most forks are hit. With two forks it is their mean.
// The score, when the point has no fork means (one fork, or an index
// entry of before they were kept).
func (p Point) Level() float64 {
	if p.Forks >= 2 && p.ForkMedian.Valid() {
		return float64(p.ForkMedian)
	}
	return float64(p.Score)
}

// LevelVariance is the variance of Level as the point's own forks tell:
// with three forks or more, the spread of the fork means from their
// MAD (robust as the median is: a slowed fork does not widen it) times
// π/2 over the forks, the large-sample variance of a median of normal
// values; with two, OwnVariance (their median is their mean); without
// fork medians, OwnVariance.
func (p Point) LevelVariance() float64 {
	if p.Forks >= 3 && p.ForkMedian.Valid() && p.ForkMAD.Valid() {
		sd := stats.NormalMAD * float64(p.ForkMAD)
		return sd * sd * math.Pi / 2 / float64(p.Forks)
	}
	return p.OwnVariance()
}

// OwnVariance is the variance of the point's score as its own
// measurement tells: with forks as the independent unit, the variance of
// the mean of its fork means, ForkStdev² / Forks. A point of one fork
// (or of an older index entry without fork means) has no fork-level
// spread; for it the iteration scores' Stdev² / Count stands in, which
// treats iterations as independent and so is a lower bound. 0 when
// neither is known.
func (p Point) OwnVariance() float64 {
	switch {
	case p.Forks >= 2 && p.ForkStdev.Valid():
		return float64(p.ForkStdev) * float64(p.ForkStdev) / float64(p.Forks)
	case p.Stdev.Valid() && p.Count > 0:
		return float64(p.Stdev) * float64(p.Stdev) / float64(p.Count)
	}
	return 0
}

// regressed reports whether the newest change point of s is a regression
// that no later point reverts. The newest point reverts it when it is
// nearer the level before the change than the level after: a fix shows
// at once, before enough points gather for a change point of its own,
// while a single point of noise rarely crosses half the change.
func regressed(s *Series) bool {
	if len(s.ChangePoints) == 0 {
		return false
	}
	cp := s.ChangePoints[len(s.ChangePoints)-1]
	if cp.Direction != Regression {
		return false
	}
	last := float64(s.Points[len(s.Points)-1].Score)
	return math.Abs(last-float64(cp.MeanAfter)) <= math.Abs(last-float64(cp.MeanBefore))
}

// Regressions returns the series whose newest change is an unreverted
// regression, in series order.
func (h *History) Regressions() []*Series {
	var out []*Series
	for i := range h.Series {
		if h.Series[i].Regressed {
			out = append(out, &h.Series[i])
		}
	}
	return out
}

// Name is how output names the series: suite, benchmark with params and
// threads, and mode, as the run's key does.
func (s *Series) Name() string { return s.Suite + " " + s.Key }

// Last returns the newest point; ok is false for a series without any.
func (s *Series) Last() (Point, bool) {
	if len(s.Points) == 0 {
		return Point{}, false
	}
	return s.Points[len(s.Points)-1], true
}
