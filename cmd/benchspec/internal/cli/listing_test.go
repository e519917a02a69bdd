package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/google/go-cmp/cmp"
)

// TestListingTimeoutSaysSo (issue 36): a suite that never answers its
// listing fails `run` with exit 2 and a message that says the listing
// timed out and after how long, not a bare "signal: killed". The
// timeout is shortened from its two minutes; the suite is a real process
// that sleeps, killed by the timeout as a hung suite would be.
func TestListingTimeoutSaysSo(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process that is killed after the listing's timeout")
	}
	hang := filepath.Join(t.TempDir(), "hang")
	if err := os.WriteFile(hang, []byte("#!/bin/sh\necho initialising >&2\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { listingTimeout = d }(listingTimeout)
	listingTimeout = 2 * time.Second
	var stdout, stderr bytes.Buffer
	e := &Env{Prog: "benchspec", Cmd: "run", Stdout: &stdout, Stderr: &stderr}
	status := Run(context.Background(), e, []string{"--suite", hang, "spec.yaml"}, Registry{})
	msg := stderr.String()
	if status != ExitUsage || !strings.Contains(msg, "--suite "+hang+": its listing timed out: the suite did not list its benchmarks within 2s and was killed") {
		t.Errorf("run --suite of a suite that never answers: status %d, stderr:\n%s", status, msg)
	}
	if !strings.Contains(msg, "Its stderr: initialising") {
		t.Errorf("the message lacks what the suite printed; stderr:\n%s", msg)
	}
}

// listingSuite writes a suite binary that lists benchmarks (the JSON of
// protocol.Listing.Benchmarks), a script, and returns its path.
func listingSuite(t *testing.T, benchmarks string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite")
	listing := `{"version":` + strconv.Itoa(protocol.Version) + `,"benchmarks":` + benchmarks + `}`
	if err := os.WriteFile(path, []byte("#!/bin/sh\ncat <<'EOF'\n"+listing+"\nEOF\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestListShowsGroups: list prints a group with its members in the
// order the suite declared them, between its name and its params, and
// the plan a group's threads per member.
func TestListShowsGroups(t *testing.T) {
	suite := listingSuite(t, `[{"name":"lock.RW","members":["write","read"]},`+
		`{"name":"queue","members":["produce","consume"],"params":{"size":["8","64"]}},{"name":"sqrt"}]`)
	var stdout, stderr bytes.Buffer
	if code := Suite(context.Background(), []string{"list", "--suite", suite}, Registry{}, &stdout, &stderr); code != 0 {
		t.Fatalf("list: exit %d: %s", code, stderr.String())
	}
	want := "lock.RW\tgroup: write, read\nqueue\tgroup: produce, consume\tsize=8,64\nsqrt\n"
	if diff := cmp.Diff(want, stdout.String()); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}

	spec := filepath.Join(t.TempDir(), "s.yaml")
	body := "version: 1\nname: g\nbenchmarks:\n  - include: '^lock.RW$'\n    group_threads: {read: 3}\n"
	if err := os.WriteFile(spec, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if code := Suite(context.Background(), []string{"plan", "--suite", suite, spec}, Registry{}, &stdout, &stderr); code != 0 {
		t.Fatalf("plan: exit %d: %s", code, stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "  lock.RW  ") || !strings.Contains(out, "  4 = write 1 + read 3  ") {
		t.Errorf("plan does not show the group's threads per member:\n%s", out)
	}
}

// TestListingRefusesBadGroups: a listing is a suite's output; a group
// whose members no spec could name, or that a key could not tell apart,
// is refused with what is wrong.
func TestListingRefusesBadGroups(t *testing.T) {
	for benchmarks, want := range map[string]string{
		`[{"name":"g","members":[]}]`:                   `group "g" has no members`,
		`[{"name":"g","members":["a","a"]}]`:            `group "g" lists member "a" twice`,
		`[{"name":"g","members":["a:b"]}]`:              `group "g" has a member named "a:b": want letters, digits and _ . / -`,
		`[{"name":"g","members":["a\u001b[2J"]}]`:       `group "g" has a member named "a\x1b[2J"`,
		`[{"name":"g","members":["a"],"testing":true}]`: `group "g" is also marked a func(*testing.B)`,
	} {
		_, err := ListSuite(context.Background(), listingSuite(t, benchmarks))
		if err == nil || !strings.Contains(err.Error(), "its listing is invalid: "+want) {
			t.Errorf("%s: %v, want %q", benchmarks, err, want)
		}
	}
	got, err := ListSuite(context.Background(), listingSuite(t, `[{"name":"g","members":["w","r"]}]`))
	if err != nil || len(got) != 1 || !cmp.Equal(got[0].Members, []string{"w", "r"}) {
		t.Errorf("a good group: %+v, %v", got, err)
	}
}
