package gotest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/filehash"
)

// A package of another module (a dependency, resolved in the module
// cache) cannot get the driver as an -overlay: the go command refuses to
// overlay files beneath GOMODCACHE. Such a package is built from a copy
// of its module in the cache (modules/<path>-<hash of its module cache
// directory>; a module cache directory never changes, so neither does
// its copy), which the go command is pointed at by a temporary copy of
// the spec's go.mod given as -modfile, with one replace directive more:
// the user's go.mod and go.sum are never written, and the build list is
// the same, since the copy has the same go.mod as the original.

// modFile is the -modfile of a package build ("": none), or the
// environment that names its workspace instead (GOWORK), and what
// removes it after the build.
type modFile struct {
	path    string
	env     []string
	cleanup func()
}

// apply is the variant x with m's environment added.
func (m *modFile) apply(x variant) variant {
	if m == nil || len(m.env) == 0 {
		return x
	}
	x.env = append(append([]string{}, x.env...), m.env...)
	return x
}

func (m *modFile) args() []string {
	if m == nil || m.path == "" {
		return nil
	}
	return []string{"-modfile=" + m.path}
}

func (m *modFile) close() {
	if m != nil && m.cleanup != nil {
		m.cleanup()
	}
}

// outOfModuleCache returns l unchanged when its directory is not in the
// module cache; else it copies the package's module into the cache,
// writes a -modfile that replaces the module by the copy, and returns the
// package as listed there, with the -modfile for the build.
func (b *Builder) outOfModuleCache(ctx context.Context, cache, dir, pkg string, l *listed, x variant) (*listed, *modFile, error) {
	if l.Module == nil || l.Module.Main || l.Module.Dir == "" {
		return l, nil, nil
	}
	out, err := b.goCmd(ctx, dir, x, "env", "GOMODCACHE", "GOMOD", "GOWORK")
	if err != nil {
		return nil, nil, err
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		return nil, nil, fmt.Errorf("unexpected go env output %q", out)
	}
	modcache, gomod, gowork := lines[0], lines[1], lines[2]
	if modcache == "" || !within(l.Dir, modcache) {
		return l, nil, nil
	}
	if gomod == "" || gomod == os.DevNull {
		return nil, nil, fmt.Errorf("package %s is in the module cache (%s), and there is no go.mod to build it in", l.ImportPath, l.Dir)
	}
	sum := sha256.Sum256([]byte(l.Module.Dir))
	name := strings.Trim(unsafeChars.ReplaceAllString(l.Module.Path, "_"), "_.")
	copyDir := filepath.Join(cache, "modules", name+"-"+hex.EncodeToString(sum[:6]))
	if err := b.copyModule(l.Module.Dir, copyDir); err != nil {
		return nil, nil, fmt.Errorf("copying module %s out of the module cache, so that benchspec's driver can be added to its package %s: %w", l.Module.Path, l.ImportPath, err)
	}
	var mf *modFile
	if gowork != "" && gowork != "off" {
		mf, err = b.workspaceWith(ctx, cache, gowork, l.Module.Path, copyDir)
	} else {
		mf, err = b.modFileWith(ctx, cache, dir, x, gomod, l.Module.Path, copyDir)
	}
	if err != nil {
		return nil, nil, err
	}
	copied, err := b.list(ctx, dir, pkg, mf.apply(x), mf.args()...)
	if err != nil {
		mf.close()
		return nil, nil, err
	}
	if !within(copied.Dir, copyDir) {
		mf.close()
		return nil, nil, fmt.Errorf("package %s: the copy of module %s in %s was not used (go list says %s)", l.ImportPath, l.Module.Path, copyDir, copied.Dir)
	}
	return copied, mf, nil
}

