package plan

import (
	"time"

	"github.com/benchspec/benchspec/spec"
)

// Benchmark describes one registered benchmark as the plan needs it.
type Benchmark struct {
	Name string
	// Params are the declared parameters with their default values.
	Params map[string][]string
	// IntParams names the parameters declared as integers: a spec value
	// for them that is not an integer is an error at plan time.
	IntParams map[string]bool
}

// Plan is the ordered list of runs a batch will execute.
type Plan struct {
	Suite    string    // the first spec's name
	Specs    []SpecRef // every spec the plan was built from
	Runs     []Run
	Estimate time.Duration // expected wall time of the whole plan
}

// SpecRef identifies a spec file by path and content.
type SpecRef struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Run is one benchmark × params × mode with its settings. Each run is
// measured by Settings.WarmupForks + Settings.Forks fresh processes.
type Run struct {
	Index     int
	Key       string // stable identity: benchmark, params and mode
	Benchmark string
	Params    []Param // sorted by name
	Mode      string  // one of the spec.Mode* constants, never "all"
	Settings  spec.Settings
	Spec      string // path of the spec that selected the run
	Entry     int    // index of the entry in that spec
	Estimate  time.Duration
}

// Param is one parameter's value in a run.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}
