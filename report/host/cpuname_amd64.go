package host

// cpuid executes the CPUID instruction (cpuname_amd64.s).
func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)

// brandName is the processor brand string of CPUID leaves
// 0x80000002–0x80000004, as `go test` prints it on its "cpu:" line
// (internal/sysinfo): leading spaces dropped, cut at the first NUL,
// trailing spaces kept. "" when the CPU has no brand string.
func brandName() string {
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt < 0x80000004 {
		return ""
	}
	var data []byte
	for leaf := uint32(0x80000002); leaf <= 0x80000004; leaf++ {
		a, b, c, d := cpuid(leaf, 0)
		for _, r := range [4]uint32{a, b, c, d} {
			data = append(data, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
	}
	return trimBrand(data)
}
