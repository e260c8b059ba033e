package bench

import (
	"context"
	"runtime"
	"sync"
)

// onAllCPUs calls f(0), ..., f(n-1) on GOMAXPROCS goroutines and returns
// when every call has returned: the corpus extraction and the quality
// benchmark's queries each take one CPU per item. Once ctx is done no
// further index is handed out (the caller checks ctx for the rest).
func onAllCPUs(ctx context.Context, n int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
}
