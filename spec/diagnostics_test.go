package spec

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiagSettingsWithDefaults(t *testing.T) {
	got := DiagSettings{HighVarianceCV: 0.25, Ignore: []string{"DEAD_CODE"}}.WithDefaults()
	want := DefaultDiagSettings()
	want.HighVarianceCV, want.Ignore = 0.25, []string{"DEAD_CODE"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WithDefaults (-want +got):\n%s", diff)
	}
	if !got.Ignores("DEAD_CODE") || got.Ignores("IN_PROCESS") {
		t.Errorf("Ignores: %v", got.Ignore)
	}
	if diff := cmp.Diff(DefaultDiagSettings(), DiagSettings{}.WithDefaults()); diff != "" {
		t.Errorf("the zero value is the defaults (-want +got):\n%s", diff)
	}
}

func TestDiagnosticsErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"diagnostics: {ignore: [DEAD_COD]}", "DEAD_CODE"},
		{"diagnostics: {not_steady_p: 0}", "not_steady_p"},
		{"diagnostics: {high_variance_cv: -1}", "high_variance_cv"},
		{"diagnostics: {multimodal_mvalue: 2}", "multimodal_mvalue"},
		{"diagnostics: {multimodal_min_values: 2.5}", "multimodal_min_values"},
		{"diagnostics: {slope: 1}", `unknown key "slope"`},
	}
	for _, tt := range tests {
		src := "version: 1\nname: t\nbenchmarks:\n  - include: x\n    " + tt.yaml + "\n"
		_, err := Parse("t.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one naming %s", tt.yaml, err, tt.want)
		}
	}
}
