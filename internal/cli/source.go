package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"time"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
)

// sources returns the code that p measures (report.Report.Sources): this
// binary's main module when p runs registered benchmarks, then the
// module of each package whose test binary p runs, in plan order.
//
// The binary's revision is what the go command stamped into it
// (-buildvcs, the default of go build in a repository). Test binaries are
// not stamped (go test -c leaves VCS information out), so a package's
// revision comes from git in the package's directory, with the same
// queries the go command makes; where git or the repository is missing,
// the revision is left unknown rather than guessed.
func sources(ctx context.Context, p *plan.Plan) []report.Source {
	var out []report.Source
	self, seen := false, map[string]bool{}
	for _, r := range p.Runs {
		if r.GoTest == nil {
			if !self {
				self = true
				if s, ok := binarySource(); ok {
					out = append(out, s)
				}
			}
			continue
		}
		if seen[r.GoTest.Dir] {
			continue
		}
		seen[r.GoTest.Dir] = true
		s := report.Source{Package: r.GoTest.ImportPath}
		s.Module = binaryModule(ctx, r.GoTest.Binary)
		gitState(ctx, r.GoTest.Dir, &s)
		out = append(out, s)
	}
	return out
}

// binarySource is this binary's main module with its stamped VCS state.
func binarySource() (report.Source, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Path == "" {
		return report.Source{}, false
	}
	s := report.Source{Module: bi.Main.Path}
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs":
			s.VCS = kv.Value
		case "vcs.revision":
			s.Revision = kv.Value
		case "vcs.time":
			s.Time = kv.Value
		case "vcs.modified":
			s.Modified = kv.Value == "true"
		}
	}
	return s, true
}

// binaryModule is the main module a Go binary was built from, as `go
// version -m` reads it ("" when it cannot). The go command, which built
// the test binary, reads it rather than debug/buildinfo: that package
// would link debug/elf, debug/dwarf and their decompressors into every
// suite binary, and every fork would run their inits.
func binaryModule(ctx context.Context, binary string) string {
	cmd := exec.CommandContext(ctx, "go", "version", "-m", binary)
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, "\t"); len(f) >= 3 && f[0] == "" && f[1] == "mod" {
			return f[2]
		}
	}
	return ""
}

// gitState fills in s's VCS state from git in dir, when dir is in a git
// work tree.
func gitState(ctx context.Context, dir string, s *report.Source) {
	git := func(args ...string) (string, bool) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			return "", false
		}
		return strings.TrimSpace(out.String()), true
	}
	rev, ok := git("-c", "log.showsignature=false", "log", "-1", "--format=%H %cI")
	if !ok || rev == "" {
		return
	}
	s.VCS = "git"
	s.Revision, s.Time, _ = strings.Cut(rev, " ")
	if t, err := time.Parse(time.RFC3339, s.Time); err == nil {
		s.Time = t.UTC().Format(time.RFC3339) // as the go command stamps it
	}
	if st, ok := git("status", "--porcelain"); ok && st != "" {
		s.Modified = true
	}
}
