package tsls

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// countingReader serves n bytes of c, counting what was taken.
type countingReader struct {
	c     byte
	n     int
	taken int
}

func (r *countingReader) Read(p []byte) (int, error) {
	if r.taken >= r.n {
		return 0, io.EOF
	}
	k := min(len(p), r.n-r.taken)
	for i := range k {
		p[i] = r.c
	}
	r.taken += k
	return k, nil
}

// TestReadMessageIsBounded: a server that sends a header line without end,
// or announces a body of terabytes, is cut off after a bounded read
// instead of being buffered (or allocated) whole.
func TestReadMessageIsBounded(t *testing.T) {
	endless := &countingReader{c: 'x', n: 64 << 20}
	_, err := readMessage(bufio.NewReader(endless))
	if !errors.Is(err, errFraming) {
		t.Errorf("endless header: %v, want errFraming", err)
	}
	if endless.taken > 1<<20 {
		t.Errorf("endless header: read %d bytes before giving up", endless.taken)
	}

	huge := "Content-Length: 1099511627776\r\n\r\n{}"
	if _, err := readMessage(bufio.NewReader(strings.NewReader(huge))); !errors.Is(err, errFraming) {
		t.Errorf("1 TB Content-Length: %v, want errFraming", err)
	}

	ok := "Content-Length: 2\r\n\r\n{}"
	if b, err := readMessage(bufio.NewReader(strings.NewReader(ok))); err != nil || string(b) != "{}" {
		t.Errorf("a normal message: %q, %v", b, err)
	}
}

// TestBinaryVersionOutputIsBounded: a "tsgo" whose --version prints
// without end is stopped after a bounded amount of output.
func TestBinaryVersionOutputIsBounded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell script")
	}
	bin := filepath.Join(t.TempDir(), "tsgo")
	script := "#!/bin/sh\nwhile :; do echo 'Version 7.0.2 and then some more text to fill the pipe quickly'; done\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	v, err := binaryVersion(bin)
	if err == nil || !strings.Contains(err.Error(), "bytes of output") {
		t.Fatalf("binaryVersion = %q, %v; want an output-limit error", v, err)
	}
}
