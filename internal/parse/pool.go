package parse

import (
	"fmt"
	"runtime"
	"sync/atomic"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// ParserPool keeps tree-sitter parsers of one language for reuse. Unlike a
// sync.Pool it never drops a parser without closing it: a parser is C
// memory (growing with the largest file it has parsed) that the Go
// collector neither sees nor frees, and a sync.Pool empties itself at
// every collection, so a long-lived process leaked a parser per language
// per collection (a soak of 300 questions grew by gigabytes outside the Go
// heap).
type ParserPool struct {
	lang *sitter.Language
	free chan *sitter.Parser
}

// parsersMade counts parsers created, for tests.
var parsersMade atomic.Int64

// NewParserPool returns a pool of parsers for lang keeping at most a few
// per CPU.
func NewParserPool(lang *sitter.Language) *ParserPool {
	return &ParserPool{lang: lang, free: make(chan *sitter.Parser, 2*runtime.GOMAXPROCS(0)+2)}
}

// Get returns a parser, from the pool or new.
func (p *ParserPool) Get() *sitter.Parser {
	select {
	case x := <-p.free:
		return x
	default:
	}
	x := sitter.NewParser()
	if err := x.SetLanguage(p.lang); err != nil {
		panic(fmt.Sprintf("tree-sitter grammar: %v", err))
	}
	parsersMade.Add(1)
	return x
}

// Put returns a parser to the pool, closing it when the pool is full.
func (p *ParserPool) Put(x *sitter.Parser) {
	select {
	case p.free <- x:
	default:
		x.Close()
	}
}
