package spec

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ComplexityParam chooses n, the param a complexity fit runs over, from
// the values a benchmark's runs give each param: the one param whose
// values are all positive numbers, at least 4 of them distinct. The
// other params are the fit's others: one fit per combination of their
// values. The error says what would be valid.
func ComplexityParam(params map[string][]string) (string, error) {
	var swept, counts []string
	for name, vals := range params {
		distinct := map[string]bool{}
		for _, v := range vals {
			if x, err := strconv.ParseFloat(v, 64); err != nil || !(x > 0) {
				distinct = nil
				break
			}
			distinct[v] = true
		}
		if len(distinct) >= 4 {
			swept = append(swept, name)
		}
		counts = append(counts, fmt.Sprintf("%s: %d", name, len(vals)))
	}
	sort.Strings(swept)
	sort.Strings(counts)
	switch {
	case len(swept) == 1:
		return swept[0], nil
	case len(swept) > 1:
		return "", fmt.Errorf("complexity: params %s each sweep 4 or more numbers, and only one can be n: give the others fewer values", strings.Join(swept, ", "))
	}
	has := "no params"
	if len(counts) > 0 {
		has = "values per param: " + strings.Join(counts, ", ")
	}
	return "", fmt.Errorf("complexity needs one param swept over at least 4 positive numbers (n), such as params: {n: [100, 200, 400, 800]}; %s", has)
}
