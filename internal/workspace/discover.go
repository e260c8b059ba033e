package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/scry-dev/scry/internal/textfmt"
)

// Discover lists the candidate files under root. It reads directory listings,
// ignore files and file metadata, never file contents: callers pass the bytes
// they read to CheckContent.
//
// Nested .gitignore files and .git/info/exclude are honoured with git's
// precedence; DefaultExcludes are pruned; Options.Include and Options.Exclude
// narrow the result. Symlinks are followed only to targets inside the root,
// and a file or directory reachable through several paths is listed once:
// under its real path when that is walked, else under the first link the walk
// meets (the others are skipped as SkipSymlinkDuplicate).
func Discover(root string, opt Options) (Result, error) {
	r, err := NewRoot(root)
	if err != nil {
		return Result{}, fmt.Errorf("discover %s: %w", textfmt.Name(root), err)
	}
	res, err := discover(r, opt)
	if err != nil {
		return Result{}, fmt.Errorf("discover %s: %w", textfmt.Name(root), err)
	}
	return res, nil
}

func discover(r *Root, opt Options) (Result, error) {
	include, err := compileGlobs(r, "include", opt.Include)
	if err != nil {
		return Result{}, err
	}
	exclude, err := compileGlobs(r, "exclude", opt.Exclude)
	if err != nil {
		return Result{}, err
	}
	w := &walker{
		root:    r,
		include: include,
		exclude: exclude,
		maxSize: opt.MaxFileSize,
		all:     opt.AllFiles,
		visited: make(map[string]string),
		seen:    make(map[string]bool),
	}
	if w.maxSize == 0 {
		w.maxSize = DefaultMaxFileSize
	}

	var rules *ignoreSet
	if data, err := ReadRegular(filepath.Join(r.dir, ".git", "info", "exclude"), maxIgnoreFile); err == nil {
		rules = rules.with("", data)
	}
	if err := w.walkDir(r.dir, "", rules, nil, r.dir); err != nil {
		return Result{}, err
	}
	// Links are followed only once the real tree is known, so that a target
	// reachable without the link is listed under its own path.
	for len(w.links) > 0 {
		l := w.links[0]
		w.links = w.links[1:]
		w.followLink(l)
	}
	w.statPending()

	slices.SortFunc(w.files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	slices.SortFunc(w.skipped, func(a, b Skip) int { return strings.Compare(a.Rel, b.Rel) })
	dirs := make([]string, 0, len(w.visited))
	var linked map[string]string
	for d, rel := range w.visited {
		dirs = append(dirs, d)
		if own, ok := within(r.dir, d); !ok || own != "." && filepath.ToSlash(own) != rel {
			if linked == nil {
				linked = map[string]string{}
			}
			linked[d] = rel
		}
	}
	slices.Sort(dirs)
	return Result{Files: w.files, Skipped: w.skipped, Dirs: dirs, Linked: linked}, nil
}

// maxIgnoreFile bounds the read of one ignore file (a larger one is not
// honoured, as if unreadable).
const maxIgnoreFile = 4 << 20

type walker struct {
	all              bool // every extension, not only sources
	root             *Root
	include, exclude []glob
	maxSize          int64

	files   []File
	skipped []Skip
	visited map[string]string // real paths of directories walked: the relative path they were listed under
	seen    map[string]bool   // real paths of files listed or skipped
	links   []pendingLink
	pending []pendingFile // candidates not yet stat'ed, in walk order
}

// segment is a stretch of real directories on the way down to a directory:
// from top down to bottom. A walk that crossed links has one segment per
// link, which is how a link back into any of them is recognised as a loop.
type segment struct{ top, bottom string }

type pendingLink struct {
	rel   string // slash-separated path of the link relative to the root
	real  string // real path of the directory holding the link, joined with its name
	rules *ignoreSet
	path  []segment // how the walk reached the directory holding the link
}

func (w *walker) skip(rel, reason string) {
	w.skipped = append(w.skipped, Skip{Rel: rel, Reason: reason})
}

// walkDir lists the real directory dir, found at rel. top is the real
// directory its segment starts from (the root, or the last link's target).
func (w *walker) walkDir(dir, rel string, rules *ignoreSet, chain []segment, top string) error {
	w.visited[dir] = rel
	entries, err := os.ReadDir(dir)
	if err != nil {
		if rel == "" {
			return err
		}
		w.skip(rel, SkipUnreadable)
		return nil
	}
	for _, e := range entries {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			if data, err := ReadRegular(filepath.Join(dir, ".gitignore"), maxIgnoreFile); err == nil {
				rules = rules.with(rel, data)
			}
			break
		}
	}
	here := append(chain[:len(chain):len(chain)], segment{top: top, bottom: dir})
	for _, e := range entries {
		name := e.Name()
		childRel := path.Join(rel, name)
		childReal := filepath.Join(dir, name)
		if textfmt.Unsafe(name) {
			// Never listed, indexed or followed; counted like other
			// candidates left out.
			if t := e.Type(); t.IsDir() || t&fs.ModeSymlink != 0 || w.wanted(name) {
				w.skip(childRel, SkipUnsafeName)
			}
			continue
		}
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			w.links = append(w.links, pendingLink{rel: childRel, real: childReal, rules: rules, path: here})
		case t.IsDir():
			if w.prunedDir(childRel, name, rules) {
				continue
			}
			if _, ok := w.visited[childReal]; ok {
				// Only possible below a followed link whose target overlaps a
				// tree walked before.
				w.skip(childRel, SkipSymlinkDuplicate)
				continue
			}
			if err := w.walkDir(childReal, childRel, rules, chain, top); err != nil {
				return err
			}
		case t.IsRegular():
			w.addFile(childRel, childReal, rules, e.Info)
		default:
			// A FIFO, device or socket under a source file's name: never
			// read, but counted, so that the user sees why it is missing.
			w.skipSpecial(childRel, rules)
		}
	}
	return nil
}

