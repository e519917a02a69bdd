// Package suggest finds the names nearest to a mistyped one, for "did you
// mean" messages.
package suggest

import (
	"sort"
	"strings"
)

// Nearest returns up to n candidates ordered by increasing edit distance
// to s (case-insensitive), ties in the candidates' order.
func Nearest(s string, candidates []string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	all := make([]scored, 0, len(candidates))
	for _, c := range candidates {
		all = append(all, scored{c, Distance(strings.ToLower(s), strings.ToLower(c))})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].d < all[j].d })
	out := make([]string, 0, n)
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].name)
	}
	return out
}

// Typo returns the candidate within edit distance 2 of s, the nearest
// first, or "" when none is that close.
func Typo(s string, candidates []string) string {
	if c := Nearest(s, candidates, 1); len(c) == 1 && Distance(strings.ToLower(s), strings.ToLower(c[0])) < 3 {
		return c[0]
	}
	return ""
}

// Distance is the Levenshtein distance between a and b, in runes.
func Distance(a, b string) int {
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
