package cli

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// build is one side of `benchspec ab`: a suite binary, or the suite
// built at a git revision or from the working tree as it stands.
type build struct {
	name  string // as the user gave it
	suite string // the suite binary; "" when the specs name packages only
	// pkg is the suite's main package that suite was built from, in
	// dir; "" when the side is a binary.
	pkg string
	// dir is the directory the specs' package: entries resolve in: the
	// checkout of a revision, "" for the working tree or a binary.
	dir string
	// specs are the spec paths as this side reads them: for a revision,
	// copies of the working tree's specs at their place in its checkout,
	// so that a package: entry names the revision's package.
	specs []string
}

// worktree names the working tree as it stands, for --base and --new.
const worktree = "."

// resolveBuild makes side's suite binary: side is a suite binary, "."
// (the working tree: suitePkg built in place) or a git revision
// (suitePkg built in a checkout of it, kept by commit in the cache).
func resolveBuild(ctx context.Context, reg Registry, side, suitePkg string, specs []string) (*build, error) {
	b := &build{name: side, specs: specs}
	if fi, err := os.Stat(side); err == nil && fi.Mode().IsRegular() && side != worktree {
		// Absolute: a fork is started from another directory than ours.
		abs, err := filepath.Abs(side)
		if err != nil {
			return nil, err
		}
		b.suite = abs
		return b, nil
	}
	if side != worktree {
		dir, err := checkout(ctx, side)
		if err != nil {
			return nil, err
		}
		b.dir = dir
		b.specs, err = placeSpecs(dir, specs)
		if err != nil {
			return nil, err
		}
		if reg.Checkout != nil {
			root, err := gitOut(ctx, "rev-parse", "--show-toplevel")
			if err != nil {
				return nil, err
			}
			reg.Checkout(dir, root)
		}
	}
	if suitePkg == "" {
		return b, nil
	}
	if reg.Build == nil {
		return nil, errors.New("this program cannot build suites")
	}
	pkg := suitePkg
	if b.dir != "" {
		rel, err := repoRelative(suitePkg)
		if err != nil {
			return nil, err
		}
		pkg = "./" + filepath.ToSlash(rel)
	}
	bin, err := reg.Build(ctx, b.dir, pkg, nil)
	if err != nil {
		return nil, err
	}
	b.suite, b.pkg = bin, pkg
	return b, nil
}

// checkout extracts the tree of the git revision rev (of the repository
// holding the current directory) into the cache, once per commit, and
// returns its directory at the same place as the current directory's
// repository root.
func checkout(ctx context.Context, rev string) (string, error) {
	commit, err := gitOut(ctx, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%q is neither a suite binary, %q (the working tree) nor a git revision: %v", rev, worktree, err)
	}
	dir := filepath.Join(revisionCache(), commit)
	if fi, err := os.Stat(filepath.Join(dir, ".benchspec-complete")); err == nil && fi.Mode().IsRegular() {
		return dir, nil
	}
	os.RemoveAll(dir)
	tmp, err := os.MkdirTemp(revisionCache(), ".checkout-")
	if err != nil {
		return "", fmt.Errorf("checking out %s: %w", rev, err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "git", "archive", "--format=tar", commit)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("git archive: %w", err)
	}
	xerr := untar(out, tmp)
	if err := cmd.Wait(); err != nil || xerr != nil {
		return "", fmt.Errorf("checking out %s: %v %v %s", rev, err, xerr, strings.TrimSpace(stderr.String()))
	}
	if err := os.WriteFile(filepath.Join(tmp, ".benchspec-complete"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", fmt.Errorf("checking out %s: %w", rev, err)
	}
	return dir, nil
}

// revisionCache holds the checkouts of revisions, beside the binaries.
func revisionCache() string {
	dir := filepath.Join(os.TempDir(), "benchspec-revisions")
	if c, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(c, "benchspec", "revisions")
	}
	if d := os.Getenv("BENCHSPEC_CACHE"); d != "" {
		dir = filepath.Join(d, "revisions")
	}
	os.MkdirAll(dir, 0o755)
	return dir
}

// untar extracts git archive's regular files and directories into dir;
// anything else (a link, a path out of dir) is refused.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("archive entry %q is outside the tree", h.Name)
		}
		path := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, os.FileMode(h.Mode)&0o755|0o600)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		case tar.TypeXGlobalHeader:
		default:
			// Symbolic links and the like: a checkout for building
			// needs none, and a link could point out of it.
		}
	}
}

// placeSpecs copies the working tree's specs to their place in the
// checkout dir of a revision; a spec outside the repository is read
// where it is (its package: entries, if any, name the working tree's
// packages or the module cache's, not the revision's).
func placeSpecs(dir string, specs []string) ([]string, error) {
	var out []string
	for _, s := range specs {
		rel, err := repoRelative(s)
		if err != nil {
			out = append(out, s)
			continue
		}
		data, err := os.ReadFile(s)
		if err != nil {
			return nil, err
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return nil, err
		}
		out = append(out, dst)
	}
	return out, nil
}

// repoRelative is path relative to the root of the git repository that
// holds the current directory; it must be inside it.
func repoRelative(path string) (string, error) {
	root, err := gitOut(context.Background(), "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(r, filepath.Base(abs))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s is outside the git repository %s: a revision can only build what the repository holds", path, root)
	}
	return rel, nil
}

func gitOut(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return strings.TrimSpace(stdout.String()), nil
}
