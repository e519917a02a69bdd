package stats

import (
	"cmp"
	"math"
	"slices"
)

// Class is one of Google Benchmark's complexity classes: how a cost
// grows with n.
type Class string

// Classes are Google Benchmark's classes, in order of growth.
var Classes = []Class{"1", "logn", "n", "nlogn", "n^2", "n^3"}

// Of is the class's function at n (log base 2, as Google Benchmark's).
func (c Class) Of(n float64) float64 {
	switch c {
	case "logn":
		return math.Log2(n)
	case "n":
		return n
	case "nlogn":
		return n * math.Log2(n)
	case "n^2":
		return n * n
	case "n^3":
		return n * n * n
	}
	return 1
}

// ClassFit is one class fitted to points y(n) ± σ by weighted least
// squares through the origin, y ≈ Coef·f(n), as Google Benchmark fits
// (no constant term: sizes where the cost per op is mostly overhead
// make every class fit badly).
type ClassFit struct {
	Class Class
	Coef  float64 // y per unit of f(n)
	Chi2  float64 // Σ ((y − Coef·f(n)) / σ)²
	// RMS is Google Benchmark's normalised RMS: the root mean square of
	// the residuals over the mean of y.
	RMS float64
}

// FitClasses fits every class to the points (n[i], y[i] ± sigma[i]),
// best (least Chi2) first. A sigma that is not positive (no error
// known) weighs its point by its y: relative residuals.
func FitClasses(n, y, sigma []float64) []ClassFit {
	fits := make([]ClassFit, 0, len(Classes))
	for _, c := range Classes {
		var fy, ff, mean float64
		w := make([]float64, len(n))
		for i := range n {
			s := sigma[i]
			if !(s > 0) {
				s = y[i]
			}
			w[i] = 1 / (s * s)
			f := c.Of(n[i])
			fy += w[i] * f * y[i]
			ff += w[i] * f * f
			mean += y[i] / float64(len(n))
		}
		fit := ClassFit{Class: c, Coef: fy / ff}
		for i := range n {
			r := y[i] - fit.Coef*c.Of(n[i])
			fit.Chi2 += w[i] * r * r
			fit.RMS += r * r / float64(len(n))
		}
		fit.RMS = math.Sqrt(fit.RMS) / mean
		fits = append(fits, fit)
	}
	slices.SortStableFunc(fits, func(a, b ClassFit) int { return cmp.Compare(a.Chi2, b.Chi2) })
	return fits
}

// Apart reports whether fits[0], the best, is told apart from other
// given the points' errors: other's Chi2 exceeds the best's by more than
// χ²₁ at 99.9 % (10.8), the errors scaled up by the best fit's reduced
// χ² when that is above 1 (errors too small for the scatter, or a
// shape no class has), as the PDG scales its errors.
func Apart(fits []ClassFit, other ClassFit, points int) bool {
	scale := max(1, fits[0].Chi2/float64(points-1))
	z := NormalQuantile(0.9995)
	return other.Chi2-fits[0].Chi2 > z*z*scale
}
