//go:build !amd64

package host

// brandName is "" where benchspec does not read the CPU's brand string;
// the CPU is then named by /proc/cpuinfo, as go test names it there.
func brandName() string { return "" }
