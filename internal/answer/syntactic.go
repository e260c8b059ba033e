package answer

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/graph"
	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/pathclass"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/structure"
)

// syntactic answers from the index alone: names, signatures and text
// matches stand in for the compiler's resolution, so every answer is
// marked approximate, with the reason the compiler did not answer.
type syntactic struct {
	ix     Local
	reason string
}

// memberName is a member as the graph lists it: name() for what is
// called, name for the rest (an accessor is read as a property: vue's
// RefImpl.value, not value()).
func memberName(name, kind string) string {
	switch kind {
	case "method", "function", "constructor":
		return name + "()"
	}
	return name
}

// containerKinds are kinds whose members are shown as Parent.member.
var containerKinds = map[string]bool{"class": true, "interface": true, "namespace": true, "module": true, "component": true, "enum": true}

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
	for i, line := range lines.Split(c.FullSource) {
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
		// A declaration of the name opens its signature (`component(`,
		// `component<T>(`); a parameter of that name (vue's App.component
		// overload takes `component: T`) does not.
		if rest := strings.TrimLeft(line[k+len(c.Name):], " \t"); declares(line[:k]) && (strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "<")) {
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

func (s syntactic) describe(_ context.Context, c chunk.Chunk, callDepth int) (graph.Result, error) {
	r := graph.Result{
		Name:        c.DisplayName(),
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
	if s.reason != ReasonNoServer {
		r.ApproximateReason = s.reason // the graph's default note says that one
	}
	if containerKinds[c.NodeKind] {
		children, err := s.ix.Store.ChunksByFile(c.RelativePath)
		if err != nil {
			return r, err
		}
		for _, ch := range children {
			if ch.ParentChunkID != c.ID {
				continue
			}
			r.Members = append(r.Members, memberName(ch.Name, ch.NodeKind))
		}
	}
	if ident.Is(c.Name) {
		if files, err := s.ix.Store.FilesReferencing(c.Name, c.RelativePath); err == nil {
			r.RefFiles = len(files)
		}
	}
	// The graph shows [depth limit] only in multi-hop trees.
	r.Calls = outgoing(s.outgoing(c, callDepth, callDepth != 1))
	return r, nil
}

// callees finds `name(` in the chunk's own code (children collapsed;
// comments and string literals left out) and
// resolves each name to a declaration in the index: one in the same file
// first, else the only one of that name.
func (s syntactic) callees(c chunk.Chunk) []chunk.Chunk {
	seen := map[string]bool{}
	var out []chunk.Chunk
	text := search.BlankNonCode(c.EmbeddingText)
	for i := 0; i < len(text) && len(out) < 12; i++ {
		if text[i] != '(' {
			continue
		}
		j := i
		for j > 0 && ident.PartByte(text[j-1]) {
			j--
		}
		name := text[j:i]
		if name == "" || seen[name] || keywords[name] || name == definedName(c) || j > 0 && text[j-1] == '.' && !ownMember(text[:j]) {
			continue
		}
		seen[name] = true
		if declares(text[:j]) && declarationHead(text[i:]) {
			continue // a member's stub or a nested declaration, not a call
		}
		cands, err := s.ix.Store.FindSymbols(store.SymbolQuery{Name: name, Match: store.MatchExact, Kinds: []string{"function", "method", "class", "component", "constructor"}, Limit: 5})
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
		out = append(out, cands[pick])
	}
	return out
}

// definedName is the name a declaration defines: its own, or for a
// function assigned to a path (Runner.prototype.runTests = function …)
// the path's last name, which is what its callers write.
func definedName(c chunk.Chunk) string {
	if a := ident.Assigned(c.Name); a != "" {
		return a
	}
	return c.Name
}

// ownMember reports whether the text before a called member names the
// calling object itself: this, or self, which JavaScript written before
// arrow functions keeps this in (var self = this). A member of any other
// object could be any declaration of that name.
func ownMember(before string) bool {
	if !strings.HasSuffix(before, "this.") && !strings.HasSuffix(before, "self.") {
		return false
	}
	i := len(before) - len("this.")
	return i == 0 || !ident.PartByte(before[i-1])
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
			// A name the source writes with escapes (\u0061bc for abc).
			return ident.IndexEscaped(line, word)
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

// declarationHead reports whether the parameter list opening s is
// followed by a body or a return type, as in a declaration (`pong() {`,
// `pong(): void`), not a call statement (`pong()`).
func declarationHead(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				rest := strings.TrimLeft(s[i+1:], " \t")
				return rest == "" || rest[0] == '{' || rest[0] == ':'
			}
		}
	}
	return true
}

