package executor

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// A duet runs a fork of build A and a fork of build B at the same time
// (OrderDuet) and holds each of their iterations until both are ready:
// a fork reaches barrier k when it has reported k−1 iterations after
// its hello, and waits there for a byte on its standard input
// (protocol.Assignment.Duet). The duet writes one to each when both have
// reached it; a fork that has ended stops counting, and the other goes
// on alone. The parent writes only between iterations, when neither fork
// measures.
type duet struct {
	mu       sync.Mutex
	sides    [2]duetSide
	released int // the barriers passed
}

// duetSide is one fork of a duet.
type duetSide struct {
	d       *duet
	w       *os.File // the write end of the fork's standard input
	reached int      // the barriers the fork has reached
	gone    bool     // the fork has ended
	// deaf: the fork's hello did not promise to wait (a suite built
	// before duets); it ran beside its partner, not in step.
	deaf bool
	// share is the CPU time the fork got over its wall time, once it
	// has ended: about 1 for the slower fork of a duet on two free
	// CPUs.
	share float64
}

func newDuet() *duet {
	d := &duet{}
	for i := range d.sides {
		d.sides[i].d = d
	}
	return d
}

// open makes the pipe of the fork's standard input and returns its read
// end, the fork's.
func (s *duetSide) open() (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	s.d.mu.Lock()
	s.w = w
	s.d.mu.Unlock()
	return r, nil
}

