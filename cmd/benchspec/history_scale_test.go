package main

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/benchspec/benchspec/report/history/historytest"
	"github.com/benchspec/benchspec/report/history/index"
)

// BenchmarkHistoryScale is the history of a thousand nightly reports of
// fifty runs each, synthesized from the real report in
// report/history/testdata (three forks of five iterations per run, so
// each report is about 300 KB): the whole command, reading, change point
// detection and the text output.
//
//   - warm: the index is fresh, as run --results-dir keeps it;
//   - cold: no index, so every report is read and the index rebuilt.
//
// The goal is ≤ 3 s warm on 2 cores. The reports are generated once per
// benchmark run (a minute or so); with BENCHSPEC_SCALE_DIR set they are
// kept there, for timing the built command (/usr/bin/time -v benchspec
// history $BENCHSPEC_SCALE_DIR) with its peak memory:
//
//	BENCHSPEC_SCALE_DIR=/tmp/scale go test -run '^$' -bench HistoryScale -benchtime 3x ./cmd/benchspec
func BenchmarkHistoryScale(b *testing.B) {
	dir := scaleDir(b, 1000, 50)
	run := func(b *testing.B) {
		if status, _, stderr := runQuiet(b, "history", dir); status != exitOK {
			b.Fatalf("status %d: %s", status, stderr)
		}
	}
	b.Run("warm", func(b *testing.B) {
		run(b) // makes the index fresh
		b.ResetTimer()
		for range b.N {
			run(b)
		}
	})
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			os.Remove(filepath.Join(dir, index.Name))
			b.StartTimer()
			run(b)
		}
	})
}

func runQuiet(b *testing.B, args ...string) (int, string, string) {
	b.Helper()
	status := run(args, io.Discard, io.Discard)
	return status, "", ""
}

// scaleDir writes nights reports of runs runs each, every run at its own
// level with 2 % noise, into a suite's results directory.
func scaleDir(b *testing.B, nights, runs int) string {
	b.Helper()
	dir := os.Getenv("BENCHSPEC_SCALE_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	dir = filepath.Join(dir, "history")
	if des, err := os.ReadDir(dir); err == nil && len(des) >= nights {
		return dir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	n, err := historytest.FromFile(filepath.Join("..", "..", "report", "history", "testdata", "real-report.json"), runs, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	start := time.Date(2024, 1, 1, 2, 30, 0, 0, time.UTC)
	for i := range nights {
		_, err := n.Write(dir, start.Add(time.Duration(i)*24*time.Hour), "night-"+strconv.Itoa(i+1), func(j int) float64 {
			return (1 + float64(j%7)/10) * (1 + 0.02*rng.NormFloat64())
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