// declares reports whether the text before a name on its line only holds
// declaration keywords: `  async validateToken(` declares, `x = validateToken(`
// calls.
func declares(before string) bool {
	if i := strings.LastIndexAny(before, "\r\n"); i >= 0 {
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

// indexNotePrefix opens the note of an answer the index gave in the
// compiler's place.
const indexNotePrefix = "from the index: "

func (s syntactic) metadata(_ context.Context, c chunk.Chunk, opts structure.Options) (*structure.SymbolMetadata, error) {
	sections := opts.Sections
	if sections == 0 {
		sections = structure.SecAll
	}
	depth := opts.CallDepth
	if depth == 0 {
		depth = 1
	}
	md := &structure.SymbolMetadata{Name: c.Name, Kind: c.NodeKind, File: c.RelativePath, Line: nameLine(c), Signature: c.Signature,
		Modifiers: c.Modifiers, CallDepth: depth, Approximate: true, Notes: []string{indexNotePrefix + s.reason}}
	if sections&structure.SecOutgoing != 0 {
		md.OutgoingCalls = s.outgoing(c, depth, !opts.SkipDepthLimit)
	}
	if sections&structure.SecIncoming != 0 {
		md.IncomingCallers = s.incoming(c, depth, !opts.SkipDepthLimit)
	}
	if sections&structure.SecReferences != 0 && ident.Is(c.Name) {
		if files, err := s.ix.Store.FilesReferencing(c.Name, ""); err == nil {
			md.References = &structure.References{Count: len(files), Files: files}
		}
	}
	if sections&structure.SecMembers != 0 && containerKinds[c.NodeKind] {
		children, err := s.ix.Store.ChunksByFile(c.RelativePath)
		if err != nil {
			return nil, err
		}
		for _, ch := range children {
			if ch.ParentChunkID == c.ID {
				md.Members = append(md.Members, structure.Member{Name: ch.Name, Kind: ch.NodeKind})
			}
		}
	}
	return md, nil
}

func (s syntactic) references(_ context.Context, c chunk.Chunk, limit int) ([]Site, error) {
	return s.ix.textReferences(c, limit)
}

func (s syntactic) implementations(_ context.Context, c chunk.Chunk) ([]Declaration, error) {
	impls, err := s.ix.textImplementations(c)
	var out []Declaration
	for _, c := range impls {
		out = append(out, declarationOf(c))
	}
	return out, err
}

// definitionAt looks the identifier under the cursor up by name.
func (s syntactic) definitionAt(_ context.Context, absFile string, line, column int) ([]Declaration, error) {
	src, err := s.ix.readFile(absFile)
	if err != nil {
		return nil, fmt.Errorf("definition: %w", err)
	}
	name, err := identifierAt(src, line, column)
	if err != nil {
		return nil, err
	}
	cs, err := s.ix.resolve(name)
	var out []Declaration
	for _, c := range cs {
		out = append(out, declarationOf(c))
	}
	return out, err
}

func refOf(c chunk.Chunk) structure.SymbolRef {
	r := structure.SymbolRef{Name: c.Name, Kind: c.NodeKind, File: c.RelativePath, Line: nameLine(c)}
	if c.ParentName != "" && c.Depth > 0 {
		r.Container = c.ParentName
	}
	return r
}

// callTree walks the index's call edges from c, next giving a node's
// neighbours (callees or callers), depth hops deep (-1: as far as the node
// budget allows). A node already on its path is marked cyclic and not
// expanded; with marks, a node left unexpanded at the depth or budget
// limit that has neighbours is marked depth-limited. build makes a tree
// node from a declaration, its call facts and its children.
func callTree[T any](c chunk.Chunk, depth int, marks bool, next func(chunk.Chunk) []chunk.Chunk, build func(chunk.Chunk, structure.CallInfo, []T) T) []T {
	budget := structure.DefaultMaxCallNodes
	path := map[string]bool{c.ID: true}
	var walk func(c chunk.Chunk, d int) []T
	walk = func(c chunk.Chunk, d int) []T {
		var out []T
		for _, n := range next(c) {
			budget--
			info := structure.CallInfo{SymbolRef: refOf(n)}
			var kids []T
			switch {
			case path[n.ID]:
				info.Cyclic = true
			case depth >= 0 && d+1 >= depth || budget <= 0:
				info.DepthLimited = marks && len(next(n)) > 0
			default:
				path[n.ID] = true
				kids = walk(n, d+1)
				delete(path, n.ID)
			}
			out = append(out, build(n, info, kids))
		}
		return out
	}
	return walk(c, 0)
}

// outgoing is c's call tree from the index.
func (s syntactic) outgoing(c chunk.Chunk, depth int, marks bool) []structure.OutgoingCall {
	return callTree(c, depth, marks, s.callees, func(_ chunk.Chunk, info structure.CallInfo, kids []structure.OutgoingCall) structure.OutgoingCall {
		return structure.OutgoingCall{CallInfo: info, OutgoingCalls: kids}
	})
}

// incoming is the tree of c's callers from the index: the declarations
// whose own code calls c, as callees resolves calls.
func (s syntactic) incoming(c chunk.Chunk, depth int, marks bool) []structure.IncomingCaller {
	return callTree(c, depth, marks, s.callers, func(_ chunk.Chunk, info structure.CallInfo, kids []structure.IncomingCaller) structure.IncomingCaller {
		return structure.IncomingCaller{CallInfo: info, IncomingCallers: kids}
	})
}

// callers lists the declarations whose own code calls c, the code's
// before the tests', by file and line.
func (s syntactic) callers(c chunk.Chunk) []chunk.Chunk {
	name := definedName(c)
	if !ident.Is(name) {
		return nil
	}
	ids, err := s.ix.Store.ChunksReferencing(name, "")
	if err != nil {
		return nil
	}
	var out []chunk.Chunk
	for _, id := range ids {
		cand, err := s.ix.Store.Chunk(id)
		if err != nil || statementKind(cand.NodeKind) {
			continue
		}
		for _, t := range s.callees(cand) {
			if t.ID == c.ID {
				out = append(out, cand)
				break
			}
		}
	}
	// The code's callers first, as the compiler's tree lists them (a tree
	// cut at its node budget keeps them).
	slices.SortFunc(out, func(a, b chunk.Chunk) int {
		return cmp.Or(pathclass.Compare(a.RelativePath, b.RelativePath),
			strings.Compare(a.RelativePath, b.RelativePath), cmp.Compare(a.StartLine, b.StartLine))
	})
	return out
}
