// Package index keeps a workspace's store in step with its files: mtime (or
// a watcher's list of changed files) as the cheap trigger, a SHA-256 content
// hash as the check, changed files written in batches of whole files per
// transaction, and the signature cascade that marks dependent chunks for
// re-embedding.
package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/workspace"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

// Options tune a sync.
type Options struct {
	Workspace workspace.Options
	// Progress, when set, is called as files are examined (done of total).
	Progress func(done, total int)
	// Workers parse files in parallel; 0 means one per CPU.
	Workers int
	// Changes, when set, names the files changed since the last sync
	// (watch mode): a sync then examines only those, and walks the whole
	// tree only when Changes cannot say (and the first time).
	Changes Changes
}

// Changes is what a sync needs of a file watcher (internal/watch).
type Changes interface {
	// Take returns the files (relative paths) changed since the last
	// call, or complete false with the reason when everything must be
	// scanned.
	Take() (changed []string, complete bool, reason string)
	// Watch is told the directories and files a full scan found, and
	// which directories it reached through a link (workspace.Result.Linked).
	Watch(dirs []string, linked map[string]string, files []string)
}

// Summary counts what a sync did.
type Summary struct {
	Files     int            // supported files found under the root
	Indexed   int            // new or changed files parsed and stored
	Unchanged int            // mtime and size matched: not read
	Touched   int            // mtime changed, content hash matched: only mtime updated
	Removed   int            // files gone from the workspace (or now skipped)
	Skipped   map[string]int // by reason
	Chunks    int            // chunks written by this sync
	Bytes     int64          // bytes parsed by this sync
	Reembed   int            // chunks in other files marked by the signature cascade
	// SyntaxErrors counts indexed files that tree-sitter could not fully
	// parse; they are still chunked line for line.
	SyntaxErrors int
	Duration     time.Duration
	// Watched is true when the sync examined only the files a watcher
	// named; ScanReason says why a sync with a watcher scanned everything.
	Watched    bool   `json:"watched,omitempty"`
	ScanReason string `json:"scan_reason,omitempty"`
	// Changed lists the files (relative paths) whose index entry this sync
	// replaced or removed.
	Changed []string `json:"-"`
	// Added lists the files of Changed that were not in the index before.
	Added []string `json:"-"`
}

// SkippedTotal is the number of files left out for any reason.
func (s Summary) SkippedTotal() int {
	n := 0
	for _, c := range s.Skipped {
		n += c
	}
	return n
}

func (s Summary) String() string {
	out := fmt.Sprintf("%d files: indexed %d (%d chunks), unchanged %d, touched %d, removed %d, skipped %d",
		s.Files, s.Indexed, s.Chunks, s.Unchanged, s.Touched, s.Removed, s.SkippedTotal())
	if len(s.Skipped) > 0 {
		reasons := make([]string, 0, len(s.Skipped))
		for r := range s.Skipped {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		out += " ("
		for i, r := range reasons {
			if i > 0 {
				out += ", "
			}
			out += fmt.Sprintf("%s %d", r, s.Skipped[r])
		}
		out += ")"
	}
	if s.SyntaxErrors > 0 {
		out += fmt.Sprintf(", %d with syntax errors", s.SyntaxErrors)
	}
	if s.Reembed > 0 {
		out += fmt.Sprintf(", %d chunks marked for re-embedding", s.Reembed)
	}
	return out + fmt.Sprintf(" in %s", s.Duration.Round(time.Millisecond))
}

// Indexer syncs one workspace root into one store. Syncs are serialised
// within the process and, through a lock file beside the index, across
// processes: a second process waits, then finds everything up to date.
type Indexer struct {
	root  *workspace.Root
	store *store.Store
	opt   Options
	mu    sync.Mutex
	// readLimit is opt.Workspace.ReadLimit(), readable while a sync holds
	// mu: answers read files during syncs.
	readLimit atomic.Int64
	// scanned is true once a full scan has told opt.Changes what to watch
	// under the current options; files counts the files it found.
	scanned bool
	files   int
}

// New returns an indexer for root writing into st.
func New(root *workspace.Root, st *store.Store, opt Options) *Indexer {
	ix := &Indexer{root: root, store: st, opt: opt}
	ix.readLimit.Store(opt.Workspace.ReadLimit())
	return ix
}

// ReadLimit is the most bytes any read of a workspace file may return under
// the current options: the file size limit, or workspace.MaxReadSize.
func (ix *Indexer) ReadLimit() int64 { return ix.readLimit.Load() }

// SetWorkspaceOptions changes which files later syncs consider (the
// configuration is read after the index is opened).
func (ix *Indexer) SetWorkspaceOptions(opt workspace.Options) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.opt.Workspace = opt
	ix.readLimit.Store(opt.ReadLimit())
	ix.scanned = false // other rules: the next sync scans everything
}

