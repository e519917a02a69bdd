package host

import (
	"runtime"
	"testing"
)

func TestCollectEnv(t *testing.T) {
	e := CollectEnv()
	if e.GoVersion != runtime.Version() || e.GOOS != runtime.GOOS || e.NumCPU < 1 || e.GOMAXPROCS < 1 ||
		e.CPU == "" || e.ToolVersion == "" || e.Start.IsZero() || !e.End.IsZero() || e.TimerOverheadNs.Valid() {
		t.Errorf("CollectEnv() = %+v", e)
	}
}
