// Package snapshot renders smart structural snapshots (docs/architecture.md, rule 5): for one
// file, the selected symbols in full plus exactly the same-file declarations
// they reference, as valid source made of the file's own lines and nothing
// else — no elision marks, no rewritten code.
//
// What a snapshot holds, and why:
//
//   - Every target, whole, with its original lines (attached comments and
//     decorators included, since chunk ranges include them). A target inside
//     another target is covered by it; targets merge in source order.
//   - The module-level declarations the targets reference by name — imports,
//     constants, variables, functions, classes, interfaces, type aliases,
//     enums, namespaces — at the top level of the file or of an enclosing
//     namespace. Imports are always kept: a one-line import as written; of
//     an import over several lines, its first and last lines and the lines
//     of the specifiers used. Any other declaration is kept whole only when
//     it is small (MaxDependencyLines; MaxTypeLines for an interface, type
//     alias or enum a target names itself); a larger one is left out
//     entirely, because partial code would mislead and the connection graph
//     already names it.
//   - Transitively, what those included declarations need to read on their
//     own: their imports, constants, variables, type aliases, interfaces and
//     enums (again only small ones). Functions and classes are not pulled in
//     transitively: that is call-graph territory and would snowball.
//   - For a target inside a class: every enclosing header (`export class A
//     extends B {`, nested classes and namespaces likewise) and closing brace,
//     plus the class fields the targets read through `this.x`, `this.#x`,
//     `const { x } = this` or `ClassName.x`. A field whose value is a function
//     is a method in all but syntax and is left to the connection graph like
//     other sibling methods. When a target reads a constructor parameter
//     property (`constructor(private store: Store)`), the constructor is the
//     declaration and is included when small.
//   - A target nested elsewhere (a callback in a function, a method of an
//     object literal, an element of JSX) gets the same treatment: the opening
//     and closing lines of every enclosing function, object, array or element,
//     without their other statements, members or children. Locals of an
//     enclosing function shadow module-level names but are not shown.
//   - Class decorators and leading comments of included declarations and of
//     enclosing headers are left out: the target carries its own
//     documentation, and a decorator such as Angular's @Component can be
//     longer than the method being shown. Names used only in enclosing
//     headers (`extends Base`) are not followed (rule 5).
//
// Names are resolved with scopes, not by text: a parameter, a local
// variable, function or class, a catch binding, a type parameter or an infer
// type that shadows a module-level name means the module-level declaration is
// not referenced. (var declarations nested in inner blocks are not hoisted to
// the function scope; that is the one common case left out.)
//
// The snapshot is re-parsed before it is returned. When the original file
// parses cleanly and the snapshot does not, the enclosing context of the
// targets is widened step by step (see skeletonLevels) until it does.
package snapshot

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/scry-dev/scry/internal/lines"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/textfmt"
)

// MaxDependencyLines is the largest referenced declaration, in lines, that a
// snapshot includes. Imports are exempt.
const MaxDependencyLines = 15

// MaxTypeLines is the largest interface, type alias or enum, in lines, that
// a snapshot includes when a target names it itself (a parameter's type in
// an overload signature): what a reader needs to call the target.
const MaxTypeLines = 80

// Target is one selected symbol of a file, identified by its 1-based,
// inclusive line range (a chunk's StartLine and EndLine).
type Target struct {
	StartLine, EndLine int
	// Source, when set, is the text the lines must hold (the chunk's
	// FullSource). A file edited since the chunk was indexed is refused
	// with ErrStale, rather than shown as other lines or refused as lines
	// outside the file.
	Source string
}

// ErrStale is wrapped by the error of a snapshot whose file no longer
// holds a target's Source at its lines: the file changed after the chunk
// that selected it was read from the index. Syncing and asking again
// answers from one version of the file.
var ErrStale = errors.New("file changed since it was indexed")

// Build renders the snapshot of the file relPath (source src) for targets: a
// `// relPath` line, a blank line, then the selected lines of the file, with
// one blank line between pieces that are not adjacent in the file (none right
// after an opening bracket or before a closing one, where a blank line would
// only split a header from its body).
func Build(relPath string, src []byte, targets []Target) (string, error) {
	f, err := Parse(relPath, src)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return f.Build(targets)
}

// File is a parsed file that several snapshots can be built from without
// parsing it again; parsing is most of a snapshot's cost (about 60 ms for an
// 11,000-line file). A File is not safe for concurrent use; Close releases
// its syntax tree.
type File struct {
	relPath string
	d       *doc
	tree    *sitter.Tree
}

