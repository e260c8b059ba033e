package chunk

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/textfmt"
)

// MaxEmbeddingBytes bounds a chunk's embedding text: 32,000 tokens at
// 4 bytes per token (docs/architecture.md, rule 1). Only data-like declarations with no
// collapsible children (huge object or array literals) ever reach it; their
// full source is kept whole, only the text used for embedding is cut.
const MaxEmbeddingBytes = 32000 * 4

// File parses nothing: it turns an already parsed file into chunks, depth
// first in source order (a parent before its children).
func File(f *parse.File, absPath, relPath string) []Chunk {
	starts := f.LineStarts
	if starts == nil {
		starts = lines.Starts(f.Source)
	}
	c := &chunker{
		src:        f.Source,
		text:       sourceText(f.Source),
		absPath:    absPath,
		relPath:    relPath,
		lineStarts: starts,
		imports:    f.Imports,
		generated:  Generated(f.Source),
	}
	if len(f.Imports) > 0 {
		c.importNames = map[string][]int{}
		for i, imp := range f.Imports {
			for _, n := range imp.Names {
				c.importNames[n] = append(c.importNames[n], i)
			}
		}
	}
	// One chunk per symbol at most (a child on its parent's lines folds
	// into it): sized once rather than grown, chunks being large structs.
	if n := countSymbols(f.Symbols); n > 0 {
		c.out = make([]Chunk, 0, n)
	}
	for _, s := range f.Symbols {
		c.emit(s, nil, relPath, 0)
	}
	return c.out
}

func countSymbols(ss []*parse.Symbol) int {
	n := len(ss)
	for _, s := range ss {
		n += countSymbols(s.Children)
	}
	return n
}

// sourceText views the file's bytes as a string without copying them: the
// parser and chunker never modify a source after reading it, and chunk
// sources are substrings of it, so the file is held in memory once.
func sourceText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

type chunker struct {
	src []byte
	// text is src as one string: every chunk's source is a substring of it,
	// so nested chunks share one copy of the file instead of one each.
	text        string
	absPath     string
	relPath     string
	lineStarts  []int
	imports     []parse.Import
	importNames map[string][]int
	// generated: the file's header says a tool wrote it (see Generated).
	generated bool
	out       []Chunk
}

// lines returns the exact text of lines [from, to], without the final newline.
func (c *chunker) lines(from, to int) string {
	return c.text[c.lineStart(from):c.lineEnd(to)]
}

func (c *chunker) lineStart(l int) int { return c.lineStarts[l-1] }

// lineEnd is the offset just past line l's text, before its terminator
// ("\n", "\r\n" or a lone "\r").
func (c *chunker) lineEnd(l int) int { return lines.End(c.src, c.lineStarts, l) }

// visibleChildren folds children that occupy exactly their parent's lines
// into the parent (they would duplicate its chunk) and lifts their own
// children in their place.
func visibleChildren(s *parse.Symbol) []*parse.Symbol {
	var out []*parse.Symbol
	var walk func(children []*parse.Symbol)
	walk = func(children []*parse.Symbol) {
		for _, ch := range children {
			if ch.StartLine == s.StartLine && ch.EndLine == s.EndLine {
				walk(ch.Children)
				continue
			}
			out = append(out, ch)
		}
	}
	walk(s.Children)
	return out
}

