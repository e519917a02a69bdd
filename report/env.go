package report

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// modulePath is benchspec's module, whose version is the tool version.
const modulePath = "github.com/benchspec/benchspec"

// CollectEnv returns the parts of Env known in the parent process, with
// Start set to now and the environment check (EnvCheck) made. Build fills
// in the timer calibration from the forks and End.
func CollectEnv() Env {
	host, _ := os.Hostname()
	gomaxprocs := runtime.GOMAXPROCS(0)
	return Env{
		ToolVersion:       toolVersion(),
		GoVersion:         runtime.Version(),
		GOOS:              runtime.GOOS,
		GOARCH:            runtime.GOARCH,
		CPU:               cpuModel(),
		NumCPU:            runtime.NumCPU(),
		GOMAXPROCS:        gomaxprocs,
		Hostname:          host,
		TimerResolutionNs: NaN(),
		TimerOverheadNs:   NaN(),
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
