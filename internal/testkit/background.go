package testkit

import "sync"

// Background calls step(0), step(1), ... on a goroutine of its own until
// the returned stop is called; stop waits for the step under way to end.
// A test runs an editor saving files this way while it asks questions.
func Background(step func(i int)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			step(i)
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}
