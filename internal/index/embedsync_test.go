package index_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/testkit"
)

// hashEmbedder is a deterministic stand-in for a model: the vector is
// derived from the text's hash, and every text embedded is recorded.
type hashEmbedder struct {
	id string
	mu sync.Mutex
	in []string
}

func (h *hashEmbedder) ModelID() string { return h.id }
func (h *hashEmbedder) Dim() int        { return 8 }
func (h *hashEmbedder) Close() error    { return nil }
func (h *hashEmbedder) EmbedQuery(ctx context.Context, s string) ([]float32, error) {
	v, err := h.EmbedDocuments(ctx, []string{s})
	if err != nil {
		return nil, err
	}
	return v[0], nil
}
func (h *hashEmbedder) EmbedDocuments(_ context.Context, texts []string) ([][]float32, error) {
	h.mu.Lock()
	h.in = append(h.in, texts...)
	h.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		sum := sha256.Sum256([]byte(t))
		v := make([]float32, 8)
		for j := range v {
			v[j] = float32(sum[j]) - 127.5
		}
		out[i] = v
	}
	return out, nil
}

func (h *hashEmbedder) calls() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.in)
	h.in = nil
	return n
}

func TestEmbedPending(t *testing.T) {
	e := newEnv(t, fixture)
	e.sync(t)
	_, chunks, err := e.st.Stats()
	if err != nil {
		t.Fatal(err)
	}
	cache, err := embed.OpenCache(filepath.Join(t.TempDir(), embed.CacheFileName))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	model := &hashEmbedder{id: "hash/a@8"}
	emb := embed.WithCache(model, cache)
	ctx := context.Background()

	var progress [][2]int
	var stored int
	sum, err := index.EmbedPending(ctx, e.st, emb, index.EmbedOptions{Batch: 4,
		Progress: func(d, t int) { progress = append(progress, [2]int{d, t}) },
		OnStored: func(v []store.Vector) { stored += len(v) }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Pending != chunks || sum.Embedded != chunks || stored != chunks {
		t.Fatalf("first run: %+v (stored %d), want %d chunks", sum, stored, chunks)
	}
	if last := progress[len(progress)-1]; last != [2]int{chunks, chunks} || progress[0] != [2]int{0, chunks} {
		t.Fatalf("progress %v", progress)
	}
	if n, _ := e.st.VectorCount("hash/a@8"); n != chunks {
		t.Fatalf("%d vectors stored, want %d", n, chunks)
	}
	if marked, _ := e.st.NeedsEmbedding(); len(marked) != 0 {
		t.Fatalf("%d chunks still marked", len(marked))
	}
	embedded := model.calls()

	// Nothing changed: nothing to do.
	if sum, err := index.EmbedPending(ctx, e.st, emb, index.EmbedOptions{}); err != nil || sum.Pending != 0 {
		t.Fatalf("second run: %+v, %v", sum, err)
	}

	// A signature change: the file's chunks are new rows, the dependents
	// are marked by the cascade; all of them get vectors again, and the
	// cache spares the model every text it has seen.
	testkit.WriteTree(t, e.root, map[string]string{"src/auth/token.ts": `import { hmac } from '../crypto';

/** Validates a signed token against an audience. */
export function validateToken(token: string, audience: string): boolean {
  return hmac(token).length > 0 && audience !== '';
}
`})
	syncSum := e.sync(t)
	changed := len(e.chunkIDs(t, "src/auth/token.ts"))
	sum, err = index.EmbedPending(ctx, e.st, emb, index.EmbedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Pending != changed+syncSum.Reembed || sum.Embedded != sum.Pending {
		t.Fatalf("after edit: %+v, want %d changed + %d cascaded", sum, changed, syncSum.Reembed)
	}
	fresh := model.calls()
	if fresh == 0 || fresh >= sum.Pending {
		t.Fatalf("model embedded %d texts for %d pending (the import is unchanged and the cascade's texts are cached)", fresh, sum.Pending)
	}
	if n, _ := e.st.VectorCount("hash/a@8"); n != chunks {
		t.Fatalf("%d vectors after edit, want %d", n, chunks)
	}

	// Switching model: every chunk is pending under the new id, the old
	// vectors stay under the old one.
	other := &hashEmbedder{id: "hash/b@8"}
	sum, err = index.EmbedPending(ctx, e.st, embed.WithCache(other, cache), index.EmbedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Embedded != chunks || other.calls() != chunks {
		t.Fatalf("new model: %+v", sum)
	}
	models, _ := e.st.VectorModels()
	if models["hash/a@8"] != chunks || models["hash/b@8"] != chunks {
		t.Fatalf("vectors by model %v", models)
	}
	if embedded != chunks {
		t.Fatalf("first run embedded %d texts for %d chunks", embedded, chunks)
	}
}

// failingEmbedder embeds its first okBatches batches, then fails the next
// one: with an error of its own, or by cancelling the run's context (as a
// user's interrupt would) before failing with the context's error.
type failingEmbedder struct {
	hashEmbedder
	okBatches int
	cancel    context.CancelFunc // nil: fail with errModelDown
	batches   int
}

var errModelDown = errors.New("model server down")

func (f *failingEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	f.batches++
	if f.batches > f.okBatches {
		if f.cancel == nil {
			return nil, errModelDown
		}
		f.cancel()
		return nil, ctx.Err()
	}
	return f.hashEmbedder.EmbedDocuments(ctx, texts)
}

// A run that fails or is cancelled part way reports why, and keeps every
// batch stored before it: the next run embeds only the rest.
func TestEmbedPendingKeepsWorkBeforeAFailure(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cancel bool
		want   error
	}{
		{"embedder error", false, errModelDown},
		{"cancelled", true, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, fixture)
			e.sync(t)
			_, chunks, err := e.st.Stats()
			if err != nil {
				t.Fatal(err)
			}
			const batch = 2
			if chunks <= 2*batch {
				t.Fatalf("fixture has %d chunks; the test needs more than %d", chunks, 2*batch)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			emb := &failingEmbedder{hashEmbedder: hashEmbedder{id: "hash/f@8"}, okBatches: 2}
			if tc.cancel {
				emb.cancel = cancel
			}
			sum, err := index.EmbedPending(ctx, e.st, emb, index.EmbedOptions{Batch: batch})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if sum.Embedded != 2*batch {
				t.Errorf("%d chunks embedded before the failure, want %d", sum.Embedded, 2*batch)
			}
			if n, _ := e.st.VectorCount("hash/f@8"); n != 2*batch {
				t.Errorf("%d vectors stored, want the %d embedded before the failure", n, 2*batch)
			}
			rest, err := index.EmbedPending(context.Background(), e.st, &hashEmbedder{id: "hash/f@8"}, index.EmbedOptions{})
			if err != nil || rest.Pending != chunks-2*batch || rest.Embedded != chunks-2*batch {
				t.Errorf("next run: %+v, %v; want the other %d chunks", rest, err, chunks-2*batch)
			}
		})
	}
}

// editingEmbedder rewrites a file and re-syncs the index while it embeds
// its first batch, as a save during `scry index` would.
type editingEmbedder struct {
	hashEmbedder
	edit func()
	done bool
}

func (e *editingEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	if !e.done {
		e.done = true
		e.edit()
	}
	return e.hashEmbedder.EmbedDocuments(ctx, texts)
}

// Chunks replaced while their batch was being embedded get no vector from
// their old text: they are counted as skipped, and their replacements stay
// marked for the next run, which embeds them.
func TestEmbedPendingSkipsChunksReplacedMeanwhile(t *testing.T) {
	e := newEnv(t, fixture)
	e.sync(t)
	old := e.chunkIDs(t, "src/auth/token.ts")
	emb := &editingEmbedder{hashEmbedder: hashEmbedder{id: "hash/e@8"}, edit: func() {
		testkit.WriteTree(t, e.root, map[string]string{"src/auth/token.ts": `import { hmac } from '../crypto';

/** Checks a signed token for one audience. */
export function checkToken(token: string, audience: string): boolean {
  return hmac(token).length > 0 && audience !== '';
}
`})
		e.sync(t)
	}}
	sum, err := index.EmbedPending(context.Background(), e.st, emb, index.EmbedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != len(old) {
		t.Errorf("%d chunks skipped, want the %d of the rewritten file: %+v", sum.Skipped, len(old), sum)
	}
	if slices.Equal(e.chunkIDs(t, "src/auth/token.ts"), old) {
		t.Fatal("the rewrite left the file's chunks as they were: the test edits nothing")
	}
	if _, err := index.EmbedPending(context.Background(), e.st, emb, index.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	_, chunks, err := e.st.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := e.st.VectorCount("hash/e@8"); n != chunks {
		t.Errorf("%d vectors for %d chunks", n, chunks)
	}
	if marked, _ := e.st.NeedsEmbedding(); len(marked) != 0 {
		t.Errorf("%d chunks still marked", len(marked))
	}
}
