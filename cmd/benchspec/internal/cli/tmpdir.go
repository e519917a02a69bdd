package cli

import (
	"fmt"
	"os"
)

// checkTempDir checks, before a batch, that the directory for temporary
// files (TMPDIR, else /tmp) is one a directory can be made in: every
// fork runs in a scratch directory there, and without one every fork
// would fail, each reading like a benchmark's failure (exit 1), where
// the cause is the environment (exit 2, up front).
func checkTempDir() error {
	tmp := os.TempDir()
	which := "the temporary directory " + tmp
	if v := os.Getenv("TMPDIR"); v != "" {
		which = "TMPDIR=" + v
	}
	dir, err := os.MkdirTemp(tmp, "benchspec-check-")
	if err != nil {
		return fmt.Errorf("%s: cannot make a directory in it (%v); every fork runs in a scratch directory there: set TMPDIR to a writable directory", which, err)
	}
	if err := os.Remove(dir); err != nil {
		return fmt.Errorf("%s: cannot remove a directory made in it (%v); set TMPDIR to a writable directory", which, err)
	}
	return nil
}
