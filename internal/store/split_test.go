package store

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
)

// TestSplitSearchSameAnswer: a first stage run as several queries over
// interleaved rowids (see searchParts) answers exactly as one query does, for every
// number of parts, light and full reads, and after writes.
func TestSplitSearchSameAnswer(t *testing.T) {
	s := openTemp(t)
	c := newCorpus(7)
	write := func(from, to int) {
		for f := from; f < to; f++ {
			p := fmt.Sprintf("pkg%d/file%d.ts", f%3, f)
			cs := make([]chunk.Chunk, 12)
			for i := range cs {
				cs[i] = c.chunk(p, i)
			}
			mustReplace(t, s, chunkindex.FileRecord{Path: p, Language: "typescript"}, cs...)
		}
	}
	write(0, 60)
	queries := []string{
		"validate session token", "parse http request header", "retry connection timeout",
		"cache key value", "emit event listener", "verifyPasswordHash", "const return", "zzzunknown",
	}
	check := func(stage string) {
		t.Helper()
		for _, light := range []bool{true, false} {
			for _, limit := range []int{1, 7, 40, 300} {
				for _, q := range queries {
					s.splitMinChunks = 1 << 30 // never split
					want := search(t, s, q, func(q *chunkindex.Query) { q.Limit, q.Light = limit, light })
					for _, parts := range []int{2, 3, 4} {
						old := runtime.GOMAXPROCS(parts)
						s.splitMinChunks = 1
						got := search(t, s, q, func(q *chunkindex.Query) { q.Limit, q.Light = limit, light })
						runtime.GOMAXPROCS(old)
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("%s: %q (limit %d, light %v, %d parts): split answer differs\n got %v\nwant %v",
								stage, q, limit, light, parts, hitIDs(got), hitIDs(want))
						}
					}
				}
			}
		}
	}
	check("first index")
	// Rewrites and deletions leave gaps in the rowids.
	write(30, 90)
	if err := s.DeleteFile("pkg0/file3.ts"); err != nil {
		t.Fatal(err)
	}
	check("after writes")
}
