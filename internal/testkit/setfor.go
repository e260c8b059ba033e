package testkit

import "testing"

// SetFor sets *p to v until the test ends, as a test lowers a package's
// bound (the bytes a cache may hold) to reach it with small inputs.
func SetFor[T any](t testing.TB, p *T, v T) {
	t.Helper()
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}
