package executor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/internal/protocol"
)

// TestForkOutputIsBounded: the parent reads the result pipe with a cap
// per line and per fork, never holding more than one line (a forged
// 50 MB error message fails the fork, naming its size, instead of costing
// a gigabyte), cuts error and skip texts to protocol.MaxTextBytes with a
// marker, and refuses more metrics or longer names than a fork has.
func TestForkOutputIsBounded(t *testing.T) {
	huge := `{"type":"error","error":"` + strings.Repeat("x", 50<<20) + `"}` + "\n"
	ok := `{"type":"hello"}` + "\n"
	out := make(chan lineMsg, 4)
	readMessages(strings.NewReader(ok+huge+ok), out)
	var got []lineMsg
	for m := range out {
		got = append(got, m)
	}
	if len(got) != 2 || got[0].msg.Type != protocol.MsgHello || got[1].err == nil ||
		!strings.Contains(got[1].err.Error(), "a message of 52428828 bytes or more on the result pipe") {
		t.Fatalf("messages %+v; want the hello, then the 50 MB line refused with its size", got)
	}

	long := `{"type":"error","error":"` + strings.Repeat("é", 300<<10) + `"}` + "\n"
	out = make(chan lineMsg, 4)
	readMessages(strings.NewReader(long), out)
	m := <-out
	if m.err != nil || len(m.msg.Error) > protocol.MaxTextBytes+40 || !strings.HasSuffix(m.msg.Error, " bytes]") {
		t.Errorf("a 600 KB error: err %v, %d bytes kept; want it cut to about %d with a marker", m.err, len(m.msg.Error), protocol.MaxTextBytes)
	}

	metrics := map[string]float64{}
	for i := 0; i <= protocol.MaxMetrics; i++ {
		metrics["m"+strconv.Itoa(i)+"/op"] = 1
	}
	if err := boundMessage(&protocol.Message{Type: protocol.MsgDone, Metrics: metrics}); err == nil {
		t.Errorf("%d metrics accepted", len(metrics))
	}
	if err := boundMessage(&protocol.Message{Type: protocol.MsgIteration, Iteration: &protocol.Iteration{Phase: "measurement", Index: 1,
		Metrics: map[string]float64{strings.Repeat("n", 1000): 1}}}); err == nil || !strings.Contains(err.Error(), "measurement iteration 1: the fork reported a metric whose unit is 1000 bytes long") {
		t.Errorf("a 1000-byte unit: %v", err)
	}
}

// TestProfilesStayInTheProfileDir: a done may list only profile files
// inside the run's profile directory, symlinks and ".." resolved.
func TestProfilesStayInTheProfileDir(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	in := filepath.Join(dir, "a.cpu.pprof")
	out := filepath.Join(other, "secret")
	link := filepath.Join(dir, "link.pprof")
	for _, f := range []string{in, out} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	if err := checkProfiles(dir, map[string]string{"cpu": in}); err != nil {
		t.Errorf("a profile in the directory: %v", err)
	}
	for _, bad := range []string{out, link, filepath.Join(dir, "..", filepath.Base(other), "secret"), "/etc/passwd", dir} {
		if err := checkProfiles(dir, map[string]string{"cpu": bad}); err == nil || !strings.Contains(err.Error(), "not inside the profile directory") {
			t.Errorf("profile %s: %v; want it refused as outside %s", bad, err, dir)
		}
	}
	if err := checkProfiles("", map[string]string{"cpu": in}); err == nil || !strings.Contains(err.Error(), "asked for none") {
		t.Errorf("a profile without --profiles: %v", err)
	}
}

// TestJournalRecordsAreBounded: a journal line is held to the bounds a
// fork's messages have: an error text of 50 MB typed into a journal is
// refused on resume.
func TestJournalRecordsAreBounded(t *testing.T) {
	f := &protocol.ForkResult{Err: strings.Repeat("x", 50<<20)}
	if err := boundRecord(f); err == nil || !strings.Contains(err.Error(), "an error of 52428800 bytes, more than a fork can report") {
		t.Errorf("a 50 MB error: %v", err)
	}
	f = &protocol.ForkResult{Err: protocol.Truncate(strings.Repeat("x", 50<<20), protocol.MaxTextBytes)}
	if err := boundRecord(f); err != nil {
		t.Errorf("an error cut as the parent cuts it: %v", err)
	}
}
