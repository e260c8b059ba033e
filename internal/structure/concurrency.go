package structure

import "sync"

// parallel runs fns concurrently and waits for all.
func parallel(fns ...func()) {
	var wg sync.WaitGroup
	for _, f := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	wg.Wait()
}

// forEach runs fn(i) for i in [0,n) with at most limit at a time.
func forEach(n, limit int, fn func(i int)) {
	if n == 0 {
		return
	}
	if limit <= 0 || limit > n {
		limit = n
	}
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			fn(i)
		}(i)
	}
	wg.Wait()
}

// concurrency bounds parallel requests per question: tsgo answers requests
// concurrently, but a flood buys nothing on a two-core machine.
const concurrency = 8
