//go:build !unix

package workspace

// openFlags: elsewhere the checks before and after opening are all there is.
const openFlags = 0
