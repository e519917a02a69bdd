package spec

import "slices"

// DiagSettings are the thresholds of the trust diagnostics (package
// report/diag) for one entry: `diagnostics:` in the spec's defaults or in
// an entry, overridden key by key; an entry's ignore list replaces the
// defaults' one.
//
// Each field's JSON name is its spec key. The zero value of a threshold
// means its default (DefaultDiagSettings), so that Settings built by
// hand, in tests or tools, diagnose like a spec that does not mention
// diagnostics. The schema keeps a spec from setting
// a threshold to zero.
type DiagSettings struct {
	// Ignore lists diagnostic codes not to report for the entry.
	Ignore []string `json:"ignore"`
	// DeadCodeRatio: DEAD_CODE fires when a call of the body costs less
	// than DeadCodeRatio × its own fork's floor (the fork's fastest
	// empty-loop baseline iteration), at the median over all iterations
	// of all forks.
	DeadCodeRatio float64 `json:"dead_code_ratio"`
	// TimerRatio: TIMER_RESOLUTION fires when the clock's resolution or
	// the cost of one read is above TimerRatio × the typical timed interval.
	TimerRatio float64 `json:"timer_ratio"`
	// NotSteadyP and NotSteadySlope: NOT_STEADY fires when the trend test
	// over the measured iterations has a p-value below NotSteadyP and the
	// slope is above NotSteadySlope × the mean per iteration.
	NotSteadyP     float64 `json:"not_steady_p"`
	NotSteadySlope float64 `json:"not_steady_slope"`
	// ForksDisagreeP, ForksDisagreeRatio and ForksDisagreeSpread:
	// FORKS_DISAGREE fires when the one-way ANOVA over the forks has a
	// p-value below ForksDisagreeP, the between-fork variance is at least
	// ForksDisagreeRatio × the within-fork variance, and the fork means
	// spread over more than ForksDisagreeSpread of the mean.
	ForksDisagreeP      float64 `json:"forks_disagree_p"`
	ForksDisagreeRatio  float64 `json:"forks_disagree_ratio"`
	ForksDisagreeSpread float64 `json:"forks_disagree_spread"`
	// MultimodalMValue: MULTIMODAL fires when the mvalue of the
	// distribution is at least MultimodalMValue and its two highest modes
	// lie more than MultimodalSeparation of the mean apart; iteration
	// scores are only tested when there are at least MultimodalMinValues
	// of them.
	MultimodalMValue     float64 `json:"multimodal_mvalue"`
	MultimodalSeparation float64 `json:"multimodal_separation"`
	MultimodalMinValues  int     `json:"multimodal_min_values"`
	// HighVarianceCV: HIGH_VARIANCE fires as a warning when the robust
	// coefficient of variation of the iteration scores is above it.
	// HighVarianceOutlierShift: outliers beyond Tukey's fences are
	// reported (as info) when dropping them moves the mean by more than
	// this fraction.
	HighVarianceCV           float64 `json:"high_variance_cv"`
	HighVarianceOutlierShift float64 `json:"high_variance_outlier_shift"`
}

// DefaultDiagSettings returns the default thresholds. They are chosen so
// that sound benchmarks stay silent on a shared, noisy machine: every
// statistical test needs strict significance and an effect large enough
// to matter (see the package doc of report/diag).
func DefaultDiagSettings() DiagSettings {
	return DiagSettings{
		Ignore:                   []string{},
		DeadCodeRatio:            3,
		TimerRatio:               0.01,
		NotSteadyP:               0.001,
		NotSteadySlope:           0.01,
		ForksDisagreeP:           0.001,
		ForksDisagreeRatio:       9,
		ForksDisagreeSpread:      0.05,
		MultimodalMValue:         3.2,
		MultimodalSeparation:     0.1,
		MultimodalMinValues:      30,
		HighVarianceCV:           0.1,
		HighVarianceOutlierShift: 0.05,
	}
}

// WithDefaults returns d with every zero threshold replaced by its default.
func (d DiagSettings) WithDefaults() DiagSettings {
	def := DefaultDiagSettings()
	orDefault := func(v *float64, dv float64) {
		if *v == 0 {
			*v = dv
		}
	}
	orDefault(&d.DeadCodeRatio, def.DeadCodeRatio)
	orDefault(&d.TimerRatio, def.TimerRatio)
	orDefault(&d.NotSteadyP, def.NotSteadyP)
	orDefault(&d.NotSteadySlope, def.NotSteadySlope)
	orDefault(&d.ForksDisagreeP, def.ForksDisagreeP)
	orDefault(&d.ForksDisagreeRatio, def.ForksDisagreeRatio)
	orDefault(&d.ForksDisagreeSpread, def.ForksDisagreeSpread)
	orDefault(&d.MultimodalMValue, def.MultimodalMValue)
	orDefault(&d.MultimodalSeparation, def.MultimodalSeparation)
	orDefault(&d.HighVarianceCV, def.HighVarianceCV)
	orDefault(&d.HighVarianceOutlierShift, def.HighVarianceOutlierShift)
	if d.MultimodalMinValues == 0 {
		d.MultimodalMinValues = def.MultimodalMinValues
	}
	d.Ignore = slices.Clone(d.Ignore)
	if d.Ignore == nil {
		d.Ignore = []string{}
	}
	return d
}

// Ignores reports whether code is in the ignore list.
func (d DiagSettings) Ignores(code string) bool { return slices.Contains(d.Ignore, code) }

// toFloat converts a validated number, or a percentage ("1%", a
// precision's error) to a fraction.
func toFloat(v any) float64 {
	switch x := v.(type) {
	case string:
		return percent(x)
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}
