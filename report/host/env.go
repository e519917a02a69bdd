// Package host probes the machine a batch runs on: the Go and CPU facts
// of report.Env and the environment check (report.EnvCheck) — cpufreq
// governors, hypervisor, load, cgroup CPU quota — read from /proc and
// /sys. It runs in the parent process at the start of a batch; the
// diagnostics of what it finds are report's (EnvCheck.Diagnose), so that
// a report built elsewhere judges the same facts the same way.
package host

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/benchspec/benchspec/report"
)

// modulePath is benchspec's module, whose version is the tool version.
const modulePath = "github.com/benchspec/benchspec"

// CollectEnv returns the parts of report.Env known in the parent process,
// with Start set to now and the environment check made. report.Build fills
// in the timer calibration from the forks and End.
func CollectEnv() report.Env {
	host, _ := os.Hostname()
	gomaxprocs := runtime.GOMAXPROCS(0)
	return report.Env{
		ToolVersion:       toolVersion(),
		GoVersion:         runtime.Version(),
		GOOS:              runtime.GOOS,
		GOARCH:            runtime.GOARCH,
		CPU:               cpuName(),
		NumCPU:            runtime.NumCPU(),
		GOMAXPROCS:        gomaxprocs,
		Hostname:          host,
		TimerResolutionNs: report.NaN(),
		TimerOverheadNs:   report.NaN(),
		Start:             time.Now(),
		Check:             checkEnvironment(gomaxprocs),
	}
}

// toolVersion is the version of the benchspec module in this binary: a
// dependency of the user's suite, or the main module in benchspec's own
// commands.
func toolVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	if bi.Main.Path == modulePath {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == modulePath {
			if d.Replace != nil {
				return d.Replace.Version + " (replaced)"
			}
			return d.Version
		}
	}
	return "(devel)"
}

// cpuName names the CPU as `go test` does on its "cpu:" line, so that
// the Go benchmark format of a report pairs with go test output in
// benchstat (which tables results by that line): the processor's brand
// string where it has one, else /proc/cpuinfo's model name. The two can
// differ: a hypervisor may set the model name, and Linux trims the
// trailing spaces that many AMD brand strings carry.
func cpuName() string {
	if b := brandName(); b != "" {
		return b
	}
	return cpuModel()
}

// trimBrand cuts a raw brand string as Go's internal/cpu.Name does.
func trimBrand(data []byte) string {
	data = bytes.TrimLeft(data, " ")
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	return string(data)
}

// cpuModel is the first "model name" of /proc/cpuinfo, or GOARCH where
// there is none.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			if v := strings.TrimSpace(value); v != "" {
				return v
			}
		}
	}
	return runtime.GOARCH
}

// checkEnvironment probes this machine (see probeEnv) and checks it for
// the parent's GOMAXPROCS.
func checkEnvironment(gomaxprocs int) *report.EnvCheck {
	c := probeEnv(os.DirFS("/"), runtime.NumCPU())
	c.Diagnose(gomaxprocs)
	return c
}
