package main

import (
	"path/filepath"
	"testing"
)

// TestForkCannotOpenParentMemory: a fork, and a forks: 0 run, cannot
// open the memory of the benchspec program that runs them
// (/proc/PPID/mem) for writing: the program is not dumpable while it
// has processes of a batch.
func TestForkCannotOpenParentMemory(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "mem.yaml", `version: 1
name: mem
defaults:
  warmup:      {iterations: 1, time: 10ms}
  measurement: {iterations: 1, time: 10ms}
  timeout: 5s
benchmarks:
  - include: '^fault\.parentmem$'
    forks: 1
  - include: '^fault\.parentmem$'
    forks: 0
`)
	cmd, mark := suiteCmd(t, "run", "mem.yaml", "--format", "json", "--out", "r.json", "--quiet")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	noneLeft(t, mark)
	if code := exitCode(t, err); code != 0 {
		t.Errorf("exit %d, want 0; output:\n%s", code, clip(string(out)))
	}
	runs := readReport(t, filepath.Join(dir, "r.json")).Runs
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	for _, r := range runs {
		if r.Failed() {
			t.Errorf("%s (forks: %d): %s", r.Key, r.Settings.Forks, r.Error)
		}
	}
}
