package benchcmd

import (
	"bytes"
	"testing"
)

// `scry bench` has one subcommand per benchmark and the fitter.
func TestCommandHasEveryBenchmark(t *testing.T) {
	cmd := Command()
	have := map[string]bool{}
	for _, c := range cmd.Commands() {
		have[c.Name()] = true
	}
	for _, want := range []string{"quality", "speed", "localize", "queries", "fit"} {
		if !have[want] {
			t.Errorf("scry bench lacks %q (has %v)", want, have)
		}
	}
}

// The fitter needs dumps to fit on: without any it refuses before
// reading anything.
func TestFitWantsDumps(t *testing.T) {
	cmd := Command()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"fit"})
	if err := cmd.Execute(); err == nil {
		t.Fatalf("scry bench fit without dumps ran:\n%s", out.String())
	}
}

func TestNoneAsNegative(t *testing.T) {
	tests := []struct{ in, want float64 }{{0, -1}, {0.5, 0.5}, {1, 1}}
	for _, tc := range tests {
		if got := noneAsNegative(tc.in); got != tc.want {
			t.Errorf("noneAsNegative(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
