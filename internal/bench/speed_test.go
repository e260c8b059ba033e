package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/embed"
)

// The speed benchmark's report is complete on a tiny corpus; its timings
// are printed, never asserted.
func TestSpeedEndToEnd(t *testing.T) {
	prefix, pkgs := tinyCorpus(t)
	r, err := RunSpeed(context.Background(), SpeedOptions{Prefix: prefix, Packages: pkgs, QueryPackages: pkgs, Queries: 4, Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Files != 4 || r.Cold.Indexed != 4 || r.Lines != 62 || r.Chunks == 0 || r.IndexBytes == 0 {
		t.Errorf("corpus/index: %+v", r)
	}
	if len(r.NoChange.Runs) != 2 || len(r.OneEdit.Runs) != 2 {
		t.Errorf("re-sync runs: %+v %+v", r.NoChange, r.OneEdit)
	}
	// editTarget is not in this corpus: the median-size file is edited,
	// and each edit re-parses exactly that file.
	if r.EditedFile == "" || r.EditReparsed != 2 {
		t.Errorf("edited %q, re-parsed %d files, want 2", r.EditedFile, r.EditReparsed)
	}
	if r.WatchReason != "" {
		t.Logf("watch mode not measured: %s", r.WatchReason)
	} else if len(r.WatchedNoChange.Runs) != 2 || len(r.WatchedOneEdit.Runs) != 2 {
		t.Errorf("watched re-sync runs: %+v %+v", r.WatchedNoChange, r.WatchedOneEdit)
	}
	if r.CheckpointedBytes == 0 || r.SizeRatio <= 0 || r.WALBytes < 0 {
		t.Errorf("index size after a checkpoint %d, ratio %.2f", r.CheckpointedBytes, r.SizeRatio)
	}
	if r.Cold.CPUSeconds > 0 && r.Cold.MBPerCPUSecond <= 0 {
		t.Errorf("CPU time %.2f s but no CPU efficiency", r.Cold.CPUSeconds)
	}
	if r.Lexical.N != 4 || r.Full.N != 4 {
		t.Errorf("latency samples: lexical %d, full %d, want 4", r.Lexical.N, r.Full.N)
	}
	// Where CPU time is measured, both its figures are (a query's CPU may
	// round to 0 ms on a tiny corpus, never below).
	if r.Lexical.CPUMean >= 0 && (r.Lexical.CPUP50 < 0 || r.Full.CPUP50 < 0) {
		t.Errorf("CPU mean measured but p50 not: %+v %+v", r.Lexical, r.Full)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"cold index, wall time", "no-change re-sync", "one-edit re-sync", "full pipeline latency", "after a checkpoint / source size", "| alpha | 1.0.0 |", "CPU time per query, p50"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, text.String())
		}
	}
}

// With an embedder every chunk is embedded after the cold index and the
// hybrid pipeline gets a latency pass of its own.
func TestSpeedWithBuiltinEmbedder(t *testing.T) {
	prefix, pkgs := tinyCorpus(t)
	emb, err := embed.New(context.Background(), embed.Config{Provider: embed.ProviderBuiltin})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	r, err := RunSpeed(context.Background(), SpeedOptions{Prefix: prefix, Packages: pkgs, QueryPackages: pkgs, Queries: 4, Runs: 1, Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	// Chunks is counted after the edit runs, which add a function.
	if r.Cold.EmbedModel != emb.ModelID() || r.Cold.Embedded == 0 || r.Cold.Embedded > r.Chunks {
		t.Errorf("embedded %d of %d chunks with %q", r.Cold.Embedded, r.Chunks, r.Cold.EmbedModel)
	}
	if r.Hybrid == nil || r.Hybrid.N != 4 {
		t.Fatalf("hybrid latency: %+v", r.Hybrid)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"then embedding", "hybrid pipeline latency", "loading the vectors"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, text.String())
		}
	}
}