// WorkspaceOptions returns the file-selection options syncs use.
func (ix *Indexer) WorkspaceOptions() workspace.Options {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.opt.Workspace
}

// Store returns the store the indexer writes.
func (ix *Indexer) Store() *store.Store { return ix.store }

// Root returns the workspace root.
func (ix *Indexer) Root() *workspace.Root { return ix.root }

type job struct {
	file workspace.File
	prev *chunkindex.FileRecord
	id   int64 // for a file new to the index: the id it takes
}

type result struct {
	job     job
	skip    string // content check failed: reason
	hash    string
	touched bool // hash matched the previous record
	parsed  *parse.File
	chunks  []chunk.Chunk
	prep    *store.Prepared
	err     error
}

// written is what the summary needs of a file written in the open batch.
type written struct {
	rel          string
	touched      bool
	oldSigs      []store.ChunkSig // signatures changed or gone
	chunks       int
	bytes        int64
	syntaxErrors bool
}

// A batch of writes is committed when it holds this many files, this many
// bytes of source, or has been open this long: large enough that commits
// cost little, small enough that a crash loses little work and other
// processes' writers are not held off for long. The age is what bounds
// both; at 256 files (16 MB) a cold index of the speed corpus committed
// 22 times, mostly batches of small files done in well under the age,
// and at 1024 (64 MB) 9 times, for 0.15-0.2 s less of the writer's CPU
// (BenchmarkWriteTree with its batches so sized: 2.04-2.14 -> 1.86-1.91 s).
const (
	batchFiles = 1024
	batchBytes = 64 << 20
	batchAge   = 500 * time.Millisecond
)

// Sync brings the store up to date with the files under the root,
// reporting progress to Options.Progress.
func (ix *Indexer) Sync(ctx context.Context) (Summary, error) {
	return ix.SyncProgress(ctx, ix.opt.Progress)
}

