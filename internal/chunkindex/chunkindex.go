// Package chunkindex holds what both index backends (the local SQLite index,
// internal/store, and the shared index on a cluster, internal/weaviate)
// store and are asked in the same terms: file records, a chunk's full-text
// columns, lexical queries and their hits, term statistics, the path
// filter and the not-found error. Keeping them here, below both, lets the
// search pipeline's Reader seam and the shared index speak them without the
// shared index depending on SQLite.
package chunkindex

import (
	"context"
	"errors"

	"github.com/scry-dev/scry/internal/chunk"
)

// ErrNotFound is returned (wrapped) when a requested chunk, file or vector
// does not exist.
var ErrNotFound = errors.New("not found")

// FileRecord is what an index knows about one indexed file.
type FileRecord struct {
	Path        string // relative to the workspace root, slash-separated
	Mtime       int64  // unix nanoseconds
	Size        int64
	ContentHash string
	Language    string
	IndexedAt   int64 // unix nanoseconds; ReplaceFile sets it when zero
	// ID, when not zero, is the id a file new to the index takes (see
	// NextFileID); zero takes the next free one. A known file keeps its id.
	// Reads leave it zero.
	ID int64
}

// Query is a lexical search.
type Query struct {
	// Terms are already normalised by terms.Query. Any string is safe: each
	// term is matched as a quoted string, never parsed as FTS syntax.
	Terms []string
	// Paths restricts hits to files matching any of these patterns,
	// relative to the root (see PathMatch).
	Paths []string
	// Languages restricts hits to files of these languages (exact match
	// on FileRecord.Language).
	Languages []string
	// Limit is the maximum number of hits; DefaultLimit when <= 0.
	Limit int
	// Context, when set, cancels the query (the local index interrupts SQLite): a
	// search for a question the agent has withdrawn stops early.
	Context context.Context
	// Light reads chunks without their full source and with their
	// embedding text cut to LightText bytes (see store.Store.ChunksByIDs), and leaves
	// Hit.Language empty.
	Light bool
}

// DefaultLimit is the number of hits a search returns when Query.Limit is unset.
const DefaultLimit = 50

// Hit is one search result.
type Hit struct {
	Chunk    chunk.Chunk
	Score    float64 // BM25F, higher is better; comparable within one query only
	Language string  // of the chunk's file
}

// TermStats are corpus statistics for a set of terms: how many chunks hold
// each term, out of how many chunks in all. Rankers turn them into inverse
// document frequencies.
type TermStats struct {
	Chunks  int            // chunks in the index
	DocFreq map[string]int // chunks holding the term in any column; absent terms are missing
}

// LightText is how much of a chunk's embedding text a light read returns.
const LightText = 6 << 10
