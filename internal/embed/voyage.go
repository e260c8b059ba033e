package embed

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/scry-dev/scry/internal/embed/httpapi"
)

// DefaultVoyageURL and DefaultVoyageModel are used when not configured.
const (
	DefaultVoyageURL   = "https://api.voyageai.com/v1"
	DefaultVoyageModel = "voyage-code-3"
)

// Voyage's documented limits for /v1/embeddings: at most 1000 inputs per
// request, and a total token budget per request that depends on the model
// (120k for voyage-code-3 and voyage-3-large, 320k for voyage-3.5, 1M for
// voyage-3.5-lite). Inputs over the model's context are truncated by the
// server ("truncation": true).
const (
	voyageMaxItems     = 1000
	voyageDefaultBatch = 128
)

func voyageBatchTokens(model string) int {
	switch model {
	case "voyage-3.5-lite":
		return 1_000_000
	case "voyage-3.5":
		return 320_000
	}
	return 120_000
}

// voyageDims are the output_dimension values the code and 3.5 models
// accept.
var voyageDims = []int{256, 512, 1024, 2048}

// Voyage embeds with Voyage AI (voyage-code-3 by default), telling the API
// whether each text is a query or a document.
type Voyage struct {
	c     *httpapi.Client
	model string
	dims  int
	dim   int
	batch int
}

type voyageRequest struct {
	Input           []string `json:"input"`
	Model           string   `json:"model"`
	InputType       string   `json:"input_type"`
	OutputDimension int      `json:"output_dimension,omitempty"`
	OutputDtype     string   `json:"output_dtype"`
	Truncation      bool     `json:"truncation"`
}

// NewVoyage returns a Voyage embedder; the key comes from VOYAGE_API_KEY
// (or SCRY_EMBED_KEY).
func NewVoyage(ctx context.Context, cfg Config) (*Voyage, error) {
	if cfg.Key == "" {
		return nil, fmt.Errorf("embed: voyage: no API key (set %s or %s)", EnvVoyageKey, EnvEmbedKey)
	}
	url := cmp.Or(strings.TrimRight(cfg.URL, "/"), DefaultVoyageURL)
	model := cmp.Or(cfg.Model, DefaultVoyageModel)
	if cfg.Dimensions != 0 && !slices.Contains(voyageDims, cfg.Dimensions) {
		return nil, fmt.Errorf("embed: voyage: output dimension %d: want one of %v", cfg.Dimensions, voyageDims)
	}
	batch := cfg.BatchSize
	if batch <= 0 {
		batch = voyageDefaultBatch
	}
	e := &Voyage{c: newClient("voyage", url, cfg), model: model, dims: cfg.Dimensions, batch: min(batch, voyageMaxItems)}
	switch {
	case cfg.Dimensions > 0:
		e.dim = cfg.Dimensions
	case knownDims[model] > 0:
		e.dim = knownDims[model]
	default:
		v, err := e.embed(ctx, []string{"dimension probe"}, Query)
		if err != nil {
			return nil, fmt.Errorf("embed: voyage %s: %w", model, err)
		}
		e.dim = len(v[0])
	}
	return e, nil
}

// ModelID implements Embedder.
func (e *Voyage) ModelID() string { return fmt.Sprintf("voyage/%s@%d", e.model, e.dim) }

// Dim implements Embedder.
func (e *Voyage) Dim() int { return e.dim }

// Close implements Embedder.
func (e *Voyage) Close() error { return nil }

// EmbedDocuments implements Embedder.
func (e *Voyage) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for _, b := range batches(texts, e.batch, voyageBatchTokens(e.model), estimateTokens) {
		vs, err := e.embed(ctx, texts[b[0]:b[1]], Document)
		if err != nil {
			return nil, fmt.Errorf("embed: voyage %s: %w", e.model, err)
		}
		out = append(out, vs...)
	}
	return out, nil
}

// EmbedQuery implements Embedder.
func (e *Voyage) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := e.embed(ctx, []string{text}, Query)
	if err != nil {
		return nil, fmt.Errorf("embed: voyage %s: query: %w", e.model, err)
	}
	return vs[0], nil
}

func (e *Voyage) embed(ctx context.Context, texts []string, typ InputType) ([][]float32, error) {
	in := make([]string, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			t = " "
		}
		in[i] = t
	}
	var resp embeddingResponse
	req := voyageRequest{Input: in, Model: e.model, InputType: typ.String(), OutputDimension: e.dims, OutputDtype: "float", Truncation: true}
	if err := e.c.PostJSON(ctx, "/embeddings", req, &resp); err != nil {
		return nil, err
	}
	return collect(resp.Data, len(texts), e.dim)
}
