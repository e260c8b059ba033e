// Package watch follows a workspace's file changes as they happen
// (fsnotify: inotify on Linux), so that a sync can examine only the files
// that changed instead of walking and statting the whole tree.
//
// A Watcher never guesses: whenever it cannot name every change (an event
// queue overflow, a directory created, removed or renamed, an ignore file
// edited, a path it cannot map, a watch it could not add) the next Take
// says so, and the caller falls back to the full scan.
package watch

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/scry-dev/scry/internal/workspace"
)

// Watcher records the files changed under one root since the last Take.
type Watcher struct {
	root string // real path of the workspace root
	fw   *fsnotify.Watcher

	// The barrier: a file in a private directory on the same inotify
	// queue. Events are delivered in order, so once a write to it is seen,
	// every event for a change made before Take began has been recorded.
	barrierDir string
	barrierSeq int

	mu      sync.Mutex
	changed map[string]bool // relative paths
	full    bool            // something changed that has no file name
	reason  string          // why the last full scan was needed
	known   map[string]bool // relative paths of the files the last scan found
	watched map[string]bool // directories watched
	// linked maps a watched directory the scan reached through a link to
	// the relative path its files are listed under (its events name the
	// real directory).
	linked map[string]string
	seen   chan int // barrier writes seen, by sequence number
	broken error    // watching stopped for good
	done   chan struct{}
}

// gitExclude is git's per-repository ignore file, relative to the root.
const gitExclude = ".git/info/exclude"

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// barrierWait bounds the wait for the barrier event; past it the caller
// scans everything rather than answer from a possibly stale index.
const barrierWait = 2 * time.Second

// New starts watching nothing yet under root; Watch names the directories.
func New(root string) (*Watcher, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	dir, err := os.MkdirTemp("", "scry-watch-")
	if err != nil {
		fw.Close()
		return nil, fmt.Errorf("watch: %w", err)
	}
	if err := fw.Add(dir); err != nil {
		fw.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("watch: %w", err)
	}
	w := &Watcher{
		root: real, fw: fw, barrierDir: dir,
		changed: map[string]bool{}, full: true, reason: "first scan",
		watched: map[string]bool{}, seen: make(chan int, 1), done: make(chan struct{}),
	}
	go w.loop()
	return w, nil
}

// Close stops watching.
func (w *Watcher) Close() error {
	err := w.fw.Close()
	<-w.done
	os.RemoveAll(w.barrierDir)
	return err
}

func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.event(ev)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			w.mu.Lock()
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.fullScan("the event queue overflowed")
			} else {
				w.fullScan("watch error: " + err.Error())
			}
			w.mu.Unlock()
		}
	}
}

func (w *Watcher) event(ev fsnotify.Event) {
	if filepath.Dir(ev.Name) == w.barrierDir {
		if n, err := strconv.Atoi(filepath.Base(ev.Name)); err == nil && ev.Has(fsnotify.Write) {
			select {
			case w.seen <- n:
			default:
				<-w.seen
				w.seen <- n
			}
		}
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		w.fullScan("an event outside the root: " + ev.Name)
		return
	}
	rel = filepath.ToSlash(rel)
	base := filepath.Base(ev.Name)
	if listed, ok := w.linked[filepath.Dir(ev.Name)]; ok {
		// src/gen linking to dist/gen (left out of the scan): the file is
		// known as src/gen/g.ts, its events say dist/gen/g.ts.
		rel = path.Join(listed, base)
	}
	switch {
	case w.watched[ev.Name]:
		// A watched directory itself was removed or renamed.
		w.fullScan("directory " + rel + " changed")
	case base == ".gitignore" || base == ".scry.toml" || rel == gitExclude:
		w.fullScan(rel + " changed")
	case strings.HasPrefix(rel, ".git/"):
		// Only the exclude file of git's own directory matters.
	case w.known[rel]:
		// Written, replaced, removed or renamed away: the sync stats it.
		w.changed[rel] = true
	case ev.Has(fsnotify.Create):
		// A new name, created or moved in. A directory or link may hold
		// candidates and a source file may be one: the scan's rules
		// decide. Other files (an editor's swap and backup files, build
		// output) can never be, so they cost nothing.
		fi, err := os.Lstat(ev.Name)
		switch {
		case err != nil:
			// Gone already; its removal is its own event.
		case fi.IsDir() || fi.Mode()&os.ModeSymlink != 0 || workspace.IsSupported(base):
			w.fullScan(rel + " appeared")
		}
	default:
		// Written, removed or renamed away under a name the last scan
		// did not index: not a candidate then, not one now (the rules
		// did not change, or an ignore-file event said so).
	}
}

