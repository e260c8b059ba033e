// Package store keeps one workspace's index in one SQLite file: file records,
// chunks, a full-text index over them and embedding vectors.
//
// One *Store is safe for one writer and any number of concurrent readers.
// Several processes may open the same file: WAL lets readers run beside a
// writer, and busy_timeout plus BEGIN IMMEDIATE make writers queue instead of
// failing or deadlocking.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scry-dev/scry/internal/sqlitedb"
)

// SchemaVersion is stored in meta.schema_version. Bump it whenever the schema,
// the terms normalisation or what the chunker records changes (22: a
// member of an interface or object type carries the "signature" modifier;
// 21:
// CommonJS's re-exports, `exports.Runnable = require('./runnable.js')
// .Runnable`, are re-export chunks, and `require('m').x`,
// `require('debug')('ns')` and a bare `require('m')` imports; 20: a
// multi-line method written in an object literal that is no variable's
// value, `defineComponent({ setup() {…} })`, `reducers: { add(state) {…}
// }`, is a symbol; 19: a
// callback's callee written over lines reads as on one, `tasks.filter(…)`,
// and a call's long arguments inside it are "(…)": `it.each(…)('t')
// callback`; 18: a
// named function expression outside a call's arguments, `return function
// createSlice() {…}`, is a function, not a callback; 17: a
// default export that is neither a function nor a class is named "default",
// not by its text; 16: the
// name a definition assigned to a dotted path defines is a column; 15: syntax
// newer than the grammar, variance annotations, export type *, import types
// with arguments, reserved words as export names and members named in...
// after a line break, is parsed rather than left in error nodes; 14: generic
// call signatures separated by line breaks alone are parsed, not left in an
// error node; 13: a function or class assigned to a dotted name at the root
// is one definition rather than an expression around one): an index of any
// other version is dropped and rebuilt on Open, since it is only a cache of
// the workspace.
const SchemaVersion = 22

// applicationID marks the file as a scry index (PRAGMA application_id, "scry"),
// so that Open never drops the tables of some other application's database
// given by mistake as --index.
const applicationID = 0x73637279

// Store is an open index.
type Store struct {
	db   *sql.DB
	path string
	// wmu serialises this process's writers so they never wait on each
	// other inside SQLite's busy handler; other processes are held off by
	// BEGIN IMMEDIATE + busy_timeout.
	wmu sync.Mutex
	// stats caches corpus statistics between changes of the index.
	stats statsCache
	// splitMinChunks overrides splitMinChunks (tests split small indexes).
	splitMinChunks int
	// commits counts committed write transactions (Commits).
	commits atomic.Int64
}

// Open opens or creates the index at path, creating parent directories. An
// index written with another schema version is rebuilt empty.
func Open(path string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Private: the index holds the workspace's full source.
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db, err := sqlitedb.Open(abs, connOptions)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Every new connection replays the DSN pragmas; keep a few idle so
	// concurrent readers do not pay that each time.
	db.SetMaxIdleConns(4)
	s := &Store{db: db, path: abs}
	if err := s.ensureSchemaRetrying(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Only now is the file known to be an index (a file that is not
	// SQLite was refused above, its mode untouched).
	if err := sqlitedb.MakePrivate(abs); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return s, nil
}

// connOptions are every index connection's settings.
var connOptions = sqlitedb.Options{
	BusyTimeoutMS: 5000,
	ForeignKeys:   true,
	// Takes effect only in a new, empty file; in an existing one it
	// changes nothing (see Optimize).
	AutoVacuumIncremental: true,
	WAL:                   true,
	// NORMAL under WAL cannot corrupt the file, only lose the last commits
	// on power loss; the index is rebuildable, so durability per commit is
	// not worth an fsync each.
	SynchronousNormal: true,
	// Writers take the write lock at BEGIN, so the busy handler applies;
	// a deferred transaction upgrading from read to write would get
	// SQLITE_BUSY at once when another process is writing.
	Immediate: true,
}

// Path returns the absolute path of the index file.
func (s *Store) Path() string { return s.path }

// Close closes the index.
func (s *Store) Close() error {
	s.stats.close()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", s.path, err)
	}
	return nil
}

// Optimize merges the full-text index segments, returns the pages that
// frees to the file system and refreshes the planner's statistics. Worth
// calling after a large batch of writes (a full index).
//
// Merging rewrites the whole full-text index, which left a cold index of
// the speed corpus with 4.8 MB of free pages (about 3% of the file) that
// only later writes would have reused. The index is created with
// auto_vacuum=INCREMENTAL (see connOptions) so that incremental_vacuum
// can move pages down into those holes and truncate the file; an index
// created otherwise (an older schema rebuilt in place) keeps its free
// pages, and the pragma does nothing.
func (s *Store) Optimize() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	ctx := context.Background()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')`); err != nil {
		return fmt.Errorf("store: optimize: %w", err)
	}
	if err := s.incrementalVacuum(ctx); err != nil {
		return fmt.Errorf("store: optimize: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `PRAGMA optimize`); err != nil {
		return fmt.Errorf("store: optimize: %w", err)
	}
	return nil
}

