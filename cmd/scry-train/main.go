// Command scry-train rebuilds the built-in embedding model's weights
// (internal/embed/builtin/model.bin) from the pinned npm packages that
// scripts/model-corpus.sh unpacks, and prints the validation figures on the
// held-out packages. `make model` runs both.
//
//	scry-train --corpus .cache/model-corpus --out internal/embed/builtin/model.bin
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/scry-dev/scry/internal/embed/builtin"
	"github.com/scry-dev/scry/internal/embed/builtin/train"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "scry-train:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg := train.DefaultConfig()
	corpus := flag.String("corpus", ".cache/model-corpus", "directory scripts/model-corpus.sh filled")
	out := flag.String("out", "", "write the quantised weights here (nothing is written when empty)")
	workers := flag.Int("workers", 2, "goroutines extracting pairs (the result does not depend on it)")
	valPercent := flag.Int("val", 5, "percentage of packages held out for validation")
	flag.IntVar(&cfg.Dim, "dim", cfg.Dim, "vector size")
	flag.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "passes over the training pairs")
	flag.IntVar(&cfg.Batch, "batch", cfg.Batch, "pairs per step")
	flag.IntVar(&cfg.MinCount, "min-count", cfg.MinCount, "texts a term must occur in to join the vocabulary")
	flag.IntVar(&cfg.MaxVocab, "max-vocab", cfg.MaxVocab, "largest vocabulary")
	flag.IntVar(&cfg.Buckets, "buckets", cfg.Buckets, "trigram back-off rows")
	flag.Float64Var(&cfg.LR, "lr", cfg.LR, "Adagrad learning rate")
	flag.Float64Var(&cfg.Scale, "scale", cfg.Scale, "inverse softmax temperature")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed")
	flag.IntVar(&cfg.EvalEvery, "eval-every", cfg.EvalEvery, "validate every N epochs (0: at the end only)")
	flag.Parse()
	if flag.NArg() > 0 {
		return errors.New("unexpected arguments")
	}

	start := time.Now()
	pairs, stats, err := train.ExtractCorpus(*corpus, *workers)
	if err != nil {
		return err
	}
	withPairs := 0
	for _, s := range stats {
		if s.Pairs > 0 {
			withPairs++
		}
	}
	trainSet, valSet, held := train.Split(pairs, *valPercent)
	fmt.Printf("corpus: %d packages (%d with pairs), %d raw pairs; after deduplication %d training pairs, %d validation pairs from %d held-out packages (%s)\n",
		len(stats), withPairs, len(pairs), len(trainSet), len(valSet), len(held), time.Since(start).Round(time.Second))
	var kinds [3]int
	for _, p := range trainSet {
		kinds[p.Kind]++
	}
	fmt.Printf("training pairs by kind: %d doc comment → code, %d doc comment → declaration, %d name → code\n", kinds[train.FromDoc], kinds[train.FromDecl], kinds[train.FromName])
	if len(trainSet) < cfg.Batch {
		return fmt.Errorf("only %d training pairs: is %s filled (scripts/model-corpus.sh)?", len(trainSet), *corpus)
	}

	t := train.New(trainSet, cfg)
	fmt.Printf("model: dim %d, vocabulary %d terms, %d trigram rows; epochs %d, batch %d, lr %g, scale %g, seed %d\n",
		cfg.Dim, len(t.W.Vocab), cfg.Buckets, cfg.Epochs, cfg.Batch, cfg.LR, cfg.Scale, cfg.Seed)
	rep := t.Fit(t.Examples(trainSet), t.Examples(valSet), os.Stdout)

	data := t.W.Marshal()
	m, err := builtin.Load(data)
	if err != nil {
		return err
	}
	qs := make([][]float32, len(valSet))
	ds := make([][]float32, len(valSet))
	for i, p := range valSet {
		qs[i] = m.Embed(p.Query, builtin.Query)
		ds[i] = m.Embed(p.Doc, builtin.Doc)
	}
	quant := train.Retrieval(qs, ds)
	lex := train.LexicalBaseline(valSet)
	fmt.Printf("\nvalidation (%d held-out packages, each query against all %d codes):\n", len(held), len(valSet))
	fmt.Printf("  lexical TF-IDF        %s\n", lex)
	fmt.Printf("  untrained model       %s\n", rep.Initial)
	fmt.Printf("  trained (float32)     %s\n", rep.Final)
	fmt.Printf("  trained (int8, shipped) %s\n", quant)
	fmt.Printf("model %s: %.1f MB; training %s, total %s\n", m.ID(), float64(len(data))/(1<<20),
		rep.Duration.Round(time.Second), time.Since(start).Round(time.Second))
	if *out != "" {
		if err := os.WriteFile(*out, data, 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s\n", *out)
	}
	return nil
}
