package search

import (
	"slices"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
)

func TestCalledNames(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"plain and method calls", "function save(e) { return this.manager.save(e).then(done) }", []string{"save", "then"}},
		{"new and private methods", "const x = new EntityPersistExecutor(a); this.#dispatch(req)", []string{"EntityPersistExecutor", "#dispatch"}},
		{"type arguments", "const s = createSelector<State, Out>(a, b)", []string{"createSelector"}},
		{"a comparison is not type arguments", "if (a < b) { run(a) } else if (c > d) stop()", []string{"run", "stop"}},
		{"keywords and short names left out", "for (;;) { if (x) return fn(x); while (ok) go(); switch (k) {} }", nil},
		{"space before the parenthesis", "compose (middleware)", []string{"compose"}},
		{"each name once", "emit(a); emit(b); emit(c)", []string{"emit"}},
		{"no call", "const a = b.c + d", nil},
		{"unicode identifiers", "größe(x); ñandú()", []string{"größe", "ñandú"}},
		{"unterminated type arguments", "const a = f<", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := calledNames(tt.src); !slices.Equal(got, tt.want) {
				t.Errorf("calledNames(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestMarkCalleesMarksWhatTheStrongestCandidatesCall(t *testing.T) {
	cand := func(file, name, text string) Result {
		return Result{Chunk: chunk.Chunk{Name: name, EmbeddingText: text, RelativePath: file}}
	}
	cands := []Result{
		cand("Repository.ts", "Repository.save", "save(e) { return this.manager.save(e) }"),
		cand("EntityManager.ts", "EntityManager.save", "save(e) { return new EntityPersistExecutor(e).execute() }"),
		cand("BaseEntity.ts", "BaseEntity.save", "save() { return this.execute(this) }"),
		cand("EntityPersistExecutor.ts", "EntityPersistExecutor", "class EntityPersistExecutor { execute() {} }"),
		cand("EntityPersistExecutor.ts", "execute", "execute() { return run() }"),
		cand("EntityPersistExecutor.ts", "helper", "helper() {}"),
		cand("unrelated.ts", "unrelated", "unrelated() {}"),
		// Called by a chunk ranked below the three strongest: not marked.
		cand("run.ts", "run", "run() {}"),
	}
	feats := make([]Features, len(cands))
	for i := range feats {
		feats[i][FBM25] = 1 - float64(i)/10
	}
	m := unitModel(map[int]float64{FBM25: 1}, 0)
	markCallees(m, cands, feats)
	want := []struct{ callee, file float64 }{{0, 0}, {0, 0}, {0, 0}, {0.5, 1}, {1, 1}, {0, 1}, {0, 0}, {0, 0}}
	for i, w := range want {
		if got := feats[i][FCallee]; got != w.callee {
			t.Errorf("%s: callee %v, want %v", cands[i].Chunk.Name, got, w.callee)
		}
		if got := feats[i][FFileCallee]; got != w.file {
			t.Errorf("%s: file callee %v, want %v", cands[i].Chunk.Name, got, w.file)
		}
	}
	// The strongest candidates themselves stay unmarked even when they
	// call one another ("save" calls save): the mark is for what they
	// lead to.
	if feats[0][FCallee] != 0 || feats[1][FCallee] != 0 {
		t.Error("a source candidate was marked")
	}
}

func TestMarkCalleesLeavesFewCandidatesAlone(t *testing.T) {
	cands := []Result{{Chunk: chunk.Chunk{Name: "a", EmbeddingText: "a() { b() }"}}}
	feats := make([]Features, 1)
	markCallees(DefaultModel, cands, feats)
	if feats[0][FCallee] != 0 || feats[0][FFileCallee] != 0 {
		t.Errorf("a lone candidate was marked: %v", feats[0])
	}
	markCallees(nil, cands, feats) // no model: nothing to rank by, no panic
}
