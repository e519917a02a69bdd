// Package benchspec is JMH for Go, driven by checked-in YAML specs. A
// suite is a main package that registers benchmark bodies by name and
// calls Main:
//
//	func init() {
//		benchspec.Register("sqrt.Sunk", func(b *benchspec.B) {
//			x := 0.0
//			for b.Loop() {
//				benchspec.Sink(math.Sqrt(x))
//				x++
//			}
//		})
//	}
//
//	func main() { benchspec.Main() }
//
// The benchspec program (cmd/benchspec) reads the specs, plans the batch
// and starts every fork as a fresh process of the suite binary, which
// links only this package, internal/worker and the fork protocol.
package benchspec

import (
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"sync"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
)

// Sink keeps v alive so that the computation producing it cannot be
// eliminated as dead code. It does not allocate and costs about as much
// as the computation's result staying in a register: use it on the result
// of the work inside `for b.Loop()`.
func Sink[T any](v T) { runtime.KeepAlive(v) }

// Option configures a registration.
type Option interface{ apply(*registration) }

// Params declares a benchmark's parameters with their default values, in
// the order the values should run. A spec entry's `params:` replaces the
// values of the parameters it names; the body reads them with B.Param.
type Params map[string][]string

func (p Params) apply(r *registration) {
	for k, v := range p {
		r.params[k] = append([]string(nil), v...)
	}
}

// IntParams declares integer parameters with their default values. A
// spec value that is not an integer is rejected at plan time, with its
// position; the body reads them with B.IntParam.
type IntParams map[string][]int

func (p IntParams) apply(r *registration) {
	for k, vs := range p {
		r.params[k] = nil
		for _, v := range vs {
			r.params[k] = append(r.params[k], strconv.Itoa(v))
		}
		r.ints[k] = true
	}
}

type registration struct {
	name   string
	body   worker.Body // a benchspec body, a func(*testing.B) (RegisterTesting) or a group
	params map[string][]string
	ints   map[string]bool
}

var registry struct {
	sync.Mutex
	byName map[string]*registration
}

// validName reports whether name is non-empty and only letters, digits,
// '_', '.', '/' and '-' (a loop, not a regexp: every fork registers its
// benchmarks before main, and compiling a regexp there costs each fork).
func validName(name string) bool {
	for _, c := range []byte(name) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '/' || c == '-') {
			return false
		}
	}
	return name != ""
}

// Register adds a benchmark body under name. Names consist of letters,
// digits and `_ . / -`. Register is meant for init functions: an invalid
// or duplicate name, or a nil body, is a programming error and panics.
func Register(name string, fn func(*B), opts ...Option) {
	if fn == nil {
		panic(fmt.Sprintf("benchspec.Register(%q): nil benchmark function", name))
	}
	register("Register", name, worker.Body{Bind: bind(fn)}, opts)
}

// register checks and adds a registration; fname names the caller in
// panics.
func register(fname, name string, body worker.Body, opts []Option) {
	if !validName(name) {
		panic(fmt.Sprintf("benchspec.%s: invalid benchmark name %q: use letters, digits and _ . / -", fname, name))
	}
	r := &registration{name: name, body: body, params: map[string][]string{}, ints: map[string]bool{}}
	for _, o := range opts {
		o.apply(r)
	}
	for k, v := range r.params {
		if !validName(k) || len(v) == 0 {
			panic(fmt.Sprintf("benchspec.%s(%q): parameter %q needs a name of letters, digits and _ . / - and at least one value", fname, name, k))
		}
	}
	if body.Testing != nil && len(r.params) > 0 {
		panic(fmt.Sprintf("benchspec.%s(%q): a func(*testing.B) cannot read parameters; register one benchmark per value instead", fname, name))
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.byName == nil {
		registry.byName = map[string]*registration{}
	}
	if _, dup := registry.byName[name]; dup {
		panic(fmt.Sprintf("benchspec.%s: benchmark %q registered twice", fname, name))
	}
	registry.byName[name] = r
}

func lookup(name string) (worker.Body, bool) {
	registry.Lock()
	defer registry.Unlock()
	r, ok := registry.byName[name]
	if !ok {
		return worker.Body{}, false
	}
	return r.body, true
}

// registered lists the registered benchmarks, sorted by name, as the
// parent asks for them (protocol.EnvList); a group's setup runs once, to
// name its members.
func registered() []protocol.Registered {
	registry.Lock()
	regs := make([]*registration, 0, len(registry.byName))
	for _, r := range registry.byName {
		regs = append(regs, r)
	}
	registry.Unlock() // a group's setup is the user's code: not under the lock
	out := make([]protocol.Registered, 0, len(regs))
	for _, r := range regs {
		b := protocol.Registered{Name: r.name, Params: r.params, Testing: r.body.Testing != nil}
		if r.body.Members != nil {
			for _, m := range r.body.Members() {
				b.Members = append(b.Members, m.Name)
			}
		}
		for k := range r.ints {
			b.IntParams = append(b.IntParams, k)
		}
		sort.Strings(b.IntParams)
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
