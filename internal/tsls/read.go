package tsls

import "github.com/scry-dev/scry/internal/workspace"

// readSource reads a file to hand to the compiler or to map its positions:
// only a regular file (a FIFO would block the server's goroutine, a device
// never ends), of at most workspace.MaxReadSize bytes.
func readSource(path string) ([]byte, error) {
	return workspace.ReadRegular(path, workspace.MaxReadSize)
}
