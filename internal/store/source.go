package store

import (
	"bytes"
	"compress/flate"
	"container/list"
	"fmt"
	"hash/maphash"
	"io"
	"sort"
	"strings"
	"sync"

	kflate "github.com/klauspost/compress/flate"
	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/sqlitedb"
)

// A file's chunks nest (a class holds its methods) and together cover
// nearly all of the file, so storing each chunk's source whole stored most
// of the file at least once in plain text and its containers once more.
// Instead the file's text is cut into blocks of about blockTarget bytes,
// each stored compressed once in the sources table, and a chunk stores
// where its source lies in them: its first and last block, its offset in
// the first and its length (chunks.src_*). On the speed corpus (39.4 MB),
// the sources took 42.7 MB in the chunks table and take 12.4 MB in blocks.
//
// Blocks are cut between chunks, never inside one that SQL reads as text
// (a chunk whose embedding text is its source, NULL in embedding_text:
// light reads, ChunksReferencing and PendingEmbeddings read it in SQL) or
// inside any chunk of up to atomMax bytes, so those lie in one block and
// reading one inflates one block. Larger containers span blocks; their
// source is read whole only when the chunk is shown. The block cache
// (blockCache) makes a run of chunks of one block inflate it once.
//
// A chunk whose source is not found in the text (a caller's hand-made
// chunk) keeps it in full_source as before: plain text, or compressed
// (compress.go) when its embedding text differs.
//
// sources.key is the chunks' seq base (file id and generation, see
// fileShift) with the block number in the ordinal bits, so a file's blocks
// are one key range, deleted with its chunks.
const (
	blockTarget = 8 << 10
	atomMax     = 32 << 10
	// blockLevel: blocks are written by klauspost/compress's DEFLATE
	// (plain DEFLATE, which compress/flate reads). On the speed corpus's
	// text in 8 KB blocks its level 5 has the ratio of compress/flate's
	// level 4 (0.250), in about 60% of the time.
	blockLevel = 5
)

// span is where a chunk's source lies in its file's blocks; block < 0
// means it is stored whole in its row.
type span struct {
	block, last int // first and last block
	off, n      int // offset in the first block, length in bytes
}

// layout finds each chunk's source in text, or when text is nil in a text
// built from the chunks themselves, and cuts that text into blocks. It
// returns the blocks (nil where no chunk lies in them) and each chunk's
// span. starts is lines.Starts(text), or nil to compute it.
func layout(chunks []chunk.Chunk, text []byte, starts []int) ([][]byte, []span) {
	spans := make([]span, len(chunks))
	at := make([]int, len(chunks)) // offset in the text, -1: not found
	if text != nil {
		if starts == nil {
			starts = lines.Starts(text)
		}
		findInFile(chunks, text, starts, at)
	} else {
		text = findInParents(chunks, at)
	}
	// Intervals no block boundary may cut, merged where they overlap.
	type interval struct{ start, end int }
	var atoms []interval
	for i := range chunks {
		c := &chunks[i]
		if at[i] < 0 || len(c.FullSource) == 0 {
			continue
		}
		if c.EmbeddingText == c.FullSource || len(c.FullSource) <= atomMax {
			atoms = append(atoms, interval{at[i], at[i] + len(c.FullSource)})
		}
	}
	sort.Slice(atoms, func(i, j int) bool { return atoms[i].start < atoms[j].start })
	merged := atoms[:0]
	for _, a := range atoms {
		if k := len(merged) - 1; k >= 0 && a.start < merged[k].end {
			merged[k].end = max(merged[k].end, a.end)
			continue
		}
		merged = append(merged, a)
	}
	// Cut greedily at blockTarget, moved back to the start of an atom it
	// would split, or on to its end when the atom starts the block.
	cuts := []int{0}
	for start := 0; start < len(text); {
		end := start + blockTarget
		if end >= len(text) {
			end = len(text)
		} else if k := sort.Search(len(merged), func(k int) bool { return merged[k].end > end }); k < len(merged) && merged[k].start < end {
			if merged[k].start > start {
				end = merged[k].start
			} else {
				end = merged[k].end
			}
		}
		cuts = append(cuts, end)
		start = end
	}
	used := make([]bool, len(cuts)-1)
	for i := range chunks {
		spans[i].block = -1
		n := len(chunks[i].FullSource)
		if at[i] < 0 || n == 0 {
			continue
		}
		first := sort.Search(len(cuts), func(k int) bool { return cuts[k] > at[i] }) - 1
		last := sort.Search(len(cuts), func(k int) bool { return cuts[k] >= at[i]+n }) - 1
		spans[i] = span{block: first, last: last, off: at[i] - cuts[first], n: n}
		for b := first; b <= last; b++ {
			used[b] = true
		}
	}
	blocks := make([][]byte, len(used))
	for b, u := range used {
		if u {
			blocks[b] = text[cuts[b]:cuts[b+1]]
		}
	}
	return blocks, spans
}

