package bench

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/terms"
)

// bagOfWords is a deterministic stand-in for a model: each term adds one
// to a hashed dimension, so texts sharing words have close vectors.
type bagOfWords struct{ dim int }

func (b bagOfWords) ModelID() string { return "test-bag-of-words" }
func (b bagOfWords) Dim() int        { return b.dim }
func (b bagOfWords) Close() error    { return nil }

func (b bagOfWords) vec(text string) []float32 {
	v := make([]float32, b.dim)
	for _, t := range terms.Split(text) {
		h := fnv.New32a()
		h.Write([]byte(t))
		v[h.Sum32()%uint32(b.dim)]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	if n > 0 {
		for i := range v {
			v[i] /= float32(math.Sqrt(n))
		}
	}
	return v
}

func (b bagOfWords) EmbedDocuments(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = b.vec(t)
	}
	return out, nil
}

func (b bagOfWords) EmbedQuery(_ context.Context, text string) ([]float32, error) {
	return b.vec(text), nil
}

func TestQualityHybrid(t *testing.T) {
	prefix, pkgs := tinyCorpus(t)
	r, err := RunQuality(context.Background(), QualityOptions{Prefix: prefix, Packages: pkgs, Hybrid: HybridWith(bagOfWords{dim: 64})})
	if err != nil {
		t.Fatal(err)
	}
	last := r.Systems[len(r.Systems)-1]
	if last.Name != SysHybrid || last.Symbol == nil || last.Symbol.N != r.Queries {
		t.Fatalf("hybrid system missing or incomplete: %+v", last)
	}
	if !strings.Contains(r.Hybrid, "test-bag-of-words") {
		t.Errorf("hybrid line %q does not name the embedder", r.Hybrid)
	}
	for _, q := range r.Results {
		if q.Name == "frobnicateWidgetChecksum" && q.Ranks[SysHybrid].Symbol != 1 {
			t.Errorf("hybrid ranks the obvious answer %+v", q.Ranks[SysHybrid])
		}
	}
}