// SyncProgress is Sync with its own progress callback (nil for none).
func (ix *Indexer) SyncProgress(ctx context.Context, progressFn func(done, total int)) (Summary, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	unlock, err := lockFile(ix.store.Path() + ".lock")
	if err != nil {
		return Summary{}, fmt.Errorf("index: %w", err)
	}
	defer unlock()

	start := time.Now()
	sum := Summary{Skipped: map[string]int{}}
	// With a watcher, the changes are taken before anything is read, so
	// that a change made during this sync is in the next one's list.
	var (
		jobs  []job
		known map[string]chunkindex.FileRecord
		seen  map[string]bool
		found workspace.Result
		named []string // by the watcher
		scan  = true
	)
	if ix.opt.Changes != nil {
		var complete bool
		named, complete, sum.ScanReason = ix.opt.Changes.Take()
		scan = !complete || !ix.scanned
		if !scan {
			sum.Watched = true
		}
	}
	if scan {
		// The walk and the index's file records are independent reads of
		// about equal cost on a large workspace: read them side by side.
		var g errgroup.Group
		g.Go(func() (err error) {
			known, err = ix.store.Files()
			return err
		})
		found, err = workspace.Discover(ix.root.Dir(), ix.opt.Workspace)
		if gerr := g.Wait(); err == nil {
			err = gerr
		}
		if err != nil {
			return sum, fmt.Errorf("index: %w", err)
		}
		for r, n := range found.SkipCounts() {
			sum.Skipped[r] += n
		}
		sum.Files = len(found.Files)
		seen = make(map[string]bool, len(found.Files))
		for _, f := range found.Files {
			seen[f.Rel] = true
			prev, ok := known[f.Rel]
			if ok && prev.Mtime == f.ModTime && prev.Size == f.Size {
				sum.Unchanged++
				continue
			}
			j := job{file: f}
			if ok {
				p := prev
				j.prev = &p
			}
			jobs = append(jobs, j)
		}
	} else if jobs, known, seen, err = ix.planChanged(named, &sum); err != nil {
		return sum, fmt.Errorf("index: %w", err)
	}

	// New files are numbered in path order before any is parsed, so the
	// ids (and the chunks' rowids) do not depend on which parser finishes
	// first (see store.NextFileID).
	next := int64(0)
	for i := range jobs {
		if jobs[i].prev != nil {
			continue
		}
		if next == 0 {
			if next, err = ix.store.NextFileID(); err != nil {
				return sum, fmt.Errorf("index: %w", err)
			}
		}
		jobs[i].id = next
		next++
	}

	total := len(jobs)
	done := 0
	progress := func() {
		if progressFn != nil {
			progressFn(done, total)
		}
	}
	progress()

	var changed []store.ChunkSig // signatures that changed or disappeared
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := ix.process(ctx, jobs)
	// Writes go in batches (see store.Batch); what a sync reports as done
	// is only what has been committed.
	var (
		batch     *store.Batch
		pending   []written
		pendBytes int64
		opened    time.Time
	)
	commit := func() error {
		if batch == nil {
			return nil
		}
		b := batch
		batch = nil
		if err := b.Commit(); err != nil {
			pending = pending[:0]
			return err
		}
		for _, w := range pending {
			if w.touched {
				sum.Touched++
				continue
			}
			changed = append(changed, w.oldSigs...)
			sum.Changed = append(sum.Changed, w.rel)
			if _, ok := known[w.rel]; !ok {
				sum.Added = append(sum.Added, w.rel)
			}
			sum.Indexed++
			sum.Chunks += w.chunks
			sum.Bytes += w.bytes
			if w.syntaxErrors {
				sum.SyntaxErrors++
			}
		}
		pending, pendBytes = pending[:0], 0
		return nil
	}
	write := func(r result) error {
		if batch == nil {
			b, err := ix.store.Begin()
			if err != nil {
				return err
			}
			batch, opened = b, time.Now()
		}
		w := written{rel: r.job.file.Rel, touched: r.touched}
		if r.touched {
			if err := batch.TouchFile(r.job.file.Rel, r.job.file.ModTime); err != nil {
				return err
			}
		} else {
			rec := chunkindex.FileRecord{
				Path:        r.job.file.Rel,
				Mtime:       r.job.file.ModTime,
				Size:        r.job.file.Size,
				ContentHash: r.hash,
				Language:    r.parsed.Language,
				ID:          r.job.id,
			}
			old, err := batch.ReplaceFile(rec, r.chunks, r.prep)
			if err != nil {
				return err
			}
			w.oldSigs = changedSignatures(old, r.chunks)
			w.chunks = len(r.chunks)
			w.bytes = int64(len(r.parsed.Source))
			w.syntaxErrors = r.parsed.ErrorNodes > 0
			pendBytes += w.bytes
		}
		pending = append(pending, w)
		if len(pending) >= batchFiles || pendBytes >= batchBytes || time.Since(opened) >= batchAge {
			return commit()
		}
		return nil
	}
	fail := func(e error) (Summary, error) {
		// A store that cannot write one file will not write the next:
		// stop, keep what is committed, and say why.
		if batch != nil {
			batch.Rollback()
			batch = nil
		}
		cancel()
		for range results {
		}
		return sum, fmt.Errorf("index: %w", writeError(ix.store.Path(), e))
	}
	for r := range results {
		done++
		progress()
		if r.err != nil {
			err = errors.Join(err, r.err)
			continue
		}
		if r.skip != "" {
			sum.Skipped[r.skip]++
			seen[r.job.file.Rel] = false // indexed before, unreadable now: drop it below
			continue
		}
		if e := write(r); e != nil {
			return fail(e)
		}
	}
	if e := commit(); e != nil {
		return fail(e)
	}
	if ctx.Err() != nil {
		return sum, fmt.Errorf("index: %w", ctx.Err())
	}

	var gone []string
	for rel := range known {
		if !seen[rel] {
			gone = append(gone, rel)
		}
	}
	if len(gone) > 0 {
		// All at once, a batch of files per transaction: one at a time,
		// removing 100,000 files took a minute.
		sort.Strings(gone)
		old, e := ix.store.DeleteFiles(gone)
		changed = append(changed, old...)
		if e != nil {
			err = errors.Join(err, e)
		} else {
			sum.Changed = append(sum.Changed, gone...)
			sum.Removed += len(gone)
		}
	}

	n, e := ix.cascade(changed)
	sum.Reembed = n
	err = errors.Join(err, e)
	if sum.Indexed >= 200 {
		// Many new full-text segments: merge them so queries stay fast.
		err = errors.Join(err, ix.store.Optimize())
	}
	if scan {
		ix.files = len(found.Files)
	} else {
		ix.files += len(sum.Added) - sum.Removed
		sum.Files = ix.files
	}
	if ix.opt.Changes != nil && scan && err == nil {
		rels := make([]string, 0, len(found.Files))
		for _, f := range found.Files {
			rels = append(rels, f.Rel)
		}
		for _, s := range found.Skipped {
			if s.Reason == workspace.SkipTooLarge {
				rels = append(rels, s.Rel)
			}
		}
		ix.opt.Changes.Watch(found.Dirs, found.Linked, rels)
		ix.scanned = true
	}
	sum.Duration = time.Since(start)
	if err != nil {
		return sum, fmt.Errorf("index: %w", err)
	}
	return sum, nil
}

