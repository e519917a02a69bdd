package spec

import (
	"strconv"
	"strings"
)

// selection holds the keys of an entry that decide what it selects: an
// entry with one of them wrong is left out of a partial spec, as it
// cannot be checked against the benchmarks.
func selection(key string) bool {
	switch key {
	case "include", "exclude", "params", "package":
		return true
	}
	return false
}

// prune removes from d.value what the errors are about, for ParsePartial:
// a wrong setting, of the defaults or of an entry, is deleted (the
// setting above it applies), an entry whose selection is wrong is marked
// in d.dropped. It reports false when an error is about anything else:
// then there is no partial spec.
func (d *document) prune() bool {
	root, ok := d.value.(map[string]any)
	if !ok || d.unplaced > 0 || d.omitted > 0 {
		return false
	}
	list, ok := root["benchmarks"].([]any)
	if !ok {
		return false
	}
	d.dropped = map[int]bool{}
	ptrs := make([]string, 0, len(d.errPtr)+len(d.bad))
	for p := range d.errPtr {
		ptrs = append(ptrs, p)
	}
	for p := range d.bad {
		ptrs = append(ptrs, p)
	}
	for _, p := range ptrs {
		tok := strings.Split(p, "/") // "", "benchmarks", "0", "forks", ...
		if len(tok) < 2 {
			return false
		}
		switch tok[1] {
		case "defaults":
			defaults, _ := root["defaults"].(map[string]any)
			if len(tok) == 2 || defaults == nil {
				delete(root, "defaults")
			} else {
				delete(defaults, unescapeToken(tok[2]))
			}
		case "benchmarks":
			if len(tok) == 2 {
				return false
			}
			i, err := strconv.Atoi(tok[2])
			if err != nil || i < 0 || i >= len(list) {
				return false
			}
			m, ok := list[i].(map[string]any)
			if len(tok) == 3 || !ok || selection(unescapeToken(tok[3])) {
				d.dropped[i] = true
				list[i] = map[string]any{"include": "^$"} // built, then left out
				continue
			}
			delete(m, unescapeToken(tok[3]))
		default:
			return false
		}
	}
	for i, e := range list {
		if m, ok := e.(map[string]any); !ok || !isString(m["include"]) {
			d.dropped[i] = true
			list[i] = map[string]any{"include": "^$"}
		}
	}
	return true
}

func isString(v any) bool { _, ok := v.(string); return ok }
