package snapshot

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/parse"
)

// The checks below restate the snapshot contract independently of the
// implementation: declarations come from parse's symbol tree and references
// from a plain token scan, so they over-approximate what a target references
// (a name in a string or a shadowed name counts). That makes "nothing
// unreferenced is shown" a sound check; "everything referenced is shown" is
// only checked where the fixture lists the names its targets shadow.

// facts is what the checks know about one source file, computed once for
// all the snapshots built from it.
type facts struct {
	relPath string
	src     []byte
	lines   []string // source lines, index 0 = line 1
	starts  []int    // byte offset of each line
	file    *parse.File
	decls   []decl
}

func newFacts(relPath string, src []byte) (*facts, error) {
	f, err := parse.Parse(relPath, src, "")
	if err != nil {
		return nil, err
	}
	fc := &facts{relPath: relPath, src: src, file: f}
	fc.lines = strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	for i := range fc.lines {
		fc.lines[i] = strings.TrimSuffix(fc.lines[i], "\r")
	}
	fc.starts = []int{0}
	for i, c := range src {
		if c == '\n' {
			fc.starts = append(fc.starts, i+1)
		}
	}
	fc.decls = fc.collectDecls()
	return fc, nil
}

// validation checks one built snapshot.
type validation struct {
	*facts
	targets  []Target
	res      *result
	shown    map[int]bool
	problems []string
}

func (fc *facts) validate(targets []Target, res *result) *validation {
	v := &validation{facts: fc, targets: targets, res: res, shown: map[int]bool{}}
	for _, l := range res.lines {
		v.shown[l] = true
	}
	return v
}

func (v *validation) fail(format string, args ...any) {
	v.problems = append(v.problems, fmt.Sprintf(format, args...))
}

// structure checks the header, that the body is the file's own lines in
// order with nothing repeated or invented, that every target is shown whole,
// and that the snapshot parses.
func (v *validation) structure() {
	text := v.res.text
	header := "// " + v.relPath + "\n\n"
	if !strings.HasPrefix(text, header) {
		v.fail("header %q missing", header)
		return
	}
	body := strings.Split(strings.TrimSuffix(text[len(header):], "\n"), "\n")
	next := 0 // index into v.lines
	for _, line := range body {
		if strings.TrimSpace(line) == "" {
			continue
		}
		for next < len(v.lines) && v.lines[next] != line {
			next++
		}
		if next == len(v.lines) {
			v.fail("line %q is not the next source line (invented, repeated or out of order)", line)
			return
		}
		next++
	}
	for i := 1; i < len(v.res.lines); i++ {
		if v.res.lines[i] <= v.res.lines[i-1] {
			v.fail("line %d shown twice or out of order", v.res.lines[i])
		}
	}
	for _, t := range v.targets {
		for l := t.StartLine; l <= t.EndLine; l++ {
			if !v.shown[l] && strings.TrimSpace(v.lines[l-1]) != "" && !strings.HasPrefix(v.lines[l-1], "#!") {
				v.fail("target %d-%d: line %d missing", t.StartLine, t.EndLine, l)
				break
			}
		}
	}
	if !v.res.fileErrors {
		f, err := parse.Parse(v.relPath, []byte(text), "")
		if err != nil || f.ErrorNodes > 0 {
			v.fail("snapshot does not parse (%v, %d error nodes)", err, errorNodes(f))
		}
	}
}

func errorNodes(f *parse.File) int {
	if f == nil {
		return -1
	}
	return f.ErrorNodes
}

// decl is a module-level declaration as parse sees it.
type decl struct {
	sym      *parse.Symbol
	names    []string
	import_  bool
	declLine int // first line after attached comments
	// parent is the enclosing namespace, nil at the top level.
	parent *parse.Symbol
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)

func (fc *facts) collectDecls() []decl {
	var out []decl
	var visit func(syms []*parse.Symbol, parent *parse.Symbol)
	visit = func(syms []*parse.Symbol, parent *parse.Symbol) {
		for _, s := range syms {
			d := decl{sym: s, declLine: sort.SearchInts(fc.starts, s.DeclStartByte+1), parent: parent}
			switch s.Kind {
			case parse.KindImport:
				d.import_ = true
				for _, imp := range fc.file.Imports {
					if imp.StartLine >= s.StartLine && imp.EndLine <= s.EndLine {
						d.names = append(d.names, imp.Names...)
					}
				}
			case parse.KindConst, parse.KindVariable, parse.KindFunction, parse.KindClass, parse.KindInterface,
				parse.KindType, parse.KindEnum, parse.KindNamespace, parse.KindModule, parse.KindComponent:
				for _, n := range strings.Split(s.Name, ", ") {
					if identRE.MatchString(n) {
						d.names = append(d.names, n)
					}
				}
			}
			if len(d.names) > 0 {
				out = append(out, d)
			}
			if s.Kind == parse.KindNamespace || s.Kind == parse.KindModule {
				visit(s.Children, s)
			}
		}
	}
	visit(fc.file.Symbols, nil)
	return out
}

func (v *validation) overlapsTarget(s *parse.Symbol) bool {
	for _, t := range v.targets {
		if s.StartLine <= t.EndLine && t.StartLine <= s.EndLine {
			return true
		}
	}
	return false
}

func (v *validation) anyShown(from, to int) bool {
	for l := from; l <= to; l++ {
		if v.shown[l] {
			return true
		}
	}
	return false
}

// text joins the given source lines, skipping those in [skipFrom, skipTo].
func (v *validation) text(lines []int, skipFrom, skipTo int) string {
	var b strings.Builder
	for _, l := range lines {
		if l >= skipFrom && l <= skipTo {
			continue
		}
		b.WriteString(v.lines[l-1])
		b.WriteByte('\n')
	}
	return b.String()
}

