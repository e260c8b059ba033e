package answer

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/testkit"
)

// TestDescribeCacheBoundedInBytes: the cache of symbol descriptions was
// bounded at 20,000 entries whatever their size (a transitive call tree
// can be megabytes).
func TestDescribeCacheBoundedInBytes(t *testing.T) {
	testkit.SetFor(t, &maxDescribeBytes, 256<<10)
	var c DescribeCache
	members := make([]string, 500)
	for i := range members {
		members[i] = strings.Repeat("m", 50) // ~26 KB per result encoded
	}
	for i := range 100 {
		c.put(describeKey{id: strconv.Itoa(i)}, graph.Result{Name: "x", Members: members})
		held := 0
		for _, d := range c.m {
			b, _ := json.Marshal(d)
			held += len(b)
		}
		if held > maxDescribeBytes {
			t.Fatalf("after %d results the cache holds %d bytes (bound %d)", i+1, held, maxDescribeBytes)
		}
	}
	if _, ok := c.get(describeKey{id: "99"}); !ok {
		t.Error("the last description is not cached")
	}
}
