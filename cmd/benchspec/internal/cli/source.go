package cli

import (
	"bytes"
	"cmp"
	"context"
	"debug/buildinfo"
	"os/exec"
	"strings"
	"time"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
)

// sources returns the code that p measures (report.Report.Sources): the
// main module of each suite binary whose registered benchmarks p runs
// (suite, the batch's, or a run's own: a spec build's), then the module
// of each package whose test binary p runs, in plan order, each once.
//
// A suite binary's revision is what the go command stamped into it
// (-buildvcs, the default of go build in a repository). Test binaries are
// not stamped (go test -c leaves VCS information out), so a package's
// revision comes from git in the package's directory, with the same
// queries the go command makes; where git or the repository is missing,
// the revision is left unknown rather than guessed.
func sources(ctx context.Context, p *plan.Plan, suite string) []report.Source {
	var out []report.Source
	seenSuite, seenDir, seen := map[string]bool{}, map[string]bool{}, map[report.Source]bool{}
	add := func(s report.Source) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, r := range p.Runs {
		if r.GoTest == nil {
			bin := cmp.Or(r.Executable, suite)
			if bin == "" || seenSuite[bin] {
				continue
			}
			seenSuite[bin] = true
			if s, ok := binarySource(bin); ok {
				add(s)
			}
			continue
		}
		if seenDir[r.GoTest.Dir] {
			continue
		}
		seenDir[r.GoTest.Dir] = true
		s := report.Source{Package: r.GoTest.ImportPath}
		if bi, _, ok := stamped(r.GoTest.Binary); ok {
			s.Module = bi.Main.Path
		}
		gitState(ctx, r.GoTest.Dir, &s)
		add(s)
	}
	return out
}

// stamped is what the go command stamped into the Go binary at path:
// its build information and its build settings by key. The parent reads
// it: no suite links this package (nor debug/elf through it).
func stamped(path string) (*buildinfo.BuildInfo, map[string]string, bool) {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return nil, nil, false
	}
	settings := make(map[string]string, len(bi.Settings))
	for _, kv := range bi.Settings {
		settings[kv.Key] = kv.Value
	}
	return bi, settings, true
}

// binarySource is the main module of the Go binary at path with its
// stamped VCS state.
func binarySource(path string) (report.Source, bool) {
	bi, set, ok := stamped(path)
	if !ok || bi.Main.Path == "" {
		return report.Source{}, false
	}
	return report.Source{Module: bi.Main.Path, VCS: set["vcs"], Revision: set["vcs.revision"],
		Time: set["vcs.time"], Modified: set["vcs.modified"] == "true"}, true
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
