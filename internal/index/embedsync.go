package index

import (
	"context"
	"fmt"
	"time"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/store"
)

// EmbedOptions tune EmbedPending.
type EmbedOptions struct {
	// Batch is the number of chunks read, embedded and stored together
	// (one store transaction each); 0 means 256. Providers split it
	// further to their own limits.
	Batch int
	// Progress is called with chunks done of total.
	Progress func(done, total int)
	// OnStored receives each batch of vectors once stored, to update an
	// in-memory vector index without reloading it.
	OnStored func([]store.Vector)
}

// EmbedSummary counts what EmbedPending did.
type EmbedSummary struct {
	Model    string
	Pending  int // chunks that needed a vector when the run started
	Embedded int // vectors stored
	Skipped  int // chunks replaced while being embedded (left marked)
	Duration time.Duration
}

func (s EmbedSummary) String() string {
	out := fmt.Sprintf("embedded %d of %d chunks with %s", s.Embedded, s.Pending, s.Model)
	if s.Skipped > 0 {
		out += fmt.Sprintf(" (%d changed meanwhile, left for the next run)", s.Skipped)
	}
	return out + fmt.Sprintf(" in %s", s.Duration.Round(time.Millisecond))
}

// EmbedPending gives every chunk that needs one a vector under emb's model:
// chunks new since the last run, chunks the signature cascade marked, and
// chunks with no vector under this model (after switching embedders). Wrap
// emb with embed.WithCache so that unchanged text is never embedded twice.
// Work done before an error or cancellation is kept: each batch is stored
// and unmarked in its own transaction.
func EmbedPending(ctx context.Context, st *store.Store, emb embed.Embedder, opt EmbedOptions) (sum EmbedSummary, err error) {
	start := time.Now()
	model := emb.ModelID()
	sum.Model = model
	// Every return, an error's included, says how long the run took.
	defer func() { sum.Duration = time.Since(start) }()
	total, err := st.CountPendingEmbeddings(model)
	if err != nil {
		return sum, fmt.Errorf("index: embed: %w", err)
	}
	sum.Pending = total
	batch := opt.Batch
	if batch <= 0 {
		batch = 256
	}
	done := 0
	if opt.Progress != nil {
		opt.Progress(0, total)
	}
	// One goroutine reads and embeds the next batch while this one stores
	// the last: with the built-in model, storing takes about as long as
	// reading and embedding together, so the two halves overlap. Pages
	// follow seq, so a page read ahead is not touched by the batch being
	// stored.
	ctx, cancel := context.WithCancel(ctx)
	batches := make(chan embeddedBatch, 1)
	go embedAhead(ctx, st, emb, model, batch, batches)
	defer func() {
		cancel()
		for range batches { // wait for the reader: the store may be closed next
		}
	}()
	for b := range batches {
		if b.err != nil {
			return sum, b.err
		}
		ev := make([]store.EmbeddedVector, len(b.page))
		for i, p := range b.page {
			ev[i] = store.EmbeddedVector{Seq: p.Seq, ID: p.ID, Data: b.vecs[i]}
		}
		stored, err := st.StoreEmbeddings(model, ev)
		if err != nil {
			return sum, fmt.Errorf("index: embed: %w", err)
		}
		sum.Embedded += len(stored)
		sum.Skipped += len(b.page) - len(stored)
		if opt.OnStored != nil && len(stored) > 0 {
			opt.OnStored(stored)
		}
		done += len(b.page)
		if opt.Progress != nil {
			opt.Progress(min(done, total), total)
		}
	}
	// The reader drops what it would send once ctx is done, so a
	// cancelled run can end the channel without an error of its own.
	if err := ctx.Err(); err != nil {
		return sum, fmt.Errorf("index: embed: %w", err)
	}
	return sum, nil
}

// embeddedBatch is one page of pending chunks with their vectors, or the
// error that ended the reading.
type embeddedBatch struct {
	page []store.EmbedInput
	vecs [][]float32
	err  error
}

// embedAhead reads the pending chunks page by page, embeds each page and
// sends it on out, which it closes when there is nothing left, after an
// error (sent first) or when ctx is done (whose error EmbedPending reports).
func embedAhead(ctx context.Context, st *store.Store, emb embed.Embedder, model string, batch int, out chan<- embeddedBatch) {
	defer close(out)
	send := func(b embeddedBatch) bool {
		select {
		case out <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	var after int64
	for {
		if ctx.Err() != nil {
			return // EmbedPending reports the context's error
		}
		page, err := st.PendingEmbeddings(model, after, batch)
		if err != nil {
			send(embeddedBatch{err: fmt.Errorf("index: embed: %w", err)})
			return
		}
		if len(page) == 0 {
			return
		}
		after = page[len(page)-1].Seq
		texts := make([]string, len(page))
		for i, p := range page {
			texts[i] = p.Text
		}
		vs, err := emb.EmbedDocuments(ctx, texts)
		if err != nil {
			send(embeddedBatch{err: fmt.Errorf("index: embed %d chunks with %s: %w", len(texts), model, err)})
			return
		}
		if len(vs) != len(page) {
			send(embeddedBatch{err: fmt.Errorf("index: embed: %s returned %d vectors for %d texts", model, len(vs), len(page))})
			return
		}
		if !send(embeddedBatch{page: page, vecs: vs}) {
			return
		}
	}
}
