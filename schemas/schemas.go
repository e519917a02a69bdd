// Package schemas holds benchspec's JSON Schemas (draft-07), embedded in
// the binary: the spec format that users write, the JSON report that
// benchspec writes, its nightly history, and the comparisons of compare
// and ab. Editors can use the files
// directly, for example through a `# yaml-language-server: $schema=...`
// comment at the top of a spec.
package schemas

import _ "embed"

// Spec is the JSON Schema of spec format version 1 (spec.schema.json).
// Callers must not modify it.
//
//go:embed spec.schema.json
var Spec []byte

// Result is the JSON Schema of the JSON report (result.schema.json).
// Callers must not modify it.
//
//go:embed result.schema.json
var Result []byte

// History is the JSON Schema of benchspec history --format json
// (history.schema.json). Callers must not modify it.
//
//go:embed history.schema.json
var History []byte

// Comparison is the JSON Schema of benchspec compare --format json, a
// compare.Result (comparison.schema.json). Callers must not modify it.
//
//go:embed comparison.schema.json
var Comparison []byte

// AB is the JSON Schema of benchspec ab --format json (ab.schema.json):
// the comparison and both reports, by $ref to comparison.schema.json and
// result.schema.json, which a validator needs beside it. Callers must not
// modify it.
//
//go:embed ab.schema.json
var AB []byte