// modFileWith writes a copy of the go.mod file gomod (and its go.sum)
// that replaces module path by the directory dst, as a -modfile.
func (b *Builder) modFileWith(ctx context.Context, cache, dir string, x variant, gomod, path, dst string) (*modFile, error) {
	tmp, err := os.MkdirTemp(cache, ".modfile-")
	if err != nil {
		return nil, fmt.Errorf("test binary cache: %w", err)
	}
	mf := &modFile{path: filepath.Join(tmp, "go.mod"), cleanup: func() { os.RemoveAll(tmp) }}
	err = copyFile(gomod, mf.path, 0o644)
	if gosum := strings.TrimSuffix(gomod, ".mod") + ".sum"; err == nil && fileExists(gosum) {
		err = copyFile(gosum, filepath.Join(tmp, "go.sum"), 0o644)
	}
	if err != nil {
		err = fmt.Errorf("test binary cache: %w", err)
	} else {
		_, err = b.goCmd(ctx, dir, x, "mod", "edit", "-replace="+path+"="+dst, mf.path)
	}
	if err != nil {
		mf.close()
		return nil, err
	}
	return mf, nil
}

// workspaceWith is, in workspace mode (where the go command refuses a
// -modfile), a copy of the workspace gowork that replaces module path by
// the directory dst, as GOWORK: the package is built with the
// workspace's build list, as the user's go test builds it.
func (b *Builder) workspaceWith(ctx context.Context, cache, gowork, path, dst string) (*modFile, error) {
	w, err := b.readWork(ctx, gowork)
	if err != nil {
		return nil, err
	}
	w.addReplace(path, dst)
	sum := strings.TrimSuffix(gowork, ".work") + ".work.sum"
	if !fileExists(sum) {
		sum = ""
	}
	work, err := writeWork(cache, w, sum)
	if err != nil {
		return nil, fmt.Errorf("test binary cache: %w", err)
	}
	return &modFile{env: []string{"GOWORK=" + work}}, nil
}

// within reports whether path is dir or beneath it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// copyModule copies the module directory src to dst, unless dst is there
// (a module cache directory never changes) and checks against the
// manifest written when it was copied (filehash.CheckTree): a copy
// changed since is copied again, with a warning, as a replaced binary is
// built again. It copies through a temporary directory renamed into
// place; a copy that fails its check is renamed aside, not removed under
// a batch that may be building from it. Directories are 0755 and files
// 0644 (or 0755 when executable), so that the cache can be pruned,
// unlike the read-only module cache. Using a copy marks it used (its
// modification time).
func (b *Builder) copyModule(src, dst string) error {
	if isDir(dst) {
		err := checkCopy(dst)
		if err == nil {
			now := time.Now()
			return os.Chtimes(dst, now, now)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			b.warn(fmt.Sprintf("the copy of a module in the cache (%s) is not the module: %v since it was copied; copying it again", dst, err))
		}
		stale := fmt.Sprintf("%s.stale-%016x", dst, rand.Uint64())
		if err := os.Rename(dst, stale); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		defer os.RemoveAll(stale)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), ".copy-")
	if err != nil {
		return err
	}
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(tmp, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type().IsRegular():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			return copyFile(path, to, 0o644|fi.Mode().Perm()&0o111)
		}
		return nil // a module zip holds no links or devices
	})
	var manifest []byte
	if err == nil {
		manifest, err = filehash.Manifest(tmp, nil)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, manifestName), manifest, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, dst)
		if err != nil && checkCopy(dst) == nil { // another batch copied it first
			err = nil
		}
	}
	if err != nil {
		os.RemoveAll(tmp)
	}
	return err
}

// manifestName is the manifest of a module's copy, in it: the go
// command ignores a file whose name begins with a dot.
const manifestName = ".benchspec-manifest"

// checkCopy checks a module's copy against its manifest; an error
// wrapping fs.ErrNotExist when it has none.
func checkCopy(dir string) error {
	manifest, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return err
	}
	return filehash.CheckTree(dir, manifest, func(rel string) bool { return rel == manifestName })
}

func copyFile(src, dst string, perm fs.FileMode) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, perm)
}

// pruneModules removes the module copies unused for longer than maxAge
// (0: none). A binary built from a removed copy is built again: the
// index does not hand out a package whose directory is gone.
func pruneModules(cache string, maxAge time.Duration) {
	if maxAge <= 0 {
		return
	}
	dir := filepath.Join(cache, "modules")
	if !isDir(dir) {
		return
	}
	des, _ := os.ReadDir(dir)
	now := time.Now()
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > maxAge {
			os.RemoveAll(filepath.Join(dir, de.Name()))
		}
	}
}
