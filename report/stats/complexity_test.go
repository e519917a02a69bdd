package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// points returns y = coef·f(n)·(1 + noise·ε), ε standard normal, with the
// error σ = noise·y each point's error claims.
func points(c Class, coef, noise float64, n []float64, r *rand.Rand) (y, sigma []float64) {
	for _, x := range n {
		v := coef * c.Of(x)
		y = append(y, v*(1+noise*r.NormFloat64()))
		sigma = append(sigma, noise*v)
	}
	return y, sigma
}

func TestFitClassesFindsTheClass(t *testing.T) {
	n := []float64{1000, 2000, 4000, 8000, 16000}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range Classes {
		for _, noise := range []float64{0, 0.01} {
			for range 20 {
				y, sigma := points(c, 3, noise, n, r)
				if noise == 0 {
					sigma = []float64{0, 0, 0, 0, 0} // no error known: relative residuals
				}
				fits := FitClasses(n, y, sigma)
				if fits[0].Class != c {
					t.Fatalf("%s, noise %g: classed %s (%+v)", c, noise, fits[0].Class, fits)
				}
				if math.Abs(fits[0].Coef/3-1) > 0.05 {
					t.Errorf("%s, noise %g: coefficient %g, want 3", c, noise, fits[0].Coef)
				}
				if noise == 0 && fits[0].RMS > 1e-12 {
					t.Errorf("%s exact: RMS %g, want 0", c, fits[0].RMS)
				}
				if noise > 0 && !Apart(fits, fits[1], len(n)) {
					t.Errorf("%s at 1 %% noise: cannot tell from %s (%+v)", c, fits[1].Class, fits)
				}
			}
		}
	}
}

// Over 32–512 with 20 % errors, n and n log n fit the same points
// within their errors: the fit must say it cannot tell them apart.
func TestFitClassesCannotTell(t *testing.T) {
	n := []float64{32, 64, 128, 256, 512}
	y := []float64{32, 64, 128, 256, 512}
	sigma := make([]float64, len(y))
	for i := range y {
		y[i] *= math.Log2(n[i]) / 7 // n log n, scaled near n in the middle
		sigma[i] = 0.2 * y[i]
	}
	fits := FitClasses(n, y, sigma)
	if fits[0].Class != "nlogn" {
		t.Fatalf("best %s, want nlogn (%+v)", fits[0].Class, fits)
	}
	if fits[1].Class != "n" || Apart(fits, fits[1], len(n)) {
		t.Errorf("next %s, apart %v; want n, not apart (%+v)", fits[1].Class, Apart(fits, fits[1], len(n)), fits)
	}
}
