// Package tokens counts model tokens with a real BPE tokenizer (o200k), so
// that budgets mean what the agent's model will actually pay.
package tokens

import (
	"sync"
	"unicode/utf8"
)

var (
	once  sync.Once
	ranks *table
	err   error
)

// load checks the embedded o200k rank table on first use.
func load() {
	ranks, err = newTable(o200kTable)
}

// Count returns the number of o200k tokens in s. Should the embedded tables
// ever fail to load, it falls back to the common estimate of 4 bytes per
// token rather than failing a search.
func Count(s string) int {
	once.Do(load)
	if err != nil || ranks == nil {
		return (len(s) + 3) / 4
	}
	if len(s) < 512 {
		return count(s)
	}
	// Answers are rendered more than once while they are fitted to a
	// budget, so the same large texts come back.
	cacheMu.Lock()
	n, ok := cache[s]
	cacheMu.Unlock()
	if ok {
		return n
	}
	n = count(s)
	if len(s) > maxCachedBytes/8 {
		return n // one text must not take over the cache
	}
	cacheMu.Lock()
	if len(cache) >= maxCached || cachedBytes+len(s) > maxCachedBytes {
		clear(cache)
		cachedBytes = 0
	}
	if _, ok := cache[s]; !ok {
		cache[s] = n
		cachedBytes += len(s)
	}
	cacheMu.Unlock()
	return n
}

func count(s string) int {
	if !utf8.ValidString(s) {
		// As the library reads text: each invalid byte becomes U+FFFD.
		s = string([]rune(s))
	}
	n := 0
	pieces(s, func(p string) { n += pieceTokens(p, ranks) })
	return n
}

// The cache keeps the texts it counted as keys, so it is bounded in bytes
// as well as entries: 512 answers of a megabyte each would hold 512 MB.
const (
	maxCached      = 512
	maxCachedBytes = 16 << 20
)

var (
	cacheMu     sync.Mutex
	cache       = map[string]int{}
	cachedBytes int
)
