package gotest

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Block is what one iteration (one testing.RunBenchmarks call) wrote on
// the result descriptor, between the driver's begin and end lines.
type Block struct {
	Func  string // the top-level benchmark function
	Phase string
	Index int // 1-based within the phase
	// Results are testing's result lines, each named as go test prints
	// it without the -GOMAXPROCS suffix the test binary added.
	Results []Result
	// Skips and Fails are testing's "--- SKIP: name" and "--- FAIL:
	// name" lines with the log indented under them.
	Skips, Fails []Outcome
}

// Result is one result line.
type Result struct {
	Name   string // BenchmarkTrimSpace/NoTrim
	Result *benchfmt.Result
}

// Outcome is a benchmark that skipped or failed, with its log (the
// reason), unindented.
type Outcome struct {
	Name string
	Log  string
}

// Reader reads the driver's output: Next returns each iteration's Block
// as soon as its end line arrives.
type Reader struct {
	sc *bufio.Scanner
	// Procs is the test binary's GOMAXPROCS, the "-N" suffix it gives
	// result names when N > 1; 0 until the driver said it.
	Procs int
	// Labels are the header lines testing prints before the first
	// result (goos, goarch, pkg, cpu), in order, as printed.
	Labels [][2]string
	// Done reports whether the driver finished the whole job.
	Done bool

	block   *Block
	outcome *Outcome // the SKIP/FAIL whose indented log is being read
	logs    *[]Outcome
}

// NewReader reads the driver's output from r.
func NewReader(r io.Reader) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	return &Reader{sc: sc}
}

// labelKeys are the header keys testing prints, in its order.
var labelKeys = []string{"goos", "goarch", "pkg", "cpu"}

// Next returns the next complete Block. At the end of the output it
// returns io.EOF; output that breaks the driver's framing, and an error
// the driver reported, are errors.
func (r *Reader) Next() (*Block, error) {
	for r.sc.Scan() {
		line := r.sc.Text()
		if r.outcome != nil {
			if rest, ok := strings.CutPrefix(line, "    "); ok {
				if r.outcome.Log != "" {
					r.outcome.Log += "\n"
				}
				r.outcome.Log += rest
				continue
			}
			r.endOutcome()
		}
		if rest, ok := strings.CutPrefix(line, "\x16"); ok {
			b, err := r.frame(strings.Split(rest, "\t"))
			if b != nil || err != nil {
				return b, err
			}
			continue
		}
		r.content(line)
	}
	if r.outcome != nil {
		r.endOutcome()
	}
	if err := r.sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the test binary's results: %w", err)
	}
	if r.block != nil {
		return nil, fmt.Errorf("the test binary's output ended inside %s %s iteration %d", r.block.Func, r.block.Phase, r.block.Index)
	}
	return nil, io.EOF
}

// frame handles one of the driver's own lines.
func (r *Reader) frame(f []string) (*Block, error) {
	switch {
	case len(f) == 2 && f[0] == "procs":
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("the test binary's driver reported GOMAXPROCS %q", f[1])
		}
		r.Procs = n
	case len(f) == 4 && f[0] == "begin":
		if r.block != nil {
			return nil, fmt.Errorf("the test binary's driver began %s %s before ending the previous iteration", f[1], f[2])
		}
		i, err := strconv.Atoi(f[3])
		if err != nil {
			return nil, fmt.Errorf("the test binary's driver sent a malformed iteration %q", f[3])
		}
		r.block = &Block{Func: f[1], Phase: f[2], Index: i}
	case len(f) == 1 && f[0] == "end":
		b := r.block
		if b == nil {
			return nil, fmt.Errorf("the test binary's driver ended an iteration it did not begin")
		}
		r.block, r.logs = nil, nil
		return b, nil
	case len(f) == 1 && f[0] == "done":
		r.Done = true
	case len(f) == 2 && f[0] == "error":
		return nil, fmt.Errorf("the test binary's driver: %s", f[1])
	default:
		return nil, fmt.Errorf("the test binary's driver sent an unknown line %q", strings.Join(f, "\t"))
	}
	return nil, nil
}

// content handles a line that testing wrote: a label, a result, or the
// head of a SKIP, FAIL or BENCH log. Anything else (the bare benchmark
// names testing prints in verbose mode) carries nothing.
func (r *Reader) content(line string) {
	for _, k := range labelKeys {
		if v, ok := strings.CutPrefix(line, k+": "); ok {
			if !r.hasLabel(k) {
				r.Labels = append(r.Labels, [2]string{k, v})
			}
			return
		}
	}
	for _, tag := range []string{"SKIP", "FAIL", "BENCH"} {
		if name, ok := strings.CutPrefix(line, "--- "+tag+": "); ok {
			r.outcome = &Outcome{Name: strings.TrimSpace(name)}
			switch {
			case r.block == nil:
				r.logs = nil
			case tag == "SKIP":
				r.logs = &r.block.Skips
			case tag == "FAIL":
				r.logs = &r.block.Fails
			default:
				r.logs = nil // a benchmark's b.Log output: not a result
			}
			return
		}
	}
	if r.block == nil || !strings.HasPrefix(line, "Benchmark") || !strings.ContainsAny(line, " \t") {
		return
	}
	br := benchfmt.NewReader(strings.NewReader(line), "test binary")
	if !br.Scan() {
		return
	}
	res, ok := br.Result().(*benchfmt.Result)
	if !ok {
		return
	}
	// benchfmt drops the "Benchmark" prefix from names; go test prints it.
	r.block.Results = append(r.block.Results, Result{Name: r.StripProcs("Benchmark" + string(res.Name)), Result: res.Clone()})
}

func (r *Reader) endOutcome() {
	if r.logs != nil {
		*r.logs = append(*r.logs, *r.outcome)
	}
	r.outcome = nil
}

func (r *Reader) hasLabel(k string) bool {
	for _, l := range r.Labels {
		if l[0] == k {
			return true
		}
	}
	return false
}

// Open is the iteration that began and has not ended: after Next failed
// because the output ended early, the one the test binary died in.
func (r *Reader) Open() *Block { return r.block }

// StripProcs removes from a result name the "-N" suffix that the test
// binary added for its GOMAXPROCS N > 1, and nothing else: a name such
// as "Sub/size-8" keeps its "-8" when the binary ran with another N.
func (r *Reader) StripProcs(name string) string {
	if r.Procs > 1 {
		return strings.TrimSuffix(name, "-"+strconv.Itoa(r.Procs))
	}
	return name
}
