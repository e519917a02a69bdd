package worker

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestShieldLeavesSpeculationAlone puts the shield on a child process (a
// copy of this test binary) and reads its /proc status: the filter is in
// place, and the speculation mitigations that Linux 4.17 to 5.15 turned
// on by default for a process with a seccomp filter are not forced on it
// (SECCOMP_FILTER_FLAG_SPEC_ALLOW); a fork's benchmark must run as fast
// as the same code outside a fork. Where the kernel never tied them to
// seccomp the second check holds anyway.
func TestShieldLeavesSpeculationAlone(t *testing.T) {
	if os.Getenv("BENCHSPEC_TEST_SHIELD") == "1" {
		ppid := os.Getppid()
		pgrp, _ := syscall.Getpgid(ppid)
		if !ShieldParent(ppid, pgrp) {
			os.Stdout.WriteString("no shield\n")
			return
		}
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.Write(status)
		return
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("no shield on %s", runtime.GOARCH)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestShieldLeavesSpeculationAlone$")
	cmd.Env = append(os.Environ(), "BENCHSPEC_TEST_SHIELD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	if strings.HasPrefix(string(out), "no shield") {
		t.Skip("the kernel or the container refuses seccomp filters here")
	}
	field := func(name string) string {
		for _, l := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(l, name+":"); ok {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	if got := field("Seccomp"); got != "2" {
		t.Errorf("Seccomp: %q after ShieldParent, want 2 (a filter in place)", got)
	}
	for _, f := range []string{"Speculation_Store_Bypass", "SpeculationIndirectBranch"} {
		if v := field(f); strings.Contains(v, "force") {
			t.Errorf("%s: %q after ShieldParent: the filter forced a speculation mitigation on the fork", f, v)
		}
	}
}