func (c *chunker) emit(s *parse.Symbol, parent *Chunk, breadcrumbParent string, depth int) string {
	// A name is source text; a computed key (a template literal) can hold
	// a line break, which printed in an answer would start a line of the
	// file's choosing. Such a name is kept quoted, everywhere it goes.
	name := textfmt.Name(s.Name)
	if !textfmt.Unsafe(s.Name) {
		name = s.Name // a leading double quote is a string key as written, not a forgery
	}
	breadcrumb := breadcrumbParent + " > " + name
	ch := Chunk{
		FilePath:     c.absPath,
		RelativePath: c.relPath,
		NodeKind:     s.Kind,
		Name:         name,
		Depth:        depth,
		Signature:    s.Signature,
		FullSource:   c.lines(s.StartLine, s.EndLine),
		StartLine:    s.StartLine,
		EndLine:      s.EndLine,
		JSDoc:        s.JSDoc,
		Breadcrumb:   breadcrumb,
		Exported:     s.Exported,
		Modifiers:    s.Modifiers,
	}
	if c.generated {
		ch.Modifiers = append(slices.Clip(s.Modifiers), GeneratedModifier)
	}
	if parent != nil {
		ch.ParentName = parent.Name
		ch.ParentChunkID = parent.ID
	}
	ch.ID = chunkID(c.relPath, s.Kind, name, s.StartLine, breadcrumbParent)
	children := visibleChildren(s)
	ch.EmbeddingText = c.embeddingText(s, children, ch.FullSource)
	if s.Kind != parse.KindImport && s.Kind != parse.KindComment {
		ch.RelevantImports = c.relevantImports(ch.FullSource)
	}
	idx := len(c.out)
	c.out = append(c.out, ch)
	var ids []string
	for _, child := range children {
		ids = append(ids, c.emit(child, &c.out[idx], breadcrumb, depth+1))
	}
	c.out[idx].ChildChunkIDs = ids
	return ch.ID
}

func chunkID(relPath, kind, name string, startLine int, parentChain string) string {
	h := sha256.New()
	for _, part := range []string{relPath, kind, name, strconv.Itoa(startLine), parentChain} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// embeddingText is the symbol's source with each multi-line body-bearing
// child replaced by its signature and a semicolon.
func (c *chunker) embeddingText(s *parse.Symbol, children []*parse.Symbol, full string) string {
	var sb strings.Builder
	next := s.StartLine
	collapsed := false
	for _, ch := range children {
		declLine := lines.Of(c.lineStarts, ch.DeclStartByte)
		// A declaration on one line (its JSDoc aside) is its own signature.
		if !ch.BodyBearing() || declLine >= ch.EndLine || ch.BodyStartByte <= ch.DeclStartByte {
			continue
		}
		if ch.StartLine > next {
			sb.WriteString(c.lines(next, ch.StartLine-1))
			sb.WriteByte('\n')
		}
		stub := strings.TrimRight(string(c.src[c.lineStart(declLine):ch.BodyStartByte]), " \t\r\n")
		sb.WriteString(stub)
		sb.WriteString(";\n")
		next = ch.EndLine + 1
		collapsed = true
	}
	if !collapsed {
		return capText(full)
	}
	if next <= s.EndLine {
		sb.WriteString(c.lines(next, s.EndLine))
	} else {
		return capText(strings.TrimSuffix(sb.String(), "\n"))
	}
	return capText(sb.String())
}

func capText(s string) string {
	if len(s) <= MaxEmbeddingBytes {
		return s
	}
	cut := strings.LastIndexByte(s[:MaxEmbeddingBytes], '\n')
	if cut <= 0 {
		cut = MaxEmbeddingBytes
		for cut > 0 && (s[cut]&0xC0) == 0x80 {
			cut--
		}
	}
	return s[:cut]
}

// relevantImports lists the import statements whose bound names occur as
// whole identifiers in the source.
func (c *chunker) relevantImports(source string) []string {
	if len(c.importNames) == 0 {
		return nil
	}
	used := make([]bool, len(c.imports))
	any := false
	forEachIdentifier(source, func(id string) {
		for _, i := range c.importNames[id] {
			used[i] = true
			any = true
		}
	})
	if !any {
		return nil
	}
	var out []string
	for i, u := range used {
		if u {
			out = append(out, c.imports[i].Statement)
		}
	}
	return out
}

func forEachIdentifier(s string, fn func(string)) {
	for i := 0; i < len(s); {
		if !ident.StartByte(s[i]) {
			if ident.PartByte(s[i]) {
				// digits: skip the whole number-like token
				for i < len(s) && ident.PartByte(s[i]) {
					i++
				}
				continue
			}
			i++
			continue
		}
		j := i + 1
		for j < len(s) && ident.PartByte(s[j]) {
			j++
		}
		fn(s[i:j])
		i = j
	}
}
