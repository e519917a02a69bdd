package plan

import (
	"strings"

	"github.com/benchspec/benchspec/internal/suggest"
)

// closest returns up to n registered names nearest to an include pattern,
// by edit distance to the pattern with its regexp anchors and escapes
// removed, for "did you mean" messages.
func closest(pattern string, names []string, n int) []string {
	lit := strings.NewReplacer("^", "", "$", "", `\`, "", ".*", "", "(", "", ")", "").Replace(pattern)
	return suggest.Nearest(lit, names, n)
}
