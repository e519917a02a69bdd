package worker

import (
	"math"
	"runtime"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
)

// phase is one run of iterations: warmup or measurement.
type phase struct {
	name       string
	iterations int
	time       int64 // ns
	batch      uint64
}

// runner is the slow-path state of one thread's B: where the fork is in
// its phases and iterations, the timer, and each mode's bookkeeping.
type runner struct {
	clock Clock
	rand  Rand
	mode  protocol.Mode
	opi   float64
	s     *protocol.Settings
	g     *group
	slot  int // this thread's place among the fork's threads (group.gather)

	phases []phase
	ph     int // index into phases
	iter   int // 1-based index of the current iteration within its phase

	started, done, inIteration bool
	chunked                    bool // the body loops with Invocations, not Loop

	setup, teardown []func() // Level.Iteration hooks, outside the timed window

	// The user's timer: acc holds the timed nanoseconds of the current
	// segment before tstart; the timer runs when timerOn.
	timerOn bool
	tstart  int64
	acc     int64

	iterStart int64              // clock at the start of the iteration
	it        protocol.Iteration // the iteration end hands to the group
	invBase   uint64             // b.loop.i at the start of the iteration
	chunk     uint64             // thrpt/avgt: the size of the last chunk
	chunks    int64              // thrpt/avgt: the chunks, so clock reads, an iteration aims at

	// Sample mode.
	sampling   bool
	samples    *hist.Histogram
	sampleSum  float64 // ns, the sum of the sampled batches
	period     float64 // mean number of batches between samples; grows
	stride     int     // samples since period last grew
	strideSize int     // samples per stride (JMH: 20 per ms of iteration)
}

func newRunner(s *protocol.Settings, mode protocol.Mode, clock Clock, rnd Rand, g *group) *runner {
	r := &runner{
		clock: clock, rand: rnd, mode: mode, g: g,
		opi: float64(s.OpsPerInvocation), s: s,
		period: 1, chunks: iterationChunks,
	}
	for _, p := range []struct {
		name string
		it   protocol.Phase
	}{{protocol.PhaseWarmup, s.Warmup}, {protocol.PhaseMeasurement, s.Measurement}} {
		if p.it.Iterations > 0 {
			r.phases = append(r.phases, phase{p.name, p.it.Iterations, int64(p.it.Time), uint64(max(p.it.BatchSize, 1))})
		}
	}
	return r
}

// loopSlow is everything Loop does besides counting: start the fork's
// first iteration, end the current one, and size the next chunk.
func (b *B) loopSlow() bool {
	r := b.r
	if r == nil || r.done {
		return false
	}
	if !r.started {
		r.started = true
		if len(r.phases) == 0 {
			return r.finish(b)
		}
		r.ph, r.iter = 0, 1
		return r.begin(b)
	}
	now := r.clock.Now()
	timed := r.acc
	if r.timerOn {
		timed += now - r.tstart
	}
	p := &r.phases[r.ph]
	switch {
	case !r.mode.TimedIterations(): // ss: the iteration was its one batch
		return r.end(b, now, timed, r.opi)
	case r.mode.Samples():
		return r.sample(b, now, timed, p)
	default: // thrpt, avgt
		if timed >= p.time {
			inv := float64(b.loop.i - r.invBase)
			return r.end(b, now, timed, inv*r.opi/float64(p.batch))
		}
		r.nextChunk(b, timed, p)
		return b.take()
	}
}

// chunkSlow is loopSlow for Invocations: it reports whether another
// chunk runs, with n - i invocations in it, the current call included.
func (b *B) chunkSlow() bool {
	if r := b.r; r != nil {
		r.chunked = true
	}
	if !b.loopSlow() {
		return false
	}
	b.loop.i-- // loopSlow counted this call; Invocations counts the chunk whole
	return true
}

// take counts the current call as an invocation and returns true.
func (b *B) take() bool {
	b.loop.i++
	return true
}

// beforeIteration is what a fork does before each iteration, outside
// the timed window, whether it runs a benchmark through B or testing.B:
// a GC when gc_before_iteration asks for one, the profilers' snapshot,
// then the duet barrier (nil: none), which is passed even when the
// snapshot failed.
func beforeIteration(s *protocol.Settings, prof *profiler, barrier func()) error {
	if s.GCBeforeIteration {
		runtime.GC()
	}
	var err error
	if prof != nil {
		err = prof.iterationStart()
	}
	if barrier != nil {
		barrier()
	}
	return err
}

// begin starts the current iteration: the iteration setup hooks, then
// (once every thread is ready) GC and profiler snapshots, then the timer.
// Everything before the timer starts is outside the timed window.
func (r *runner) begin(b *B) bool {
	p := &r.phases[r.ph]
	for _, f := range r.setup {
		f()
	}
	ok := r.g.await(func() {
		if err := beforeIteration(r.s, r.g.prof, r.g.barrier); err != nil {
			r.g.err, r.g.aborted = err, true
		}
	})
	if !ok {
		return r.finish(b)
	}
	r.inIteration = true
	r.invBase = b.loop.i
	r.acc = 0
	switch {
	case !r.mode.TimedIterations(): // ss: one batch, timed whole
		b.loop.n = b.loop.i + p.batch
	case r.mode.Samples():
		r.samples = &hist.Histogram{}
		r.sampleSum = 0
		r.strideSize = max(1, int(20*p.time/int64(time.Millisecond)))
		r.sampling = false
		r.schedule(b, p)
	default:
		r.chunk = 1
		b.loop.n = b.loop.i + 1
	}
	r.timerOn = true
	r.iterStart = r.clock.Now()
	r.tstart = r.iterStart
	return b.take()
}

