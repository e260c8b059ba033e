package weaviate

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/go-openapi/strfmt"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/store"
)

// Source is what Push reads: a repository's local index, already brought
// up to date (the local SQLite index is the parse cache the shared index
// is filled from).
type Source interface {
	AllFiles() ([]store.FileRecord, error)
	ChunksByFile(path string) ([]chunk.Chunk, error)
}

// PushOptions are Push's inputs besides the index.
type PushOptions struct {
	// ReadFile reads a file of the repository (relative path); its text is
	// stored, compressed, for snapshots. Required.
	ReadFile func(rel string) ([]byte, error)
	// Vectors returns the configured embedder's vectors of chunks, by id
	// (nil: objects carry no vectors).
	Vectors func(ids []string) (map[string][]float32, error)
	// Progress is told of files done out of files to send.
	Progress func(done, total int)
	// BatchSize is the chunks per batch request (0: 200).
	BatchSize int
	// AfterChunks is called after a file's chunks are written and before
	// its record is flipped (tests use it to interrupt a sync there).
	AfterChunks func(path string)
}

// PushSummary says what a push did.
type PushSummary struct {
	Files     int // files in the repository
	Sent      int // files whose new version was written
	Unchanged int
	Deleted   int
	Skipped   int // changed on disk since the local sync: sent next time
	Chunks    int // chunk objects written
	Elapsed   time.Duration
}

// remoteFile is a file record as the shared index has it.
type remoteFile struct {
	Path  string `json:"path"`
	Hash  string `json:"hash"`
	State string `json:"state"`
	Extra struct {
		ID string `json:"id"`
	} `json:"_additional"`
}

// File record states.
const (
	stateLive    = "live"
	stateDeleted = "deleted" // a tombstone: its chunks are being removed
)

