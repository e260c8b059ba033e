package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/embed/onnxrt"
	"github.com/scry-dev/scry/internal/rerank"
	"github.com/scry-dev/scry/internal/store"
)

// neuralFlags select the embedder and reranker; they override the config
// file and the environment. Keys are never flags: they come from the
// environment only.
type neuralFlags struct {
	embedder, embedURL, embedModel, embedDir string
	reranker, rerankURL, rerankModel         string
	rerankDir                                string
}

func (n *neuralFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&n.embedder, "embedder", "", "embedder: none, onnx, openai or voyage (env SCRY_EMBEDDER; default none)")
	f.StringVar(&n.embedURL, "embed-url", "", "embedding API base URL, up to /v1 (env SCRY_EMBED_URL; key from SCRY_EMBED_KEY, OPENAI_API_KEY or VOYAGE_API_KEY)")
	f.StringVar(&n.embedModel, "embed-model", "", "embedding model name (env SCRY_EMBED_MODEL)")
	f.StringVar(&n.embedDir, "embed-dir", "", "onnx embedder: model directory with model.onnx and tokenizer.json (env SCRY_EMBED_DIR)")
	f.StringVar(&n.reranker, "reranker", "", "reranker: builtin, none, onnx, http or voyage (env SCRY_RERANKER; default builtin)")
	f.StringVar(&n.rerankURL, "rerank-url", "", "http reranker: server URL serving /rerank (env SCRY_RERANK_URL; key from SCRY_RERANK_KEY)")
	f.StringVar(&n.rerankModel, "rerank-model", "", "reranker model name (env SCRY_RERANK_MODEL)")
	f.StringVar(&n.rerankDir, "rerank-dir", "", "onnx reranker: cross-encoder model directory (env SCRY_RERANK_DIR)")
}

// flagKeys maps the flags that name a provider, URL or directory to their
// config.Sensitive keys, so doctor-style reports can say a flag set them.
var flagKeys = map[string]string{
	"embedder": "embedding.provider", "embed-url": "embedding.url", "embed-dir": "embedding.dir",
	"reranker": "reranker.provider", "rerank-url": "reranker.url", "rerank-dir": "reranker.dir",
}

// layer lays the flags the user set over the configuration.
func (n *neuralFlags) layer(cmd *cobra.Command) func(*config.Config) error {
	return func(cfg *config.Config) error {
		f := cmd.Flags()
		set := func(name string, dst *string, v string) {
			if f.Changed(name) {
				*dst = v
			}
		}
		e, r := &cfg.Embedding, &cfg.Reranking
		set("embedder", &e.Provider, n.embedder)
		set("embed-url", &e.URL, n.embedURL)
		set("embed-model", &e.Model, n.embedModel)
		set("embed-dir", &e.Dir, n.embedDir)
		set("reranker", &r.Provider, n.reranker)
		set("rerank-url", &r.URL, n.rerankURL)
		set("rerank-model", &r.Model, n.rerankModel)
		set("rerank-dir", &r.Dir, n.rerankDir)
		for name, key := range flagKeys {
			if f.Changed(name) {
				cfg.Origin.SetSource(key, config.SourceFlag)
			}
		}
		return nil
	}
}

// setupONNX is `scry setup --onnx`: unpack libonnxruntime from npm's
// onnxruntime-node into the cache and check that it loads.
func setupONNX(ctx context.Context, cacheDir string, out io.Writer) error {
	fmt.Fprintf(out, "fetching onnxruntime-node@%s with npm pack (no install scripts run)\n", onnxrt.Version)
	path, err := onnxrt.Setup(ctx, cacheDir)
	if err != nil {
		return err
	}
	if err := onnxrt.Init(path); err != nil {
		return fmt.Errorf("unpacked %s but it does not load: %w", path, err)
	}
	fmt.Fprintf(out, "ONNX Runtime %s ready: %s\n", onnxrt.RuntimeVersion(), path)
	return nil
}

