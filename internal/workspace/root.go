package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/scry-dev/scry/internal/textfmt"
)

// ErrOutsideRoot is returned, wrapped with the offending path, for any path or
// glob that leaves the workspace root.
var ErrOutsideRoot = errors.New("path is outside the workspace root")

// maxLinkHops bounds symlink chains followed by hand; the kernel uses a
// similar limit (40 on Linux), filepath.EvalSymlinks uses 255.
const maxLinkHops = 255

// Root is a workspace directory that paths are confined to. Every path that
// enters scry from outside (CLI flags, configuration, MCP arguments) goes
// through Resolve.
type Root struct {
	dir  string // absolute, symlinks resolved
	orig string // absolute as given, so that callers may use either spelling
}

// NewRoot returns the Root for dir, which must be an existing directory.
// Symlinks in dir itself are resolved so that the confinement checks compare
// real paths.
func NewRoot(dir string) (*Root, error) {
	if dir == "" {
		return nil, errors.New("workspace root: empty path")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace root %s: not a directory", textfmt.Name(dir))
	}
	return &Root{dir: real, orig: abs}, nil
}

// Dir returns the absolute root directory with symlinks resolved.
func (r *Root) Dir() string { return r.dir }

// Resolve confines p, a path relative to the root or absolute, to the root.
// It returns the cleaned absolute path under Dir() and the slash-separated
// path relative to the root ("." for the root itself). p is rejected with
// ErrOutsideRoot if it points outside once symlinks are resolved, and a
// relative p also if it leaves the root lexically ("../x" is rejected even
// when it leads back in). An absolute p outside the root as spelled is
// accepted when its real path is inside, and then comes back as that real
// path. Paths that do not exist yet are accepted when
// their existing part resolves inside the root; a dangling symlink counts as
// pointing where its target would be.
//
// The check is made when Resolve is called: a symlink swapped in afterwards is
// not caught, which is acceptable for a tool that reads a user's own files.
func (r *Root) Resolve(p string) (abs string, rel string, err error) {
	if p == "" {
		p = "."
	}
	lex := filepath.FromSlash(p)
	if filepath.IsAbs(lex) {
		lex = filepath.Clean(lex)
		if r.orig != r.dir {
			if rest, ok := within(r.orig, lex); ok {
				lex = filepath.Join(r.dir, rest)
			}
		}
	} else {
		lex = filepath.Join(r.dir, lex)
	}
	rel, lexInside := within(r.dir, lex)
	if !lexInside && !filepath.IsAbs(filepath.FromSlash(p)) {
		return "", "", fmt.Errorf("resolve %q: %w", p, ErrOutsideRoot)
	}
	real, realRel, err := r.realInside(p, lex)
	if err != nil {
		return "", "", err
	}
	if !lexInside {
		// An absolute path through some other link to the root: editors and
		// agents do not always spell the root the way scry was given it.
		lex, rel = real, realRel
	}
	return lex, filepath.ToSlash(rel), nil
}

// Canonical is Resolve, but comes back with the real path (every symlink
// inside the root resolved) and its path relative to the root: the name
// discovery indexes a file under, since a link to a file or directory
// inside the root is skipped as a duplicate of its target. Index lookups
// use it so that "lib/a.ts", with lib a link to src, finds "src/a.ts" as
// reading the file does.
func (r *Root) Canonical(p string) (abs string, rel string, err error) {
	lex, _, err := r.Resolve(p)
	if err != nil {
		return "", "", err
	}
	real, realRel, err := r.realInside(p, lex)
	if err != nil {
		return "", "", err
	}
	return real, filepath.ToSlash(realRel), nil
}

// realInside is lex (the absolute path p names) with every symlink
// resolved, and that path relative to the root, which it must lie in.
func (r *Root) realInside(p, lex string) (real, rel string, err error) {
	real, err = realPath(lex, 0)
	if err != nil {
		return "", "", fmt.Errorf("resolve %q: %w", p, err)
	}
	rel, ok := within(r.dir, real)
	if !ok {
		return "", "", fmt.Errorf("resolve %q: %w", p, ErrOutsideRoot)
	}
	return real, rel, nil
}

// realPath resolves symlinks in the clean absolute path p, allowing its tail
// not to exist.
func realPath(p string, hops int) (string, error) {
	if hops > maxLinkHops {
		return "", fmt.Errorf("%s: too many levels of symbolic links", p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !missing(err) {
		return "", err
	}
	parent := filepath.Dir(p)
	if parent == p {
		return "", err
	}
	realParent, err := realPath(parent, hops)
	if err != nil {
		return "", err
	}
	candidate := filepath.Join(realParent, filepath.Base(p))
	fi, err := os.Lstat(candidate)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		// Nothing there yet (or a plain file under which p cannot exist):
		// nothing more to resolve.
		return candidate, nil
	}
	// A dangling link: creating p would create its target, so the target
	// is what must stay inside the root.
	target, err := os.Readlink(candidate)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(realParent, target)
	}
	return realPath(filepath.Clean(target), hops+1)
}

// missing reports errors meaning "this path does not exist (yet)".
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// within returns p relative to base when p is base or below it.
func within(base, p string) (string, bool) {
	if p == base {
		return ".", true
	}
	prefix := base
	if prefix[len(prefix)-1] != filepath.Separator {
		prefix += string(filepath.Separator)
	}
	if len(p) > len(prefix) && p[:len(prefix)] == prefix {
		return p[len(prefix):], true
	}
	return "", false
}
