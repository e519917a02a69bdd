package gotest

import (
	"strings"

	"github.com/benchspec/benchspec/spec"
)

// variant is how a spec's build (spec.Build) changes the go commands
// that list and build a binary: flags, each one argument, never through
// a shell, and environment. The zero value is the plain build.
type variant struct {
	args []string // -tags, -gcflags, -pgo
	env  []string // GOTOOLCHAIN, GOAMD64: this build's go commands only
}

// variantOf is the variant of the build v; nil is the plain build. v's
// PGO must be a profile's absolute path (plan.PGOPath), auto or off: the
// go command runs in other directories than the spec's.
func variantOf(v *spec.Build) variant {
	var x variant
	if v == nil {
		return x
	}
	if len(v.Tags) > 0 {
		x.args = append(x.args, "-tags="+strings.Join(v.Tags, ","))
	}
	if v.GCFlags != "" {
		x.args = append(x.args, "-gcflags="+v.GCFlags)
	}
	if v.PGO != "" {
		x.args = append(x.args, "-pgo="+v.PGO)
	}
	if v.Toolchain != "" {
		x.env = append(x.env, "GOTOOLCHAIN="+v.Toolchain)
	}
	if v.GOAMD64 != "" {
		x.env = append(x.env, "GOAMD64="+v.GOAMD64)
	}
	return x
}

// id identifies the variant among others, "" for the plain build: what
// the fingerprint and the loaded packages key on besides the package.
func (x variant) id() string {
	if len(x.args) == 0 && len(x.env) == 0 {
		return ""
	}
	return strings.Join(x.args, "\x00") + "\x01" + strings.Join(x.env, "\x00")
}
