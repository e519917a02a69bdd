// Package spec reads benchspec spec files: YAML in, a typed, validated
// Spec out, with the built-in defaults, the spec's `defaults:` and each
// entry's own keys resolved into one Settings per entry.
//
// The package is strict on purpose. A spec is checked against the JSON
// Schema in package schemas (the single source of keys, types, enums and
// ranges, also usable by editors) and then for what a schema cannot say:
// that durations are Go durations within sane bounds and that include and
// exclude are valid RE2. Unknown keys, duplicate keys, a second YAML
// document and YAML 1.1 surprises are errors, not warnings. Every problem
// is reported at once, each as path:line:col: message, and a spec with any
// problem yields no Spec at all.
//
// YAML is read with 1.2 typing: a quoted "3" is a string, yes and no are
// strings. Anchors, aliases and merge keys (<<) work; their expansion is
// bounded so that a hostile file cannot exhaust memory. Files must be
// UTF-8.
//
// Overrides go key by key: `warmup: {time: 2s}` in an entry changes only
// the warmup time, env is merged variable by variable, and params replace
// the registered values of only the parameters they name.
//
// Settings is the one type the settings keys decode into; the plan, the
// forks and the JSON report carry it as is, and its JSON names are the
// spec's keys. Adding a key means: the key in schemas/spec.schema.json
// (under defaults, entry and definitions) and in result.schema.json's
// run settings, the field with its JSON name, its decoder in settingKeys
// (phaseKeys, diagKeys), a line in the test's nonDefault table, and the
// code that uses it. TestEverySchemaKeyReachesSettings fails until the
// field and decoder exist; the report's schema test fails until the
// result schema has it.
//
// A spec of 1 000 entries parses, validates and plans in well under a
// second (plan's BenchmarkFrontEnd), mostly in yaml.v3's decoding and
// gojsonschema's validation. The Spec's positions are looked up member
// by member from each entry's YAML node rather than by JSON pointer from
// the root, and pointers and paths are made only for errors that need
// them.
//
// Mode is the closed set of benchmark modes; what varies by mode is its
// methods (mode.go).
package spec
