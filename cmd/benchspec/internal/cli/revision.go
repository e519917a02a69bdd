package cli

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/benchspec/benchspec/internal/filehash"
)

// resolveRevision is the commit the git revision rev names. A name that
// git would take as one of several refs (a branch and a tag of one name;
// git picks one, with a warning) is refused with their full names: a
// revision name means one thing.
func resolveRevision(ctx context.Context, rev string) (string, error) {
	commit, err := gitOut(ctx, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%q is neither a suite binary, %q (the working tree) nor a git revision: %v", rev, worktree, err)
	}
	full, err := fullRefs(ctx, rev)
	if err != nil {
		return "", err
	}
	if len(full) > 1 {
		return "", fmt.Errorf("%q names %d refs, %s: give the full name of the one you mean", rev, len(full), strings.Join(full, " and "))
	}
	// A ref named like a hex prefix of another commit (git takes the ref).
	if len(full) == 1 && len(rev) >= 4 && strings.Trim(rev, "0123456789abcdef") == "" {
		out, _ := gitOut(ctx, "rev-parse", "--disambiguate="+rev)
		for obj := range strings.Lines(out) {
			obj = strings.TrimSpace(obj)
			if typ, err := gitOut(ctx, "cat-file", "-t", obj); err == nil && typ == "commit" && obj != commit {
				return "", fmt.Errorf("%q names both %s and commit %s: give the full name of the one you mean", rev, full[0], obj)
			}
		}
	}
	return commit, nil
}

// fullRefs are the refs the short name rev can mean, by git's rules
// (git help revisions): none for a full name, a hash or an expression.
func fullRefs(ctx context.Context, rev string) ([]string, error) {
	var candidates []string
	for _, f := range []string{"refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"} {
		candidates = append(candidates, fmt.Sprintf(f, rev))
	}
	out, err := gitOut(ctx, append([]string{"for-each-ref", "--format=%(refname)"}, candidates...)...)
	if err != nil {
		return nil, err
	}
	var full []string
	for ref := range strings.Lines(out) {
		if ref = strings.TrimSpace(ref); slices.Contains(candidates, ref) {
			full = append(full, ref)
		}
	}
	return full, nil
}

// A revision's checkout is shared by every ab of the cache, at once and
// later, so it is made and used as the cache's binaries are:
//
//   - Two ab on one fresh cache each unpack into a private temporary
//     directory and rename it into place; the one that loses the rename
//     uses the winner's checkout once it checks. Nothing removes a
//     checkout another process may be building from: a checkout that
//     fails its check is renamed aside (the same path then holds a good
//     one) and removed after.
//   - A checkout is checked before each use against the manifest written
//     when it was unpacked (every file's path, executable bit and
//     SHA-256; no other file, no link): one edited, added to or removed
//     from since is unpacked again, with a warning that names the file,
//     as a replaced binary is built again.
//   - The specs ab copies into a checkout (placeSpecs) are named by their
//     content, beginning with a dot: the go command ignores them, two ab
//     with different specs do not overwrite each other's, and the check
//     leaves them out.

// manifestFile, in a checkout, is its manifest; its presence marks the
// checkout complete.
const manifestFile = ".benchspec-complete"

// ownPrefix begins the names of the files ab writes into a checkout:
// its manifest, the spec copies and the temporary files they are
// written through (replaceFile's). The check leaves them out: another ab
// writing a spec copy into a checkout is no edit of the revision.
const ownPrefix = ".benchspec-"

// specCopyPrefix begins the names of the specs ab copies into a checkout.
const specCopyPrefix = ownPrefix + "spec-"

// checkout extracts the tree of the git revision rev (of the repository
// holding the current directory) into the cache, once per commit, and
// returns its directory at the same place as the current directory's
// repository root.
func checkout(ctx context.Context, rev string) (string, error) {
	commit, err := resolveRevision(ctx, rev)
	if err != nil {
		return "", err
	}
	cache := revisionCache()
	dir := filepath.Join(cache, commit)
	err = verifyCheckout(dir)
	if err == nil {
		return dir, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(os.Stderr, "benchspec: the checkout of %s in the cache is not the revision: %v; unpacking it again\n", rev, err)
	}
	tmp, err := os.MkdirTemp(cache, ".checkout-")
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
	manifest, err := filehash.Manifest(tmp, nil)
	if err != nil {
		return "", fmt.Errorf("checking out %s: %w", rev, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, manifestFile), manifest, 0o644); err != nil {
		return "", err
	}
	if err := installCheckout(tmp, dir); err != nil {
		return "", fmt.Errorf("checking out %s: %w", rev, err)
	}
	return dir, nil
}

// installCheckout renames the checkout tmp to dir; when dir is there, it
// is used if it checks (another ab unpacked it first) and renamed aside
// otherwise.
func installCheckout(tmp, dir string) error {
	for range 3 {
		err := os.Rename(tmp, dir)
		if err == nil {
			return nil
		}
		if _, lerr := os.Lstat(dir); lerr != nil {
			return err // not taken: the rename itself failed
		}
		if verifyCheckout(dir) == nil {
			return nil
		}
		// Moved aside, then removed: a process building from dir finds
		// the new checkout at its path.
		stale := filepath.Join(filepath.Dir(dir), fmt.Sprintf(".stale-%016x", rand.Uint64()))
		if rerr := os.Rename(dir, stale); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return fmt.Errorf("%w (and %s cannot be moved aside: %v)", err, dir, rerr)
		}
		defer os.RemoveAll(stale)
	}
	return fmt.Errorf("%s keeps changing", dir)
}

// verifyCheckout checks the checkout dir against its manifest: an error
// wrapping fs.ErrNotExist when there is no complete checkout, else one
// that names a file that differs.
func verifyCheckout(dir string) error {
	data, err := readManifest(filepath.Join(dir, manifestFile))
	if err != nil {
		return err
	}
	if len(data) == 0 {
		// An older benchspec's mark of a complete checkout, which
		// recorded nothing: unpacked again without a warning.
		return fmt.Errorf("an empty manifest: %w", fs.ErrNotExist)
	}
	err = filehash.CheckTree(dir, data, func(rel string) bool {
		return strings.HasPrefix(path.Base(rel), ownPrefix)
	})
	if err != nil {
		return fmt.Errorf("%w since it was unpacked", err)
	}
	return nil
}

// maxManifest bounds the manifest read: some 50 bytes a file.
const maxManifest = 64 << 20

// readManifest reads a checkout's manifest: a regular file, not a link.
func readManifest(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("its manifest: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxManifest {
		return nil, errors.New("its manifest is not a regular file of benchspec's")
	}
	return io.ReadAll(io.LimitReader(f, maxManifest))
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

// placeSpecs copies the working tree's specs to their directory in the
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
		// Named by content, beside the revision's files (its package:
		// entries resolve from there): see checkout.
		sum := sha256.Sum256(data)
		dst := filepath.Join(dir, filepath.Dir(rel), specCopyPrefix+hex.EncodeToString(sum[:6])+"-"+filepath.Base(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := writeFile(dst, data); err != nil {
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
