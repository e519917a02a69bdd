package protocol

import (
	"math"
	"testing"
)

func TestBaselineFloorIsTheFastestIterationOfEitherForm(t *testing.T) {
	for _, tc := range []struct {
		name      string
		loop, inv []float64
		want      float64
	}{
		{"none", nil, nil, 0},
		{"loop only", []float64{0.4, 0.3, 0.9}, nil, 0.3},
		{"invocations cheaper", []float64{0.6, 0.58}, []float64{0.31, 0.29, 0.5}, 0.29},
		{"loop cheaper", []float64{0.29, 0.3}, []float64{0.31, 0.6}, 0.29},
		{"not numbers skipped", []float64{math.NaN(), 0, -1, math.Inf(1), 0.5}, []float64{math.NaN()}, 0.5},
		{"nothing usable", []float64{0, math.NaN()}, []float64{-2}, 0},
	} {
		cal := TimerCalibration{BaselineNs: tc.loop, BaselineInvocationsNs: tc.inv}
		if got := cal.BaselineFloorNs(); got != tc.want {
			t.Errorf("%s: floor %v, want %v", tc.name, got, tc.want)
		}
	}
}