func (v *validation) targetLines() []int {
	var out []int
	for _, t := range v.targets {
		for l := t.StartLine; l <= t.EndLine; l++ {
			out = append(out, l)
		}
	}
	return out
}

var tokenRE = regexp.MustCompile(`[A-Za-z_$#][\w$]*`)

// tokens lists the identifiers of text that are not property names.
func tokens(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range tokenRE.FindAllStringIndex(text, -1) {
		if m[0] > 0 && text[m[0]-1] == '.' && !strings.HasSuffix(text[:m[0]], "...") {
			continue // a property name, not a spread
		}
		out[text[m[0]:m[1]]] = true
	}
	return out
}

// referencedShown checks that every module-level declaration a target names
// (except the fixture's shadowed names) is shown whole when the rules
// include it: always for imports, when small otherwise.
func (v *validation) referencedShown(shadowed []string) {
	used := tokens(v.text(v.targetLines(), 0, -1))
	for _, s := range shadowed {
		delete(used, s)
	}
	for _, d := range v.decls {
		if v.overlapsTarget(d.sym) {
			continue
		}
		hit := ""
		for _, n := range d.names {
			if used[n] {
				hit = n
			}
		}
		if hit == "" || !d.import_ && d.sym.EndLine-d.declLine+1 > MaxDependencyLines {
			continue
		}
		if d.import_ {
			v.importShown(d, used)
			continue
		}
		for l := d.declLine; l <= d.sym.EndLine; l++ {
			if !v.shown[l] && strings.TrimSpace(v.lines[l-1]) != "" {
				v.fail("%s (lines %d-%d) is referenced by a target but not shown", hit, d.declLine, d.sym.EndLine)
				break
			}
		}
	}
}

// importShown checks an import a target uses: its first and last line
// and, for each name the targets use, a line that names it are shown (a
// long import may leave out the specifiers nothing shown uses).
func (v *validation) importShown(d decl, used map[string]bool) {
	from, to := d.declLine, d.sym.EndLine
	if !v.shown[from] || !v.shown[to] {
		v.fail("import (lines %d-%d) is referenced by a target but its first or last line is not shown", from, to)
		return
	}
	for _, n := range d.names {
		if !used[n] {
			continue
		}
		found := false
		for l := from; l <= to && !found; l++ {
			found = v.shown[l] && tokens(v.lines[l-1])[n]
		}
		if !found {
			v.fail("%s (import, lines %d-%d) is referenced by a target but not shown", n, from, to)
		}
	}
}

var destructureThisRE = regexp.MustCompile(`\{([^}]*)\}\s*=\s*this\b`)

var paramPropRE = regexp.MustCompile(`(?:private|public|protected|readonly)\s+(?:readonly\s+)?([A-Za-z_$][\w$]*)`)

// nothingUnreferenced checks that every shown declaration outside the
// targets is named somewhere else in the snapshot, and every shown class
// member is read through this (or the class name) somewhere else in it.
func (v *validation) nothingUnreferenced() {
	for _, d := range v.decls {
		s := d.sym
		if v.overlapsTarget(s) || !v.anyShown(s.StartLine, s.EndLine) {
			continue
		}
		if d.parent != nil && !v.overlapsTarget(d.parent) {
			continue // part of a namespace shown whole as a dependency
		}
		rest := tokens(v.text(v.res.lines, s.StartLine, s.EndLine))
		found := false
		for _, n := range d.names {
			found = found || rest[n]
		}
		if !found {
			v.fail("%s (lines %d-%d) is shown but nothing references it", strings.Join(d.names, ", "), s.StartLine, s.EndLine)
		}
	}
	var classes func(syms []*parse.Symbol)
	classes = func(syms []*parse.Symbol) {
		for _, s := range syms {
			// Members matter only in a class shown around a target; a
			// class included as a dependency is shown whole.
			if (s.Kind == parse.KindClass || s.Kind == parse.KindComponent && len(s.Children) > 0) && v.overlapsTarget(s) {
				v.members(s)
			}
			classes(s.Children)
		}
	}
	classes(v.file.Symbols)
}

func (v *validation) members(class *parse.Symbol) {
	for _, m := range class.Children {
		if v.overlapsTarget(m) || !v.anyShown(m.StartLine, m.EndLine) {
			continue
		}
		// Lines shared with the class header or closing brace show up
		// whatever the member is.
		if m.StartLine == class.StartLine || m.EndLine == class.EndLine {
			continue
		}
		rest := v.text(v.res.lines, m.StartLine, m.EndLine)
		read := func(name string) bool {
			if strings.Contains(rest, "this."+name) || strings.Contains(rest, class.Name+"."+name) {
				return true
			}
			for _, m := range destructureThisRE.FindAllStringSubmatch(rest, -1) {
				if tokens(m[1])[name] {
					return true
				}
			}
			return false
		}
		switch m.Kind {
		case parse.KindProperty:
			if !read(m.Name) {
				v.fail("property %s > %s is shown but not read through this", class.Name, m.Name)
			}
		case parse.KindConstructor:
			ok := false
			for _, p := range paramPropRE.FindAllStringSubmatch(v.text(rangeLines(m.StartLine, m.EndLine), 0, -1), -1) {
				ok = ok || read(p[1])
			}
			if !ok {
				v.fail("constructor of %s is shown but none of its parameter properties is read", class.Name)
			}
		default:
			v.fail("%s %s > %s is shown but is not a target", m.Kind, class.Name, m.Name)
		}
	}
}

func rangeLines(from, to int) []int {
	out := make([]int, 0, to-from+1)
	for l := from; l <= to; l++ {
		out = append(out, l)
	}
	return out
}
