package gotest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// goLogger is a go command that logs each invocation to log, then runs
// the real one.
func goLogger(t *testing.T, log string) string {
	t.Helper()
	real, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	path := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\necho \"$1\" >> " + log + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// scratchModule is a module of its own with one package with a
// benchmark.
func scratchModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":     "module example.com/scratch\n\ngo 1.22\n",
		"s.go":       "package scratch\n\nfunc Add(a, b int) int { return a + b }\n",
		"s_test.go":  "package scratch\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkAdd(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink = Add(sink, 1)\n\t}\n}\n",
		"sub/sub.go": "package sub\n\nconst N = 1\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func goCalls(t *testing.T, log string) []string {
	data, _ := os.ReadFile(log)
	return strings.Fields(string(data))
}

// The second batch of an unchanged package runs no go command at all;
// any change to the module's files builds again.
func TestWarmCacheSkipsTheGoCommandUntilAFileChanges(t *testing.T) {
	skipShort(t)
	cache := t.TempDir()
	log := filepath.Join(t.TempDir(), "calls")
	goBin := goLogger(t, log)
	dir := scratchModule(t)
	ctx := context.Background()

	first, err := (&Builder{CacheDir: cache, Go: goBin}).loadIn(ctx, "", dir, variant{})
	if err != nil {
		t.Fatal(err)
	}
	if got := goCalls(t, log); strings.Join(got, " ") != "list test" {
		t.Errorf("cold load ran go %v, want list and test", got)
	}
	second, err := (&Builder{CacheDir: cache, Go: goBin}).loadIn(ctx, "", dir, variant{})
	if err != nil {
		t.Fatal(err)
	}
	if got := goCalls(t, log); len(got) != 2 || second.Binary != first.Binary {
		t.Errorf("warm load ran go %v and got %s; want no new go command and %s", got, second.Binary, first.Binary)
	}
	// A change anywhere in the module (here a package the benchmark
	// does not even import) is a new fingerprint: go runs again.
	later := time.Now().Add(time.Second)
	os.WriteFile(filepath.Join(dir, "sub/sub.go"), []byte("package sub\n\nconst N = 2\n"), 0o644)
	os.Chtimes(filepath.Join(dir, "sub/sub.go"), later, later)
	if _, err := (&Builder{CacheDir: cache, Go: goBin}).loadIn(ctx, "", dir, variant{}); err != nil {
		t.Fatal(err)
	}
	if got := goCalls(t, log); len(got) != 4 {
		t.Errorf("after a change go ran %v, want list and test again", got)
	}
}

func TestFingerprintRefusesWhatItCannotSee(t *testing.T) {
	dir := scratchModule(t)
	fp := fingerprint("go", dir, ".", variant{})
	if fp == "" {
		t.Fatal("no fingerprint for a plain module")
	}
	// Another benchspec's driver: the cached binary has the old one.
	defer func(v func() string) { driverVersion = v }(driverVersion)
	driverVersion = func() string { return "another driver" }
	if other := fingerprint("go", dir, ".", variant{}); other == fp || other == "" {
		t.Errorf("fingerprint %q with another driver, want a new one (was %q)", other, fp)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/scratch\n\ngo 1.22\n\nreplace example.com/x => ../x\n"), 0o644)
	if fp := fingerprint("go", dir, ".", variant{}); fp != "" {
		t.Errorf("fingerprint %s for a module with a directory replace, want none", fp)
	}
}

func TestPruneByAgeThenSize(t *testing.T) {
	cache := t.TempDir()
	now := time.Now()
	for i, age := range []time.Duration{0, time.Hour, 48 * time.Hour, 72 * time.Hour} {
		p := filepath.Join(cache, "p"+string(rune('a'+i))+".test")
		os.WriteFile(p, make([]byte, 100), 0o755)
		record(p, strings.Repeat("0", 64)) // a binary benchspec built
		os.Chtimes(p, now.Add(-age), now.Add(-age))
	}
	removed, err := Limits{MaxAge: 24 * time.Hour}.Prune(cache)
	if err != nil || len(removed) != 2 {
		t.Fatalf("age prune removed %v, %v; want the 2 older than a day", removed, err)
	}
	// 200 bytes left; a 150-byte limit removes the least recently used,
	// unless it is the one kept.
	removed, _ = Limits{MaxBytes: 150}.Prune(cache, filepath.Join(cache, "pb.test"))
	left, _ := Entries(cache)
	if len(removed) != 1 || len(left) != 1 || filepath.Base(left[0].Path) != "pb.test" {
		t.Errorf("size prune removed %v, left %v; want pa.test removed, pb.test kept", removed, left)
	}
}

func TestParseSizeAndAge(t *testing.T) {
	for in, want := range map[string]int64{"100": 100, "2GiB": 2 << 30, "500 MB": 500e6, "1KiB": 1024} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "-1", "1TB"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	if d, err := ParseAge("30d"); err != nil || d != 30*24*time.Hour {
		t.Errorf("ParseAge(30d) = %v, %v", d, err)
	}
	if _, err := ParseAge("soon"); err == nil {
		t.Error("ParseAge(soon) accepted")
	}
}
