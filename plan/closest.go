package plan

import (
	"sort"
	"strings"
)

// closest returns up to n registered names nearest to an include pattern,
// by edit distance to the pattern with its regexp anchors and escapes
// removed, for "did you mean" messages.
func closest(pattern string, names []string, n int) []string {
	lit := strings.NewReplacer("^", "", "$", "", `\`, "", ".*", "", "(", "", ")", "").Replace(pattern)
	type scored struct {
		name string
		d    int
	}
	var all []scored
	for _, name := range names {
		all = append(all, scored{name, distance(strings.ToLower(lit), strings.ToLower(name))})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].d < all[j].d })
	var out []string
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].name)
	}
	return out
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
