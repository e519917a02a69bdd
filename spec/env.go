package spec

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// SizeVariables are the env variables whose values are sizes (see
// ParseSize): the hard resource limits the executor sets on a fork
// (BENCHSPEC_RLIMIT_AS bounds its address space, BENCHSPEC_RLIMIT_DATA
// its writable private memory). They are checked here, where the spec is
// checked, so that every command that reads a spec refuses a bad value at
// the value itself.
var SizeVariables = []string{"BENCHSPEC_RLIMIT_AS", "BENCHSPEC_RLIMIT_DATA"}

// ParseSize parses a size in GOMEMLIMIT's syntax: a positive integer
// number of bytes with an optional B, KiB, MiB, GiB or TiB suffix.
func ParseSize(s string) (uint64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := s, uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n == 0 || n > math.MaxUint64>>shift {
		return 0, fmt.Errorf("invalid size %q: want a positive number of bytes with an optional B, KiB, MiB, GiB or TiB suffix, such as 4GiB", s)
	}
	return n << shift, nil
}

// checkEnv checks what the schema cannot say about an env mapping (of the
// defaults or of an entry): that every variable name can be set in a
// process's environment (not empty, no '=' or NUL), at the name, and that
// the size variables parse, at the value.
func (d *document) checkEnv(ptr string, v any) {
	env, ok := v.(map[string]any)
	if !ok || d.errPtr[ptr] {
		return
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		kp := ptr + "/" + escapeToken(k)
		if k == "" || strings.ContainsAny(k, "=\x00") {
			d.errorKey(kp, "%s: invalid variable name %q: it must not be empty or contain '=' or NUL", d.display(ptr), k)
			continue
		}
		s, ok := env[k].(string)
		if !ok || d.errPtr[kp] {
			continue
		}
		for _, sv := range SizeVariables {
			if k != sv {
				continue
			}
			if _, err := ParseSize(s); err != nil {
				d.errorPtr(kp, "%s: %v", d.display(kp), err)
			}
		}
	}
}
