package spec

import (
	"maps"
	"math"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"
)

// build turns a validated document into a Spec. It relies on validation:
// every value has the type and range the schema promises.
//
// Positions are looked up from the YAML nodes directly, member by member
// (memberNode, as convert reads the file), rather than by JSON pointer
// from the root: a spec of 10 000 entries has some 100 000 of them.
func (d *document) build(data []byte) *Spec {
	root := d.value.(map[string]any)
	s := &Spec{
		Path:     d.path,
		SHA256:   sha256Hex(data),
		Version:  toInt(root["version"]),
		Name:     root["name"].(string),
		Defaults: DefaultSettings(),
	}
	defaultsPos := map[string]Pos{}
	if m, ok := root["defaults"].(map[string]any); ok {
		apply(&s.Defaults, m)
		node, _ := d.node("/defaults")
		d.settingPos(defaultsPos, node, "/defaults", m)
	}
	list := root["benchmarks"].([]any)
	var items []*yaml.Node
	if n, _ := d.node("/benchmarks"); deref(n) != nil && deref(n).Kind == yaml.SequenceNode {
		items = deref(n).Content
	}
	// An Entry is large: the slice is allocated once and each entry
	// built in place.
	s.Entries = make([]Entry, len(list))
	for i := range list {
		ptr := "/benchmarks/" + strconv.Itoa(i)
		var node *yaml.Node
		if len(items) == len(list) {
			node = items[i]
		} else {
			node, _ = d.node(ptr)
		}
		d.entry(&s.Entries[i], i, ptr, node, list[i].(map[string]any), &s.Defaults, defaultsPos)
	}
	s.Builds = d.builds(root)
	return s
}

// entry builds into e the entry at ptr, whose node is node and whose
// value is m.
func (d *document) entry(e *Entry, i int, ptr string, node *yaml.Node, m map[string]any, defaults *Settings, defaultsPos map[string]Pos) {
	*e = Entry{
		Index:        i,
		Pos:          d.nodePos(node, ptr),
		Include:      m["include"].(string),
		IncludePos:   d.memberPos(node, ptr, "include"),
		IncludeQuote: quoteOf(member(node, "include")),
		Params:       map[string][]string{},
		ParamPos:     map[string]Pos{},
		Settings:     defaults.Clone(),
		SettingPos:   maps.Clone(defaultsPos),
	}
	if ex, ok := m["exclude"].(string); ok {
		e.Exclude, e.ExcludePos = ex, d.memberPos(node, ptr, "exclude")
		e.ExcludeQuote = quoteOf(member(node, "exclude"))
	}
	if pkg, ok := m["package"].(string); ok {
		e.Package, e.PackagePos = pkg, d.memberPos(node, ptr, "package")
	}
	d.settingPos(e.SettingPos, node, ptr, m)
	if params, _ := m["params"].(map[string]any); len(params) > 0 {
		pn := member(node, "params")
		for name, v := range params {
			list, ok := v.([]any)
			if !ok {
				list = []any{v}
			}
			if len(list) > 0 {
				vals := make([]string, len(list))
				for j, x := range list {
					vals[j] = paramString(x)
				}
				e.Params[name] = vals
			}
			if k, _ := mappingMember(pn, name); k != nil {
				e.ParamPos[name] = Pos{File: d.path, Line: k.Line, Col: k.Column}
			} else {
				e.ParamPos[name] = d.memberPos(pn, ptr+"/params", name)
			}
		}
	}
	apply(&e.Settings, m)
}

// settingPos records in pos where the settings keys of m (at ptr, whose
// node is node) are, phases key by key ("warmup.time"), and a group's
// members by the key that names them ("group_threads.write").
func (d *document) settingPos(pos map[string]Pos, node *yaml.Node, ptr string, m map[string]any) {
	for k, v := range m {
		switch k {
		case "include", "exclude", "params", "package":
			continue
		}
		pos[k] = d.memberPos(node, ptr, k)
		sub, ok := v.(map[string]any)
		switch {
		case ok && (k == "warmup" || k == "measurement"):
			pn := member(node, k)
			for sk := range sub {
				pos[k+"."+sk] = d.memberPos(pn, ptr+"/"+k, sk)
			}
		case ok && k == "group_threads":
			pn := member(node, k)
			for sk := range sub {
				if key, _ := mappingMember(pn, sk); key != nil {
					pos[k+"."+sk] = Pos{File: d.path, Line: key.Line, Col: key.Column}
				} else {
					pos[k+"."+sk] = d.memberPos(pn, ptr+"/"+k, sk)
				}
			}
		}
	}
}

// mappingMember is memberNode for a node that may be an alias, or not a
// mapping (then nils).
func mappingMember(n *yaml.Node, name string) (key, val *yaml.Node) {
	if n = deref(n); n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	return memberNode(n, name, 0)
}

// member is the value node of member name of the mapping n, or nil.
func member(n *yaml.Node, name string) *yaml.Node {
	_, v := mappingMember(n, name)
	return v
}

// nodePos is the position of the value at ptr, whose node is n: pos(ptr)
// without looking the node up again.
func (d *document) nodePos(n *yaml.Node, ptr string) Pos {
	if n != nil && n.Line > 0 {
		return Pos{File: d.path, Line: n.Line, Col: max(n.Column, 1)}
	}
	return d.pos(ptr)
}

// memberPos is the position of member name of the mapping at ptr, whose
// node is n: pos(ptr + "/" + name), looked up from n.
func (d *document) memberPos(n *yaml.Node, ptr, name string) Pos {
	return d.nodePos(member(n, name), ptr+"/"+escapeToken(name))
}

// paramString is how a param value reaches the benchmark body: strings as
// written, integers in decimal (0x10 is "16"), other numbers in Go's
// shortest form (1.50 is "1.5"), booleans as "true" and "false".
func paramString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// toInt converts a validated integer; YAML may have written it as 1e3,
// which arrives as a whole float64 within the schema's bounds.
func toInt(v any) int {
	switch x := v.(type) {
	case int64:
		return int(x)
	case float64:
		return int(math.Round(x))
	}
	return 0
}

func mustDuration(v any) time.Duration {
	d, _ := time.ParseDuration(v.(string))
	return d
}