// iterationChunks is the chunks per iteration a benchmark's loop aims at;
// the fork's baseline, whose iterations are short, aims at fewer
// (baselineChunks).
const iterationChunks = 100

// maxChunkTime bounds a chunk's time, however long the iteration: the
// loop leaves its fast path at least this often. A tight loop that ran
// for milliseconds without leaving it slowed down for long stretches, in
// both loop forms (and testing.B's own loops); 20 µs chunks brought both
// forms to the level `for range b.N` reaches at its best. Each chunk costs
// a clock read and the slow path's bookkeeping, about 0.25 % of the
// iteration's time, counted in it. Figures: docs/performance.md
// ("The loop forms").
const maxChunkTime = 20 * time.Microsecond

// nextChunk sizes the next run of fast-path invocations so that the clock
// is read about r.chunks times per iteration (iterationChunks, a hundred)
// and at least every maxChunkTime, and the iteration overshoots its time
// by at most one chunk. Growth is capped at ×100 per chunk, as in
// testing.B, so a slow first invocation cannot make one chunk the whole
// iteration.
func (r *runner) nextChunk(b *B, timed int64, p *phase) {
	inv := b.loop.i - r.invBase
	next := r.chunk * 100
	if timed > 0 && inv > 0 {
		want := min(p.time-timed, max(min(p.time/r.chunks, int64(maxChunkTime)), 1))
		predicted := uint64(float64(want) * float64(inv) / float64(timed))
		next = min(next, max(predicted, 1))
	}
	r.chunk = max(next, 1)
	b.loop.n = b.loop.i + r.chunk
}

// end finishes the current iteration with its timed nanoseconds and
// operations, hands it to the group, runs the teardown hooks, and starts
// the next iteration or ends the fork.
func (r *runner) end(b *B, now, timed int64, ops float64) bool {
	p := &r.phases[r.ph]
	r.inIteration = false
	r.timerOn = false
	// The iteration is written into the runner, not built on the stack:
	// this runs under the body's frames on a goroutine that started with
	// 2 KiB of stack, and with a copy of protocol.Iteration here and
	// another as submit's argument the hand-over to RunBound's goroutine
	// outgrew it at the end of every fork's first iteration
	// (TestIterationEndKeepsTheBodysStack).
	it := &r.it
	*it = protocol.Iteration{}
	it.Phase, it.Index = p.name, r.iter
	it.Ops, it.TimeNs = ops, float64(timed)
	it.Invocations = b.loop.i - r.invBase
	if r.g.n > 1 || r.samples != nil {
		r.windowAndSamples(it, now)
	}
	ok := r.g.submit(it, r.slot)
	for _, f := range r.teardown {
		f()
	}
	if !ok {
		return r.finish(b)
	}
	r.iter++
	if r.iter > p.iterations {
		r.ph, r.iter = r.ph+1, 1
		if r.ph == len(r.phases) {
			return r.finish(b)
		}
	}
	return r.begin(b)
}

// windowAndSamples adds to the iteration end reports what only some forks
// have: the iteration's window when threads share it, the histogram in
// sample mode. Not inlined: its temporaries would enlarge end's frame.
//
//go:noinline
func (r *runner) windowAndSamples(it *protocol.Iteration, now int64) {
	if r.g.n > 1 {
		it.Windows = [][2]int64{{r.iterStart, now}}
	}
	if r.samples != nil {
		snap := r.samples.Snapshot()
		it.Histogram = &snap
		it.TimeNs = r.sampleSum
		r.samples = nil
	}
}

// finish ends the fork for this thread: Loop returns false from now on.
func (r *runner) finish(b *B) bool {
	r.done = true
	r.timerOn = false
	b.loop.n = b.loop.i
	return false
}

// sample is sample mode's slow path: record the batch just timed, end the
// iteration when its wall time is up, otherwise schedule the next sample.
// Between samples whole batches run on the fast path, untimed, so the
// clock is read only twice per sample.
func (r *runner) sample(b *B, now, timed int64, p *phase) bool {
	if r.sampling {
		r.sampling = false
		r.samples.Record(float64(timed) / r.opi)
		r.sampleSum += float64(timed)
		if r.stride++; r.stride >= r.strideSize {
			// Like JMH, halve the sampling rate each time a stride of
			// samples is full, so a long iteration's sample count grows
			// only logarithmically with its invocations.
			r.period *= 2
			r.stride = 0
		}
	}
	if now-r.iterStart >= p.time {
		return r.end(b, now, timed, float64(r.samples.Count())*r.opi)
	}
	r.schedule(b, p)
	if r.sampling {
		r.acc = 0
		r.tstart = r.clock.Now()
	}
	return b.take()
}

// schedule sets the end of the next chunk: either the next sampled batch,
// or a random number of unsampled batches before it (geometric with mean
// period, so which invocations are timed is independent of the workload's
// own rhythm).
func (r *runner) schedule(b *B, p *phase) {
	gap := uint64(0)
	if r.period > 1 {
		// Log1p keeps 1-1/period exact for huge periods; the cap keeps
		// gap×batch far from overflow.
		g := math.Log1p(-r.rand.Float64()) / math.Log1p(-1/r.period)
		gap = uint64(min(g, 1<<40))
	}
	if gap == 0 {
		r.sampling = true
		b.loop.n = b.loop.i + p.batch
		return
	}
	b.loop.n = b.loop.i + gap*p.batch
}