// fullScan marks that the next sync must scan everything; w.mu is held.
func (w *Watcher) fullScan(reason string) {
	if !w.full {
		w.full, w.reason = true, reason
	}
}

// Watch makes the watched directories those the last full scan walked, and
// files the files it found (and those it skipped for their size, which an
// edit can bring under the limit). linked maps the directories the scan
// reached through a link to the relative path it listed them under
// (workspace.Result.Linked). Directories that cannot be watched (the
// system's limit on watches) leave every later Take asking for a full scan.
func (w *Watcher) Watch(dirs []string, linked map[string]string, files []string) {
	want := make(map[string]bool, len(dirs)+1)
	for _, d := range dirs {
		want[d] = true
	}
	// The scan reads .git/info/exclude, though it walks no .git directory.
	if info := filepath.Join(w.root, filepath.Dir(gitExclude)); isDir(info) {
		want[info] = true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.broken != nil {
		return
	}
	for d := range w.watched {
		if !want[d] {
			w.fw.Remove(d) // gone already, most likely
			delete(w.watched, d)
		}
	}
	add := make([]string, 0)
	for d := range want {
		if !w.watched[d] {
			add = append(add, d)
		}
	}
	slices.Sort(add)
	if len(add) > 0 {
		// A change in a directory between the scan's read of it and
		// its watch is in no event: one more scan, now watched, finds it.
		w.fullScan(fmt.Sprintf("%d directories newly watched", len(add)))
	}
	for _, d := range add {
		if err := w.fw.Add(d); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				w.fullScan("directory " + d + " vanished")
				continue
			}
			w.broken = fmt.Errorf("watching %s: %w", d, err)
			for d := range w.watched {
				w.fw.Remove(d)
			}
			w.watched = map[string]bool{}
			return
		}
		w.watched[d] = true
	}
	w.linked = linked
	w.known = make(map[string]bool, len(files))
	for _, f := range files {
		w.known[f] = true
	}
}

// Take returns the files changed since the last Take, or complete false
// when the caller must scan everything (the reason says why). Changes
// made before Take was called are in its answer.
func (w *Watcher) Take() (changed []string, complete bool, reason string) {
	barrier := w.barrier()
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.broken != nil:
		return nil, false, w.broken.Error()
	case barrier != nil:
		w.fullScan(barrier.Error())
	}
	full, why := w.full, w.reason
	for rel := range w.changed {
		changed = append(changed, rel)
	}
	slices.Sort(changed)
	w.changed = map[string]bool{}
	w.full, w.reason = false, ""
	if full {
		return nil, false, why
	}
	return changed, true, ""
}

// barrier writes the next barrier file and waits for its event.
func (w *Watcher) barrier() error {
	w.barrierSeq++
	n := w.barrierSeq
	name := filepath.Join(w.barrierDir, strconv.Itoa(n))
	if err := os.WriteFile(name, []byte{'.'}, 0o600); err != nil {
		return fmt.Errorf("watch barrier: %w", err)
	}
	defer os.Remove(name)
	timeout := time.NewTimer(barrierWait)
	defer timeout.Stop()
	for {
		select {
		case got := <-w.seen:
			if got == n {
				return nil
			}
		case <-timeout.C:
			return errors.New("the watch barrier timed out")
		}
	}
}