// arrive counts the fork's next barrier (its hello or an iteration) and
// releases every fork waiting at a barrier both have reached. A nil side
// is a fork outside a duet.
func (s *duetSide) arrive() {
	if s == nil {
		return
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.reached++
	s.d.release()
}

// leave marks the fork ended: the other goes on alone.
func (s *duetSide) leave() {
	if s == nil {
		return
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.gone = true
	if s.w != nil {
		s.w.Close()
		s.w = nil
	}
	s.d.release()
}

// ended records how much of a CPU the fork got over its life.
func (s *duetSide) ended(ps *os.ProcessState, wall time.Duration) {
	if s == nil || ps == nil || wall <= 0 {
		return
	}
	s.d.mu.Lock()
	s.share = float64(ps.UserTime()+ps.SystemTime()) / float64(wall)
	s.d.mu.Unlock()
}

// minShare is the least share of a CPU the slower fork of a duet must
// get for the machine to count as having two CPUs to spare. The faster
// fork waits at every barrier for the other and gets less; beside a
// busy neighbour both get about two thirds of a CPU on two CPUs.
const minShare = 0.8

// starvedPairs is how many starved duets in a row turn a batch
// sequential: one is a passing burst of another process, and costs
// only that pair some precision.
const starvedPairs = 3

// starved reports whether neither fork got minShare of a CPU: a third
// party took a CPU from the duet, and with it whatever the pairing of
// simultaneous iterations was worth.
func (d *duet) starved() (bool, float64, float64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, b := d.sides[0].share, d.sides[1].share
	return a > 0 && b > 0 && max(a, b) < minShare, a, b
}

// deafen marks a fork whose hello did not promise to wait (a suite built
// before duets): its partner must not wait for it either.
func (s *duetSide) deafen() {
	s.d.mu.Lock()
	s.deaf = true
	s.d.mu.Unlock()
	s.leave()
}

// release passes every barrier that each fork still running has reached.
func (d *duet) release() {
	for {
		next, live := d.released+1, 0
		for i := range d.sides {
			s := &d.sides[i]
			if s.gone {
				continue
			}
			if s.reached < next {
				return
			}
			live++
		}
		if live == 0 {
			return
		}
		d.released = next
		for i := range d.sides {
			if s := &d.sides[i]; !s.gone && s.w != nil {
				s.w.Write([]byte{1})
			}
		}
	}
}

// duetPartner is the fork that runs beside slot i in a duet: slot i+1
// when the order is OrderDuet, i is even, and the two are the same fork
// of a build-A run and its build-B run.
func duetPartner(p *plan.Plan, o Order, slots []Slot, i int) (Slot, bool) {
	if o.Kind != OrderDuet || i%2 != 0 || i+1 >= len(slots) {
		return Slot{}, false
	}
	s, t := slots[i], slots[i+1]
	n := len(p.Runs) / 2
	return t, s.Fork == t.Fork && (s.Run+n == t.Run || t.Run+n == s.Run)
}

// duet runs fork f of ra and of rb at the same time, their iterations
// synchronized, and keeps both as fork does. A fork that cannot run in
// a duet (done before, its run failed or grown, a package benchmark or
// a forks: 0 run) runs the pair one after the other instead.
func (x *execution) duet(ra, rb *plan.Run, f int) (stop bool, err error) {
	if !x.duetable(ra, f) || !x.duetable(rb, f) {
		if stop, err := x.fork(ra, f); stop || err != nil {
			return stop, err
		}
		return x.fork(rb, f)
	}
	var as [2]*protocol.Assignment
	for i, r := range []*plan.Run{ra, rb} {
		a, _, stop := x.prepare(r, f, i)
		if stop {
			return true, nil
		}
		a.Duet = true
		as[i] = a
	}
	d := newDuet()
	obs := &lockedObserver{Observer: x.obs}
	scratch := [2]*scratchDirs{&x.scratch, &x.partner}
	var frs [2]protocol.ForkResult
	var wg sync.WaitGroup
	for i, r := range []*plan.Run{ra, rb} {
		wg.Go(func() {
			frs[i] = runFork(x.ctx, r, as[i], x.opts, obs, x.guard, x.mark, scratch[i], &d.sides[i])
		})
	}
	wg.Wait()
	// Recorded per fork: a batch of duets may turn sequential (starved
	// below) or meet a partner without a barrier, and its pairs are
	// then no longer in step.
	inStep := !d.sides[0].deaf && !d.sides[1].deaf
	for i := range frs {
		frs[i].Duet = inStep
	}
	for i := range d.sides {
		if d.sides[i].deaf && x.opts.Warn != nil && !x.deafWarned {
			x.deafWarned = true
			x.opts.Warn(fmt.Sprintf("%s: its suite binary predates duets; its forks ran beside their partners, not in step", []*plan.Run{ra, rb}[i].Key))
		}
	}
	if starved, a, b := d.starved(); !starved {
		x.starved = 0
	} else if x.starved++; x.starved == starvedPairs {
		// Another process has taken a CPU from the pairs: the rest of
		// the batch runs its pairs one fork after the other.
		x.solo = true
		if x.opts.Warn != nil {
			x.opts.Warn(fmt.Sprintf("%s fork %d: %d duets in a row did not get a CPU for each fork (the last got %.0f %% and %.0f %%: another process took one, or the benchmark waits rather than computes); the remaining pairs run one fork after the other", ra.Key, f, starvedPairs, 100*a, 100*b))
		}
	}
	for i, r := range []*plan.Run{ra, rb} {
		if x.ended(r, &frs[i]) {
			return true, nil
		}
	}
	for i, r := range []*plan.Run{ra, rb} {
		if stop, err := x.settle(r, f, frs[i], false); stop || err != nil {
			return stop, err
		}
	}
	return false, nil
}

// Duetable reports whether r's forks can run in duets: a registered
// benchmark (a package benchmark's fork runs its test binary, which has
// no barrier) with forks of its own, on one thread (a duet gives each
// fork one CPU).
func Duetable(r *plan.Run) bool {
	return r.Settings.Forks > 0 && r.GoTest == nil && r.Settings.Threads == 1
}

// duetable reports whether fork f of r can run in a duet: a fresh fork
// of a Duetable run that has not failed, with the run's iterations.
func (x *execution) duetable(r *plan.Run, f int) bool {
	_, done := x.done[forkID{r.Index, f}]
	return Duetable(r) && !done && !x.runs[r.Index].failed && x.iterations[forkID{r.Index, f}] == 0
}

// lockedObserver serializes the Iteration calls of the two forks of a
// duet, the only ones their goroutines make.
type lockedObserver struct {
	Observer
	mu sync.Mutex
}

func (l *lockedObserver) Iteration(r *plan.Run, f int, it *protocol.Iteration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Observer.Iteration(r, f, it)
}
