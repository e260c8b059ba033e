// Package embed turns chunk and query text into vectors. Providers: scry's
// own compiled-in model (builtin, package builtin), a local ONNX model
// directory, any OpenAI-compatible /v1/embeddings endpoint, and Voyage AI.
// Every provider returns L2-normalised float32 vectors, so that cosine
// similarity is a dot product in package vector.
//
// With no provider configured, DefaultProvider applies; "none" always
// turns embedding off, and scry is then a lexical and structural engine.
package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/scry-dev/scry/internal/tokens"
)

// InputType says what a text is: models trained for retrieval embed queries
// and documents differently (a prefix, or a provider's input_type).
type InputType int

const (
	Document InputType = iota
	Query
)

func (t InputType) String() string {
	if t == Query {
		return "query"
	}
	return "document"
}

// Embedder turns text into unit vectors of one fixed dimension.
type Embedder interface {
	// ModelID identifies the vector space: provider, model, dimension
	// (and for local models a fingerprint of the weights). Vectors and
	// cache entries are keyed by it, so two spaces never mix.
	ModelID() string
	Dim() int
	// EmbedDocuments embeds texts as documents, one vector per text in
	// order.
	EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error)
	// EmbedQuery embeds one search query.
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
	Close() error
}

// Providers.
const (
	ProviderNone = "none"
	ProviderONNX = "onnx"
	// ProviderBuiltin is declared in builtin.go.
	ProviderOpenAI = "openai"
	ProviderVoyage = "voyage"
)

// Config selects and tunes a provider. Keys come only from the environment
// (see KeyFromEnv); nothing here is read from a file.
type Config struct {
	Provider string // "" (DefaultProvider), none, builtin, onnx, openai, voyage
	URL      string // base URL of the API, up to and including /v1
	Model    string
	Dir      string // onnx: the model directory
	Key      string
	// Dimensions asks the provider for vectors of this size (OpenAI
	// text-embedding-3 "dimensions", Voyage "output_dimension"); 0 means
	// the model's default.
	Dimensions int
	// BatchSize is the most texts per request or per ONNX run; 0 means the
	// provider's default.
	BatchSize int
	// MaxTokens is the longest input in tokens; longer inputs are cut. 0
	// means the provider's default (onnx: the model's maximum).
	MaxTokens int
	// Threads for ONNX Runtime's intra-op pool; 0 means one per core.
	Threads int
	// ONNXRuntimeLib is the libonnxruntime shared library; "" looks in
	// SCRY_ONNXRUNTIME_LIB and then scry's cache directory.
	ONNXRuntimeLib string
	// Timeout bounds one HTTP request; 0 means 2 minutes.
	Timeout time.Duration
	// HTTPClient overrides the HTTP client (tests).
	HTTPClient *http.Client
	// Retry tunes retries (tests shorten the waits).
	Retry RetryPolicy
}

// RetryPolicy tunes retries of hosted providers; zero fields take the
// defaults of package httpapi.
type RetryPolicy struct {
	Attempts  int
	BaseDelay time.Duration
	MaxDelay  time.Duration
	Sleep     func(ctx context.Context, d time.Duration) error
}

// Environment variables holding API keys. Keys are never read from a
// config file, flag or the index.
const (
	EnvEmbedKey  = "SCRY_EMBED_KEY"
	EnvOpenAIKey = "OPENAI_API_KEY"
	EnvVoyageKey = "VOYAGE_API_KEY"
)

// KeyFromEnv returns the API key for a provider: SCRY_EMBED_KEY first (it
// names scry's own choice, e.g. for a local server), then the provider's
// conventional variable.
func KeyFromEnv(provider string, getenv func(string) string) string {
	if k := getenv(EnvEmbedKey); k != "" {
		return k
	}
	switch provider {
	case ProviderOpenAI:
		return getenv(EnvOpenAIKey)
	case ProviderVoyage:
		return getenv(EnvVoyageKey)
	}
	return ""
}

// ErrNone is returned by New for the "none" provider: no embedder.
var ErrNone = errors.New("embed: no embedder configured")

// New opens the configured embedder (DefaultProvider when none is named);
// ErrNone when the provider is none.
func New(ctx context.Context, cfg Config) (Embedder, error) {
	p := strings.ToLower(strings.TrimSpace(cfg.Provider))
	if p == "" {
		p = DefaultProvider
	}
	switch p {
	case ProviderNone:
		return nil, ErrNone
	case ProviderBuiltin:
		return NewBuiltin()
	case ProviderONNX:
		return NewONNX(cfg)
	case ProviderOpenAI:
		return NewOpenAI(ctx, cfg)
	case ProviderVoyage:
		return NewVoyage(ctx, cfg)
	}
	return nil, fmt.Errorf("embed: unknown provider %q (want none, builtin, onnx, openai or voyage)", cfg.Provider)
}

// Progress is called as documents are embedded: done of total.
type Progress func(done, total int)

// Documents embeds texts in groups of batch (0: 64), reporting progress
// after each group; it is how the indexer embeds many chunks.
func Documents(ctx context.Context, e Embedder, texts []string, batch int, progress Progress) ([][]float32, error) {
	if batch <= 0 {
		batch = 64
	}
	out := make([][]float32, 0, len(texts))
	if progress != nil {
		progress(0, len(texts))
	}
	for lo := 0; lo < len(texts); lo += batch {
		hi := min(lo+batch, len(texts))
		vs, err := e.EmbedDocuments(ctx, texts[lo:hi])
		if err != nil {
			return out, err
		}
		out = append(out, vs...)
		if progress != nil {
			progress(len(out), len(texts))
		}
	}
	return out, nil
}

// normalize scales v to unit length in place and rejects vectors holding
// NaN or Inf: storing one would poison every later search. A zero vector
// (some servers answer whitespace with one) stays zero: it matches nothing.
func normalize(v []float32) error {
	var s float64
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return errors.New("vector holds NaN or Inf")
		}
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return nil
	}
	inv := 1 / math.Sqrt(s)
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
	return nil
}

// batches splits n texts into consecutive groups of at most maxItems texts
// and at most maxTokens estimated tokens (a text over the token budget on
// its own still forms a group of one).
func batches(texts []string, maxItems, maxTokens int, estimate func(string) int) [][2]int {
	var out [][2]int
	lo, tok := 0, 0
	for i, t := range texts {
		n := estimate(t)
		if i > lo && (i-lo >= maxItems || (maxTokens > 0 && tok+n > maxTokens)) {
			out = append(out, [2]int{lo, i})
			lo, tok = i, 0
		}
		tok += n
	}
	if lo < len(texts) {
		out = append(out, [2]int{lo, len(texts)})
	}
	return out
}

// estimateTokens over-estimates a text's model tokens cheaply: code runs
// about 3-4 characters per BPE token, so bytes/3 rarely undercounts.
func estimateTokens(s string) int { return len(s)/3 + 1 }

// truncateTokens cuts s so that it has at most max tokens by the o200k
// count, a stand-in for the provider's tokenizer with a 10% margin. Only
// long texts pay for a count.
func truncateTokens(s string, max int) string {
	if max <= 0 || len(s) <= max*2 {
		return s
	}
	limit := max * 9 / 10
	for i := 0; i < 4; i++ {
		n := tokens.Count(s)
		if n <= limit {
			return s
		}
		cut := int(float64(len(s)) * float64(limit) / float64(n) * 0.97)
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}
