package embed

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/embed/httpapi"
)

// DefaultOpenAIURL is used when no URL is configured for the openai provider.
const DefaultOpenAIURL = "https://api.openai.com/v1"

// OpenAI's documented limits: 2048 inputs and 300k tokens per request,
// 8192 tokens per input. Other servers speaking the same API (Ollama, vLLM,
// LM Studio, TEI) are usually stricter — TEI refuses more than 32 inputs by
// default — so those get a smaller batch unless configured.
const (
	openAIMaxItems       = 2048
	openAIDefaultBatch   = 256
	compatDefaultBatch   = 32
	openAIMaxBatchTokens = 300_000
	openAIMaxInputTokens = 8192
)

// knownDims spares a probe request for common models.
var knownDims = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
	"voyage-code-3":          1024,
	"voyage-3.5":             1024,
	"voyage-3.5-lite":        1024,
	"voyage-3-large":         1024,
}

// OpenAI embeds through an OpenAI-compatible /embeddings endpoint.
type OpenAI struct {
	c         *httpapi.Client
	model     string
	dims      int // requested dimensions (0: model default)
	dim       int
	batch     int
	maxTokens int
}

type openAIRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

type embeddingData struct {
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

type embeddingResponse struct {
	Data []embeddingData `json:"data"`
}

// NewOpenAI returns an embedder for cfg.URL (default OpenAI's) and
// cfg.Model. Unless the model's dimension is known or configured, one short
// request finds it, which also checks the URL and key.
func NewOpenAI(ctx context.Context, cfg Config) (*OpenAI, error) {
	url := cmp.Or(strings.TrimRight(cfg.URL, "/"), DefaultOpenAIURL)
	model := cfg.Model
	if model == "" {
		if url != DefaultOpenAIURL {
			return nil, fmt.Errorf("embed: openai provider at %s needs a model (--embed-model / SCRY_EMBED_MODEL)", url)
		}
		model = "text-embedding-3-small"
	}
	if url == DefaultOpenAIURL && cfg.Key == "" {
		return nil, fmt.Errorf("embed: openai: no API key (set %s or %s)", EnvEmbedKey, EnvOpenAIKey)
	}
	batch := cfg.BatchSize
	if batch <= 0 {
		batch = compatDefaultBatch
		if url == DefaultOpenAIURL {
			batch = openAIDefaultBatch
		}
	}
	batch = min(batch, openAIMaxItems)
	maxTok := cfg.MaxTokens
	if maxTok <= 0 {
		maxTok = openAIMaxInputTokens
	}
	e := &OpenAI{
		c:         newClient("openai", url, cfg),
		model:     model,
		dims:      cfg.Dimensions,
		batch:     batch,
		maxTokens: maxTok,
	}
	switch {
	case cfg.Dimensions > 0:
		e.dim = cfg.Dimensions
	case knownDims[model] > 0 && url == DefaultOpenAIURL:
		e.dim = knownDims[model]
	default:
		v, err := e.embed(ctx, []string{"dimension probe"})
		if err != nil {
			return nil, fmt.Errorf("embed: openai %s at %s: %w", model, url, err)
		}
		e.dim = len(v[0])
	}
	return e, nil
}

func newClient(provider, url string, cfg Config) *httpapi.Client {
	return NewHTTPClient(provider, url, cfg.Key, cfg.HTTPClient, cfg.Timeout, cfg.Retry)
}

// NewHTTPClient is the JSON client every hosted provider (embedders and
// rerankers) uses: one timeout, one retry policy, one error shape.
func NewHTTPClient(provider, url, key string, hc *http.Client, timeout time.Duration, retry RetryPolicy) *httpapi.Client {
	if hc == nil {
		if timeout <= 0 {
			timeout = httpapi.DefaultTimeout
		}
		hc = &http.Client{Timeout: timeout}
	}
	return &httpapi.Client{
		Provider:  provider,
		BaseURL:   url,
		Key:       key,
		HTTP:      hc,
		Attempts:  retry.Attempts,
		BaseDelay: retry.BaseDelay,
		MaxDelay:  retry.MaxDelay,
		Sleep:     retry.Sleep,
	}
}

// ModelID implements Embedder.
func (e *OpenAI) ModelID() string { return fmt.Sprintf("openai/%s@%d", e.model, e.dim) }

// Dim implements Embedder.
func (e *OpenAI) Dim() int { return e.dim }

// Close implements Embedder.
func (e *OpenAI) Close() error { return nil }

// EmbedDocuments implements Embedder.
func (e *OpenAI) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for _, b := range batches(texts, e.batch, openAIMaxBatchTokens, estimateTokens) {
		vs, err := e.embed(ctx, texts[b[0]:b[1]])
		if err != nil {
			return nil, fmt.Errorf("embed: openai %s: %w", e.model, err)
		}
		out = append(out, vs...)
	}
	return out, nil
}

// EmbedQuery implements Embedder. The OpenAI API has no input type: queries
// and documents are embedded alike.
func (e *OpenAI) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := e.embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("embed: openai %s: query: %w", e.model, err)
	}
	return vs[0], nil
}

// embed sends one request; a 413 (too large for the server) is answered by
// halving the batch.
func (e *OpenAI) embed(ctx context.Context, texts []string) ([][]float32, error) {
	in := make([]string, len(texts))
	for i, t := range texts {
		in[i] = inputText(t, e.maxTokens)
	}
	var resp embeddingResponse
	err := e.c.PostJSON(ctx, "/embeddings", openAIRequest{Model: e.model, Input: in, EncodingFormat: "float", Dimensions: e.dims}, &resp)
	var ae *httpapi.APIError
	if errors.As(err, &ae) && ae.Status == http.StatusRequestEntityTooLarge && len(texts) > 1 {
		half := len(texts) / 2
		a, err := e.embed(ctx, texts[:half])
		if err != nil {
			return nil, err
		}
		b, err := e.embed(ctx, texts[half:])
		if err != nil {
			return nil, err
		}
		return append(a, b...), nil
	}
	if err != nil {
		return nil, err
	}
	return collect(resp.Data, len(texts), e.dim)
}

// inputText prepares one input: APIs refuse empty strings, and inputs over
// the model's context are cut rather than refused.
func inputText(t string, maxTokens int) string {
	if strings.TrimSpace(t) == "" {
		return " "
	}
	return truncateTokens(t, maxTokens)
}

// collect orders a response's vectors by index, checks that every input got
// one of the expected dimension (dim 0: any, but all alike) and normalises
// them.
func collect(data []embeddingData, n, dim int) ([][]float32, error) {
	if len(data) != n {
		return nil, fmt.Errorf("response has %d embeddings for %d inputs", len(data), n)
	}
	out := make([][]float32, n)
	for _, d := range data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("response has a bad or repeated index %d", d.Index)
		}
		if dim == 0 {
			dim = len(d.Embedding)
		}
		if len(d.Embedding) != dim {
			return nil, fmt.Errorf("response has a vector of dimension %d, want %d", len(d.Embedding), dim)
		}
		if err := normalize(d.Embedding); err != nil {
			return nil, fmt.Errorf("input %d: %w", d.Index, err)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}