// Parse parses src, the content of relPath, whose extension picks the
// grammar.
func Parse(relPath string, src []byte) (*File, error) {
	g, ok := grammarFor(parse.LanguageOf(relPath))
	if !ok {
		return nil, fmt.Errorf("snapshot %s: unsupported language", relPath)
	}
	tree := g.parseTree(src)
	if tree == nil {
		return nil, fmt.Errorf("snapshot %s: tree-sitter returned no tree", relPath)
	}
	return &File{relPath: relPath, d: newDoc(g, src, tree), tree: tree}, nil
}

// Close releases the file's syntax tree.
func (f *File) Close() {
	if f.tree != nil {
		f.d.cursor.Close()
		f.tree.Close()
		f.tree = nil
	}
}

// Build renders the snapshot of the file for targets, as the package-level
// Build does.
func (f *File) Build(targets []Target) (string, error) {
	res, err := f.build(targets)
	if err != nil {
		return "", err
	}
	return res.text, nil
}

// result is a built snapshot with what the tests check it against.
type result struct {
	text string
	// lines are the file's 1-based line numbers shown, in order.
	lines []int
	// level is the skeleton level that produced a parseable snapshot (0 when
	// no widening was needed).
	level int
	// fileErrors reports that the original file itself did not parse
	// cleanly; snapshotErrors that the snapshot does not.
	fileErrors, snapshotErrors bool
}

func (f *File) build(targets []Target) (*result, error) {
	if f.tree == nil {
		return nil, errors.New("snapshot: file is closed")
	}
	if len(targets) == 0 {
		return nil, errors.New("snapshot: no targets")
	}
	d := f.d
	for _, t := range targets {
		if t.Source != "" && !d.holds(t) {
			return nil, fmt.Errorf("snapshot %s: lines %d-%d: %w", f.relPath, t.StartLine, t.EndLine, ErrStale)
		}
	}
	spans, err := d.targetSpans(targets)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", f.relPath, err)
	}
	seeds := d.resolve(spans)

	res := &result{fileErrors: d.root.HasError()}
	for level := 0; level < len(skeletonLevels); level++ {
		lines := d.skeleton(seeds, level)
		res.text, res.lines = d.render(f.relPath, lines)
		res.level = level
		res.snapshotErrors = d.g.hasErrors([]byte(res.text))
		if !res.snapshotErrors || res.fileErrors {
			break
		}
	}
	return res, nil
}

func (g *grammar) hasErrors(src []byte) bool {
	t := g.parseTree(src)
	if t == nil {
		return true
	}
	defer t.Close()
	return t.RootNode().HasError()
}

// doc is one parsed file and what is known about it so far; the scopes and
// class indexes are pure functions of the tree, kept across snapshots.
type doc struct {
	g       *grammar
	src     []byte
	starts  []int // byte offset of each line, index 0 = line 1
	nLines  int
	root    sitter.Node
	cursor  *sitter.TreeCursor
	program *moduleScope
	modules map[uintptr]*moduleScope // namespace bodies
	classes map[uintptr]*classInfo   // class bodies
	// imports are the line ranges of the file's import statements written
	// over several lines, read on first use (see sameImport).
	imports     [][2]int
	importsRead bool
}

func newDoc(g *grammar, src []byte, tree *sitter.Tree) *doc {
	d := &doc{g: g, src: src, root: *tree.RootNode(), modules: map[uintptr]*moduleScope{}, classes: map[uintptr]*classInfo{}}
	d.starts = lines.Starts(src)
	d.nLines = lines.Total(d.starts, len(src))
	d.cursor = tree.Walk()
	d.program = d.newModuleScope(&d.root)
	return d
}

// line is the 1-based line holding byte offset off.
func (d *doc) line(off int) int {
	return lines.Of(d.starts, off)
}

// lines is the 1-based inclusive line range of n; a node ending right after
// a newline does not reach the next line.
func (d *doc) lines(n *sitter.Node) (int, int) {
	s, e := int(n.StartByte()), int(n.EndByte())
	if e > s {
		e--
	}
	return d.line(s), d.line(e)
}

func (d *doc) lineStart(l int) int { return d.starts[l-1] }

