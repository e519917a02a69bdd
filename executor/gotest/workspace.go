package gotest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/version"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// A module set up by a workspace (go work init . ../benchspec) or by a
// go.mod replace to a directory (=> ../benchspec) names other
// directories by paths relative to its own files. Two builds see those
// paths from elsewhere, and get a workspace file of benchspec's, given
// as GOWORK, whose paths are absolute:
//
//   - A git revision's checkout (benchspec ab) is unpacked in the cache,
//     where ../benchspec points nowhere. Its go commands get the working
//     tree's workspace (or the working tree's module and its directory
//     replaces), each path into the repository mapped into the checkout:
//     the revision's code, built with the other modules as they stand
//     (checkoutEnv).
//   - A dependency's package, built from a copy of its module
//     (outOfModuleCache), is pointed at the copy by one replace more: a
//     -modfile in module mode, which the go command refuses in workspace
//     mode, where the workspace is copied with the replace added
//     instead, so that the package is built with the workspace's build
//     list, as go test in the user's module would build it.

// workFile is a go.work file: what `go work edit -json` prints.
type workFile struct {
	Go        string `json:",omitempty"`
	Toolchain string `json:",omitempty"`
	Godebug   []struct{ Key, Value string }
	Use       []struct{ DiskPath string }
	Replace   []struct {
		Old, New struct{ Path, Version string }
	}
}

// readWork reads the go.work file at path (by the go command, which
// parses it as every other go command does), its use and directory
// replace paths made absolute.
func (b *Builder) readWork(ctx context.Context, path string) (*workFile, error) {
	out, err := b.run(ctx, filepath.Dir(path), nil, "work", "edit", "-json", path)
	if err != nil {
		return nil, fmt.Errorf("reading the workspace %s: %w", path, err)
	}
	var w workFile
	if err := json.Unmarshal([]byte(out), &w); err != nil {
		return nil, fmt.Errorf("reading the workspace %s: %v", path, err)
	}
	base := filepath.Dir(path)
	for i := range w.Use {
		w.Use[i].DiskPath = absIn(base, w.Use[i].DiskPath)
	}
	for i := range w.Replace {
		if r := &w.Replace[i]; r.New.Version == "" {
			r.New.Path = absIn(base, r.New.Path)
		}
	}
	return &w, nil
}

func absIn(base, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(base, filepath.FromSlash(path))
}

// addUse adds the module directory dir to w's uses, unless it is there.
func (w *workFile) addUse(dir string) {
	for _, u := range w.Use {
		if u.DiskPath == dir {
			return
		}
	}
	w.Use = append(w.Use, struct{ DiskPath string }{dir})
}

// addReplace replaces module path (all its versions) by the directory
// dir, instead of any replace of it w has.
func (w *workFile) addReplace(path, dir string) {
	out := w.Replace[:0]
	for _, r := range w.Replace {
		if r.Old.Path != path {
			out = append(out, r)
		}
	}
	w.Replace = out
	var r struct {
		Old, New struct{ Path, Version string }
	}
	r.Old.Path, r.New.Path = path, dir
	w.Replace = append(w.Replace, r)
}

// format is w as a go.work file. Its go line is at least every used
// module's, so that a module newer than the workspace it came from (a
// revision's) is not refused.
func (w *workFile) format() []byte {
	goLine := w.Go
	for _, u := range w.Use {
		if v := goVersion(filepath.Join(u.DiskPath, "go.mod")); v != "" && (goLine == "" || version.Compare("go"+v, "go"+goLine) > 0) {
			goLine = v
		}
	}
	var buf bytes.Buffer
	if goLine != "" {
		fmt.Fprintf(&buf, "go %s\n", goLine)
	}
	if w.Toolchain != "" {
		fmt.Fprintf(&buf, "toolchain %s\n", w.Toolchain)
	}
	for _, g := range w.Godebug {
		fmt.Fprintf(&buf, "godebug %s=%s\n", g.Key, g.Value)
	}
	for _, u := range w.Use {
		fmt.Fprintf(&buf, "use %s\n", strconv.Quote(u.DiskPath))
	}
	for _, r := range w.Replace {
		old := strconv.Quote(r.Old.Path)
		if r.Old.Version != "" {
			old += " " + r.Old.Version
		}
		neu := strconv.Quote(r.New.Path)
		if r.New.Version != "" {
			neu += " " + r.New.Version
		}
		fmt.Fprintf(&buf, "replace %s => %s\n", old, neu)
	}
	return buf.Bytes()
}

// goVersion is the go line of the go.mod file at path, "" when it has
// none or cannot be read.
func goVersion(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "go" {
			return fields[1]
		}
	}
	return ""
}