// planChanged lists the jobs for the files a watcher named: each is
// statted and compared with its record; one that is gone or no longer a
// regular file is left out of seen, so the sync removes it. Everything
// else is as the last full scan left it.
func (ix *Indexer) planChanged(changed []string, sum *Summary) (jobs []job, known map[string]chunkindex.FileRecord, seen map[string]bool, err error) {
	known = make(map[string]chunkindex.FileRecord, len(changed))
	seen = make(map[string]bool, len(changed))
	sum.Unchanged = ix.files - len(changed)
	for _, rel := range changed {
		prev, ok, err := ix.store.File(rel)
		if err != nil {
			return nil, nil, nil, err
		}
		if ok {
			known[rel] = prev
		}
		abs := filepath.Join(ix.root.Dir(), filepath.FromSlash(rel))
		fi, err := os.Stat(abs)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		seen[rel] = true
		f := workspace.File{Path: abs, Rel: rel, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
		if ok && prev.Mtime == f.ModTime && prev.Size == f.Size {
			sum.Unchanged++
			continue
		}
		j := job{file: f}
		if ok {
			j.prev = &prev
		}
		jobs = append(jobs, j)
	}
	return jobs, known, seen, nil
}

// process reads, hashes, parses and chunks the jobs on worker goroutines and
// streams results back; writes stay on the caller's goroutine so that a
// batch is one store transaction and nothing interleaves.
//
// Results come back in the order of jobs, which is the order of the file
// ids new files take, so the chunks' rowids reach the full-text index in
// increasing order. FTS5 flushes the terms it holds in memory into a new
// segment whenever a rowid is not above the last one written, so results
// in the order workers finished them (two workers overtaking each other
// every few files) made a cold index write and merge thousands of small
// segments: about a twentieth of its CPU time on the speed corpus.
func (ix *Indexer) process(ctx context.Context, jobs []job) <-chan result {
	workers := ix.opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// The window bounds the source, in bytes, of the jobs handed to
	// workers and not yet passed on: a large file holds the results after
	// it back, and the workers go on with other files meanwhile. Bytes
	// rather than files, so that the files after a 9 MB bundle keep the
	// other worker busy while it is parsed, and a run of large files does
	// not hold many of them in memory.
	window := semaphore.NewWeighted(windowBytes)
	weight := func(j job) int64 { return min(max(j.file.Size, windowMinWeight), windowBytes) }
	type numbered struct {
		i int
		r result
	}
	in := make(chan int)
	done := make(chan numbered, workers)
	out := make(chan result, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range in {
				done <- numbered{i, ix.prepare(jobs[i])}
			}
		}()
	}
	go func() {
		defer close(in)
		// Jobs enter the window in order; a large one is handed out as
		// soon as it is in, the others in order. A large file parsed last
		// left one core idle at the end of a cold index (typescript.js,
		// over a second, sorts near the end of the speed corpus).
		var ready []int // in the window, not handed out
		next := 0
		for next < len(jobs) || len(ready) > 0 {
			for next < len(jobs) && window.TryAcquire(weight(jobs[next])) {
				ready = append(ready, next)
				next++
			}
			if len(ready) == 0 {
				if window.Acquire(ctx, weight(jobs[next])) != nil {
					return
				}
				ready = append(ready, next)
				next++
				continue
			}
			k := 0
			for r, i := range ready {
				if jobs[i].file.Size >= largeFile {
					k = r
					break
				}
			}
			select {
			case in <- ready[k]:
				ready = append(ready[:k], ready[k+1:]...)
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(done)
	}()
	go func() {
		defer close(out)
		held := make(map[int]result)
		next := 0
		for d := range done {
			held[d.i] = d.r
			for {
				r, ok := held[next]
				if !ok {
					break
				}
				delete(held, next)
				out <- r
				window.Release(weight(jobs[next]))
				next++
			}
		}
	}()
	return out
}

// windowBytes is process's window; a file counts as at least
// windowMinWeight bytes, which bounds the files in it.
const (
	windowBytes     = 24 << 20
	windowMinWeight = 16 << 10
)

// largeFile is the size from which process hands a file out ahead of its
// turn.
const largeFile = 1 << 20

func (ix *Indexer) prepare(j job) result {
	r := result{job: j}
	// The file may have been replaced since discovery: by a FIFO (a read
	// would block the sync, and the lock with it), a device, a larger file
	// or a symlink out of the root. Only a regular file inside the root,
	// within the limit, is read.
	src, err := ix.root.ReadFile(j.file.Path, ix.opt.Workspace.ReadLimit())
	if err != nil {
		r.skip = readSkip(err)
		return r
	}
	if reason := workspace.CheckContent(j.file.Rel, src); reason != "" {
		r.skip = reason
		return r
	}
	sum := sha256.Sum256(src)
	r.hash = hex.EncodeToString(sum[:])
	if j.prev != nil && j.prev.ContentHash == r.hash {
		r.touched = true
		return r
	}
	f, err := parse.Parse(j.file.Rel, src, "")
	if err != nil {
		r.err = fmt.Errorf("index %s: %w", j.file.Rel, err)
		return r
	}
	r.parsed = f
	r.chunks = chunk.File(f, j.file.Path, j.file.Rel)
	r.prep = store.PrepareFileLines(r.chunks, f.Source, f.LineStarts)
	return r
}

// readSkip is the skip reason for a file that could not be read.
func readSkip(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "vanished"
	case errors.Is(err, workspace.ErrNotRegular):
		return workspace.SkipNotRegular
	case errors.Is(err, workspace.ErrTooLarge):
		return workspace.SkipTooLarge
	case errors.Is(err, workspace.ErrOutsideRoot), errors.Is(err, workspace.ErrChanged):
		return workspace.SkipSymlinkOutside
	}
	return workspace.SkipUnreadable
}

// changedSignatures lists the old declarations whose signature differs in the
// new chunks, or that are gone.
func changedSignatures(old []store.ChunkSig, chunks []chunk.Chunk) []store.ChunkSig {
	now := make(map[string]string, len(chunks))
	for _, c := range chunks {
		now[c.Breadcrumb] = c.Signature
	}
	var out []store.ChunkSig
	for _, o := range old {
		if sig, ok := now[o.Breadcrumb]; !ok || sig != o.Signature {
			out = append(out, o)
		}
	}
	return out
}

// cascade marks for re-embedding the chunks in other files whose embedding
// text names a declaration whose signature changed.
func (ix *Indexer) cascade(changed []store.ChunkSig) (int, error) {
	// Each name once, leaving out the file of its first change.
	refs := map[string]string{}
	for _, c := range changed {
		if _, done := refs[c.Name]; cascades(c.Name) && !done {
			refs[c.Name] = fileOf(c.Breadcrumb)
		}
	}
	if len(refs) == 0 {
		return 0, nil
	}
	// Only embedded chunks change state: the others are marked already.
	ids, err := ix.store.EmbeddedChunksReferencing(refs)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	return len(ids), ix.store.MarkNeedsEmbedding(ids)
}

// cascades reports whether a name is an identifier other code can mention.
func cascades(name string) bool {
	if name == "" || name == "default" || name == "constructor" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#') {
			return false
		}
	}
	return true
}

func fileOf(breadcrumb string) string {
	for i := 0; i+2 < len(breadcrumb); i++ {
		if breadcrumb[i] == ' ' && breadcrumb[i+1] == '>' && breadcrumb[i+2] == ' ' {
			return breadcrumb[:i]
		}
	}
	return breadcrumb
}

// writeError explains a failed index write: the index is consistent (each
// batch of whole files is one transaction), and the usual causes are named.
func writeError(path string, err error) error {
	msg := err.Error()
	hint := ""
	switch {
	case strings.Contains(msg, "disk is full"), strings.Contains(msg, "disk I/O error"), strings.Contains(msg, "no space"), strings.Contains(msg, "too large"):
		hint = "the disk holding the index is full or failing"
	case strings.Contains(msg, "readonly"), strings.Contains(msg, "read-only"), strings.Contains(msg, "permission denied"):
		hint = "the index is not writable"
	}
	if hint == "" {
		return fmt.Errorf("writing the index %s failed: %w", path, err)
	}
	return fmt.Errorf("writing the index %s failed (%s; what was written is intact and the next sync completes it): %w", path, hint, err)
}
