package compare

// Corrections for the family of one comparison (Options.Correction).
const (
	// Holm is Holm's step-down correction (Holm 1979): the probability
	// that any pair of the comparison gets a false regression or
	// improvement is at most Alpha, whatever the dependence between
	// the pairs.
	Holm = "holm"
	// NoCorrection tests each pair at Alpha on its own: with 50 runs
	// and no change, about 50·Alpha of them may be false verdicts.
	NoCorrection = "none"
	// Bonferroni tests each of m pairs at Alpha/m: what a paired
	// comparison (ab) uses, whose pairs stop at different looks.
	Bonferroni = "bonferroni"
)

// Corrections are the values Options.Correction accepts ("" is Holm).
var Corrections = []string{Holm, NoCorrection}
