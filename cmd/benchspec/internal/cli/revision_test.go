package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// gitRepo makes a git repository of a few files with one commit, makes
// it the current directory and gives the test a cache of its own.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module example.com/r\n", "a/a.go": "package a\n", "run.sh": "#!/bin/sh\n"} {
		path := filepath.Join(repo, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "one"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	t.Chdir(repo)
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	return repo
}

// Several checkouts of one revision at once on a fresh cache all succeed
// and leave one complete checkout.
func TestConcurrentCheckoutsOfAFreshCache(t *testing.T) {
	gitRepo(t)
	for round := range 3 {
		t.Setenv("BENCHSPEC_CACHE", t.TempDir())
		var wg sync.WaitGroup
		dirs, errs := make([]string, 4), make([]error, 4)
		for i := range dirs {
			wg.Go(func() { dirs[i], errs[i] = checkout(context.Background(), "HEAD") })
		}
		wg.Wait()
		for i := range dirs {
			if errs[i] != nil || dirs[i] != dirs[0] {
				t.Fatalf("round %d: checkout %d: %q, %v; want %q", round, i, dirs[i], errs[i], dirs[0])
			}
		}
		if err := verifyCheckout(dirs[0]); err != nil {
			t.Errorf("round %d: %v", round, err)
		}
	}
}

// A checkout is checked against its manifest: a file edited, added or
// removed, or its executable bit changed, is named; the spec copies ab
// adds are not; a checkout that fails is unpacked again.
func TestCheckoutIsCheckedBeforeUse(t *testing.T) {
	gitRepo(t)
	ctx := context.Background()
	dir, err := checkout(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join("a", "spec.yaml")
	if err := os.WriteFile(spec, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := placeSpecs(dir, []string{spec}); err != nil {
		t.Fatal(err)
	}
	// Another ab writing a spec copy through a temporary file is no
	// edit of the revision (two ab at once raced on it).
	if err := os.WriteFile(filepath.Join(dir, "a", ".benchspec-123456"), []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := verifyCheckout(dir); err != nil {
		t.Fatalf("with a spec placed and another being written: %v", err)
	}
	for _, c := range []struct {
		name, want string
		change     func(path string) error
	}{
		{"edited", "a/a.go was changed", func(p string) error {
			return os.WriteFile(filepath.Join(p, "a", "a.go"), []byte("package a\nfunc init() {}\n"), 0o644)
		}},
		{"added", "a/b.go was added", func(p string) error { return os.WriteFile(filepath.Join(p, "a", "b.go"), []byte("package a\n"), 0o644) }},
		{"removed", "go.mod was removed", func(p string) error { return os.Remove(filepath.Join(p, "go.mod")) }},
		{"chmod", "run.sh was changed", func(p string) error { return os.Chmod(filepath.Join(p, "run.sh"), 0o644) }},
		{"link", "a/l.go is a symbolic link, not a regular file", func(p string) error { return os.Symlink("/etc/passwd", filepath.Join(p, "a", "l.go")) }},
	} {
		if err := c.change(dir); err != nil {
			t.Fatal(err)
		}
		if err := verifyCheckout(dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		again, err := checkout(ctx, "HEAD")
		if err != nil || again != dir {
			t.Fatalf("%s: checking out again: %q, %v", c.name, again, err)
		}
		if err := verifyCheckout(dir); err != nil {
			t.Errorf("%s: after unpacking again: %v", c.name, err)
		}
	}
}

// A revision name means one thing: a branch and a tag of one name, and a
// branch named like the hex prefix of another commit, are refused with
// both; a full name, a unique short one and a hash pass.
func TestAmbiguousRevisionNamesAreRefused(t *testing.T) {
	repo := gitRepo(t)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	first := git("rev-parse", "HEAD")
	git("tag", "v1")
	git("commit", "-q", "--allow-empty", "-m", "two")
	git("branch", "v1")
	git("branch", first[:7])
	ctx := context.Background()
	for rev, want := range map[string]string{
		"v1":      "names 2 refs, refs/heads/v1 and refs/tags/v1",
		first[:7]: "names both refs/heads/" + first[:7] + " and commit " + first,
	} {
		if _, err := resolveRevision(ctx, rev); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", rev, err, want)
		}
	}
	for _, rev := range []string{"refs/tags/v1", "refs/heads/v1", "HEAD", first, "HEAD~1"} {
		if _, err := resolveRevision(ctx, rev); err != nil {
			t.Errorf("%s: %v, want accepted", rev, err)
		}
	}
}
