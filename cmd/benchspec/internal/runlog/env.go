package runlog

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
)

// DefaultWidth is the width long lines are wrapped to when the output is
// not a terminal (a CI log, a file): the result table's.
const DefaultWidth = 100

// Width is the number of columns to wrap w's long lines to: the
// terminal's, when w is one, so that the terminal does not break words
// at its edge; DefaultWidth otherwise.
func Width(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return DefaultWidth
}

// Environment writes the diagnostics of the environment check before a
// batch, one "# Environment: severity CODE: message" per diagnostic,
// wrapped at word boundaries to width columns with "#   " before each
// continuation, so that every line still reads as a comment of the run
// log.
func Environment(w io.Writer, ds []report.Diagnostic, width int) error {
	for _, d := range ds {
		line := "# Environment: " + d.Severity + " " + d.Code + ": " + format.OneLine(d.Message)
		if _, err := fmt.Fprintln(w, format.Wrap(line, "#   ", width)); err != nil {
			return err
		}
	}
	return nil
}