// incrementalVacuum frees every free page. The pragma frees one page per
// step, returning a row each time, and an Exec may stop at the first row
// (the C build's driver does): its rows are read to the end.
func (s *Store) incrementalVacuum(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `PRAGMA incremental_vacuum`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// The FTS table is contentless (its content option is the empty string):
//   - every indexed column holds derived text (terms.Split output), not a
//     copy of a chunks column, so an external-content table would have
//     nothing to point at;
//   - storing the text again inside FTS would double the body size on disk;
//   - bm25() needs only the index and the per-row column sizes, which a
//     contentless table keeps; snippet()/highlight() are not needed because
//     callers render from chunks.full_source.
//
// A row is deleted with the 'delete' command, given the derived text it was
// inserted with, recomputed from the stored chunk (fulltext_delete.go).
// contentless_delete=1, which deletes by rowid alone, was used until schema
// 11: in SQLite 3.50.4 (the C build's) it does not take a deleted row out of
// bm25's statistics, so an index that had followed many edits ranked
// differently from a fresh one. The 'delete' command is exact in any version.
// detail=full (positions) is kept: detail=column
// measured only 10-20% faster at 100k chunks and would lose term frequency
// in bm25 and every multi-token phrase.
//
// chunks.seq is the FTS rowid, laid out as (see fileShift):
//
//	files.id << 32 | generation (12 bits) << 20 | ordinal in the file (20 bits)
//
// A candidate's file is then known from its rowid alone, so path and
// language filters cost one in-memory set of file ids, or rowid ranges,
// instead of a lookup per candidate (measured: a lookup per candidate, or a
// set of chunk rowids, costs as much as ranking). The generation, bumped by
// every ReplaceFile, keeps "a replaced chunk gets a new seq" true (the
// embedding side checks seq and id before storing a vector), unless a
// multiple of 4096 replacements of one file happen while a vector is being
// computed. It is an explicit INTEGER PRIMARY KEY because an implicit rowid
// may be renumbered by VACUUM, which would silently detach the FTS rows.
//
// The large text columns come last so that reads of the early columns never
// touch their overflow pages. embedding_text is NULL when it equals the
// source (every leaf chunk). A chunk's source is a range of its file's text,
// stored once in compressed blocks (source.go); full_source holds it only
// for a chunk not found in that text.
//
// A chunk keeps no copy of what its file's row or its own other columns
// already say (see derived.go); these were a fifth of the chunks table:
//   - its relative path: seq carries the file's id, which is the files
//     row's rowid, so reads join files on it (fileOf) and a file's chunks
//     are one seq range (fileRange), which also replaces an index on path;
//   - its absolute path (file_path): the files row keeps the one its chunks
//     share, and a chunk's own column is NULL unless it differs;
//   - its breadcrumb, when it is the relative path, the parent chain and
//     the name joined by " > " (encodeBreadcrumb);
//   - its relevant import statements, which the files row lists once
//     (importRefs);
//   - its signature, when its embedding text begins with it
//     (encodeSignature);
//   - its file's hash or mtime.
//
// There is no index on needs_embedding: the pending-embedding queries test
// it beside "has no vector" (an OR no index serves) while walking seq
// order, so only NeedsEmbedding could use one, and it cost 2.9 MB on a
// corpus of 140k chunks not yet embedded.
var schema = []string{
	`CREATE TABLE meta (
		key   TEXT PRIMARY KEY,
		value TEXT NOT NULL
	) WITHOUT ROWID`,
	`CREATE TABLE files (
		id           INTEGER PRIMARY KEY,
		path         TEXT NOT NULL UNIQUE,
		generation   INTEGER NOT NULL DEFAULT 0,
		mtime        INTEGER NOT NULL,
		size         INTEGER NOT NULL,
		content_hash TEXT NOT NULL,
		language     TEXT NOT NULL,
		indexed_at   INTEGER NOT NULL,
		file_path    TEXT NOT NULL DEFAULT '',
		line_ordered INTEGER NOT NULL DEFAULT 0,
		imports      BLOB
	)`,
	`CREATE TABLE chunks (
		seq              INTEGER PRIMARY KEY,
		id               TEXT NOT NULL UNIQUE,
		start_line       INTEGER NOT NULL,
		end_line         INTEGER NOT NULL,
		depth            INTEGER NOT NULL,
		node_kind        TEXT NOT NULL,
		name             TEXT NOT NULL,
		assigned_name    TEXT, -- ident.Assigned(name), NULL when that is ""
		parent_name      TEXT NOT NULL,
		parent_chunk_id  TEXT NOT NULL,
		exported         INTEGER NOT NULL,
		needs_embedding  INTEGER NOT NULL DEFAULT 1,
		src_block        INTEGER,
		src_last         INTEGER,
		src_off          INTEGER,
		src_len          INTEGER,
		file_path        TEXT,
		breadcrumb       TEXT,
		child_chunk_ids  TEXT NOT NULL,
		modifiers        TEXT NOT NULL,
		relevant_imports BLOB,
		signature        NOT NULL,
		jsdoc            TEXT NOT NULL,
		embedding_text   TEXT,
		full_source      TEXT
	)`,
	// Blocks of the files' text holding the chunks' sources (source.go).
	`CREATE TABLE sources (
		key  INTEGER PRIMARY KEY,
		data BLOB NOT NULL
	)`,
	`CREATE INDEX chunks_by_name ON chunks(name)`,
	`CREATE INDEX chunks_by_assigned_name ON chunks(assigned_name) WHERE assigned_name IS NOT NULL`,
	`CREATE VIRTUAL TABLE chunks_fts USING fts5(
		name, breadcrumb, signature, jsdoc, body, idents,
		content = '',
		tokenize = 'unicode61 remove_diacritics 2'
	)`,
	// Every ReplaceFile commits a small segment; merging 16 at a time
	// instead of 4 roughly halved insert time at 30k chunks with no
	// measurable query cost (Optimize merges everything after a full
	// index).
	`INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('automerge', 16)`,
	// FTS5 holds a transaction's new terms in memory up to hashsize
	// bytes, then writes them out as a segment. With the default of 1 MB
	// a batch of the indexer (up to 16 MB of source) wrote a dozen small
	// segments to merge; 32 MB holds a batch whole. The writer's side of
	// a cold index of the speed corpus: 2.37 -> 2.21 CPU-s, peak memory
	// unchanged. The segments' contents, and so every score, are the same.
	`INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('hashsize', 33554432)`,
	// Per-term document counts, for dropping near-ubiquitous query terms.
	`CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row')`,
	// A rowid table, not WITHOUT ROWID: there a row over about 1,000 bytes
	// spills into an overflow page of its own, which made a 1 KB vector
	// cost 4.7 KB on disk. Vectors are stored as int8 (vectors.go).
	`CREATE TABLE vectors (
		chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
		model    TEXT NOT NULL,
		dim      INTEGER NOT NULL,
		data     BLOB NOT NULL,
		UNIQUE (chunk_id, model)
	)`,
	`CREATE INDEX vectors_by_model ON vectors(model)`,
}

// Layout of a chunk rowid (chunks.seq): file id, generation, ordinal.
const (
	chunkBits = 20 // ordinal of a chunk in its file
	genBits   = 12 // generation of the file's chunks, modulo 1<<genBits
	fileShift = chunkBits + genBits
	maxFileID = 1<<(63-fileShift) - 1
	genMask   = 1<<genBits - 1
)

// ensureSchema checks the version under the write lock, so that two
// processes opening an old index at once rebuild it once.
// ensureSchemaRetrying runs ensureSchema until no other process holds the
// file: two processes opening a new index at once both read it as empty,
// and SQLite refuses the second one's write with SQLITE_BUSY at once
// (busy_timeout cannot help a read lock upgrading to a write lock). The
// retry then finds the schema the first one wrote.
func (s *Store) ensureSchemaRetrying(ctx context.Context) error {
	delay := 5 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := s.ensureSchema(ctx)
		if err == nil || attempt == 40 || !isBusy(err) {
			return err
		}
		time.Sleep(delay)
		if delay < 250*time.Millisecond {
			delay *= 2
		}
	}
}

