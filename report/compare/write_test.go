package compare

import "io"

// Write renders res in the named format as `benchspec compare` does, for
// the tests that read what a reader would. report/format renders
// comparisons and imports this package, so only the external test
// package can reach it: format_test.go sets Write.
var Write func(w io.Writer, res *Result, format string) error
