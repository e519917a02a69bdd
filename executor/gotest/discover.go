package gotest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/benchspec/benchspec/executor/internal/child"
)

// Listing is what the test binary's listing run found.
type Listing struct {
	// Labels are the header lines the test binary prints before its
	// first result (goos, goarch, pkg, cpu), as printed; pkg, which a
	// binary only prints under go test, is the import path.
	Labels [][2]string `json:"labels"`
	// Funcs are, by benchmark function, the names of the benchmarks in
	// it as go test prints them without -GOMAXPROCS: the function itself
	// (BenchmarkIndex), or its sub-benchmarks (BenchmarkTrimSpace/NoTrim,
	// BenchmarkToLower/#00). A benchmark that skipped or failed at N=1 is
	// listed too: its runs report why.
	Funcs map[string][]string `json:"funcs"`
}

// Discover lists the benchmarks of the functions funcs of p. A function
// that cannot have sub-benchmarks (Package.Leaves) is listed as itself
// without running, unless the listing still lacks the header lines and
// nothing else would print them. Each other function not listed before
// runs once with -test.benchtime=1x (each of
// its sub-benchmarks once with b.N = 1, as go test runs them first) in
// one process of the test binary per test package; the listing is kept
// next to the binary in the cache, so an unchanged package is listed
// once. A function that crashes the listing process, or runs longer than
// timeout (the spec's per-iteration timeout; 0: no limit), is listed as
// itself (its run fails and says why); the others are listed by a new
// process.
func (b *Builder) Discover(ctx context.Context, p *Package, funcs map[string]bool, timeout time.Duration) (*Listing, error) {
	path := listingPath(b.cacheDir(), p.Binary)
	l := readListing(path)
	var todo []string
	for fn := range funcs {
		if _, ok := l.Funcs[fn]; !ok {
			todo = append(todo, fn)
		}
	}
	sort.Strings(todo)
	if len(todo) == 0 {
		return l, nil
	}
	// A function that certainly has no sub-benchmarks is listed as
	// itself without running: only a function that may call b.Run
	// runs. One runs anyway while the listing lacks go test's header
	// lines (goos, goarch, cpu), which the binary prints only before a
	// benchmark's first result.
	var run []string
	for _, fn := range todo {
		if p.Leaves[fn] {
			l.Funcs[fn] = []string{fn}
			continue
		}
		run = append(run, fn)
	}
	if len(run) == 0 && len(l.Labels) == 0 {
		run = todo[:1]
	}
	todo = run
	for _, ext := range []bool{false, true} {
		var mine []string
		for _, fn := range todo {
			if p.External[fn] == ext {
				mine = append(mine, fn)
			}
		}
		for len(mine) > 0 {
			rest, err := b.listRun(ctx, p, DriverTest(ext), mine, l, timeout)
			if err != nil {
				return nil, err
			}
			mine = rest
		}
	}
	if !slices.ContainsFunc(l.Labels, func(kv [2]string) bool { return kv[0] == "pkg" }) {
		l.Labels = withPkg(l.Labels, p.ImportPath)
	}
	writeListing(path, l)
	return l, nil
}

// withPkg inserts "pkg: path" where go test prints it: after goarch.
func withPkg(labels [][2]string, path string) [][2]string {
	i := 0
	for i < len(labels) && (labels[i][0] == "goos" || labels[i][0] == "goarch") {
		i++
	}
	return slices.Insert(slices.Clone(labels), i, [2]string{"pkg", path})
}

