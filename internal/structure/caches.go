package structure

import (
	"os"
	"sync"

	"github.com/scry-dev/scry/internal/tsls"
)

type namesCache struct {
	mu  sync.Mutex
	gen uint64
	m   map[string][]tsls.SymbolInformation
}

func (c *namesCache) get(gen uint64, name string, fetch func() ([]tsls.SymbolInformation, error)) ([]tsls.SymbolInformation, error) {
	c.mu.Lock()
	if c.m == nil || c.gen != gen || len(c.m) > 4096 {
		c.gen, c.m = gen, map[string][]tsls.SymbolInformation{}
	}
	syms, ok := c.m[name]
	c.mu.Unlock()
	if ok {
		return syms, nil
	}
	syms, err := fetch()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.gen == gen {
		c.m[name] = syms
	}
	c.mu.Unlock()
	return syms, nil
}

type outlineCache struct {
	mu sync.Mutex
	m  map[string]outline
}

type outline struct {
	size, mtime int64
	syms        []tsls.DocumentSymbol
}

func (c *outlineCache) get(path string, fetch func() ([]tsls.DocumentSymbol, error)) ([]tsls.DocumentSymbol, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fetch()
	}
	size, mtime := fi.Size(), fi.ModTime().UnixNano()
	c.mu.Lock()
	o, ok := c.m[path]
	c.mu.Unlock()
	if ok && o.size == size && o.mtime == mtime {
		return o.syms, nil
	}
	syms, err := fetch()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) > 4096 {
		c.m = map[string]outline{}
	}
	c.m[path] = outline{size: size, mtime: mtime, syms: syms}
	c.mu.Unlock()
	return syms, nil
}

// memo runs each keyed computation once and shares its result.
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]*memoEntry[T]
}

type memoEntry[T any] struct {
	once sync.Once
	v    T
	err  error
}

func (m *memo[T]) get(key string, f func() (T, error)) (T, error) {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[string]*memoEntry[T]{}
	}
	e := m.m[key]
	if e == nil {
		e = &memoEntry[T]{}
		m.m[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.v, e.err = f() })
	return e.v, e.err
}