// findInFile sets at[i] to the offset of chunk i's source in the file's
// text: chunk.File cuts a chunk's source at the start of its first line.
// A source not found there, byte for byte, is left at -1.
func findInFile(chunks []chunk.Chunk, text []byte, starts []int, at []int) {
	for i := range chunks {
		at[i] = -1
		c := &chunks[i]
		if c.StartLine < 1 || c.StartLine > len(starts) {
			continue
		}
		off := starts[c.StartLine-1]
		if off+len(c.FullSource) <= len(text) && string(text[off:off+len(c.FullSource)]) == c.FullSource {
			at[i] = off
		}
	}
}

// findInParents builds a text for chunks given without their file's: a
// chunk found inside its parent's source (searched only in parents of up
// to findMax bytes) lies there, any other is appended. It sets at and
// returns the text.
func findInParents(chunks []chunk.Chunk, at []int) []byte {
	const findMax = 1 << 20
	var text []byte
	index := make(map[string]int, len(chunks))
	for i := range chunks {
		c := &chunks[i]
		at[i] = -1
		if p, ok := index[c.ParentChunkID]; ok && at[p] >= 0 && len(chunks[p].FullSource) <= findMax {
			if k := strings.Index(chunks[p].FullSource, c.FullSource); k >= 0 {
				at[i] = at[p] + k
			}
		}
		if at[i] < 0 {
			if len(text) > 0 {
				text = append(text, '\n')
			}
			at[i] = len(text)
			text = append(text, c.FullSource...)
		}
		if _, dup := index[c.ID]; !dup {
			index[c.ID] = i
		}
	}
	return text
}

// deflateBlock compresses one block.
func deflateBlock(b []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(b) / 3)
	w := blockWriters.Get().(*kflate.Writer)
	defer blockWriters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(b); err != nil {
		panic(err) // a bytes.Buffer does not fail
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

var blockWriters = sync.Pool{New: func() any {
	w, err := kflate.NewWriter(nil, blockLevel)
	if err != nil {
		panic(err) // only for an invalid level
	}
	return w
}}

// blockCache keeps recently inflated blocks (and compressed embedding
// texts), keyed by their compressed bytes (a hash, then the bytes
// compared), so an entry can never be stale whatever index or file it came
// from. It is shared by every store of the process.
type blockCache struct {
	mu    sync.Mutex
	seed  maphash.Seed
	max   int // bytes of text and compressed data kept
	size  int
	order *list.List // of *cached, most recent first
	byKey map[uint64]*list.Element
}

type cached struct {
	key  uint64
	z    []byte
	text string
}

// blockCacheBytes bounds the cache: a few hundred blocks, enough for the
// files a query's candidates come from and for one large file read in seq
// order (the 9 MB typescript.js is about 1,100 blocks).
const blockCacheBytes = 16 << 20

var blocks = &blockCache{seed: maphash.MakeSeed(), max: blockCacheBytes, order: list.New(), byKey: map[uint64]*list.Element{}}

// text returns the inflated form of the compressed block z, which it may
// keep (SQL function arguments are copies).
func (c *blockCache) text(z []byte) (string, error) {
	key := maphash.Bytes(c.seed, z)
	c.mu.Lock()
	if e, ok := c.byKey[key]; ok && bytes.Equal(e.Value.(*cached).z, z) {
		c.order.MoveToFront(e)
		t := e.Value.(*cached).text
		c.mu.Unlock()
		return t, nil
	}
	c.mu.Unlock()
	t, err := inflate(z)
	if err != nil {
		return "", err
	}
	entry := &cached{key: key, z: z, text: t}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.size -= len(e.Value.(*cached).z) + len(e.Value.(*cached).text)
		c.order.Remove(e)
	}
	c.byKey[key] = c.order.PushFront(entry)
	c.size += len(entry.z) + len(entry.text)
	for c.size > c.max && c.order.Len() > 1 {
		old := c.order.Remove(c.order.Back()).(*cached)
		delete(c.byKey, old.key)
		c.size -= len(old.z) + len(old.text)
	}
	return t, nil
}

