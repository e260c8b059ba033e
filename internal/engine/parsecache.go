package engine

import (
	"fmt"
	"os"
	"sync"

	"github.com/scry-dev/scry/internal/snapshot"
)

// parsedFiles keeps recently snapshotted files parsed across searches: an
// agent's follow-up questions land in the same files, and parsing is most of
// a snapshot's cost. Entries are checked against the file's size and mtime
// on every use, so an edited file is parsed again.
type parsedFiles struct {
	mu      sync.Mutex
	entries map[string]*parsedEntry
	tick    uint64
	bytes   int64 // sum of the entries' sizes
}

type parsedEntry struct {
	// ready is closed once the file is parsed (f set) or failed (err set);
	// parsing happens outside parsedFiles.mu, so that one search parsing a
	// large file does not hold up another's snapshots of parsed files.
	ready   chan struct{}
	err     error
	mu      sync.Mutex // serialises Build: a snapshot.File is not safe for concurrent use
	f       *snapshot.File
	size    int64
	mtime   int64
	lastUse uint64
	closed  bool
}

// The cache is bounded in entries and in bytes of source: a parsed file
// costs tens of times its size (syntax tree, scopes), and an agent's
// questions over many large files grew the process by gigabytes under the
// entry bound alone. The file being parsed is kept whatever its size.
//
// Measured: six parsed files of 900 KB held 33 times their size, almost all
// of it in tree-sitter's C heap (the Go heap grew 6 MB), which is why the
// soak benchmark's resident set grew while its Go heap stayed flat: at the
// former bound of 8 MB of source the cache filled to about 265 MB. 2 MB of
// source is about 70 MB of trees.
const maxParsedFiles = 128

var maxParsedBytes int64 = 2 << 20

// build returns the snapshot of targets in file (relative path; abs is its
// location on disk).
func (p *parsedFiles) build(rel, abs string, read func(abs string) ([]byte, error), targets []snapshot.Target) (string, error) {
	for {
		fi, err := os.Stat(abs)
		if err != nil {
			return "", fmt.Errorf("snapshot %s: %w", rel, err)
		}
		e := p.entry(rel, abs, read, fi.Size(), fi.ModTime().UnixNano())
		<-e.ready
		if e.err != nil {
			return "", e.err
		}
		e.mu.Lock()
		if e.closed { // evicted between lookup and lock: look again
			e.mu.Unlock()
			continue
		}
		text, err := e.f.Build(targets)
		e.mu.Unlock()
		if err != nil {
			return "", fmt.Errorf("snapshot %s: %w", rel, err)
		}
		return text, nil
	}
}

// entry returns the file's entry, starting its parse when there is none
// for this size and mtime; wait on its ready channel.
func (p *parsedFiles) entry(rel, abs string, read func(string) ([]byte, error), size, mtime int64) *parsedEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.entries == nil {
		p.entries = map[string]*parsedEntry{}
	}
	p.tick++
	if e, ok := p.entries[rel]; ok && e.size == size && e.mtime == mtime {
		e.lastUse = p.tick
		return e
	} else if ok {
		p.evict(rel)
	}
	for len(p.entries) > 0 && (len(p.entries) >= maxParsedFiles || p.bytes+size > maxParsedBytes) {
		oldest, when := "", ^uint64(0)
		for k, e := range p.entries {
			if e.lastUse < when {
				oldest, when = k, e.lastUse
			}
		}
		p.evict(oldest)
	}
	e := &parsedEntry{ready: make(chan struct{}), size: size, mtime: mtime, lastUse: p.tick}
	p.entries[rel] = e
	p.bytes += size
	go func() {
		defer close(e.ready)
		src, err := read(abs)
		if err == nil {
			e.f, err = snapshot.Parse(rel, src)
		}
		if err != nil {
			e.err = fmt.Errorf("snapshot %s: %w", rel, err)
			p.mu.Lock()
			if p.entries[rel] == e {
				delete(p.entries, rel) // the next use tries again
				p.bytes -= e.size
			}
			p.mu.Unlock()
		}
	}()
	return e
}

// evict drops an entry and frees its tree once no Build is using it.
func (p *parsedFiles) evict(rel string) {
	e := p.entries[rel]
	delete(p.entries, rel)
	p.bytes -= e.size
	go func() {
		<-e.ready
		e.mu.Lock()
		e.closed = true
		if e.f != nil {
			e.f.Close()
		}
		e.mu.Unlock()
	}()
}

func (p *parsedFiles) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k := range p.entries {
		p.evict(k)
	}
}
