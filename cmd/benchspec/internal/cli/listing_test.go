package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
