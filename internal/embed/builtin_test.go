package embed

import (
	"context"
	"math"
	"strings"
	"testing"
)

func TestBuiltinProvider(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Config{Provider: "Builtin"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !strings.HasPrefix(e.ModelID(), "builtin/") || e.Dim() <= 0 {
		t.Fatalf("model %q dim %d", e.ModelID(), e.Dim())
	}
	docs := []string{"function add(a, b) { return a + b; }", "", "class TokenStore { get(key) { return this.map.get(key); } }"}
	vs, err := e.EmbedDocuments(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(docs) {
		t.Fatalf("%d vectors for %d texts", len(vs), len(docs))
	}
	for i, v := range vs {
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		want := 1.0
		if docs[i] == "" {
			want = 0 // no terms: a zero vector, which matches nothing
		}
		if len(v) != e.Dim() || math.Abs(s-want) > 1e-4 {
			t.Errorf("text %d: len %d, squared norm %g, want %g", i, len(v), s, want)
		}
	}
	q, err := e.EmbedQuery(ctx, "add two numbers")
	if err != nil || len(q) != e.Dim() {
		t.Fatalf("query: %v, len %d", err, len(q))
	}
	// The same text embeds differently as a query and as code: the sides
	// weigh terms differently.
	d, _ := e.EmbedDocuments(ctx, []string{"add two numbers"})
	same := true
	for i := range q {
		if q[i] != d[0][i] {
			same = false
		}
	}
	if same {
		t.Error("query and document sides gave the same vector")
	}
	if s, ok := e.(interface{ ModelSize() int }); !ok || s.ModelSize() <= 0 || s.ModelSize() > 32<<20 {
		t.Errorf("model size not reported or over 32 MB")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.EmbedDocuments(cancelled, docs); err == nil {
		t.Error("a cancelled context embedded")
	}
}
