//go:build !unix

package index

// lockFile is a no-op where flock is unavailable; SQLite's own locking still
// keeps the index consistent, only duplicate work is possible.
func lockFile(string) (func(), error) { return func() {}, nil }
