package executor

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/benchspec/benchspec/internal/protocol"
)

// Every size a fork can send is bounded (protocol's Max constants): one
// message, all of a fork's messages together, the texts in them, the
// number and names of their metrics and profiles. A fork's code can
// write anything on the result pipe; what it writes must not cost the
// parent more memory, the report more bytes or the terminal more lines
// than a healthy fork's results do. A text is cut with a marker; any
// other excess fails the fork with its cause.

// lineReader reads the result pipe line by line, each line at most
// protocol.MaxLineBytes, all of them together at most
// protocol.MaxForkBytes, without ever holding more than one line.
type lineReader struct {
	br    *bufio.Reader
	buf   []byte
	total int64
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its newline (a last line without
// one too), or io.EOF, or why the fork's output is over a bound.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.br.ReadSlice('\n')
		l.total += int64(len(chunk))
		if l.total > protocol.MaxForkBytes {
			return nil, overBound{fmt.Errorf("the fork wrote more than %d MiB on the result pipe (file descriptor %d), more than all of a fork's results may take", protocol.MaxForkBytes>>20, protocol.ResultFD)}
		}
		if len(l.buf)+len(chunk) > protocol.MaxLineBytes+1 {
			start := clip(string(append(l.buf, chunk...)[:120]), 120)
			n, skipErr := l.skipLine()
			n += int64(len(l.buf) + len(chunk))
			if skipErr != nil && !errors.Is(skipErr, io.EOF) {
				return nil, skipErr
			}
			return nil, overBound{fmt.Errorf("a message of %d bytes or more on the result pipe (file descriptor %d), more than the %d MiB one may have; it begins %q", n, protocol.ResultFD, protocol.MaxLineBytes>>20, start)}
		}
		l.buf = append(l.buf, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(l.buf, []byte{'\n'}), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(l.buf) > 0:
			return l.buf, nil
		default:
			return nil, err
		}
	}
}

// overBound is an error of a fork's output over a bound.
type overBound struct{ error }

func isOverBound(err error) bool {
	var ob overBound
	return errors.As(err, &ob)
}

// skipLine discards the rest of an overlong line, up to the fork's
// bound, and returns how many bytes it discarded.
func (l *lineReader) skipLine() (int64, error) {
	var n int64
	for {
		chunk, err := l.br.ReadSlice('\n')
		n += int64(len(chunk))
		l.total += int64(len(chunk))
		if err == nil || !errors.Is(err, bufio.ErrBufferFull) || l.total > protocol.MaxForkBytes {
			return n, err
		}
	}
}

// boundMessage holds m, a message as decoded, to the bounds: it cuts the
// texts (an error, a skip reason) to protocol.MaxTextBytes with a
// marker, and refuses more metrics or profiles, or longer names, than a
// fork can have.
func boundMessage(m *protocol.Message) error {
	m.Error = protocol.Truncate(m.Error, protocol.MaxTextBytes)
	m.Skip = protocol.Truncate(m.Skip, protocol.MaxTextBytes)
	if err := boundMetrics(m.Metrics); err != nil {
		return err
	}
	if it := m.Iteration; it != nil {
		if err := boundMetrics(it.Metrics); err != nil {
			return fmt.Errorf("%s iteration %d: %w", it.Phase, it.Index, err)
		}
	}
	if len(m.Profiles) > 16 {
		return fmt.Errorf("the fork reported %d profiles; there are at most a few kinds (cpu, heap, mutex, block)", len(m.Profiles))
	}
	for kind, path := range m.Profiles {
		if len(kind) > protocol.MaxNameBytes || len(path) > protocol.MaxPathBytes {
			return fmt.Errorf("the fork reported a profile whose kind (%d bytes) or path (%d bytes) is longer than any benchspec writes", len(kind), len(path))
		}
	}
	return nil
}

func boundMetrics(m map[string]float64) error {
	if len(m) > protocol.MaxMetrics {
		return fmt.Errorf("the fork reported %d metrics in one message, more than the %d a message may have", len(m), protocol.MaxMetrics)
	}
	for unit := range m {
		if len(unit) > protocol.MaxNameBytes {
			return fmt.Errorf("the fork reported a metric whose unit is %d bytes long, more than the %d a unit may have: %q", len(unit), protocol.MaxNameBytes, clip(unit, 60))
		}
	}
	return nil
}

// checkProfiles checks the profile files a fork's done lists: each one
// inside dir, the run's profile directory, once symlinks and ".." are
// resolved (a forged done could name any file, which the report would
// then list, and a later step might read or remove).
func checkProfiles(dir string, profiles map[string]string) error {
	if len(profiles) == 0 {
		return nil
	}
	if dir == "" {
		return fmt.Errorf("the fork reported %d profile file(s), but the batch asked for none (no --profiles)", len(profiles))
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("resolving the profile directory %s: %v", dir, err)
	}
	for kind, path := range profiles {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("the fork reported a %s profile %q that cannot be resolved: %v", kind, path, err)
		}
		rel, err := filepath.Rel(root, real)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return fmt.Errorf("the fork reported a %s profile %q, which is not inside the profile directory %s (it resolves to %s)", kind, path, dir, real)
		}
	}
	return nil
}

// boundRecord holds a fork result read back from a journal to the bounds
// its messages had: a journal line is as much an input as the pipe.
func boundRecord(f *protocol.ForkResult) error {
	const marker = 64 // "… [truncated N bytes]"
	for what, text := range map[string]string{"an error": f.Err, "a skip reason": f.Skipped} {
		if len(text) > protocol.MaxTextBytes+marker {
			return fmt.Errorf("%s of %d bytes, more than a fork can report (%d)", what, len(text), protocol.MaxTextBytes)
		}
	}
	if len(f.StderrTail) > protocol.MaxLineBytes { // Options.TailBytes is 16 KiB by default
		return fmt.Errorf("an output tail of %d bytes, more than a batch keeps", len(f.StderrTail))
	}
	if err := boundMessage(&protocol.Message{Metrics: f.Metrics, Profiles: f.Profiles}); err != nil {
		return err
	}
	for i := range f.Iterations {
		if err := boundMetrics(f.Iterations[i].Metrics); err != nil {
			return err
		}
	}
	return nil
}
