package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/rerank"
)

// Embedding configures the embedder and the vector index. TOML table
// [embedding]; environment SCRY_EMBEDDER, SCRY_EMBED_*; flags --embedder,
// --embed-url, --embed-model, --embed-dir. API keys are never read from the
// file: SCRY_EMBED_KEY, else OPENAI_API_KEY or VOYAGE_API_KEY.
type Embedding struct {
	Provider   string `toml:"provider"` // "" (embed.DefaultProvider), none, builtin, onnx, openai, voyage
	URL        string `toml:"url"`
	Model      string `toml:"model"`
	Dir        string `toml:"dir"`        // onnx model directory
	Dimensions int    `toml:"dimensions"` // requested output size (openai dimensions, voyage output_dimension)
	BatchSize  int    `toml:"batchSize"`
	MaxTokens  int    `toml:"maxTokens"`
	Threads    int    `toml:"threads"` // ONNX Runtime intra-op threads
	// ONNXRuntimeLib is libonnxruntime; "" finds it (SCRY_ONNXRUNTIME_LIB,
	// then what `scry setup --onnx` unpacked). Shared with the reranker.
	ONNXRuntimeLib string `toml:"onnxRuntimeLib"`
	// QuantizeAbove: vector searches over more vectors than this use the
	// sign-bit scan with float32 re-scoring (0: 200000, -1: never).
	QuantizeAbove int `toml:"quantizeAbove"`
	// RRFK is reciprocal rank fusion's k (0: 60) for the fused first-stage
	// list (search.Pipeline.Retrieve, which the benchmarks report as a
	// baseline). Search itself joins vector neighbours to the lexical
	// candidates (search.Pipeline.Join) and does not use it.
	RRFK int `toml:"rrfK"`
}

// Reranking configures the reranker. TOML table [reranker]; environment
// SCRY_RERANKER, SCRY_RERANK_*; flags --reranker, --rerank-url,
// --rerank-model, --rerank-dir. Key: SCRY_RERANK_KEY (voyage also
// VOYAGE_API_KEY).
type Reranking struct {
	Provider  string `toml:"provider"` // builtin (default), none, onnx, http, voyage
	URL       string `toml:"url"`
	Model     string `toml:"model"`
	Dir       string `toml:"dir"`
	Format    string `toml:"format"` // http: documents, texts, or "" to detect
	Scores    string `toml:"scores"` // http: auto, probability, logit
	BatchSize int    `toml:"batchSize"`
	MaxTokens int    `toml:"maxTokens"`
	Threads   int    `toml:"threads"`
}

// ApplyEnv lays the SCRY_* embedding variables over e.
func (e *Embedding) ApplyEnv(getenv func(string) string) error {
	strs := map[string]*string{
		"SCRY_EMBEDDER":        &e.Provider,
		"SCRY_EMBED_URL":       &e.URL,
		"SCRY_EMBED_MODEL":     &e.Model,
		"SCRY_EMBED_DIR":       &e.Dir,
		"SCRY_ONNXRUNTIME_LIB": &e.ONNXRuntimeLib,
	}
	applyStrings(strs, getenv)
	ints := map[string]*int{
		"SCRY_EMBED_DIMENSIONS":      &e.Dimensions,
		"SCRY_EMBED_BATCH":           &e.BatchSize,
		"SCRY_EMBED_MAX_TOKENS":      &e.MaxTokens,
		"SCRY_EMBED_THREADS":         &e.Threads,
		"SCRY_VECTOR_QUANTIZE_ABOVE": &e.QuantizeAbove,
		"SCRY_RRF_K":                 &e.RRFK,
	}
	return applyInts(ints, getenv)
}

// ApplyEnv lays the SCRY_RERANK* variables over r.
func (r *Reranking) ApplyEnv(getenv func(string) string) error {
	strs := map[string]*string{
		"SCRY_RERANKER":      &r.Provider,
		"SCRY_RERANK_URL":    &r.URL,
		"SCRY_RERANK_MODEL":  &r.Model,
		"SCRY_RERANK_DIR":    &r.Dir,
		"SCRY_RERANK_FORMAT": &r.Format,
		"SCRY_RERANK_SCORES": &r.Scores,
	}
	applyStrings(strs, getenv)
	ints := map[string]*int{
		"SCRY_RERANK_BATCH":      &r.BatchSize,
		"SCRY_RERANK_MAX_TOKENS": &r.MaxTokens,
		"SCRY_RERANK_THREADS":    &r.Threads,
	}
	return applyInts(ints, getenv)
}

// applyInts lays each of vars that getenv sets over the integer setting it
// points at.
func applyInts(vars map[string]*int, getenv func(string) string) error {
	return applyVars(vars, getenv, strconv.Atoi, "an integer")
}

// applyStrings lays each of vars that getenv sets over the setting it
// points at.
func applyStrings(vars map[string]*string, getenv func(string) string) {
	_ = applyVars(vars, getenv, func(v string) (string, error) { return v, nil }, "")
}

