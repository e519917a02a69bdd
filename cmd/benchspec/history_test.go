package main

import (
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xeipuuv/gojsonschema"

	"github.com/benchspec/benchspec/report/history/historytest"
	"github.com/benchspec/benchspec/report/history/index"
	"github.com/benchspec/benchspec/schemas"
)

// nights writes twelve nights of the real report in
// report/history/testdata into a new results directory: planted.Work
// at cost 1.08 from night change on (0: never), both runs with 1 % noise
// of a fixed seed.
func nights(t *testing.T, change int) string {
	t.Helper()
	n, err := historytest.FromFile(filepath.Join("..", "..", "report", "history", "testdata", "real-report.json"), 2, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "history")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := n.Planted(dir, time.Date(2026, 1, 15, 2, 30, 0, 0, time.UTC), 12, change, 1.08); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestHistoryVerdicts(t *testing.T) {
	regressed, steady := nights(t, 7), nights(t, 0)
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stdout string
		stderr string
	}{
		{"planted, failing on regression", []string{"history", regressed, "--fail-on-regression"}, exitFail,
			"change at batch 7 (night-6 → night-7): +", "regression: history planted.Work:avgt at batch 7: +"},
		{"planted, not failing", []string{"history", regressed}, exitOK, "1 regressed: history planted.Work:avgt", ""},
		{"no change", []string{"history", "--fail-on-regression", steady}, exitOK, "no series regressed", ""},
		{"planted below --min-change", []string{"history", regressed, "--fail-on-regression", "--min-change", "20%"}, exitOK, "no series regressed", ""},
		{"the results root", []string{"history", filepath.Dir(regressed), "--fail-on-regression"}, exitFail, "history planted.Work:avgt", "planted.Work"},
		{"markdown", []string{"history", regressed, "--format", "markdown"}, exitOK, "**1 regressed:**", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, stdout, stderr := runCmd(t, tc.args...)
			if status != tc.status || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("%q: status %d (want %d)\nstdout (want %q):\n%s\nstderr (want %q):\n%s", tc.args, status, tc.status, tc.stdout, stdout, tc.stderr, stderr)
			}
			if tc.stderr == "" && stderr != "" {
				t.Errorf("stderr %q, want nothing", stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(regressed, index.Name)); err != nil {
		t.Errorf("history left no index: %v", err)
	}
}

func TestHistoryBadInput(t *testing.T) {
	dir := nights(t, 0)
	corrupt := t.TempDir()
	os.WriteFile(filepath.Join(corrupt, "20260115T023000Z.json"), []byte("{\"schema_version\": 1, \"runs\": [{"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history"}, "want at least one results directory"},
		{[]string{"history", filepath.Join(dir, "nope")}, "no such file"},
		{[]string{"history", t.TempDir()}, "no reports"},
		{[]string{"history", corrupt}, "20260115T023000Z.json: report: reading JSON report"},
		{[]string{"history", dir, "--p", "2"}, "--p: 2 is not between 0 and 1"},
		{[]string{"history", dir, "--min-change", "lots"}, `--min-change: "lots" is not a percentage`},
		{[]string{"history", dir, "--format", "yaml"}, `--format: unknown format "yaml"`},
		{[]string{"history", dir, "--bogus"}, "flag provided but not defined: -bogus"},
	} {
		status, stdout, stderr := runCmd(t, tc.args...)
		if status != exitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%q: status %d (want %d), stdout %q (want none), stderr %q (want %q)", tc.args, status, exitUsage, stdout, stderr, tc.want)
		}
	}
}

// TestHistoryJSONMatchesSchema validates real history output, with a
// change point, against schemas/history.schema.json.
func TestHistoryJSONMatchesSchema(t *testing.T) {
	status, stdout, stderr := runCmd(t, "history", nights(t, 7), "--format", "json")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if !strings.Contains(stdout, `"direction": "regression"`) {
		t.Fatalf("no regression in the JSON:\n%s", stdout)
	}
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(schemas.History), gojsonschema.NewStringLoader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors() {
		t.Errorf("history JSON: %s", e)
	}
}

// TestHistoryHTML checks the page's structure: self-contained, a chart
// per series, the change point marked on the planted one's chart with
// its batch, magnitude and the labels either side.
func TestHistoryHTML(t *testing.T) {
	out := filepath.Join(t.TempDir(), "history.html")
	if status, _, stderr := runCmd(t, "history", nights(t, 7), "--format", "html", "--out", out); status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	svgs := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(page, -1)
	if len(svgs) != 2 {
		t.Fatalf("%d charts, want one per series (2)", len(svgs))
	}
	// The chart's label is short; the builds either side are in the
	// series' table.
	label := regexp.MustCompile(`batch 7: \+[0-9.]+% regression<`)
	if !label.MatchString(svgs[0]) {
		t.Errorf("the planted series' chart has no change point label like %q", label)
	}
	if !strings.Contains(page, "<td>night-6") || !strings.Contains(page, "<td>night-7") {
		t.Errorf("the planted series' table does not name the batches either side (night-6, night-7)")
	}
	if strings.Contains(svgs[1], "batch 7:") {
		t.Errorf("the steady series' chart marks a change point")
	}
	for _, bad := range []string{"<script", "src=", "<link"} {
		if strings.Contains(page, bad) {
			t.Errorf("page holds %q: it must be self-contained", bad)
		}
	}
	for _, want := range []string{"1 regressed", `class="regression"`, "night-6", "night-7"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	screenshot(t, out)
}

// screenshot looks at the page in headless Chromium, where there is one
// (CI machines have none: the test then stops here): the picture must
// show the regression's red marker, which only a drawn chart has.
func screenshot(t *testing.T, page string) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium: the page is not looked at as a picture")
	}
	if testing.Short() {
		t.Skip("starting a browser: not in -short")
	}
	shot := filepath.Join(t.TempDir(), "shot.png")
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir="+t.TempDir(), "--screenshot="+shot, "--window-size=1200,1400", "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if n := countNear(img, 0xb3, 0x26, 0x1e); n < 50 {
		t.Errorf("the screenshot has %d pixels of the regression's red, want a drawn marker (≥ 50)", n)
	}
}

// countNear counts the pixels within a small distance of the colour.
func countNear(img image.Image, r, g, b uint8) int {
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if absDiff(pr>>8, uint32(r)) < 24 && absDiff(pg>>8, uint32(g)) < 24 && absDiff(pb>>8, uint32(b)) < 24 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
