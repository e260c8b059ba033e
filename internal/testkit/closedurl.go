package testkit

import (
	"net"
	"testing"
)

// ClosedURL returns an http:// URL on loopback that nothing listens on: a
// port the system handed out and that was closed again, so a client sees
// its connection refused at once (not a timeout, and not some other
// service that happens to hold a fixed port).
func ClosedURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err == nil {
		err = l.Close()
	}
	if err != nil {
		t.Fatalf("a closed port: %v", err)
	}
	return "http://" + l.Addr().String()
}
