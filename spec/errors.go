package spec

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// ErrorList is every problem found in one spec file, sorted by position.
// Parse returns one whenever a spec is invalid, never a partial Spec.
type ErrorList []*Error

// Error returns the errors one per line, each as path:line:col: message.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sort orders l by file, line, column and message, and drops exact
// duplicates (an aliased value reached twice can fail twice).
func (l ErrorList) sort() ErrorList {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Msg < b.Msg
	})
	out := l[:0]
	for i, e := range l {
		if i > 0 && *e == *l[i-1] {
			continue
		}
		out = append(out, e)
	}
	return out
}

// Errors returns the spec errors that err holds: the elements of an
// ErrorList or a single *Error, found with errors.As. It returns nil for a
// nil error and for errors that carry no position, such as a file that
// cannot be read.
func Errors(err error) []*Error {
	var list ErrorList
	if errors.As(err, &list) {
		return list
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return nil
}

// PrintErrors writes err to w, one problem per line as path:line:col:
// message, and returns the number of problems it holds (a list cut short
// ends in "… and N more errors", which counts N). An error without
// positions (Errors returns nil) is written as a single line and counts as
// one; a nil error writes nothing and returns 0.
func PrintErrors(w io.Writer, err error) int {
	if err == nil {
		return 0
	}
	list := Errors(err)
	if list == nil {
		fmt.Fprintln(w, err)
		return 1
	}
	n := 0
	for _, e := range list {
		fmt.Fprintln(w, e)
		n += max(e.Omitted, 1)
	}
	return n
}

// Summary returns the one-line summary printed after checking spec files,
// such as "2 files, 5 errors" or "1 file, 0 errors".
func Summary(files, errs int) string {
	return plural(files, "file", "files") + ", " + plural(errs, "error", "errors")
}

func plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, pluralWord(n, one, many))
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
