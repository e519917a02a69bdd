// Package spec reads benchspec spec files: YAML in, a typed, validated
// Spec out, the built-in defaults, the spec's `defaults:` and each
// entry's keys resolved into one Settings per entry, and its `builds:`,
// the variants of the suite it measures, as Builds.
//
// It is strict on purpose, because a spec is input: the JSON Schema in
// package schemas is the single source of keys, types and ranges (editors
// use it too); durations and RE2 patterns are checked beyond it; unknown
// or duplicate keys, a second document and YAML 1.1 surprises are errors;
// alias expansion is bounded. Every problem is reported at once as
// path:line:col: message, and a spec with any problem yields no Spec.
// Overrides go key by key (env variable by variable).
//
// Adding a key: the schema (spec and result), the field with the key as
// its JSON name (in protocol.Settings, which Settings embeds, for a key
// that changes how a fork measures), a line in the test's nonDefault
// table; TestEverySchemaKeyReachesSettings fails until they exist. A key
// is decoded into the field of its JSON name; settingKeys holds the few
// whose spec value needs converting.
package spec
