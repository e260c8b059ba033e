package bench

import (
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/tokens"
)

// Both kinds of answer count a result's tokens as the answer did, and its
// source's tokens where the answer left them out.
func TestAnswerTokens(t *testing.T) {
	src := "export function a(): number {\n  return 1;\n}\n"
	results := []search.Result{{Tokens: 7}, {Chunk: chunk.Chunk{RelativePath: "src/a.ts", FullSource: src}}}
	want := 7 + tokens.Count(src)
	in := &Instance{GoldFiles: []string{"src/a.ts"}}
	if got := AnswerOf(in, results, nil).Tokens; got != want {
		t.Errorf("AnswerOf: %d tokens, want %d", got, want)
	}
	if got := QuestionAnswerOf(in, results, nil).Tokens; got != want {
		t.Errorf("QuestionAnswerOf: %d tokens, want %d", got, want)
	}
}
