package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"syscall"

	"github.com/benchspec/benchspec/internal/filehash"
)

// MaxBytes bounds a JSON report Read and ReadFile read: a nightly report
// of a few hundred runs with raw data is a few MiB. A larger input is
// refused before it is decoded (a file, before a byte is read), rather
// than taking the machine's memory.
const MaxBytes = 256 << 20

// Write writes r as indented JSON with a trailing newline: the lossless
// format, described by schemas/result.schema.json and read back by Read.
// It lives beside Read so that the two stay each other's inverse.
func Write(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // keep "<failure>" and "a < b" readable
	c := *r
	c.Complexity = Fits(r.Runs)
	if err := enc.Encode(&c); err != nil {
		return fmt.Errorf("report: writing JSON: %w", err)
	}
	return nil
}

// ReadFile reads the JSON report at path: the one way the benchspec
// program opens a report a user names (report, compare, merge). What
// cannot be a report is refused before a byte is read: anything but a
// regular file — a FIFO would block the open or the read until a writer
// came, a device would never end — and a file over MaxBytes. The open
// does not block. A symbolic link is followed: the path is the user's,
// and reading through it writes nothing.
func ReadFile(path string) (*Report, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a report file: name a JSON report, or - to read one from stdin", path, filehash.Kind(fi.Mode().Type()))
	}
	if fi.Size() > MaxBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than a report may have (%d MiB)", path, fi.Size(), MaxBytes>>20)
	}
	rep, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// requiredKeys are the keys every report has (Write writes them all,
// null or not; the schema requires them): a JSON object without one is
// not a batch's report, however well it decodes.
var requiredKeys = []string{"schema_version", "complete", "suite", "env", "specs", "runs"}

// Read decodes a JSON report of at most MaxBytes. Fields it does not know
// are ignored, so that a newer report stays readable; a report of another
// schema version, or an object without the keys every report has, is an
// error.
func Read(r io.Reader) (*Report, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("report: reading JSON report: %w", err)
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("report: more than a report may have (%d MiB)", MaxBytes>>20)
	}
	var rep Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("report: reading JSON report: %w", err)
	}
	// A report is one JSON value: anything after it (a second report
	// appended, a truncated rewrite) means the file is not what it says.
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("report: reading JSON report: data after the report, at byte %d", dec.InputOffset())
	}
	switch rep.SchemaVersion {
	case SchemaVersion:
	case 1:
		upgradeV1(&rep)
	default:
		return nil, fmt.Errorf("report: unsupported schema_version %d (this build reads 1 and %d)",
			rep.SchemaVersion, SchemaVersion)
	}
	if missing := missingKeys(data); len(missing) > 0 {
		return nil, fmt.Errorf("not a batch's report: it has no %s (a JSON report of benchspec has %s)", strings.Join(missing, ", "), strings.Join(requiredKeys, ", "))
	}
	for i := range rep.Runs {
		if err := checkRun(&rep.Runs[i]); err != nil {
			return nil, fmt.Errorf("report: runs[%d] (%s): %w", i, rep.Runs[i].Key, err)
		}
	}
	if err := checkReport(&rep); err != nil {
		return nil, err
	}
	return &rep, nil
}

// missingKeys returns the requiredKeys the JSON object data lacks, quoted.
func missingKeys(data []byte) []string {
	var keys map[string]present
	if json.Unmarshal(data, &keys) != nil {
		return nil // decoded as a Report already: cannot happen
	}
	var missing []string
	for _, k := range requiredKeys {
		if !keys[k] {
			missing = append(missing, fmt.Sprintf("%q", k))
		}
	}
	return missing
}

// present is true for a key that is there, whatever its value (null
// included), without decoding the value.
type present bool

func (p *present) UnmarshalJSON([]byte) error { *p = true; return nil }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