// skipSpecial records a file that is not a regular file when it would have
// been a candidate.
func (w *walker) skipSpecial(rel string, rules *ignoreSet) {
	if w.wanted(path.Base(rel)) && !rules.ignored(rel, false) && w.selected(rel) {
		w.skip(rel, SkipNotRegular)
	}
}

// selected applies Options.Include and Options.Exclude to a file.
func (w *walker) selected(rel string) bool {
	if matchAny(w.exclude, rel) {
		return false
	}
	return len(w.include) == 0 || matchAny(w.include, rel)
}

func (w *walker) prunedDir(rel, name string, rules *ignoreSet) bool {
	return isDefaultExcluded(name) || rules.ignored(rel, true) || matchAny(w.exclude, rel)
}

// addFile considers the regular file real, found at rel. info is called only
// for candidates, since a stat per file is most of the cost of discovery,
// and only after the walk (statPending).
func (w *walker) addFile(rel, real string, rules *ignoreSet, info func() (fs.FileInfo, error)) {
	name := path.Base(rel)
	if !w.wanted(name) || rules.ignored(rel, false) || !w.selected(rel) {
		return
	}
	if w.seen[real] {
		w.skip(rel, SkipSymlinkDuplicate)
		return
	}
	w.seen[real] = true
	if isMinifiedName(name) {
		w.skip(rel, SkipMinified)
		return
	}
	w.pending = append(w.pending, pendingFile{rel: rel, info: info})
}

// pendingFile is a candidate whose metadata is read after the walk.
type pendingFile struct {
	rel  string
	info func() (fs.FileInfo, error)
	fi   fs.FileInfo
	err  error
}

// statPending reads the candidates' metadata, on every core when there are
// many: one lstat per file is most of a no-change scan's time, and the
// calls are independent. The walk itself stays sequential (its ignore
// rules and duplicate checks depend on order); only the stats fan out.
func (w *walker) statPending() {
	ps := w.pending
	workers := min(runtime.GOMAXPROCS(0), len(ps)/statBatch)
	if workers <= 1 {
		for i := range ps {
			ps[i].fi, ps[i].err = ps[i].info()
		}
	} else {
		var wg sync.WaitGroup
		var next atomic.Int64
		for range workers {
			wg.Go(func() {
				for {
					lo := int(next.Add(statBatch)) - statBatch
					if lo >= len(ps) {
						return
					}
					for i := lo; i < min(lo+statBatch, len(ps)); i++ {
						ps[i].fi, ps[i].err = ps[i].info()
					}
				}
			})
		}
		wg.Wait()
	}
	for _, p := range ps {
		switch {
		case p.err != nil:
			w.skip(p.rel, SkipUnreadable)
		case w.maxSize > 0 && p.fi.Size() > w.maxSize:
			w.skip(p.rel, SkipTooLarge)
		default:
			w.files = append(w.files, File{
				Path:    filepath.Join(w.root.dir, filepath.FromSlash(p.rel)),
				Rel:     p.rel,
				Size:    p.fi.Size(),
				ModTime: p.fi.ModTime().UnixNano(),
			})
		}
	}
	w.pending = nil
}

// statBatch is how many stats a worker takes at a time.
const statBatch = 256

func (w *walker) followLink(l pendingLink) {
	name := path.Base(l.rel)
	fi, err := os.Stat(l.real)
	if err != nil {
		// Whether the link was meant as a file or a directory is unknown, so
		// only file rules can be tried.
		switch {
		case l.rules.ignored(l.rel, false):
		case errors.Is(err, syscall.ELOOP):
			w.skip(l.rel, SkipSymlinkLoop)
		case w.wanted(name) && w.selected(l.rel):
			w.skip(l.rel, SkipUnreadable)
		}
		return
	}
	isDir := fi.IsDir()
	if isDir && w.prunedDir(l.rel, name, l.rules) {
		return
	}
	if !isDir && (!w.wanted(name) || l.rules.ignored(l.rel, false) || !w.selected(l.rel)) {
		return
	}
	if !isDir && !fi.Mode().IsRegular() {
		w.skip(l.rel, SkipNotRegular)
		return
	}
	target, err := filepath.EvalSymlinks(l.real)
	if err != nil {
		w.skip(l.rel, SkipUnreadable)
		return
	}
	if _, ok := within(w.root.dir, target); !ok {
		w.skip(l.rel, SkipSymlinkOutside)
		return
	}
	if !isDir {
		w.addFile(l.rel, target, l.rules, func() (fs.FileInfo, error) { return fi, nil })
		return
	}
	for _, s := range l.path {
		if isAncestorOrSelf(target, s.bottom) && isAncestorOrSelf(s.top, target) {
			w.skip(l.rel, SkipSymlinkLoop)
			return
		}
	}
	if _, ok := w.visited[target]; ok {
		w.skip(l.rel, SkipSymlinkDuplicate)
		return
	}
	// Errors below the root are recorded as skips, so none comes back here.
	_ = w.walkDir(target, l.rel, l.rules, l.path, target)
}

// isAncestorOrSelf reports whether dir is p or one of its ancestors.
func isAncestorOrSelf(dir, p string) bool {
	_, ok := within(dir, p)
	return ok
}

// wanted reports whether a file name is a candidate: a supported source file,
// or any file when the caller asked for every file (text search).
func (w *walker) wanted(name string) bool {
	return w.all || IsSupported(name)
}
