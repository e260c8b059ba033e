// Command scry-train rebuilds the built-in embedding model's weights
// (internal/embed/builtin/model.bin) from the pinned npm packages that
// scripts/model-corpus.sh unpacks, and prints the validation figures on the
// held-out packages. `make model` runs both.
//
//	scry-train --corpus .cache/model-corpus --out internal/embed/builtin/model.bin
package main

import (
	"encoding/gob"
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
	listFile := flag.String("packages", "internal/embed/builtin/train/packages.txt", "the pinned package list (name@version a line)")
	out := flag.String("out", "", "write the quantised weights here (nothing is written when empty)")
	workers := flag.Int("workers", 2, "goroutines extracting pairs (the result does not depend on it)")
	valPercent := flag.Int("val", 5, "percentage of packages held out for validation")
	pairsFile := flag.String("pairs", "", "keep the extracted pairs in this file and reuse them when it exists (for trying settings)")
	flag.IntVar(&cfg.Dim, "dim", cfg.Dim, "vector size")
	flag.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "passes over the training pairs")
	flag.IntVar(&cfg.Batch, "batch", cfg.Batch, "pairs per step")
	flag.IntVar(&cfg.MinCount, "min-count", cfg.MinCount, "texts a term must occur in to join the vocabulary")
	flag.IntVar(&cfg.MaxVocab, "max-vocab", cfg.MaxVocab, "largest vocabulary")
	flag.IntVar(&cfg.Buckets, "buckets", cfg.Buckets, "trigram back-off rows")
	flag.Float64Var(&cfg.LR, "lr", cfg.LR, "Adagrad learning rate")
	flag.Float64Var(&cfg.Scale, "scale", cfg.Scale, "inverse softmax temperature")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed")
	flag.Float64Var(&cfg.Dropout, "dropout", cfg.Dropout, "probability of dropping a term of a training text")
	flag.BoolVar(&cfg.SamePackage, "same-package", cfg.SamePackage, "fill each batch from as few packages as possible (harder in-batch negatives)")
	flag.IntVar(&cfg.EvalEvery, "eval-every", cfg.EvalEvery, "validate every N epochs (0: at the end only)")
	flag.Parse()
	if flag.NArg() > 0 {
		return errors.New("unexpected arguments")
	}

	start := time.Now()
	list, err := train.ReadPackageList(*listFile)
	if err != nil {
		return err
	}
	pairs, stats, err := extract(*corpus, list, *workers, *pairsFile)
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
	fmt.Printf("model: dim %d, vocabulary %d terms, %d trigram rows; epochs %d, batch %d, lr %g, scale %g, dropout %g, seed %d\n",
		cfg.Dim, len(t.W.Vocab), cfg.Buckets, cfg.Epochs, cfg.Batch, cfg.LR, cfg.Scale, cfg.Dropout, cfg.Seed)
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
	fmt.Printf("  trained (float32), each query against its own package's codes only: %s\n", rep.FinalWithin)
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

// extracted is what the pairs file holds.
type extracted struct {
	Pairs []train.Pair
	Stats []train.PackageStats
}

// extract reads the corpus, or the pairs file when it exists.
// A pairs file is filtered by the list, so that it answers as a fresh
// extraction of the listed packages would.
func extract(corpus string, list []string, workers int, pairsFile string) ([]train.Pair, []train.PackageStats, error) {
	if pairsFile != "" {
		if f, err := os.Open(pairsFile); err == nil {
			defer f.Close()
			var x extracted
			if err := gob.NewDecoder(f).Decode(&x); err != nil {
				return nil, nil, fmt.Errorf("read %s: %w", pairsFile, err)
			}
			listed := map[string]bool{}
			for _, p := range list {
				listed[p] = true
			}
			var pairs []train.Pair
			var stats []train.PackageStats
			for _, p := range x.Pairs {
				if listed[p.Package] {
					pairs = append(pairs, p)
				}
			}
			for _, s := range x.Stats {
				if listed[s.Package] {
					stats = append(stats, s)
				}
			}
			return pairs, stats, nil
		}
	}
	pairs, stats, err := train.ExtractCorpus(corpus, list, workers)
	if err != nil || pairsFile == "" {
		return pairs, stats, err
	}
	f, err := os.Create(pairsFile)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if err := gob.NewEncoder(f).Encode(extracted{pairs, stats}); err != nil {
		return nil, nil, fmt.Errorf("write %s: %w", pairsFile, err)
	}
	return pairs, stats, nil
}
