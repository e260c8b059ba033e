package main

import (
	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
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
	f.StringVar(&n.embedder, "embedder", "", "embedder: none, builtin, onnx, openai or voyage (env SCRY_EMBEDDER; default builtin)")
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
func (n *neuralFlags) layer(cmd *cobra.Command) func(*engine.Config) error {
	return func(cfg *engine.Config) error {
		e, r := &cfg.Embedding, &cfg.Reranking
		setIfChanged(cmd, "embedder", &e.Provider, n.embedder)
		setIfChanged(cmd, "embed-url", &e.URL, n.embedURL)
		setIfChanged(cmd, "embed-model", &e.Model, n.embedModel)
		setIfChanged(cmd, "embed-dir", &e.Dir, n.embedDir)
		setIfChanged(cmd, "reranker", &r.Provider, n.reranker)
		setIfChanged(cmd, "rerank-url", &r.URL, n.rerankURL)
		setIfChanged(cmd, "rerank-model", &r.Model, n.rerankModel)
		setIfChanged(cmd, "rerank-dir", &r.Dir, n.rerankDir)
		for name, key := range flagKeys {
			if cmd.Flags().Changed(name) {
				cfg.Origin.SetSource(key, engine.SourceFlag)
			}
		}
		return nil
	}
}
