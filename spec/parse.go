package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
)

// ParseFile reads and parses the spec file at path. See Parse.
func ParseFile(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	return Parse(path, data)
}

// Parse parses, validates and resolves one spec file. path is used only in
// positions and in Spec.Path.
//
// If the spec has any problem, Parse returns a nil Spec and an ErrorList
// holding every problem it found, sorted by position. It never panics and
// bounds the work a hostile file can cause (alias bombs, deep nesting,
// huge files).
func Parse(path string, data []byte) (s *Spec, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, ErrorList{{Pos: Pos{File: path, Line: 1, Col: 1}, Msg: fmt.Sprintf("internal error while reading the spec: %v", r)}}
		}
	}()
	d := newDocument(path)
	if d.load(data) {
		schema, err := loadSchema()
		if err != nil {
			return nil, err
		}
		d.validate(schema)
		d.checkSemantics()
	}
	if len(d.errs) > 0 {
		return nil, d.errs.sort()
	}
	return d.build(data), nil
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
