package rerank

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// DefaultVoyageURL and DefaultVoyageModel apply when not configured.
const (
	DefaultVoyageURL   = "https://api.voyageai.com/v1"
	DefaultVoyageModel = "rerank-2.5"
)

// Voyage's /v1/rerank takes at most 1000 documents per request; scores are
// relevance probabilities in [0,1].
const voyageMaxDocs = 1000

// Voyage reranks with Voyage AI (rerank-2.5 by default).
type Voyage struct {
	h *HTTP
}

// NewVoyage returns a Voyage reranker; the key comes from SCRY_RERANK_KEY
// or VOYAGE_API_KEY.
func NewVoyage(cfg Config) (*Voyage, error) {
	if cfg.Key == "" {
		return nil, errors.New("rerank: voyage: no API key (set VOYAGE_API_KEY or " + EnvRerankKey + ")")
	}
	url := cmp.Or(strings.TrimRight(cfg.URL, "/"), DefaultVoyageURL)
	model := cmp.Or(cfg.Model, DefaultVoyageModel)
	batch := cfg.BatchSize
	if batch <= 0 || batch > voyageMaxDocs {
		batch = voyageMaxDocs
	}
	return &Voyage{h: &HTTP{c: newClient("voyage", url, cfg), path: "/rerank", model: model, batch: batch, scores: "probability"}}, nil
}

// Name implements Reranker.
func (v *Voyage) Name() string { return "voyage:" + v.h.model }

// Rerank implements Reranker. Voyage's request differs from the common
// shape only in naming top_n "top_k"; its response is {"data": [{"index",
// "relevance_score"}]}.
func (v *Voyage) Rerank(ctx context.Context, query string, docs []Doc) ([]float64, error) {
	out := make([]float64, len(docs))
	for lo := 0; lo < len(docs); lo += v.h.batch {
		hi := min(lo+v.h.batch, len(docs))
		texts := make([]string, hi-lo)
		for i := range texts {
			texts[i] = DocText(docs[lo+i], maxDocBytes)
		}
		req := map[string]any{"query": query, "documents": texts, "model": v.h.model, "top_k": len(texts),
			"return_documents": false, "truncation": true}
		var raw json.RawMessage
		if err := v.h.c.PostJSON(ctx, "/rerank", req, &raw); err != nil {
			return nil, fmt.Errorf("rerank: %w", err)
		}
		if err := v.h.fill(out[lo:hi], raw); err != nil {
			return nil, fmt.Errorf("rerank: voyage: %w", err)
		}
	}
	return out, nil
}
