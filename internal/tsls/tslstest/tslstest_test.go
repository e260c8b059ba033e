package tslstest

import (
	"os"
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
