package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNoOutputReplacesAnInput (issue 36, class A): report, compare,
// merge and history refuse, with exit 2 and before reading anything, an
// --out that is one of the files they read — by its name, through a
// symbolic link, as a hard link — or a file of the results directory
// history reads, and any --out that is a symbolic link; the inputs and
// the links' targets are left as they were.
func TestNoOutputReplacesAnInput(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile(baseJSON)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "base.json")
	other := filepath.Join(dir, "notes.txt")
	for path, data := range map[string][]byte{in: base, other: []byte("mine\n")} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hard := filepath.Join(dir, "hard.json")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	linkIn, linkOther := filepath.Join(dir, "link-in.json"), filepath.Join(dir, "link-other")
	for link, to := range map[string]string{linkIn: in, linkOther: other} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	results := nights(t, 0) // a suite's directory; its parent, a results directory
	night := filepath.Join(results, "20260115T023000Z.json")
	if _, err := os.Stat(night); err != nil {
		entries, _ := filepath.Glob(filepath.Join(results, "*", "*.json"))
		t.Fatalf("the results directory's first night: %v (it holds %v)", err, entries)
	}
	night0, _ := os.ReadFile(night)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report", in, "--out", in}, "--out " + in + " is the report read (" + in + ")"},
		{[]string{"report", in, "--out", hard}, "--out " + hard + " is the report read"},
		{[]string{"report", linkIn, "--out", in}, "--out " + in + " is the report read (" + linkIn + ")"},
		{[]string{"report", in, "--out", linkIn}, "--out " + linkIn + " is a symbolic link (to " + in + ")"},
		{[]string{"report", in, "--out", linkOther}, "--out " + linkOther + " is a symbolic link (to " + other + ")"},
		{[]string{"compare", baseJSON, in, "--out", in}, "--out " + in + " is the report read"},
		{[]string{"merge", in, "--out", hard}, "--out " + hard + " is the report read"},
		{[]string{"history", results, "--out", night}, "--out " + night + " is a file of the results directory " + results},
		{[]string{"history", filepath.Dir(results), "--out", night}, "is a file of the results directory " + filepath.Dir(results)},
		{[]string{"history", results, "--out", filepath.Join(results, "latest.json")}, "is a file of the results directory"},
		{[]string{"history", results, "--out", filepath.Join(results, "history.index.jsonl")}, "is a file of the results directory"},
		{[]string{"history", results, "--out", linkOther}, "is a symbolic link"},
	} {
		status, stdout, stderr := runCmd(t, tc.args...)
		if status != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, status, stdout, stderr, tc.want)
		}
	}
	if data, _ := os.ReadFile(in); string(data) != string(base) {
		t.Errorf("an input report was changed")
	}
	if data, _ := os.ReadFile(other); string(data) != "mine\n" {
		t.Errorf("the target of a link given as --out was changed: %q", data)
	}
	if data, _ := os.ReadFile(night); string(data) != string(night0) {
		t.Errorf("a night's report of the results directory was changed")
	}
	for _, link := range []string{linkIn, linkOther} {
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v", link, err)
		}
	}
	// Beside the reports, under another name, a page is fine.
	page := filepath.Join(results, "history.html")
	if status, _, stderr := runCmd(t, "history", results, "--format", "html", "--out", page); status != exitOK {
		t.Errorf("history --out a page in the results directory: status %d, stderr %q", status, stderr)
	}
}

// TestReportsRefuseWhatIsNoReportFile (issue 36, class H): what cannot
// be a report is refused, exit 2, before it is read: a FIFO (compare
// used to wait for a writer forever), a device, a file over the bound
// (sparse, so nothing is written), and a JSON object that is not a
// batch's report (report used to print an empty "Incomplete" report and
// exit 0).
func TestReportsRefuseWhatIsNoReportFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, `{"schema_version":2,"x":"`)
	f.Truncate(300 << 20)
	f.Close()
	notReport := filepath.Join(dir, "x.json")
	os.WriteFile(notReport, []byte(`{"schema_version":2,"x":"`+strings.Repeat("a", 1<<20)+`"}`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", fifo, baseJSON}, fifo + " is a FIFO, not a report file"},
		{[]string{"compare", baseJSON, fifo}, fifo + " is a FIFO, not a report file"},
		{[]string{"report", fifo}, fifo + " is a FIFO"},
		{[]string{"merge", baseJSON, fifo}, fifo + " is a FIFO"},
		{[]string{"report", "/dev/zero"}, "/dev/zero is a character device, not a report file"},
		{[]string{"report", huge}, huge + ": 314572800 bytes, more than a report may have (256 MiB)"},
		{[]string{"report", notReport}, notReport + `: not a batch's report: it has no "complete", "suite", "env", "specs", "runs"`},
		{[]string{"compare", baseJSON, notReport}, "not a batch's report"},
	} {
		status, stdout, stderr := runCmd(t, tc.args...) // a FIFO opened for reading would never return
		if status != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, status, stdout, stderr, tc.want)
		}
	}
}
