// Package tokens counts model tokens with a real BPE tokenizer (o200k), so
// that budgets mean what the agent's model will actually pay.
package tokens

import (
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

var (
	once sync.Once
	enc  *tiktoken.Tiktoken
	err  error
)

func load() {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err = tiktoken.GetEncoding("o200k_base")
}

// Count returns the number of o200k tokens in s. Should the embedded tables
// ever fail to load, it falls back to the common estimate of 4 bytes per
// token rather than failing a search.
func Count(s string) int {
	once.Do(load)
	if err != nil {
		return (len(s) + 3) / 4
	}
	if len(s) < 512 {
		return len(enc.EncodeOrdinary(s))
	}
	// Answers are rendered more than once while they are fitted to a
	// budget, so the same large texts come back; BPE costs far more than a
	// map lookup.
	cacheMu.Lock()
	n, ok := cache[s]
	cacheMu.Unlock()
	if ok {
		return n
	}
	n = len(enc.EncodeOrdinary(s))
	cacheMu.Lock()
	if len(cache) >= maxCached {
		clear(cache)
	}
	cache[s] = n
	cacheMu.Unlock()
	return n
}

const maxCached = 512

var (
	cacheMu sync.Mutex
	cache   = map[string]int{}
)
