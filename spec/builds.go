package spec

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// Build is one element of `builds:`: a variant of the suite, and of the
// test binaries of the spec's package entries, that benchspec builds
// with other go command flags. The plan measures every run of the spec
// once per build. A field left out is the go command's default.
type Build struct {
	Name string
	Pos  Pos // the element's mapping
	// Toolchain is GOTOOLCHAIN for the build's go commands: "" or
	// "local" is the go command on PATH, "go1.26.8" a release.
	Toolchain string
	GCFlags   string   // go build -gcflags, one argument
	Tags      []string // go build -tags
	GOAMD64   string   // v1 … v4
	// PGO is go build -pgo as written: a path relative to the spec
	// file, "auto" or "off".
	PGO    string
	PGOPos Pos
}

// PGOFile reports whether PGO names a profile file rather than one of
// go build's words for none or the main package's default.pgo.
func (b *Build) PGOFile() bool { return b.PGO != "" && b.PGO != "auto" && b.PGO != "off" }

// builds builds the spec's `builds:` from a validated document.
func (d *document) builds(root map[string]any) []Build {
	list, _ := root["builds"].([]any)
	if len(list) == 0 {
		return nil
	}
	out := make([]Build, len(list))
	items := deref(member(d.root, "builds"))
	for i, v := range list {
		m := v.(map[string]any)
		ptr := "/builds/" + strconv.Itoa(i)
		var node *yaml.Node
		if items != nil && items.Kind == yaml.SequenceNode && len(items.Content) == len(list) {
			node = items.Content[i]
		}
		b := &out[i]
		b.Name, b.Pos = m["name"].(string), d.nodePos(node, ptr)
		b.Toolchain, _ = m["toolchain"].(string)
		b.GCFlags, _ = m["gcflags"].(string)
		b.GOAMD64, _ = m["goamd64"].(string)
		if pgo, ok := m["pgo"].(string); ok {
			b.PGO, b.PGOPos = pgo, d.memberPos(node, ptr, "pgo")
		}
		tags, _ := m["tags"].([]any)
		for _, t := range tags {
			b.Tags = append(b.Tags, t.(string))
		}
	}
	return out
}

// checkBuilds checks what the schema cannot say of `builds:`: that no
// two builds have one name, and that gcflags give only the compiler
// flags a build may give (checkGCFlags).
func (d *document) checkBuilds(root map[string]any) {
	list, _ := root["builds"].([]any)
	first := map[string]int{}
	for i, v := range list {
		m, _ := v.(map[string]any)
		if g, ok := m["gcflags"].(string); ok {
			ptr := "/builds/" + strconv.Itoa(i) + "/gcflags"
			if why := checkGCFlags(g); why != "" && !d.errPtr[ptr] {
				d.errorPtr(ptr, "%s: %s", d.display(ptr), why)
			}
		}
		name, ok := m["name"].(string)
		ptr := "/builds/" + strconv.Itoa(i) + "/name"
		if !ok || d.errPtr[ptr] {
			continue
		}
		if j, dup := first[name]; dup {
			d.errorPtr(ptr, "%s: %s names builds[%d] too; a build's name is unique, since it tells the build's runs apart", d.display(ptr), short(name), j)
			continue
		}
		first[name] = i
	}
}
