package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// Write writes r as indented JSON with a trailing newline: the lossless
// format, described by schemas/result.schema.json and read back by Read.
// It lives beside Read so that the two stay each other's inverse.
func Write(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // keep "<failure>" and "a < b" readable
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("report: writing JSON: %w", err)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
