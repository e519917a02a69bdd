package gotest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoCommandRunsTheLocalToolchain: every go command the bridge runs
// has GOTOOLCHAIN=local, whatever the caller's environment says, so a
// package's go.mod cannot make it download and run another toolchain.
func TestGoCommandRunsTheLocalToolchain(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "toolchain")
	fake := filepath.Join(dir, "go")
	script := "#!/bin/sh\nprintf %s \"$GOTOOLCHAIN\" > " + out + "\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOTOOLCHAIN", "go1.99.0")
	if _, err := (&Builder{Go: fake}).goCmd(context.Background(), "", "version"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil || strings.TrimSpace(string(got)) != "local" {
		t.Errorf("the go command ran with GOTOOLCHAIN=%q (%v), want local", got, err)
	}
}
