package weaviate

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-openapi/strfmt"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/fault"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/ident"
)

// Source is what Push reads: a repository's local index, already brought
// up to date (the local SQLite index is the parse cache the shared index
// is filled from).
type Source interface {
	AllFiles() ([]chunkindex.FileRecord, error)
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
	// VectorModel names the model of those vectors; it is stored with
	// each vector so a query is only compared with vectors of its own
	// model.
	VectorModel string
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
	Swept     int // chunk objects of no file's live version, left by an interrupted push, removed
	Elapsed   time.Duration
}

// remoteFile is a file record as the shared index has it.
type remoteFile struct {
	Path  string `json:"path"`
	Hash  string `json:"hash"`
	State string `json:"state"`
	// EmbedModel is the model of the vectors sent with the file's chunks
	// ("" for none).
	EmbedModel string `json:"embedModel"`
	Extra      struct {
		ID string `json:"id"`
	} `json:"_additional"`
}

// File record states.
const (
	stateLive    = "live"
	stateDeleted = "deleted" // a tombstone: its chunks are being removed
	// statePushing marks a push under way (one record with no path,
	// written first and removed last): found at the start of a push, it
	// says the last one was interrupted and may have left chunks that no
	// record will ever name (a new file killed before its record was
	// written and then deleted; a file killed mid-switch and then
	// restored to the version the record names), so this push sweeps them.
	statePushing = "pushing"
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
	remote, interrupted, err := c.fileRecordsAndMarker(ctx, repo)
	if err != nil {
		return sum, err
	}
	marker := &models.Object{Class: FileClass, Tenant: repo, ID: objectID("push"), Properties: map[string]any{"path": "", "state": statePushing}}
	if !interrupted {
		if err := c.batch(ctx, []*models.Object{marker}); err != nil {
			return sum, fmt.Errorf("weaviate: push %s: %w", repo, err)
		}
	}
	byPath := make(map[string]remoteFile, len(remote))
	for _, r := range remote {
		byPath[r.Path] = r
	}
	var todo []chunkindex.FileRecord
	for _, f := range local {
		// A file is sent again when its vectors are of another model
		// than the one configured now (or it has none and one is).
		if r, ok := byPath[f.Path]; ok && r.State == stateLive && r.Hash == f.ContentHash && (opt.Vectors == nil || r.EmbedModel == opt.VectorModel) {
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
	if interrupted {
		if sum.Swept, err = c.sweep(ctx, repo); err != nil {
			return sum, err
		}
	}
	if err := c.deleteObject(ctx, repo, FileClass, marker.ID); err != nil {
		return sum, fmt.Errorf("weaviate: push %s: %w", repo, err)
	}
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// sweep removes the chunks of no file's live version: it groups the
// tenant's chunks by version (content hash) on the server and deletes the
// groups no live record names. (A version shared by two files with the
// same content is kept while either is live.)
func (c *Client) sweep(ctx context.Context, repo string) (int, error) {
	recs, err := c.fileRecords(ctx, repo)
	if err != nil {
		return 0, err
	}
	live := make(map[string]bool, len(recs))
	for _, r := range recs {
		if r.State == stateLive {
			live[r.Hash] = true
		}
	}
	// Versions are at most the live ones plus the leftovers; ask for
	// more groups until fewer come back.
	limit := len(live) + 1000
	var stale []string
	swept := 0
	for {
		q := fmt.Sprintf(`{Aggregate{%s(tenant:%s,groupBy:["fileHash"],limit:%d){groupedBy{value} meta{count}}}}`, ChunkClass, quote(repo), limit)
		var resp groupedCounts
		if err := c.gql(ctx, q, &resp); err != nil {
			return 0, fmt.Errorf("weaviate: sweep %s: %w", repo, err)
		}
		groups := resp.Aggregate[ChunkClass]
		if len(groups) >= limit {
			limit *= 4
			continue
		}
		for _, g := range groups {
			if !live[g.GroupedBy.Value] {
				stale = append(stale, g.GroupedBy.Value)
				swept += g.Meta.Count
			}
		}
		break
	}
	for start := 0; start < len(stale); start += 100 {
		part := stale[start:min(start+100, len(stale))]
		where := filters.Where().WithPath([]string{"fileHash"}).WithOperator(filters.ContainsAny).WithValueText(part...)
		if err := c.deleteWhere(ctx, repo, where); err != nil {
			return 0, fmt.Errorf("weaviate: sweep %s: %w", repo, err)
		}
	}
	return swept, nil
}

// deleteObject removes one object by id (already gone is fine).
func (c *Client) deleteObject(ctx context.Context, repo, class string, id strfmt.UUID) error {
	return retry(ctx, func() error {
		err := c.wv.Data().Deleter().WithClassName(class).WithTenant(repo).WithID(string(id)).WithConsistencyLevel(writeConsistency).Do(ctx)
		var ce *fault.WeaviateClientError
		if errors.As(err, &ce) && ce.StatusCode == http.StatusNotFound {
			return nil // a repeated try after a deletion that did happen
		}
		if err != nil {
			return classify(c.url, err)
		}
		return nil
	})
}

// sendFile writes one file's new version: chunks under its content hash,
// then the record (the switch), then the removal of other versions'
// chunks. sent is false when the file on disk no longer has the indexed
// hash (it changed after the local sync).
func (c *Client) sendFile(ctx context.Context, repo string, src Source, f chunkindex.FileRecord, opt PushOptions) (int, bool, error) {
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
	fts := chunkindex.PrepareFullText(chunks)
	for i := range chunks {
		objs[i] = chunkObject(repo, f, i, &chunks[i], fts[i], vecs[chunks[i].ID], opt.VectorModel)
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
	// The record names the vectors' model once every chunk has its
	// vector; until then the next push sends the file again.
	model := ""
	if opt.Vectors != nil {
		model = opt.VectorModel
		for i := range chunks {
			if len(vecs[chunks[i].ID]) == 0 {
				model = ""
			}
		}
	}
	rec, err := fileObject(repo, f, text, len(chunks), stateLive, model)
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
	tomb, err := fileObject(repo, chunkindex.FileRecord{Path: path}, nil, 0, stateDeleted, "")
	if err != nil {
		return err
	}
	if err := c.batch(ctx, []*models.Object{tomb}); err != nil {
		return fmt.Errorf("weaviate: remove %s: %w", path, err)
	}
	if err := c.deleteChunks(ctx, repo, path, ""); err != nil {
		return err
	}
	if err := c.deleteObject(ctx, repo, FileClass, tomb.ID); err != nil {
		return fmt.Errorf("weaviate: remove %s: %w", path, err)
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
	if err := c.deleteWhere(ctx, repo, where); err != nil {
		return fmt.Errorf("weaviate: delete chunks of %s: %w", path, err)
	}
	return nil
}

// deleteWhere removes the chunks a filter matches.
func (c *Client) deleteWhere(ctx context.Context, repo string, where *filters.WhereBuilder) error {
	// A batch delete removes at most the server's QUERY_MAXIMUM_RESULTS
	// objects; repeat until none match.
	for range 100 {
		matched := 0
		err := retry(ctx, func() error {
			resp, err := c.wv.Batch().ObjectsBatchDeleter().WithClassName(ChunkClass).WithTenant(repo).
				WithWhere(where).WithOutput("minimal").WithConsistencyLevel(writeConsistency).Do(ctx)
			if err != nil {
				return classify(c.url, err)
			}
			if resp.Results == nil {
				return nil
			}
			if resp.Results.Failed > 0 {
				return fmt.Errorf("%d of %d failed", resp.Results.Failed, resp.Results.Matches)
			}
			matched = int(resp.Results.Matches)
			return nil
		})
		if err != nil {
			return err
		}
		if matched == 0 {
			return nil
		}
	}
	return fmt.Errorf("still matching after 100 rounds")
}

// batch writes objects and fails on any object's error.
func (c *Client) batch(ctx context.Context, objs []*models.Object) error {
	return retry(ctx, func() error { return c.batchOnce(ctx, objs) })
}

func (c *Client) batchOnce(ctx context.Context, objs []*models.Object) error {
	resp, err := c.wv.Batch().ObjectsBatcher().WithObjects(objs...).WithConsistencyLevel(writeConsistency).Do(ctx)
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

func chunkObject(repo string, f chunkindex.FileRecord, seq int, ch *chunk.Chunk, ft chunkindex.FullText, vec []float32, model string) *models.Object {
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
	if a := ident.Assigned(ch.Name); a != "" {
		o.Properties.(map[string]any)["assignedName"] = a
	}
	if len(vec) > 0 {
		o.Vector = models.C11yVector(vec)
		o.Properties.(map[string]any)["embedModel"] = model
	}
	return o
}

func fileObject(repo string, f chunkindex.FileRecord, text []byte, chunks int, state, model string) (*models.Object, error) {
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
			"mtime": strconv.FormatInt(f.Mtime, 10), "size": f.Size, "chunks": chunks, "embedModel": model,
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
	recs, _, err := c.fileRecordsAndMarker(ctx, repo)
	return recs, err
}

// fileRecordsAndMarker lists the file records and says whether a push's
// marker is among them (a push under way, or one that was interrupted).
func (c *Client) fileRecordsAndMarker(ctx context.Context, repo string) ([]remoteFile, bool, error) {
	var out []remoteFile
	marker := false
	level, err := c.readLevel(ctx)
	if err != nil {
		return nil, false, err
	}
	after := ""
	for {
		q := fmt.Sprintf(`{Get{%s(tenant:%s,limit:1000%s%s){path hash state embedModel _additional{id}}}}`, FileClass, quote(repo), level, afterArg(after))
		var resp struct {
			Get map[string][]remoteFile `json:"Get"`
		}
		if err := c.gql(ctx, q, &resp); err != nil {
			return nil, false, fmt.Errorf("weaviate: files of %s: %w", repo, err)
		}
		page := resp.Get[FileClass]
		for _, r := range page {
			if r.State == statePushing {
				marker = true
				continue
			}
			out = append(out, r)
		}
		if len(page) < 1000 {
			return out, marker, nil
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
