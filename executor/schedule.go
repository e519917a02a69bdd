package executor

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/benchspec/benchspec/plan"
)

// Orders in which Execute can run the forks of a plan.
const (
	// OrderDeclared runs the plan's runs one after the other, all forks
	// of a run before the next run: JMH's order, and the default.
	OrderDeclared = "declared"
	// OrderInterleaved runs the forks round-robin over the runs — the
	// first fork of every run, then the second of every run, … — so that
	// a slow drift of the machine (heat, a neighbour, a background job)
	// spreads over all benchmarks instead of hitting the last ones.
	OrderInterleaved = "interleaved"
	// OrderRandom runs the forks in a shuffled order that its seed
	// reproduces.
	OrderRandom = "random"
)

// Orders lists the valid orders.
func Orders() []string { return []string{OrderDeclared, OrderInterleaved, OrderRandom} }

// Order is the order in which Execute runs the forks of a plan. The zero
// Order is OrderDeclared. Whatever the order, a run's own forks run in
// their numbered order (warmup forks first), and the results are the
// same data: forks are attributed to their runs.
type Order struct {
	// Kind is one of OrderDeclared, OrderInterleaved and OrderRandom; ""
	// is OrderDeclared.
	Kind string
	// Seed drives OrderRandom: the same seed and plan give the same order
	// on every machine and Go version.
	Seed uint64
}

// ParseOrder checks an order's name; "" is OrderDeclared.
func ParseOrder(kind string, seed uint64) (Order, error) {
	switch kind {
	case "", OrderDeclared:
		return Order{Kind: OrderDeclared}, nil
	case OrderInterleaved, OrderRandom:
		return Order{Kind: kind, Seed: seed}, nil
	}
	return Order{}, fmt.Errorf("unknown order %q; valid orders: %s", kind, strings.Join(Orders(), ", "))
}

// Slot is one fork of a plan: the run's index and the fork's 1-based
// number.
type Slot struct{ Run, Fork int }

// Schedule lists every fork of p once, in the order o says. Each run's
// forks appear in their numbered order.
func (o Order) Schedule(p *plan.Plan) []Slot {
	var slots []Slot
	switch o.Kind {
	case OrderInterleaved:
		for f, more := 1, true; more; f++ {
			more = false
			for i := range p.Runs {
				if n := forkCount(&p.Runs[i]); f <= n {
					slots = append(slots, Slot{i, f})
					more = more || f < n
				}
			}
		}
	case OrderRandom:
		slots = declared(p)
		shuffle(slots, o.Seed)
		// The shuffle decides which run goes next; its forks keep their
		// numbered order, so that warmup forks still come first.
		next := make([]int, len(p.Runs))
		for i := range slots {
			next[slots[i].Run]++
			slots[i].Fork = next[slots[i].Run]
		}
	default:
		slots = declared(p)
	}
	return slots
}

// declared is every fork of p, run after run.
func declared(p *plan.Plan) []Slot {
	var slots []Slot
	for i := range p.Runs {
		for f := 1; f <= forkCount(&p.Runs[i]); f++ {
			slots = append(slots, Slot{i, f})
		}
	}
	return slots
}

// shuffle is a Fisher–Yates shuffle driven by PCG, spelled out rather
// than rand.Shuffle so that a seed recorded in a report gives the same
// order with any future Go release (the standard library promises PCG's
// output, not Shuffle's algorithm). The modulo's bias is below 2⁻⁴⁰ for
// any plan that fits in memory.
func shuffle(s []Slot, seed uint64) {
	r := rand.NewPCG(seed, 0x62656e6368737063) // "benchspc"
	for i := len(s) - 1; i > 0; i-- {
		j := int(r.Uint64() % uint64(i+1))
		s[i], s[j] = s[j], s[i]
	}
}
