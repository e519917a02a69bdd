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
	s.Entries = make([]Entry, 0, len(list)) // an Entry is large: no regrowing
	for i, e := range list {
		s.Entries = append(s.Entries, d.entry(i, e.(map[string]any), s.Defaults, defaultsPos))
	}
	return s
}

func (d *document) entry(i int, m map[string]any, defaults Settings, defaultsPos map[string]Pos) Entry {
	ptr := "/benchmarks/" + strconv.Itoa(i)
	node, _ := d.node(ptr)
	e := Entry{
		Index:      i,
		Pos:        d.pos(ptr),
		Include:    m["include"].(string),
		IncludePos: d.posUnder(node, ptr, "/include"),
		Params:     map[string][]string{},
		ParamPos:   map[string]Pos{},
		SettingPos: make(map[string]Pos, len(defaultsPos)+2*len(m)),
		Settings:   defaults.Clone(),
	}
	maps.Copy(e.SettingPos, defaultsPos)
	if ex, ok := m["exclude"].(string); ok {
		e.Exclude, e.ExcludePos = ex, d.posUnder(node, ptr, "/exclude")
	}
	if pkg, ok := m["package"].(string); ok {
		e.Package, e.PackagePos = pkg, d.posUnder(node, ptr, "/package")
	}
	d.settingPos(e.SettingPos, node, ptr, m)
	params, _ := m["params"].(map[string]any)
	for name, v := range params {
		list, ok := v.([]any)
		if !ok {
			list = []any{v}
		}
		for _, x := range list {
			e.Params[name] = append(e.Params[name], paramString(x))
		}
		rel := "/params/" + escapeToken(name)
		e.ParamPos[name] = d.posUnder(node, ptr, rel)
		if _, k := nodeAt(node, rel); k != nil {
			e.ParamPos[name] = Pos{File: d.path, Line: k.Line, Col: k.Column}
		}
	}
	apply(&e.Settings, m)
	return e
}

// settingPos records in pos where the settings keys of m (at ptr) are,
// phases key by key ("warmup.time").
func (d *document) settingPos(pos map[string]Pos, node *yaml.Node, ptr string, m map[string]any) {
	for k, v := range m {
		switch k {
		case "include", "exclude", "params", "package":
			continue
		}
		pos[k] = d.posUnder(node, ptr, "/"+escapeToken(k))
		if sub, ok := v.(map[string]any); ok && (k == "warmup" || k == "measurement") {
			for sk := range sub {
				pos[k+"."+sk] = d.posUnder(node, ptr, "/"+k+"/"+escapeToken(sk))
			}
		}
	}
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
