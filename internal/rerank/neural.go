package rerank

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/embed/httpapi"
)

// Providers accepted by New.
const (
	ProviderBuiltin = "builtin"
	ProviderNone    = "none"
	ProviderONNX    = "onnx"
	ProviderHTTP    = "http"
	ProviderVoyage  = "voyage"
)

// EnvRerankKey holds the key for the http provider (and, before
// VOYAGE_API_KEY, for voyage).
const EnvRerankKey = "SCRY_RERANK_KEY"

// Config selects and tunes a reranker. Keys come only from the
// environment (KeyFromEnv).
type Config struct {
	Provider string // builtin (or ""), none, onnx, http, voyage
	URL      string // http: the server's base URL (…/rerank is appended unless present)
	Model    string
	Dir      string // onnx: the cross-encoder's model directory
	Key      string
	// Format of the http request: "documents" (Cohere, Jina, vLLM,
	// llama.cpp) or "texts" (TEI); "" tries documents and switches to
	// texts if the server asks for them.
	Format string
	// Scores of the http provider: "auto" (default: kept when all are in
	// [0,1], else read as logits and passed through a sigmoid),
	// "probability" (kept, clamped) or "logit" (always a sigmoid).
	Scores string
	// BatchSize is the most documents per request or ONNX run; 0: the
	// provider's default.
	BatchSize int
	// MaxTokens bounds a (query, document) pair for onnx; 0: the model's.
	MaxTokens int
	Threads   int
	// ONNXRuntimeLib is the shared library; "" finds it.
	ONNXRuntimeLib string
	Timeout        time.Duration
	HTTPClient     *http.Client
	Retry          embed.RetryPolicy
}

func newClient(provider, url string, cfg Config) *httpapi.Client {
	return embed.NewHTTPClient(provider, url, cfg.Key, cfg.HTTPClient, cfg.Timeout, cfg.Retry)
}

// KeyFromEnv returns the key for a provider: SCRY_RERANK_KEY, else for
// voyage VOYAGE_API_KEY.
func KeyFromEnv(provider string, getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if k := getenv(EnvRerankKey); k != "" {
		return k
	}
	if provider == ProviderVoyage {
		return getenv("VOYAGE_API_KEY")
	}
	return ""
}

// New returns the configured reranker.
func New(ctx context.Context, cfg Config) (Reranker, error) {
	switch strings.ToLower(strings.TrimSpace(cfg.Provider)) {
	case "", ProviderBuiltin:
		return Builtin{}, nil
	case ProviderNone:
		return None{}, nil
	case ProviderONNX:
		return NewONNX(cfg)
	case ProviderHTTP:
		return NewHTTP(cfg)
	case ProviderVoyage:
		return NewVoyage(cfg)
	}
	return nil, fmt.Errorf("rerank: unknown provider %q (want builtin, none, onnx, http or voyage)", cfg.Provider)
}

// None is the "no reranker" choice: every score is 0, and the pipeline,
// seeing Name() == ProviderNone, ranks by the normalised first-stage score
// alone (see search.Pipeline).
type None struct{}

// Name implements Reranker.
func (None) Name() string { return ProviderNone }

// Rerank implements Reranker.
func (None) Rerank(_ context.Context, _ string, docs []Doc) ([]float64, error) {
	return make([]float64, len(docs)), nil
}

// Sigmoid maps a logit to (0,1). Cross-encoders output a relevance logit;
// the sigmoid is the probability the model was trained to predict, so a
// single threshold means the same across queries (min-max scaling per
// query would always give the best candidate 1, relevant or not).
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// DocText is what a neural reranker reads of a candidate: where it is (the
// breadcrumb: file > parent > name), its JSDoc when the text does not
// already hold it, and its embedding text (children collapsed), cut at
// maxBytes.
func DocText(d Doc, maxBytes int) string {
	var b strings.Builder
	if d.Breadcrumb != "" {
		b.WriteString(d.Breadcrumb)
		b.WriteByte('\n')
	} else if d.Path != "" {
		b.WriteString(d.Path)
		b.WriteByte('\n')
	}
	if d.JSDoc != "" && !strings.Contains(d.Text, d.JSDoc) {
		b.WriteString(d.JSDoc)
		b.WriteByte('\n')
	}
	text := d.Text
	if text == "" {
		text = d.Signature
	}
	b.WriteString(text)
	s := b.String()
	if maxBytes > 0 && len(s) > maxBytes {
		cut := maxBytes
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut]
	}
	return s
}
