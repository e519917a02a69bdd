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
	// OrderPaired runs a plan of two builds' runs (`benchspec ab`): the
	// first half of its runs are build A's, the second half build B's
	// runs of the same keys, run i paired with run i+n/2. Each pair's
	// forks alternate in blocks of four, A B B A or B A A B at random
	// (the seed reproduces them): fork k of A and fork k of B run next to
	// each other, the order within a pair balanced over the blocks, so
	// that a drift of the machine hits both builds alike.
	OrderPaired = "paired"
	// OrderDuet is OrderPaired's schedule with each pair's two forks run
	// at the same time (`benchspec ab --duet`): fork k of A and fork k of
	// B start together, the kernel puts them on two CPUs, and each waits
	// for the other before every iteration (protocol.Assignment.Duet),
	// so that a pair's iterations run in the same seconds and whatever
	// the machine does then falls on both (Bulej et al., "Duet
	// Benchmarking", ICPE 2020).
	OrderDuet = "duet"
)

// Orders lists the valid orders.
func Orders() []string { return []string{OrderDeclared, OrderInterleaved, OrderRandom} }

// A plan of two builds is scheduled OrderPaired by `benchspec ab`, not by
// a name a user gives run --order: it is not among Orders.

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
	case OrderPaired, OrderDuet:
		slots = paired(p, o.Seed)
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

// paired is OrderPaired's schedule; a plan that is not two halves of one
// length runs declared.
func paired(p *plan.Plan, seed uint64) []Slot {
	n := len(p.Runs) / 2
	if n == 0 || len(p.Runs) != 2*n {
		return declared(p)
	}
	r := rand.New(rand.NewPCG(seed, 0x6162616261626162)) // "abababab"
	var slots []Slot
	for a := range n {
		b := a + n
		fa, fb := forkCount(&p.Runs[a]), forkCount(&p.Runs[b])
		for f := 1; f <= max(fa, fb); f += 2 {
			first, second := a, b
			if r.IntN(2) == 1 {
				first, second = b, a
			}
			// A block: first second second first, fork f and f+1 of each.
			for _, s := range []Slot{{first, f}, {second, f}, {second, f + 1}, {first, f + 1}} {
				if s.Fork <= forkCount(&p.Runs[s.Run]) {
					slots = append(slots, s)
				}
			}
		}
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
