package engine

import (
	"context"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/store"
)

// syntactic describes a symbol from the index alone: names, signatures and
// text matches stand in for the compiler's resolution, so every answer is
// marked approximate.
type syntactic struct{ st *store.Store }

func (e *Engine) syntactic() syntactic { return syntactic{e.store} }

// containerKinds are kinds whose members are shown as Parent.member.
var containerKinds = map[string]bool{"class": true, "interface": true, "namespace": true, "module": true, "component": true, "enum": true}

// displayName is how the graph names a chunk: Parent.name for members.
func displayName(c chunk.Chunk) string {
	if c.ParentName != "" && c.Depth > 0 {
		return c.ParentName + "." + c.Name
	}
	return c.Name
}

// nameLine is the line of the chunk's name, past its JSDoc, comments and
// decorators. For overloaded functions and methods it is the
// implementation's line (the last declaration), which is where the compiler
// answers about calls.
func nameLine(c chunk.Chunk) int {
	overloaded := false
	for _, m := range c.Modifiers {
		if m == "overloaded" {
			overloaded = true
		}
	}
	first, last := -1, -1
	inComment := false
	for i, line := range strings.Split(c.FullSource, "\n") {
		t := strings.TrimSpace(line)
		if inComment {
			if strings.Contains(t, "*/") {
				inComment = false
			}
			continue
		}
		if strings.HasPrefix(t, "/*") {
			inComment = !strings.Contains(t, "*/")
			continue
		}
		if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "@") {
			continue
		}
		k := wordIndex(line, c.Name)
		if k < 0 {
			continue
		}
		if first < 0 {
			first = i
			if !overloaded {
				break
			}
		}
		if declares(line[:k]) {
			last = i
		}
	}
	switch {
	case overloaded && last >= 0:
		return c.StartLine + last
	case first >= 0:
		return c.StartLine + first
	}
	return c.StartLine
}

func (s syntactic) Describe(_ context.Context, c chunk.Chunk, _ int) (graph.Result, error) {
	r := graph.Result{
		Name:        displayName(c),
		File:        c.RelativePath,
		Line:        nameLine(c),
		StartLine:   c.StartLine,
		EndLine:     c.EndLine,
		Kind:        c.NodeKind,
		Modifiers:   c.Modifiers,
		Signature:   c.Signature,
		RefFiles:    -1,
		Approximate: true,
	}
	if containerKinds[c.NodeKind] {
		children, err := s.st.ChunksByFile(c.RelativePath)
		if err != nil {
			return r, err
		}
		for _, ch := range children {
			if ch.ParentChunkID != c.ID {
				continue
			}
			switch ch.NodeKind {
			case "method", "function", "getter", "setter", "constructor":
				r.Members = append(r.Members, ch.Name+"()")
			default:
				r.Members = append(r.Members, ch.Name)
			}
		}
	}
	if ident.Is(c.Name) {
		if files, err := s.st.FilesReferencing(c.Name, c.RelativePath); err == nil {
			r.RefFiles = len(files)
		}
	}
	r.Calls = s.calls(c)
	return r, nil
}

// calls finds `name(` in the chunk's own code (children collapsed) and
// resolves each name to a declaration in the index: one in the same file
// first, else the only one of that name.
func (s syntactic) calls(c chunk.Chunk) []graph.Call {
	seen := map[string]bool{}
	var out []graph.Call
	text := c.EmbeddingText
	for i := 0; i < len(text) && len(out) < 12; i++ {
		if text[i] != '(' {
			continue
		}
		j := i
		for j > 0 && ident.PartByte(text[j-1]) {
			j--
		}
		name := text[j:i]
		if name == "" || seen[name] || keywords[name] || name == c.Name || j > 0 && text[j-1] == '.' && !strings.HasSuffix(text[:j], "this.") {
			continue
		}
		seen[name] = true
		if declares(text[:j]) {
			continue // a member's stub or a nested declaration, not a call
		}
		cands, err := s.st.FindSymbols(store.SymbolQuery{Name: name, Match: store.MatchExact, Kinds: []string{"function", "method", "class", "component", "constructor"}, Limit: 5})
		if err != nil || len(cands) == 0 {
			continue
		}
		pick := -1
		for k, cand := range cands {
			if cand.RelativePath == c.RelativePath {
				pick = k
				break
			}
		}
		if pick < 0 && len(cands) == 1 {
			pick = 0
		}
		if pick < 0 {
			continue
		}
		t := cands[pick]
		out = append(out, graph.Call{Name: displayName(t), File: t.RelativePath, Line: nameLine(t)})
	}
	return out
}

var keywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "function": true, "return": true, "typeof": true, "await": true, "new": true, "super": true, "import": true, "require": true, "constructor": true}

func containsWord(line, word string) bool { return wordIndex(line, word) >= 0 }

// wordIndex is the offset of word in line as a whole identifier, or -1.
func wordIndex(line, word string) int {
	if word == "" {
		return -1
	}
	for i := 0; ; {
		k := strings.Index(line[i:], word)
		if k < 0 {
			return -1
		}
		k += i
		before := k == 0 || !ident.PartByte(line[k-1])
		after := k+len(word) >= len(line) || !ident.PartByte(line[k+len(word)])
		if before && after {
			return k
		}
		i = k + 1
	}
}

// declares reports whether the text before a name on its line only holds
// declaration keywords: `  async validateToken(` declares, `x = validateToken(`
// calls.
func declares(before string) bool {
	if i := strings.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	for _, w := range strings.Fields(before) {
		switch w {
		case "export", "default", "async", "static", "public", "private", "protected", "readonly",
			"abstract", "override", "get", "set", "function", "function*", "declare", "*":
		default:
			return false
		}
	}
	return true
}