// listRun runs one listing process for funcs, records what it listed in
// l, and returns the functions it did not get to because one crashed it.
func (b *Builder) listRun(ctx context.Context, p *Package, driver string, funcs []string, l *Listing, timeout time.Duration) (rest []string, err error) {
	job := Job{Phases: []Phase{{Name: "list", Benchtime: Times(1), Count: 1}}}
	for _, fn := range funcs {
		job.Benchmarks = append(job.Benchmarks, Bench{Func: fn, Pattern: "^" + regexp.QuoteMeta(fn) + "$"})
	}
	enc, err := job.Encode()
	if err != nil {
		return nil, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	cmd := exec.Command(p.Binary, Args(driver)...)
	cmd.Dir = p.Dir
	cmd.Env = append(os.Environ(), EnvJob+"="+enc)
	cmd.ExtraFiles = []*os.File{pw}
	out := &tail{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	// A process the benchmark started that keeps the output open must
	// not hold up the wait once the test binary has exited.
	cmd.WaitDelay = 2 * time.Second
	proc, err := b.start(cmd)
	if err != nil {
		pw.Close()
		return nil, fmt.Errorf("listing the benchmarks (%s): %w", p.Binary, err)
	}
	pw.Close()
	stop := context.AfterFunc(ctx, func() { proc.Kill() })
	defer stop()
	// A benchmark that hangs at b.N = 1 is killed after the timeout,
	// counted from the test binary's last output on the descriptor (each
	// sub-benchmark's result is one), so a function with many slow
	// sub-benchmarks is not.
	var in io.Reader = pr
	if timeout > 0 {
		watchdog := time.AfterFunc(timeout, func() { proc.Kill() })
		defer watchdog.Stop()
		in = progressReader{pr, func() { watchdog.Reset(timeout) }}
	}
	// Waiting runs beside the reading: once the test binary has exited,
	// what it left behind is ended (Process.Wait), and with it any
	// holder of the descriptor; past a grace, the descriptor is closed on
	// our side, so a child that kept it cannot hold the listing up.
	var werr error
	waited := make(chan struct{})
	go func() {
		_, werr = proc.Wait()
		close(waited)
	}()
	readDone := make(chan struct{})
	defer close(readDone)
	go func() {
		<-waited
		select {
		case <-readDone:
		case <-time.After(2 * time.Second):
			pr.Close()
		}
	}()
	rd := NewReader(in)
	seen := map[string]bool{}
	var rerr error
	for {
		blk, err := rd.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				rerr = err
			}
			break
		}
		l.Funcs[blk.Func] = leaves(blk, rd)
		seen[blk.Func] = true
	}
	io.Copy(io.Discard, pr)
	// What the listing left behind is killed by then; a fork of the
	// same benchmark that does it again fails its run and names it.
	<-waited
	if len(l.Labels) == 0 {
		l.Labels = rd.Labels
	}
	if rd.Done && rerr == nil && werr == nil {
		return nil, nil
	}
	crashed := rd.Open()
	if crashed == nil {
		return nil, fmt.Errorf("listing the benchmarks of %s (%s %s): %v%s", p.ImportPath, p.Binary, strings.Join(Args(driver), " "), firstErr(rerr, werr), indent(out.String()))
	}
	// The function that was running when the process ended is listed as
	// itself; its run will fail and say why.
	l.Funcs[crashed.Func] = []string{crashed.Func}
	seen[crashed.Func] = true
	for _, fn := range funcs {
		if !seen[fn] {
			rest = append(rest, fn)
		}
	}
	return rest, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return errors.New("the driver did not finish")
}

// leaves are the names a listing block found: every result (go test
// prints one only for a benchmark without sub-benchmarks, even where its
// name is a prefix of another's: b.Run("32 types") beside b.Run("32
// types/parallel")), and every skip and failure that is not a parent of
// another name.
func leaves(blk *Block, rd *Reader) []string {
	var names []string
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, r := range blk.Results {
		add(r.Name)
	}
	for _, o := range blk.Skips {
		add(o.Name)
	}
	for _, o := range blk.Fails {
		add(rd.StripProcs(o.Name))
	}
	results := map[string]bool{}
	for _, r := range blk.Results {
		results[r.Name] = true
	}
	var out []string
	for _, n := range names {
		parent := slices.ContainsFunc(names, func(m string) bool { return strings.HasPrefix(m, n+"/") })
		if results[n] || !parent {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return []string{blk.Func}
	}
	return out
}

func listingPath(cache, binary string) string {
	return filepath.Join(cache, "index", filepath.Base(binary)+".list.json")
}

func readListing(path string) *Listing {
	l := &Listing{}
	if data, err := os.ReadFile(path); err == nil {
		json.Unmarshal(data, l)
	}
	if l.Funcs == nil {
		l.Funcs = map[string][]string{}
	}
	return l
}

// writeListing keeps the listing; a cache that cannot be written only
// costs a listing run next time.
func writeListing(path string, l *Listing) {
	if data, err := json.Marshal(l); err == nil {
		os.MkdirAll(filepath.Dir(path), 0o755)
		writeFileAtomic(path, data)
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.buf) }

// progressReader calls progress after every read that got data.
type progressReader struct {
	r        io.Reader
	progress func()
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.progress()
	}
	return n, err
}

// A Process is a started listing run of a test binary (Builder.Start).
type Process interface {
	// Wait waits for it to exit, ends what it left behind, and returns
	// those as "PID (name)" with the exit error.
	Wait() (left []string, err error)
	// Kill kills it and its process group.
	Kill() error
}

// start starts a listing run with b.Start, or in a process group of its
// own, killed with this process (Pdeathsig), whose group is killed when
// it has exited.
func (b *Builder) start(cmd *exec.Cmd) (Process, error) {
	if b.Start != nil {
		return b.Start(cmd)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	exited, err := child.StartLocked(cmd)
	if err != nil {
		return nil, err
	}
	return &groupProcess{cmd: cmd, exited: exited}, nil
}

// groupProcess is start's Process without Builder.Start.
type groupProcess struct {
	cmd    *exec.Cmd
	exited <-chan error
}

func (g *groupProcess) Kill() error { return syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL) }

func (g *groupProcess) Wait() ([]string, error) {
	err := <-g.exited
	g.Kill()
	return nil, err
}
