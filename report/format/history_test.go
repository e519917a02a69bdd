package format

import (
	"testing"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/history"
)

// TestTrend: a series without change points says what it could have
// told apart: "steady" when a change of the detectable size would have
// shown, "too noisy to tell" with that size when it is above MinChange
// (Series.TooNoisy), "too few" when there is no size.
func TestTrend(t *testing.T) {
	points := make([]history.Point, 8)
	for _, c := range []struct {
		s    history.Series
		want string
	}{
		{history.Series{Points: points, Detectable: 0.031}, "8 points, steady: a change of ±3.1% would show"},
		{history.Series{Points: points, Detectable: 0.412, TooNoisy: true}, "8 points, too noisy to tell: no change smaller than ±41% could be told apart"},
		{history.Series{Points: points[:2], Detectable: report.NaN()}, "2 points, too few to tell a change"},
	} {
		if got := Trend(&c.s); got != c.want {
			t.Errorf("Trend = %q, want %q", got, c.want)
		}
	}
}

func TestPercent2(t *testing.T) {
	for f, want := range map[float64]string{0.0314: "3.1%", 0.412: "41%", 6.19: "619%", 0.005: "0.5%"} {
		if got := Percent2(f); got != want {
			t.Errorf("Percent2(%v) = %q, want %q", f, got, want)
		}
	}
}