// writeWork writes w into the cache's workspaces directory, in a
// directory named by its content and that of the go.work.sum at sum (""
// for none), copied beside it, as the go command keeps it beside its
// go.work; it returns the go.work file's path.
func writeWork(cache string, w *workFile, sum string) (string, error) {
	data := w.format()
	var sumData []byte
	if sum != "" {
		sumData, _ = os.ReadFile(sum)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%q %q", data, sumData)
	dir := filepath.Join(cache, "workspaces", hex.EncodeToString(h.Sum(nil)[:12]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "go.work")
	if err := writeFileAtomic(path, data); err != nil {
		return "", err
	}
	if sumData != nil {
		if err := writeFileAtomic(filepath.Join(dir, "go.work.sum"), sumData); err != nil {
			return "", err
		}
	}
	return path, nil
}

// checkout is a git revision's tree in dir, of the repository whose
// working tree is at worktree.
type checkout struct{ dir, worktree string }

// checkouts are a Builder's checkouts and the environment of each of
// their modules (checkoutEnv), by the module's directory.
type checkouts struct {
	mu   sync.Mutex
	list []checkout
	envs map[string][]string
}

// AddCheckout tells b that dir holds a checkout of a revision of the git
// repository whose working tree is at worktree (both absolute): the go
// commands run in it see the working tree's workspace and directory
// replaces (checkoutEnv).
func (b *Builder) AddCheckout(dir, worktree string) {
	b.co.mu.Lock()
	defer b.co.mu.Unlock()
	for _, d := range []*string{&dir, &worktree} {
		if r, err := filepath.EvalSymlinks(*d); err == nil {
			*d = r
		}
	}
	b.co.list = append(b.co.list, checkout{dir, worktree})
}

// checkoutEnv is the environment the go commands run in dir get, nil
// outside a checkout (AddCheckout) and where the checkout's module needs
// nothing: no workspace, and no replace by a directory outside the
// repository. Else it is GOWORK naming a workspace of the checkout's
// module, with the working tree's workspace's other modules (those of
// the repository in the checkout, if it has them) and its replaces, or
// those of the module's go.mod, their paths made absolute.
func (b *Builder) checkoutEnv(ctx context.Context, dir string) ([]string, error) {
	if dir == "" {
		return nil, nil
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	b.co.mu.Lock()
	var c *checkout
	for i := range b.co.list {
		if within(dir, b.co.list[i].dir) {
			c = &b.co.list[i]
		}
	}
	b.co.mu.Unlock()
	if c == nil {
		return nil, nil
	}
	mod := moduleRoot(dir)
	if mod == "" || !within(mod, c.dir) {
		return nil, nil
	}
	b.co.mu.Lock()
	env, ok := b.co.envs[mod]
	b.co.mu.Unlock()
	if ok {
		return env, nil
	}
	env, err := b.makeCheckoutEnv(ctx, c, mod)
	if err != nil {
		return nil, err
	}
	b.co.mu.Lock()
	if b.co.envs == nil {
		b.co.envs = map[string][]string{}
	}
	b.co.envs[mod] = env
	b.co.mu.Unlock()
	return env, nil
}

func (b *Builder) makeCheckoutEnv(ctx context.Context, c *checkout, mod string) ([]string, error) {
	rel, err := filepath.Rel(c.dir, mod)
	if err != nil {
		return nil, err
	}
	// The path into the working tree maps into the checkout.
	toCheckout := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		if within(p, c.worktree) {
			r, _ := filepath.Rel(c.worktree, p)
			return filepath.Join(c.dir, r)
		}
		return p
	}
	wtMod := filepath.Join(c.worktree, rel)
	at := wtMod // where the working tree's go command looks from
	for !isDir(at) && within(filepath.Dir(at), c.worktree) {
		at = filepath.Dir(at)
	}
	out, err := b.run(ctx, at, nil, "env", "GOWORK")
	if err != nil {
		return nil, err
	}
	w, sum := &workFile{}, ""
	if gowork := strings.TrimSpace(out); gowork != "" && gowork != "off" {
		if w, err = b.readWork(ctx, gowork); err != nil {
			return nil, err
		}
		uses := w.Use[:0]
		for _, u := range w.Use {
			u.DiskPath = toCheckout(u.DiskPath)
			// A module of the working tree that the revision lacks.
			if within(u.DiskPath, c.dir) && !fileExists(filepath.Join(u.DiskPath, "go.mod")) {
				continue
			}
			uses = append(uses, u)
		}
		w.Use = uses
		sum = strings.TrimSuffix(gowork, ".work") + ".work.sum"
		if !fileExists(sum) {
			sum = ""
		}
	} else {
		// Module mode: the revision's go.mod, whose relative replaces
		// mean paths from the module's place in the working tree.
		out, err := b.run(ctx, mod, nil, "mod", "edit", "-json", filepath.Join(mod, "go.mod"))
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(out), w); err != nil {
			return nil, fmt.Errorf("reading %s: %v", filepath.Join(mod, "go.mod"), err)
		}
		w.Use, w.Toolchain, w.Godebug = nil, "", nil
		outside := false
		replaces := w.Replace[:0]
		for _, r := range w.Replace {
			if r.New.Version != "" {
				continue // the go.mod's own replace applies as it is
			}
			p := absIn(wtMod, r.New.Path)
			outside = outside || !within(p, c.worktree)
			r.New.Path = toCheckout(p)
			replaces = append(replaces, r)
		}
		if !outside {
			return nil, nil // every replace is of the checkout's own
		}
		w.Replace = replaces
		if v := goVersion(filepath.Join(mod, "go.mod")); v != "" {
			w.Go = v
		}
	}
	for i := range w.Replace {
		if r := &w.Replace[i]; r.New.Version == "" {
			r.New.Path = toCheckout(r.New.Path)
		}
	}
	w.addUse(mod)
	path, err := writeWork(b.cacheDir(), w, sum)
	if err != nil {
		return nil, fmt.Errorf("test binary cache: %w", err)
	}
	return []string{"GOWORK=" + path}, nil
}
