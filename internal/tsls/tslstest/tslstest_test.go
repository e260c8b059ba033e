package tslstest

import (
	"os"
	"os/exec"
	"testing"
)

// Binary names an executable file (or skips without $SCRY_TSGO).
func TestBinary(t *testing.T) {
	bin := Binary(t)
	fi, err := os.Stat(bin)
	if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		t.Errorf("%s: %v, %v", bin, fi, err)
	}
}

// Silent gives a version, as TypeScript 7 does, and is executable.
func TestSilent(t *testing.T) {
	bin := Silent(t)
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || string(out) != "Version 7.0.2\n" {
		t.Errorf("%s --version: %q, %v", bin, out, err)
	}
}