// doctorNeural prints the embedding and reranking lines of `scry doctor`.
// It opens the configured models, so a wrong URL, key or directory shows
// here rather than in the first search. Keys are reported as set or not,
// never printed.
func doctorNeural(ctx context.Context, out io.Writer, st *store.Store, e config.Embedding, r config.Reranking) {
	lib, err := onnxrt.FindLibrary(e.ONNXRuntimeLib, "")
	switch {
	case err == nil:
		if ierr := onnxrt.Init(lib); ierr != nil {
			fmt.Fprintf(out, "onnx runtime: ERROR %s: %v\n", lib, ierr)
		} else {
			fmt.Fprintf(out, "onnx runtime: %s (version %s)\n", lib, onnxrt.RuntimeVersion())
		}
	case e.Provider == embed.ProviderONNX || r.Provider == rerank.ProviderONNX:
		fmt.Fprintf(out, "onnx runtime: MISSING, needed by the onnx provider: run `scry setup --onnx` (or set %s)\n", onnxrt.EnvLib)
	default:
		fmt.Fprintln(out, "onnx runtime: not installed (only needed for onnx models: `scry setup --onnx`)")
	}

	ecfg := e.EmbedConfig(os.Getenv)
	switch ecfg.Provider {
	case "", embed.ProviderNone:
		fmt.Fprintln(out, "embedder:     none (lexical + structural retrieval; --embedder onnx|openai|voyage to add vectors)")
	default:
		fmt.Fprintf(out, "embedder:     %s%s\n", ecfg.Provider, describeKey(ecfg.Provider, ecfg.Key != ""))
		emb, err := embed.New(ctx, ecfg)
		if err != nil {
			fmt.Fprintf(out, "              ERROR %v\n", err)
			break
		}
		defer emb.Close()
		fmt.Fprintf(out, "              model %s, %d dimensions\n", emb.ModelID(), emb.Dim())
		_, chunks, _ := st.Stats()
		have, _ := st.VectorCount(emb.ModelID())
		pending, _ := st.CountPendingEmbeddings(emb.ModelID())
		fmt.Fprintf(out, "              %d of %d chunks embedded, %d pending (embedded on the next index or search)\n", have, chunks, pending)
		if c, err := embed.OpenCache(embed.CachePath(st.Path())); err == nil {
			n, _ := c.Count(emb.ModelID())
			fmt.Fprintf(out, "              cache %s: %d vectors of this model\n", embed.CachePath(st.Path()), n)
			c.Close()
		}
	}
	if models, err := st.VectorModels(); err == nil && len(models) > 1 {
		var parts []string
		for m, n := range models {
			parts = append(parts, fmt.Sprintf("%s (%d)", m, n))
		}
		fmt.Fprintf(out, "              vectors stored for %d models: %s\n", len(models), strings.Join(parts, ", "))
	}

	rcfg := r.RerankConfig(e.ONNXRuntimeLib, os.Getenv)
	rr, err := rerank.New(ctx, rcfg)
	if err != nil {
		fmt.Fprintf(out, "reranker:     %s ERROR %v\n", rcfg.Provider, err)
		return
	}
	if c, ok := rr.(interface{ Close() error }); ok {
		defer c.Close()
	}
	line := "reranker:     " + rr.Name()
	if rcfg.Provider == rerank.ProviderHTTP || rcfg.Provider == rerank.ProviderVoyage {
		line += describeKey(rcfg.Provider, rcfg.Key != "")
		if _, err := rr.Rerank(ctx, "doctor", []rerank.Doc{{Name: "check", Text: "function check() {}"}}); err != nil {
			line += "\n              ERROR " + err.Error()
		} else {
			line += "\n              answered a test request"
		}
	}
	if rcfg.Provider == rerank.ProviderNone {
		line += " (final score = normalised first-stage score)"
	}
	fmt.Fprintln(out, line)
}

func describeKey(provider string, set bool) string {
	var vars string
	switch provider {
	case embed.ProviderOpenAI:
		vars = embed.EnvEmbedKey + " or " + embed.EnvOpenAIKey
	case embed.ProviderVoyage:
		vars = embed.EnvEmbedKey + "/" + rerank.EnvRerankKey + " or " + embed.EnvVoyageKey
	case rerank.ProviderHTTP:
		vars = rerank.EnvRerankKey
	default:
		return ""
	}
	if set {
		return " (key set from " + vars + ")"
	}
	return " (no key in " + vars + ")"
}
