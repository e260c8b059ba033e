package bench

import (
	"context"
	"sync/atomic"
	"testing"
)

// Every index is handed out once; after the context is done, none is.
func TestOnAllCPUs(t *testing.T) {
	calls := make([]atomic.Int32, 100)
	onAllCPUs(context.Background(), len(calls), func(i int) { calls[i].Add(1) })
	for i := range calls {
		if n := calls[i].Load(); n != 1 {
			t.Errorf("f(%d) called %d times, want once", i, n)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var after atomic.Int32
	onAllCPUs(ctx, 10, func(int) { after.Add(1) })
	if n := after.Load(); n != 0 {
		t.Errorf("%d calls after the context was done", n)
	}
}