// applyVars lays each of vars that getenv sets (not empty) over the
// setting it points at, read by parse; a value parse refuses is an error
// that names the variable and says what it must be (want: "an integer").
func applyVars[T any](vars map[string]*T, getenv func(string) string, parse func(string) (T, error), want string) error {
	for k, p := range vars {
		if v := getenv(k); v != "" {
			x, err := parse(v)
			if err != nil {
				return fmt.Errorf("config: %s=%q: not %s", k, v, want)
			}
			*p = x
		}
	}
	return nil
}

// Validate rejects settings that cannot work, before any model is loaded.
// Messages start with "embedding:" (the TOML table), so that Config.Validate
// can join them with its own.
func (e Embedding) Validate() error {
	var errs []error
	switch strings.ToLower(e.Provider) {
	case "", embed.ProviderNone, embed.ProviderBuiltin:
	case embed.ProviderONNX:
		if e.Dir == "" {
			errs = append(errs, errors.New("embedding: the onnx embedder needs a model directory (dir / SCRY_EMBED_DIR / --embed-dir)"))
		}
	case embed.ProviderOpenAI:
		if e.URL != "" && e.URL != embed.DefaultOpenAIURL && e.Model == "" {
			errs = append(errs, errors.New("embedding: the openai embedder at a custom URL needs a model (model / SCRY_EMBED_MODEL / --embed-model)"))
		}
	case embed.ProviderVoyage:
	default:
		errs = append(errs, fmt.Errorf("embedding: provider %q: want none, builtin, onnx, openai or voyage", e.Provider))
	}
	if e.Dimensions < 0 || e.BatchSize < 0 || e.MaxTokens < 0 || e.Threads < 0 || e.RRFK < 0 {
		errs = append(errs, errors.New("embedding: dimensions, batchSize, maxTokens, threads and rrfK must not be negative"))
	}
	if e.QuantizeAbove < -1 {
		errs = append(errs, fmt.Errorf("embedding: quantizeAbove %d: want -1 (never), 0 (default) or a size", e.QuantizeAbove))
	}
	return errors.Join(errs...)
}

// Validate rejects settings that cannot work.
func (r Reranking) Validate() error {
	var errs []error
	switch strings.ToLower(r.Provider) {
	case "", rerank.ProviderBuiltin, rerank.ProviderNone, rerank.ProviderVoyage:
	case rerank.ProviderONNX:
		if r.Dir == "" {
			errs = append(errs, errors.New("reranker: the onnx reranker needs a model directory (dir / SCRY_RERANK_DIR / --rerank-dir)"))
		}
	case rerank.ProviderHTTP:
		if r.URL == "" {
			errs = append(errs, errors.New("reranker: the http reranker needs a URL (url / SCRY_RERANK_URL / --rerank-url)"))
		}
	default:
		errs = append(errs, fmt.Errorf("reranker: provider %q: want builtin, none, onnx, http or voyage", r.Provider))
	}
	switch r.Format {
	case "", "documents", "texts":
	default:
		errs = append(errs, fmt.Errorf("reranker: format %q: want documents or texts", r.Format))
	}
	switch r.Scores {
	case "", "auto", "probability", "logit":
	default:
		errs = append(errs, fmt.Errorf("reranker: scores %q: want auto, probability or logit", r.Scores))
	}
	return errors.Join(errs...)
}

// EmbedConfig is the embedder's configuration, with its key from getenv;
// an unset provider becomes embed.DefaultProvider.
func (e Embedding) EmbedConfig(getenv func(string) string) embed.Config {
	p := strings.ToLower(e.Provider)
	if p == "" {
		p = embed.DefaultProvider
	}
	return embed.Config{
		Provider:       p,
		URL:            e.URL,
		Model:          e.Model,
		Dir:            e.Dir,
		Key:            embed.KeyFromEnv(p, getenv),
		Dimensions:     e.Dimensions,
		BatchSize:      e.BatchSize,
		MaxTokens:      e.MaxTokens,
		Threads:        e.Threads,
		ONNXRuntimeLib: e.ONNXRuntimeLib,
	}
}

// RerankConfig is the reranker's configuration, with its key from getenv;
// onnxLib is the shared ONNX Runtime library (Embedding.ONNXRuntimeLib).
func (r Reranking) RerankConfig(onnxLib string, getenv func(string) string) rerank.Config {
	p := strings.ToLower(r.Provider)
	return rerank.Config{
		Provider:       p,
		URL:            r.URL,
		Model:          r.Model,
		Dir:            r.Dir,
		Key:            rerank.KeyFromEnv(p, getenv),
		Format:         r.Format,
		Scores:         r.Scores,
		BatchSize:      r.BatchSize,
		MaxTokens:      r.MaxTokens,
		Threads:        r.Threads,
		ONNXRuntimeLib: onnxLib,
	}
}
