package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/scry-dev/scry/internal/textfmt"
)

// Errors of the file readers, wrapped with the path.
var (
	// ErrNotRegular: a FIFO, device, socket or directory where a source
	// file was expected. Reading a FIFO blocks until a writer comes, a
	// character device such as /dev/zero never ends, so none is opened for
	// reading.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is over the size limit (or grew past it while
	// being read).
	ErrTooLarge = errors.New("file is larger than the size limit")
	// ErrChanged: the path named another file when it was checked than
	// when it was opened (it was replaced in between).
	ErrChanged = errors.New("file was replaced while it was opened")
)

// MaxReadSize bounds every read of a workspace file, whatever the
// configured file size limit (a negative Options.MaxFileSize only lifts
// discovery's limit up to this).
const MaxReadSize int64 = 256 << 20

// betweenStatAndOpen lets tests replace a file in the window an attacker
// would use.
var betweenStatAndOpen func(path string)

// ReadLimit is the most bytes a read of a file selected with these options
// may return.
func (o Options) ReadLimit() int64 {
	switch {
	case o.MaxFileSize == 0:
		return DefaultMaxFileSize
	case o.MaxFileSize < 0 || o.MaxFileSize > MaxReadSize:
		return MaxReadSize
	}
	return o.MaxFileSize
}

// OpenRegular opens path for reading when it is a regular file of at most
// limit bytes, and returns it with its metadata as opened. The path is
// looked at before it is opened, so that no device or FIFO is ever opened
// (opening some devices has effects); and since it can be replaced in
// between, it is opened without blocking (a FIFO's open waits for a writer)
// and the opened descriptor is checked again. Nothing here confines the path:
// Root.Open does.
func OpenRegular(path string, limit int64) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", textfmt.Name(path), err)
	}
	if err := checkRegular(path, fi, limit); err != nil {
		return nil, nil, err
	}
	if betweenStatAndOpen != nil {
		betweenStatAndOpen(path)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", textfmt.Name(path), err)
	}
	ofi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("read %s: %w", textfmt.Name(path), err)
	}
	if err := checkRegular(path, ofi, limit); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, ofi, nil
}

func checkRegular(path string, fi fs.FileInfo, limit int64) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("read %s: %w (%s)", textfmt.Name(path), ErrNotRegular, kind(fi.Mode()))
	}
	if fi.Size() > limit {
		return fmt.Errorf("read %s: %w (%d bytes, limit %d)", textfmt.Name(path), ErrTooLarge, fi.Size(), limit)
	}
	return nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "not a plain file"
}

// ReadRegular reads the regular file at path, at most limit bytes: a file
// that is larger, or grows past the limit while it is read, is refused with
// ErrTooLarge. For files outside any workspace (the compiler's library
// files, configuration); workspace files go through Root.ReadFile.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, fi, err := OpenRegular(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, path, fi.Size(), limit)
}

func readLimited(f *os.File, path string, size, limit int64) ([]byte, error) {
	b := make([]byte, 0, min(size, limit)+1)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, fmt.Errorf("read %s: %w (grew past %d bytes)", textfmt.Name(path), ErrTooLarge, limit)
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", textfmt.Name(path), err)
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// Open opens abs, a path under the root (from Resolve or Discover), for
// reading, when it is a regular file of at most limit bytes and the file
// that was opened, not only the path, is inside the root: a path swapped for
// a symlink to /etc/passwd after it was resolved is refused with
// ErrOutsideRoot, and one swapped back and forth with ErrChanged. (A hard
// link inside the root is the file it links to, which a check by name cannot
// tell; creating one to another user's file is refused by the kernel's
// protected_hardlinks.)
func (r *Root) Open(abs string, limit int64) (*os.File, fs.FileInfo, error) {
	f, fi, err := OpenRegular(abs, limit)
	if err != nil {
		return nil, nil, err
	}
	if err := r.confineOpened(abs, fi); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// confineOpened checks that the file opened at abs, described by opened,
// is the file that abs resolves to inside the root now. Resolving after
// opening is what closes the race: had the path led outside when it was
// opened, it either still does (caught by the resolution) or has been
// swapped back to a file inside (caught by comparing the two files).
func (r *Root) confineOpened(abs string, opened fs.FileInfo) error {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return fmt.Errorf("read %s: %w", textfmt.Name(abs), err)
	}
	if _, ok := within(r.dir, real); !ok {
		return fmt.Errorf("read %s: %w", textfmt.Name(abs), ErrOutsideRoot)
	}
	now, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("read %s: %w", textfmt.Name(abs), err)
	}
	if !os.SameFile(now, opened) {
		return fmt.Errorf("read %s: %w", textfmt.Name(abs), ErrChanged)
	}
	return nil
}

// ReadFile reads abs, a path under the root, as Open checks it: a regular
// file of at most limit bytes, opened inside the root.
func (r *Root) ReadFile(abs string, limit int64) ([]byte, error) {
	f, fi, err := r.Open(abs, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, abs, fi.Size(), limit)
}
