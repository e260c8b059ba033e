package search

import (
	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
)

// Reader is the storage backend seam: exactly the reads the pipeline makes
// of an index. The local SQLite index (*store.Store) implements it as it
// is; a shared index on a cluster (internal/weaviate) implements it too, so
// ranking, selection and the answers built from them are the same code
// whichever backend holds the chunks. It speaks internal/chunkindex's types,
// which sit below both backends, so neither backend depends on the other
// (the tests hold both to it).
type Reader interface {
	// Search is the first stage: BM25F over the chunks' text fields,
	// best first, restricted by paths and languages.
	Search(q chunkindex.Query) ([]chunkindex.Hit, error)
	// TermStats are the document frequencies of terms and the number of
	// chunks, for IDF weights.
	TermStats(terms []string) (chunkindex.TermStats, error)
	// ChunksNamed returns (light) chunks whose name is one of names, then
	// those assigned to a dotted path whose last name is (ident.Assigned).
	ChunksNamed(names []string, limit int) ([]chunk.Chunk, error)
	// NameCounts says how many chunks carry each name.
	NameCounts(names []string) (map[string]int, error)
	// TopLevelDefinitions returns (light) chunks of one file at depth
	// 0 or 1 of the given kinds, in line order.
	TopLevelDefinitions(path string, kinds []string, limit int) ([]chunk.Chunk, error)
	// ChunkIDsFiltered lists the ids of chunks in files matching paths
	// and languages (and of kinds, when given).
	ChunkIDsFiltered(paths, languages, kinds []string) ([]string, error)
	// ChunksByIDs reads chunks in full; missing ids are left out.
	ChunksByIDs(ids []string) (map[string]chunk.Chunk, error)
	// Chunk reads one chunk in full (chunkindex.ErrNotFound when missing).
	Chunk(id string) (chunk.Chunk, error)
	// ChunksByName returns the chunks named exactly name, in full.
	ChunksByName(name string) ([]chunk.Chunk, error)
}
