package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// Bounds of a suite's listing: a registry is small, and the listing runs
// the suite's package initialisation, which is user code.
const listingMax = 16 << 20

// listingTimeout bounds how long a suite's listing may take; a variable
// only so that a test need not wait two minutes for a suite that never
// answers.
var listingTimeout = 2 * time.Minute

// listingWaitDelay bounds the wait for the listing's output once the
// suite has exited or been killed: a process it started that kept its
// stdout open must not hold the command past its timeout.
const listingWaitDelay = 5 * time.Second

// ListSuite asks the suite binary at path for its registered benchmarks
// (protocol.EnvList).
func ListSuite(ctx context.Context, path string) ([]plan.Benchmark, error) {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0:
		return nil, errors.New("not an executable file: a suite binary is a main package calling benchspec.Main, built with go build")
	}
	lctx, cancel := context.WithTimeout(ctx, listingTimeout)
	defer cancel()
	cmd := exec.CommandContext(lctx, path)
	cmd.Env = append(executor.WithoutRoles(os.Environ(), nil), protocol.EnvList+"=1")
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = listingMax, 64<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Dir = os.TempDir()
	cmd.WaitDelay = listingWaitDelay
	runErr := cmd.Run()
	if ctx.Err() == nil && errors.Is(lctx.Err(), context.DeadlineExceeded) {
		why := fmt.Sprintf("its listing timed out: the suite did not list its benchmarks within %s and was killed; the listing runs the suite's package initialisation (init functions, package variables): does it wait on something?", listingTimeout)
		if tail := bytes.TrimSpace(stderr.Bytes()); len(tail) > 0 {
			why += " Its stderr: " + string(tail)
		}
		return nil, errors.New(why)
	}
	if stdout.over {
		return nil, fmt.Errorf("its listing is over %d bytes: not a benchspec suite binary?", listingMax)
	}
	var l protocol.Listing
	dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil || runErr != nil {
		why := "it did not list its benchmarks"
		if runErr != nil {
			why += " (" + runErr.Error() + ")"
		}
		if tail := bytes.TrimSpace(stderr.Bytes()); len(tail) > 0 {
			why += ": " + string(tail)
		}
		return nil, errors.New(why + "; is it a suite binary (a main package calling benchspec.Main)?")
	}
	if l.Version != protocol.Version {
		return nil, fmt.Errorf("it speaks version %d of the fork protocol and this benchspec program version %d: build the suite and the program from the same benchspec module", l.Version, protocol.Version)
	}
	out := make([]plan.Benchmark, 0, len(l.Benchmarks))
	for _, r := range l.Benchmarks {
		if err := checkMembers(r); err != nil {
			return nil, fmt.Errorf("its listing is invalid: %w; is it built from this benchspec module?", err)
		}
		b := plan.Benchmark{Name: r.Name, Params: r.Params, Testing: r.Testing, Members: r.Members}
		if len(r.IntParams) > 0 {
			b.IntParams = map[string]bool{}
			for _, n := range r.IntParams {
				b.IntParams[n] = true
			}
		}
		out = append(out, b)
	}
	return out, nil
}

// memberName is what benchspec.RegisterGroup allows a member's name:
// what a spec's group_threads can name, and what a run's key
// ("rw/threads=write:1,read:3") can hold without ambiguity.
var memberName = regexp.MustCompile(`^[A-Za-z0-9_./-]+$`)

// checkMembers checks a group's members as a suite listed them: a
// listing is the suite's output, and the members reach keys, reports
// and every fork of the group.
func checkMembers(r protocol.Registered) error {
	switch {
	case r.Members == nil:
		return nil
	case len(r.Members) == 0:
		return fmt.Errorf("group %.64q has no members", r.Name)
	case len(r.Members) > protocol.MaxMembers:
		return fmt.Errorf("group %.64q has %d members, more than %d", r.Name, len(r.Members), protocol.MaxMembers)
	case r.Testing:
		return fmt.Errorf("group %.64q is also marked a func(*testing.B)", r.Name)
	}
	seen := make(map[string]bool, len(r.Members))
	for _, m := range r.Members {
		if !memberName.MatchString(m) {
			return fmt.Errorf("group %.64q has a member named %.64q: want letters, digits and _ . / -", r.Name, m)
		}
		if seen[m] {
			return fmt.Errorf("group %.64q lists member %q twice", r.Name, m)
		}
		seen[m] = true
	}
	return nil
}

// limitedBuffer keeps the first max bytes written to it and notes that
// there were more.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

var _ io.Writer = (*limitedBuffer)(nil)
