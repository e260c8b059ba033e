package structure

import (
	"bytes"
	"regexp"

	"github.com/scry-dev/scry/internal/ident"
)

// importFrom finds the module specifier of an import statement's from
// clause: the first one after a name of the statement.
var importFrom = regexp.MustCompile(`^[\s\w$,{}*]*?\bfrom\s*(?:'([^'\n]*)'|"([^"\n]*)")`)

// importEnded finds the end of an import statement: its from clause or a
// semicolon.
var importEnded = regexp.MustCompile(`\bfrom\s*['"]|;`)

// importedFrom says which module the name declared at off of src is
// imported from, when off lies in an import statement's names (import { a,
// b as c } from 'm', import d from 'm', import * as ns from 'm'). Without
// the module installed, the compiler resolves a call to such a name to the
// import itself, in the calling file, as if that file declared it: the
// answer should name the module instead.
func importedFrom(src []byte, off int) (string, bool) {
	if off < 0 || off > len(src) {
		return "", false
	}
	if mod, ok := requiredFrom(src, off); ok {
		return mod, true
	}
	// The statement starts at the nearest line before off that opens with
	// "import", with only names between it and off.
	start := -1
	for i := off; i >= 0; {
		ls := bytes.LastIndexByte(src[:i], '\n') + 1
		line := bytes.TrimLeft(src[ls:i], " \t")
		if bytes.HasPrefix(line, []byte("import")) && (len(line) == 6 || !ident.PartByte(line[6])) {
			start = ls
			break
		}
		if !onlyNames(src[ls:i]) || ls == 0 {
			return "", false
		}
		i = ls - 1
	}
	// The statement must still be open at off: an import that ended on a
	// line above (its from clause, or a ";") is another statement's.
	if start < 0 || importEnded.Match(src[start:off]) {
		return "", false
	}
	m := importFrom.FindSubmatch(src[off:min(len(src), off+4096)])
	if m == nil {
		return "", false
	}
	if len(m[1]) > 0 {
		return string(m[1]), true
	}
	return string(m[2]), len(m[2]) > 0
}

// requireDecl is a CommonJS import on one line: `const X = require('m')`,
// `var E = require("node:events").EventEmitter`, `const { a, b: c } =
// require('m')`. Group 1 is the declared names, group 3 the module.
var requireDecl = regexp.MustCompile(`^[ \t]*(?:const|let|var)[ \t]+([\w$]+|\{[^}\n]*\})[ \t]*=[ \t]*require\([ \t]*(['"])([^'"\n]+)['"][ \t]*\)`)

// requiredFrom is importedFrom for a name that a CommonJS require
// declares: mocha's `var EventEmitter = require("node:events").EventEmitter`,
// which the compiler, without Node's types, resolves to that line.
func requiredFrom(src []byte, off int) (string, bool) {
	ls := bytes.LastIndexByte(src[:off], '\n') + 1
	le := bytes.IndexByte(src[off:], '\n')
	if le < 0 {
		le = len(src) - off
	}
	m := requireDecl.FindSubmatchIndex(src[ls : off+le])
	if m == nil || off-ls < m[2] || off-ls >= m[3] {
		return "", false
	}
	return string(src[ls+m[6] : ls+m[7]]), true
}

// onlyNames: b holds nothing but what lies between the names of an import
// statement's list.
func onlyNames(b []byte) bool {
	for _, c := range b {
		if !(ident.PartByte(c) || c == ' ' || c == '\t' || c == '\r' || c == ',' || c == '{' || c == '}' || c == '*') {
			return false
		}
	}
	return true
}
