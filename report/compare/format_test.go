package compare_test

import (
	"io"

	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/format"
)

func init() {
	compare.Write = func(w io.Writer, res *compare.Result, name string) error {
		f, err := format.Find[format.ComparisonRenderer](format.Builtin(), name)
		if err != nil {
			return err
		}
		return f.Comparison(w, res)
	}
}