// holds reports whether t's lines are in the file and read t.Source, cut
// as chunks cut them: from the start of the first line to the end of the
// last, without its terminator.
func (d *doc) holds(t Target) bool {
	if t.StartLine < 1 || t.EndLine < t.StartLine || t.EndLine > d.nLines {
		return false
	}
	return string(d.src[d.starts[t.StartLine-1]:d.lineEnd(t.EndLine)]) == t.Source
}

// lineEnd is the offset just past line l's content (before its terminator).
func (d *doc) lineEnd(l int) int { return lines.End(d.src, d.starts, l) }

func (d *doc) text(n *sitter.Node) string {
	return string(d.src[n.StartByte():n.EndByte()])
}

func (d *doc) kind(n *sitter.Node) kind { return d.g.kindOf(n) }

// span is a half-open byte range covering whole lines.
type span struct{ start, end int }

func (d *doc) lineSpan(from, to int) span { return span{d.lineStart(from), d.lineEnd(to)} }

// targetSpans validates targets and returns them as sorted, merged spans.
func (d *doc) targetSpans(targets []Target) ([]span, error) {
	out := make([]span, 0, len(targets))
	for _, t := range targets {
		if t.StartLine < 1 || t.EndLine < t.StartLine || t.EndLine > d.nLines {
			return nil, fmt.Errorf("target lines %d-%d outside the file's %d lines", t.StartLine, t.EndLine, d.nLines)
		}
		out = append(out, d.lineSpan(t.StartLine, t.EndLine))
	}
	return mergeSpans(out), nil
}

// mergeSpans sorts spans and joins overlapping ones.
func mergeSpans(in []span) []span {
	sort.Slice(in, func(i, j int) bool { return in[i].start < in[j].start })
	var out []span
	for _, s := range in {
		if n := len(out); n > 0 && s.start <= out[n-1].end {
			if s.end > out[n-1].end {
				out[n-1].end = s.end
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// render writes the header and the included lines. Blank lines at the edges
// of a piece are dropped; pieces are separated as Build describes.
func (d *doc) render(relPath string, inc []bool) (string, []int) {
	var b strings.Builder
	b.WriteString("// ")
	// A file name is the repository's, not ours: quoted where it could
	// pass for a location or hold a line break (textfmt.Name).
	b.WriteString(textfmt.Name(relPath))
	b.WriteString("\n\n")
	var shown []int
	prevLine := ""
	for l := 1; l <= d.nLines; {
		if !inc[l] {
			l++
			continue
		}
		from := l
		for l <= d.nLines && inc[l] {
			l++
		}
		to := l - 1
		for from <= to && d.blank(from) {
			from++
		}
		for to >= from && d.blank(to) {
			to--
		}
		if from == 1 && strings.HasPrefix(d.lineText(1), "#!") {
			// A hashbang is only legal as a file's first bytes, and the
			// header comes first.
			from++
		}
		if from > to {
			continue
		}
		if len(shown) > 0 && !opens(prevLine) && !closes(d.lineText(from)) && !d.sameImport(shown[len(shown)-1], from) {
			b.WriteByte('\n')
		}
		for i := from; i <= to; i++ {
			b.WriteString(d.lineText(i))
			b.WriteByte('\n')
			shown = append(shown, i)
		}
		prevLine = d.lineText(to)
	}
	return b.String(), shown
}

// sameImport reports whether lines a and b lie in one import statement.
// The specifiers a snapshot leaves out of a long import (see importLines)
// are no gap a reader needs to see: a blank line among the names would
// only look like a formatting slip.
func (d *doc) sameImport(a, b int) bool {
	if !d.importsRead {
		d.importsRead = true
		for _, c := range d.root.NamedChildren(d.cursor) {
			if d.kind(&c) != kImport {
				continue
			}
			if from, to := d.lines(&c); from < to {
				d.imports = append(d.imports, [2]int{from, to})
			}
		}
	}
	for _, r := range d.imports {
		if r[0] <= a && a <= r[1] && r[0] <= b && b <= r[1] {
			return true
		}
	}
	return false
}

// lineText is line l without its terminator.
func (d *doc) lineText(l int) string { return string(d.src[d.lineStart(l):d.lineEnd(l)]) }

func (d *doc) blank(l int) bool { return strings.TrimSpace(d.lineText(l)) == "" }

func opens(line string) bool {
	line = strings.TrimRight(line, " \t")
	return line != "" && strings.ContainsRune("{([", rune(line[len(line)-1]))
}

func closes(line string) bool {
	line = strings.TrimLeft(line, " \t")
	return line != "" && strings.ContainsRune("})]", rune(line[0]))
}