var readers = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// inflate decompresses raw DEFLATE data.
func inflate(z []byte) (string, error) {
	r := readers.Get().(io.ReadCloser)
	defer readers.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(z), nil); err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(len(z) * 4)
	if _, err := io.Copy(&b, r); err != nil {
		return "", fmt.Errorf("inflate: %w", err)
	}
	return b.String(), nil
}

// sourceExpr is a chunk c's source as SQL text (or, stored whole and
// compressed, a BLOB that sourceText inflates): from its row, from its
// one block (source_range) or from its blocks (source_blocks). CASE
// evaluates only the branch taken, so a chunk stored whole reads no block.
var sourceExpr = fmt.Sprintf(`CASE WHEN c.src_block IS NULL THEN c.full_source
	WHEN c.src_last IS NULL THEN source_range((SELECT data FROM sources WHERE key = (c.seq >> %[1]d << %[1]d) | c.src_block), c.src_off, c.src_len)
	ELSE (SELECT source_blocks(s.data, c.src_off, c.src_len, c.src_last - c.src_block + 1 ORDER BY s.key) FROM sources s
		WHERE s.key BETWEEN (c.seq >> %[1]d << %[1]d) | c.src_block AND (c.seq >> %[1]d << %[1]d) | c.src_last) END`, chunkBits)

// textExpr is a chunk c's embedding text as SQL text: its own (maybe
// compressed, see compress.go), or its source when they are equal (NULL
// embedding_text; such a chunk's source is never compressed).
var textExpr = "coalesce(inflated(c.embedding_text), " + sourceExpr + ")"

func init() {
	sqlitedb.RegisterScalar("source_range", 3, func(args []any) (any, error) {
		z, ok := args[0].([]byte)
		off, ok1 := args[1].(int64)
		n, ok2 := args[2].(int64)
		if !ok || !ok1 || !ok2 {
			return nil, fmt.Errorf("source_range: arguments of types %T, %T, %T", args[0], args[1], args[2])
		}
		t, err := blocks.text(z)
		if err != nil {
			return nil, fmt.Errorf("source_range: %w", err)
		}
		if off < 0 || n < 0 || off+n > int64(len(t)) {
			return nil, fmt.Errorf("source_range: %d bytes at %d of a block of %d", n, off, len(t))
		}
		return t[off : off+n], nil
	})
	sqlitedb.RegisterAggregate("source_blocks", 4, func() sqlitedb.Aggregate { return &joinBlocks{} })
}

// joinBlocks is the source_blocks aggregate over (block, offset, length,
// blocks expected): the blocks' text, in order, cut to the length given
// from the offset given. A block missing is an error, not a shorter text.
type joinBlocks struct {
	b             strings.Builder
	off, n, count int64
	steps         int64
}

func (j *joinBlocks) Step(args []any) error {
	z, ok := args[0].([]byte)
	off, ok1 := args[1].(int64)
	n, ok2 := args[2].(int64)
	count, ok3 := args[3].(int64)
	if !ok || !ok1 || !ok2 || !ok3 {
		return fmt.Errorf("source_blocks: arguments of types %T, %T, %T, %T", args[0], args[1], args[2], args[3])
	}
	if j.steps == 0 {
		j.off, j.n, j.count = off, n, count
		j.b.Grow(int(off + n))
	}
	j.steps++
	t, err := blocks.text(z)
	if err != nil {
		return fmt.Errorf("source_blocks: %w", err)
	}
	j.b.WriteString(t)
	return nil
}

func (j *joinBlocks) Done() (any, error) {
	if j.steps == 0 || j.steps != j.count {
		return nil, fmt.Errorf("source_blocks: %d blocks of %d", j.steps, j.count)
	}
	t := j.b.String()
	if j.off < 0 || j.n < 0 || j.off+j.n > int64(len(t)) {
		return nil, fmt.Errorf("source_blocks: %d bytes at %d of blocks of %d", j.n, j.off, len(t))
	}
	return t[j.off : j.off+j.n], nil
}