// Push brings a repository's tenant up to date with a local index: files
// whose content hash differs are written (chunks first, then the record
// flipped, then the old chunks deleted), files gone from the index are
// removed, and leftovers of an interrupted push are cleaned up.
func (c *Client) Push(ctx context.Context, repo string, src Source, opt PushOptions) (PushSummary, error) {
	start := time.Now()
	var sum PushSummary
	if err := c.EnsureSchema(ctx); err != nil {
		return sum, err
	}
	if err := c.EnsureTenant(ctx, repo); err != nil {
		return sum, err
	}
	local, err := src.AllFiles()
	if err != nil {
		return sum, fmt.Errorf("weaviate: push %s: %w", repo, err)
	}
	sum.Files = len(local)
	remote, err := c.fileRecords(ctx, repo)
	if err != nil {
		return sum, err
	}
	byPath := make(map[string]remoteFile, len(remote))
	for _, r := range remote {
		byPath[r.Path] = r
	}
	var todo []store.FileRecord
	for _, f := range local {
		if r, ok := byPath[f.Path]; ok && r.State == stateLive && r.Hash == f.ContentHash {
			sum.Unchanged++
			continue
		}
		todo = append(todo, f)
	}
	inLocal := make(map[string]bool, len(local))
	for _, f := range local {
		inLocal[f.Path] = true
	}
	for _, r := range remote {
		if inLocal[r.Path] {
			continue
		}
		if err := c.removeFile(ctx, repo, r.Path); err != nil {
			return sum, err
		}
		sum.Deleted++
	}
	total := len(todo)
	for i, f := range todo {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		n, sent, err := c.sendFile(ctx, repo, src, f, opt)
		if err != nil {
			return sum, err
		}
		if sent {
			sum.Sent++
			sum.Chunks += n
		} else {
			sum.Skipped++
		}
		if opt.Progress != nil {
			opt.Progress(i+1, total)
		}
	}
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// sendFile writes one file's new version: chunks under its content hash,
// then the record (the switch), then the removal of other versions'
// chunks. sent is false when the file on disk no longer has the indexed
// hash (it changed after the local sync).
func (c *Client) sendFile(ctx context.Context, repo string, src Source, f store.FileRecord, opt PushOptions) (int, bool, error) {
	text, err := opt.ReadFile(f.Path)
	if err != nil {
		return 0, false, nil // gone or unreadable since the sync: next time
	}
	h := sha256.Sum256(text)
	if hex.EncodeToString(h[:]) != f.ContentHash {
		return 0, false, nil
	}
	chunks, err := src.ChunksByFile(f.Path)
	if err != nil {
		return 0, false, fmt.Errorf("weaviate: push %s: %w", f.Path, err)
	}
	var vecs map[string][]float32
	if opt.Vectors != nil && len(chunks) > 0 {
		ids := make([]string, len(chunks))
		for i, ch := range chunks {
			ids[i] = ch.ID
		}
		if vecs, err = opt.Vectors(ids); err != nil {
			return 0, false, fmt.Errorf("weaviate: push %s: vectors: %w", f.Path, err)
		}
	}
	objs := make([]*models.Object, len(chunks))
	fts := store.PrepareFullText(chunks)
	for i := range chunks {
		objs[i] = chunkObject(repo, f, i, &chunks[i], fts[i], vecs[chunks[i].ID])
	}
	size := opt.BatchSize
	if size <= 0 {
		size = 200
	}
	for start := 0; start < len(objs); start += size {
		if err := c.batch(ctx, objs[start:min(start+size, len(objs))]); err != nil {
			return 0, false, fmt.Errorf("weaviate: push %s: %w", f.Path, err)
		}
	}
	if opt.AfterChunks != nil {
		opt.AfterChunks(f.Path)
	}
	rec, err := fileObject(repo, f, text, len(chunks), stateLive)
	if err != nil {
		return 0, false, err
	}
	if err := c.batch(ctx, []*models.Object{rec}); err != nil {
		return 0, false, fmt.Errorf("weaviate: push %s: record: %w", f.Path, err)
	}
	if err := c.deleteChunks(ctx, repo, f.Path, f.ContentHash); err != nil {
		return 0, false, err
	}
	return len(chunks), true, nil
}

// removeFile takes a file out: a tombstone first (readers drop its chunks
// at once), then its chunks, then the record. An interrupted removal is
// finished by the next push, which finds the tombstone.
func (c *Client) removeFile(ctx context.Context, repo, path string) error {
	tomb, err := fileObject(repo, store.FileRecord{Path: path}, nil, 0, stateDeleted)
	if err != nil {
		return err
	}
	if err := c.batch(ctx, []*models.Object{tomb}); err != nil {
		return fmt.Errorf("weaviate: remove %s: %w", path, err)
	}
	if err := c.deleteChunks(ctx, repo, path, ""); err != nil {
		return err
	}
	if err := c.wv.Data().Deleter().WithClassName(FileClass).WithTenant(repo).WithID(string(tomb.ID)).Do(ctx); err != nil {
		return fmt.Errorf("weaviate: remove %s: %w", path, classify(c.url, err))
	}
	return nil
}

// deleteChunks removes a file's chunks except those of version keep ("":
// all of them).
func (c *Client) deleteChunks(ctx context.Context, repo, path, keep string) error {
	where := filters.Where().WithPath([]string{"path"}).WithOperator(filters.Equal).WithValueText(path)
	if keep != "" {
		where = filters.Where().WithOperator(filters.And).WithOperands([]*filters.WhereBuilder{
			where,
			filters.Where().WithPath([]string{"fileHash"}).WithOperator(filters.NotEqual).WithValueText(keep),
		})
	}
	// A batch delete removes at most the server's QUERY_MAXIMUM_RESULTS
	// objects; repeat until none match.
	for range 100 {
		resp, err := c.wv.Batch().ObjectsBatchDeleter().WithClassName(ChunkClass).WithTenant(repo).
			WithWhere(where).WithOutput("minimal").Do(ctx)
		if err != nil {
			return fmt.Errorf("weaviate: delete chunks of %s: %w", path, classify(c.url, err))
		}
		if resp.Results == nil || resp.Results.Matches == 0 {
			return nil
		}
		if resp.Results.Failed > 0 {
			return fmt.Errorf("weaviate: delete chunks of %s: %d failed", path, resp.Results.Failed)
		}
	}
	return fmt.Errorf("weaviate: delete chunks of %s: still matching after 100 rounds", path)
}

// batch writes objects and fails on any object's error.
func (c *Client) batch(ctx context.Context, objs []*models.Object) error {
	resp, err := c.wv.Batch().ObjectsBatcher().WithObjects(objs...).Do(ctx)
	if err != nil {
		return classify(c.url, err)
	}
	for _, r := range resp {
		if r.Result != nil && r.Result.Errors != nil && len(r.Result.Errors.Error) > 0 {
			return fmt.Errorf("weaviate: write %s: %s", r.ID, r.Result.Errors.Error[0].Message)
		}
	}
	return nil
}

// objectID is a deterministic UUID (version 5 layout) for the parts, so
// writing the same version twice replaces rather than duplicates.
func objectID(parts ...string) strfmt.UUID {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	b := h[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	x := hex.EncodeToString(b)
	return strfmt.UUID(x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32])
}

func chunkObject(repo string, f store.FileRecord, seq int, ch *chunk.Chunk, ft store.FullText, vec []float32) *models.Object {
	list := func(xs []string) []string {
		if xs == nil {
			return []string{}
		}
		return xs
	}
	o := &models.Object{
		Class:  ChunkClass,
		Tenant: repo,
		ID:     objectID("chunk", f.Path, f.ContentHash, ch.ID, strconv.Itoa(seq)),
		Properties: map[string]any{
			"chunkId": ch.ID, "path": f.Path, "language": f.Language, "fileHash": f.ContentHash,
			"nodeKind": ch.NodeKind, "name": ch.Name, "parentName": ch.ParentName, "parentChunkId": ch.ParentChunkID,
			"childChunkIds": list(ch.ChildChunkIDs), "depth": ch.Depth, "seq": seq,
			"signature": ch.Signature, "fullSource": ch.FullSource, "jsdoc": ch.JSDoc,
			"embeddingText": ch.EmbeddingText, "breadcrumb": ch.Breadcrumb,
			"startLine": ch.StartLine, "endLine": ch.EndLine,
			"relevantImports": list(ch.RelevantImports), "modifiers": list(ch.Modifiers), "exported": ch.Exported,
			// The full-text columns, split and stemmed as for SQLite
			// (body, always empty there, is left out).
			"fName": ft[0], "fBreadcrumb": ft[1], "fSignature": ft[2], "fJsdoc": ft[3], "fIdents": ft[5],
		},
	}
	if len(vec) > 0 {
		o.Vector = models.C11yVector(vec)
	}
	return o
}

func fileObject(repo string, f store.FileRecord, text []byte, chunks int, state string) (*models.Object, error) {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	if _, err := w.Write(text); err != nil {
		return nil, fmt.Errorf("weaviate: compress %s: %w", f.Path, err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("weaviate: compress %s: %w", f.Path, err)
	}
	return &models.Object{
		Class:  FileClass,
		Tenant: repo,
		ID:     objectID("file", f.Path),
		Properties: map[string]any{
			"path": f.Path, "hash": f.ContentHash, "state": state, "language": f.Language,
			"mtime": strconv.FormatInt(f.Mtime, 10), "size": f.Size, "chunks": chunks,
			"text": base64.StdEncoding.EncodeToString(z.Bytes()),
		},
	}, nil
}

func decompress(b64 string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "", err
	}
	r, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(r)
	return string(out), err
}

// fileRecords lists a tenant's file records (path, hash, state), paging
// with the cursor API.
func (c *Client) fileRecords(ctx context.Context, repo string) ([]remoteFile, error) {
	var out []remoteFile
	after := ""
	for {
		q := fmt.Sprintf(`{Get{%s(tenant:%s,limit:1000%s){path hash state _additional{id}}}}`, FileClass, quote(repo), afterArg(after))
		var resp struct {
			Get map[string][]remoteFile `json:"Get"`
		}
		if err := c.gql(ctx, q, &resp); err != nil {
			return nil, fmt.Errorf("weaviate: files of %s: %w", repo, err)
		}
		page := resp.Get[FileClass]
		out = append(out, page...)
		if len(page) < 1000 {
			return out, nil
		}
		after = page[len(page)-1].Extra.ID
	}
}

func afterArg(after string) string {
	if after == "" {
		return ""
	}
	return ",after:" + quote(after)
}
