package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// selfbenchPackage is this program's import path, which forkRefs builds
// again with other linker flags.
const selfbenchPackage = "github.com/benchspec/benchspec/tools/selfbench"

// alignFlags link a binary with its segments on 2 MiB boundaries. On
// Linux with large page-cache folios (ext4 and xfs since 6.x), the kernel
// can then map the first 2 MiB of text and of read-only data with one
// huge page each, in a process's copy of the binary written with large
// writes (internal/forkimage): fewer page faults at every start.
const alignFlags = "-ldflags=-R=0x200000"

// forkRefs are what item 4 compares a fork with, built by the go command
// in a directory of their own: a Go hello world (its start and exit are
// this machine's floor for any Go process), and this program linked with
// alignFlags (how much of a fork the binary's layout decides). A build
// that fails leaves its path empty and its error, which the rows print
// instead of a figure.
type forkRefs struct {
	dir                  string
	hello, aligned       string
	helloErr, alignedErr error
}

func buildForkRefs(ctx context.Context) (*forkRefs, error) {
	dir, err := os.MkdirTemp("", "selfbench-refs-")
	if err != nil {
		return nil, err
	}
	r := &forkRefs{dir: dir}
	src := filepath.Join(dir, "hello")
	if err := os.Mkdir(src, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module hello\n"), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nimport \"os\"\n\nfunc main() { os.Exit(0) }\n"), 0o644); err != nil {
		return nil, err
	}
	r.hello, r.helloErr = goBuild(ctx, src, filepath.Join(dir, "hello.bin"), ".")
	// From the working directory, which is in this module when selfbench
	// runs as docs/performance.md says (go run ./tools/selfbench) and in its
	// tests.
	r.aligned, r.alignedErr = goBuild(ctx, "", filepath.Join(dir, "selfbench-aligned"), alignFlags, selfbenchPackage)
	return r, nil
}

// goBuild runs go build -o out args... in dir and returns out.
func goBuild(ctx context.Context, dir, out string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"build", "-o", out}, args...)...)
	cmd.Dir = dir
	// The user's GOFLAGS (say -mod=vendor) are not for these builds.
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(msg)))
	}
	return out, nil
}

func (r *forkRefs) remove() { os.RemoveAll(r.dir) }
