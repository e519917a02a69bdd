package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"syscall"

	"github.com/benchspec/benchspec/internal/filehash"
)

// ParseFile reads and parses the spec file at path. See Parse.
//
// Only a regular file of at most MaxFileSize bytes is read: a device
// (/dev/zero), a FIFO or a file too large is refused, at 1:1, after one
// stat and before any byte is read. The file is opened without blocking,
// so that opening a FIFO nobody writes to cannot hang.
func ParseFile(path string) (*Spec, error) {
	data, err := readSpec(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// readSpec returns the bytes of the spec file at path, or why it is not
// one: an error without a position when the file cannot be opened, an
// ErrorList at 1:1 when it is not a regular file or is too large.
func readSpec(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	at := func(format string, args ...any) error {
		return ErrorList{{Pos: Pos{File: path, Line: 1, Col: 1}, Msg: fmt.Sprintf(format, args...)}}
	}
	switch {
	case !fi.Mode().IsRegular():
		return nil, at("not a regular file (%s); a spec is a YAML file", filehash.Kind(fi.Mode()))
	case fi.Size() > MaxFileSize:
		return nil, at("spec file too large (%d bytes; at most %d)", fi.Size(), MaxFileSize)
	}
	// The file may grow between the stat and the read: read one byte
	// more than the cap, never more.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	if len(data) > MaxFileSize {
		return nil, at("spec file too large (more than %d bytes)", MaxFileSize)
	}
	return data, nil
}

// Parse parses, validates and resolves one spec file. path is used only in
// positions and in Spec.Path.
//
// If the spec has any problem, Parse returns a nil Spec and an ErrorList
// holding every problem it found, sorted by position. It never panics and
// bounds the work a hostile file can cause (alias bombs, deep nesting,
// huge files).
func Parse(path string, data []byte) (s *Spec, err error) {
	return parse(newDocument(path), path, data)
}

func parse(d *document, path string, data []byte) (s *Spec, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, ErrorList{{Pos: Pos{File: path, Line: 1, Col: 1}, Msg: fmt.Sprintf("internal error while reading the spec: %v", r)}}
		}
	}()
	if d.load(data) {
		schema, err := loadSchema()
		if err != nil {
			return nil, err
		}
		d.validate(schema)
		d.checkSemantics()
	}
	if len(d.errs) > 0 {
		return nil, d.errorList()
	}
	return d.build(data), nil
}

// ParsePartial is Parse, which also returns, with the errors of a spec
// whose problems are all in its defaults or its entries, the spec without
// them: without the settings that are wrong (defaults and entries fall
// back to the settings above them) and without the entries whose
// include, exclude, params or package are wrong. A front end checks that
// spec against the benchmarks, so that one pass reports the entries that
// select nothing alongside the schema's errors. It is no spec to run. It
// returns a nil Spec for any other problem: YAML syntax, duplicate keys,
// the version, the name, the list of benchmarks as a whole.
func ParsePartial(path string, data []byte) (s *Spec, err error) {
	d := newDocument(path)
	s, err = parse(d, path, data)
	if err == nil || s != nil {
		return s, err
	}
	defer func() {
		if r := recover(); r != nil {
			s = nil // a value the pruning missed: no partial spec
		}
	}()
	if d.value != nil && d.prune() {
		s = d.build(data)
		s.Entries = slices.DeleteFunc(s.Entries, func(e Entry) bool { return d.dropped[e.Index] })
	}
	return s, err
}

// ParseFilePartial reads the spec file at path and parses it with
// ParsePartial.
func ParseFilePartial(path string) (*Spec, error) {
	data, err := readSpec(path)
	if err != nil {
		return nil, err
	}
	return ParsePartial(path, data)
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
