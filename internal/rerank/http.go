package rerank

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/scry-dev/scry/internal/embed/httpapi"
)

// HTTP reranks through a server speaking the /rerank shape that Text
// Embeddings Inference, vLLM, llama.cpp's server, Jina and Cohere share:
//
//	POST …/rerank {"query": q, "documents": [...], "top_n": n, "model": m}
//	   → {"results": [{"index": i, "relevance_score": s}, ...]}
//
// TEI differs in two places, both handled: it takes "texts" instead of
// "documents" (the request is retried with "texts" when the server says
// so, and remembered), and it answers with a bare array of
// {"index", "score"}.
type HTTP struct {
	c      *httpapi.Client
	path   string
	model  string
	batch  int
	scores string

	mu    sync.Mutex
	texts bool // send "texts" (TEI) instead of "documents"
}

// TEI refuses more than 32 texts per request unless started with a larger
// --max-client-batch-size; the other servers take hundreds.
const httpDefaultBatch = 32

// maxDocBytes bounds one document's text: rerankers read at most 512-8192
// tokens, and servers reject oversized payloads rather than truncate.
const maxDocBytes = 8000

// NewHTTP returns a reranker for cfg.URL.
func NewHTTP(cfg Config) (*HTTP, error) {
	if cfg.URL == "" {
		return nil, errors.New("rerank: http provider needs a URL (--rerank-url / SCRY_RERANK_URL)")
	}
	base, path := strings.TrimRight(cfg.URL, "/"), "/rerank"
	// Accept the full endpoint as well as the base URL.
	if strings.HasSuffix(base, "/rerank") {
		base, path = strings.TrimSuffix(base, "/rerank"), "/rerank"
	}
	switch cfg.Format {
	case "", "documents", "texts":
	default:
		return nil, fmt.Errorf("rerank: http format %q: want documents or texts", cfg.Format)
	}
	switch cfg.Scores {
	case "", "auto", "probability", "logit":
	default:
		return nil, fmt.Errorf("rerank: http scores %q: want auto, probability or logit", cfg.Scores)
	}
	batch := cfg.BatchSize
	if batch <= 0 {
		batch = httpDefaultBatch
	}
	return &HTTP{c: newClient("rerank", base, cfg), path: path, model: cfg.Model, batch: batch,
		scores: cfg.Scores, texts: cfg.Format == "texts"}, nil
}

// Name implements Reranker.
func (r *HTTP) Name() string {
	if r.model != "" {
		return "http:" + r.model
	}
	return "http"
}

type rerankResult struct {
	Index          int      `json:"index"`
	RelevanceScore *float64 `json:"relevance_score"`
	Score          *float64 `json:"score"`
}

// Rerank implements Reranker.
func (r *HTTP) Rerank(ctx context.Context, query string, docs []Doc) ([]float64, error) {
	out := make([]float64, len(docs))
	for lo := 0; lo < len(docs); lo += r.batch {
		hi := min(lo+r.batch, len(docs))
		texts := make([]string, hi-lo)
		for i := range texts {
			texts[i] = DocText(docs[lo+i], maxDocBytes)
		}
		raw, err := r.post(ctx, query, texts)
		if err != nil {
			return nil, fmt.Errorf("rerank: %w", err)
		}
		if err := r.fill(out[lo:hi], raw); err != nil {
			return nil, fmt.Errorf("rerank: %s%s: %w", r.c.BaseURL, r.path, err)
		}
	}
	return out, nil
}

func (r *HTTP) post(ctx context.Context, query string, texts []string) (json.RawMessage, error) {
	r.mu.Lock()
	useTexts := r.texts
	r.mu.Unlock()
	var raw json.RawMessage
	err := r.c.PostJSON(ctx, r.path, r.body(query, texts, useTexts), &raw)
	var ae *httpapi.APIError
	if !useTexts && errors.As(err, &ae) && (ae.Status == http.StatusUnprocessableEntity || ae.Status == http.StatusBadRequest) &&
		strings.Contains(ae.Message, "texts") {
		// TEI: "missing field `texts`". Switch for good.
		r.mu.Lock()
		r.texts = true
		r.mu.Unlock()
		raw = nil
		err = r.c.PostJSON(ctx, r.path, r.body(query, texts, true), &raw)
	}
	return raw, err
}

func (r *HTTP) body(query string, texts []string, useTexts bool) map[string]any {
	if useTexts {
		// TEI applies a sigmoid itself unless raw_scores is set.
		return map[string]any{"query": query, "texts": texts, "truncate": true, "raw_scores": false, "return_text": false}
	}
	b := map[string]any{"query": query, "documents": texts, "top_n": len(texts), "return_documents": false}
	if r.model != "" {
		b["model"] = r.model
	}
	return b
}

// fill reads either response shape into scores (one per document of the
// batch) and maps them to [0,1].
func (r *HTTP) fill(scores []float64, raw json.RawMessage) error {
	var results []rerankResult
	if err := json.Unmarshal(raw, &results); err != nil {
		var obj struct {
			Results []rerankResult `json:"results"`
			Data    []rerankResult `json:"data"`
		}
		if err := json.Unmarshal(raw, &obj); err != nil {
			return fmt.Errorf("unrecognised response: %w", err)
		}
		results = obj.Results
		if results == nil {
			results = obj.Data
		}
	}
	seen := make([]bool, len(scores))
	vals := make([]float64, len(scores))
	for _, res := range results {
		if res.Index < 0 || res.Index >= len(scores) || seen[res.Index] {
			return fmt.Errorf("bad or repeated index %d in response", res.Index)
		}
		var s *float64
		if res.RelevanceScore != nil {
			s = res.RelevanceScore
		} else {
			s = res.Score
		}
		if s == nil {
			return fmt.Errorf("result %d has no relevance_score or score", res.Index)
		}
		seen[res.Index] = true
		vals[res.Index] = *s
	}
	for i, ok := range seen {
		if !ok {
			return fmt.Errorf("response has no score for document %d of %d", i, len(scores))
		}
	}
	logits := r.scores == "logit"
	if r.scores == "" || r.scores == "auto" {
		for _, v := range vals {
			if v < 0 || v > 1 {
				logits = true
				break
			}
		}
	}
	for i, v := range vals {
		if logits {
			scores[i] = Sigmoid(v)
		} else {
			scores[i] = min(max(v, 0), 1)
		}
	}
	return nil
}