func isBusy(err error) bool { return sqlitedb.IsBusy(err) }

func (s *Store) ensureSchema(ctx context.Context) (err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// Dropping tables with foreign keys on would run cascading deletes
	// through whatever an old schema looked like; the pragma is a no-op
	// inside a transaction, so it is switched here and restored after.
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return err
	}
	defer func() {
		if _, ferr := conn.ExecContext(ctx, `PRAGMA foreign_keys = ON`); ferr != nil && err == nil {
			err = ferr
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var appID int64
	if err := tx.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&appID); err != nil {
		return err
	}
	var objects int
	if err := tx.QueryRowContext(ctx,
		`SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\'`).Scan(&objects); err != nil {
		return err
	}
	if objects > 0 && appID != applicationID {
		return errors.New("not a scry index (refusing to overwrite it)")
	}
	if objects > 0 {
		var v string
		err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v)
		if err == nil && v == strconv.Itoa(SchemaVersion) {
			return tx.Commit()
		}
		if IsCorrupt(err) {
			return fmt.Errorf("%w: schema version: %w", ErrDamagedIndex, err)
		}
		if err := dropAll(ctx, tx); err != nil {
			if IsCorrupt(err) {
				return fmt.Errorf("%w: drop old schema: %w", ErrDamagedIndex, err)
			}
			return fmt.Errorf("drop old schema: %w", err)
		}
	}
	for _, stmt := range schema {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('schema_version', ?)`,
		strconv.Itoa(SchemaVersion)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `PRAGMA application_id = `+strconv.Itoa(applicationID)); err != nil {
		return err
	}
	return tx.Commit()
}

// dropAll removes every schema object. Virtual tables go before plain tables
// because dropping one also drops its shadow tables.
func dropAll(ctx context.Context, tx *sql.Tx) error {
	list := func(where string) ([][2]string, error) {
		rows, err := tx.QueryContext(ctx, `SELECT type, name FROM sqlite_master
			WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\' AND `+where)
		if err != nil {
			return nil, err
		}
		return collectRows(rows, func(r *sql.Rows) ([2]string, error) {
			var typ, name string
			err := r.Scan(&typ, &name)
			return [2]string{typ, name}, err
		})
	}
	for _, where := range []string{
		`type IN ('trigger', 'view')`,
		`type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`,
		`type = 'table'`,
	} {
		objs, err := list(where)
		if err != nil {
			return err
		}
		for _, o := range objs {
			stmt := "DROP " + strings.ToUpper(o[0]) + " IF EXISTS " + quoteIdent(o[1])
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return err
			}
		}
	}
	return nil
}

func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// write runs fn in one immediate transaction, serialised with this
// process's other writers.
func (s *Store) write(fn func(ctx context.Context, tx *sql.Tx) error) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(ctx, tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.commits.Add(1)
	return nil
}

// Commits is how many write transactions this Store has committed: the
// work count tests hold bulk changes to (each commit rewrites the pages it
// touched into the write-ahead log).
func (s *Store) Commits() int64 { return s.commits.Load() }
