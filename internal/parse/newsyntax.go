package parse

import (
	"bytes"
	"regexp"

	"github.com/scry-dev/scry/internal/ident"
)

// varianceModifier finds a type parameter's variance annotation (TypeScript
// 4.7: "in", "out" or "in out" before the parameter's name) after the "<"
// or "," that opens the parameter, or at the start of a line of a list
// broken over lines. blankNewerSyntax checks what follows the name.
var varianceModifier = regexp.MustCompile(`(?:^|[<,])\s*((?:in\s+out|in|out)\s+)[A-Za-z_$][\w$]*`)

// typeOnlyStar finds "export type * from" (TypeScript 5.0).
var typeOnlyStar = regexp.MustCompile(`^\s*export\s+(type)\s+\*`)

// importType finds the import('module'). that opens an import type in a
// type position (after ":", "|", "&", "<", "," or "="), up to the dot.
// blankNewerSyntax checks that a type, not a call, follows.
var importType = regexp.MustCompile(`[:|&<,=]\s*(import\s*\(\s*(?:'[^'\n]*'|"[^"\n]*")\s*\)\s*\.)\s*[A-Za-z_$][\w$.]*`)

// keywordAlias finds a reserved word used as the name an export or import
// is renamed to (export { if_block as if }), which ES2022 allows and the
// grammar does not.
var keywordAlias = regexp.MustCompile(`\bas\s+(break|case|catch|class|const|continue|debugger|delete|do|else|enum|export|extends|false|finally|for|function|if|import|in|instanceof|new|null|return|super|switch|this|throw|true|try|typeof|var|void|while|with)\s*(?:,|\}|$)`)

// blankNewerSyntax rewrites syntax the grammar does not know, on lines the
// error spans reach, so that the tree of the rest is the tree of the
// original:
//   - variance annotations (interface Store<in out T>, most of TanStack
//     router's types) and the "type" of "export type * from" become spaces:
//     both change what the compiler checks, not what a declaration is. A
//     modifier counts only when the name after it ends a type parameter
//     (followed by "extends", "=", ",", ">" or the end of the line); "in"
//     and "out" cannot stand there in an expression;
//   - the import('m'). of an import type becomes spaces, leaving the type's
//     name (the grammar fails on import('zimmerframe').Context<S> and on
//     import('m').T[]);
//   - a reserved word as an export's new name (svelte's
//     export { if_block as if }) becomes underscores, a name of the same
//     length (the symbols' names are read from the source as written).
func blankNewerSyntax(src []byte, spans [][2]int) ([]byte, int) {
	errs := spanCursor{spans: spans}
	var out []byte
	n := 0
	blank := func(from, to int, with byte) {
		if out == nil {
			out = append([]byte(nil), src...)
		}
		for i := from; i < to; i++ {
			out[i] = with
		}
		n++
	}
	for start := 0; start < len(src); {
		end := start + bytes.IndexByte(src[start:], '\n')
		if end < start {
			end = len(src)
		}
		if errs.overlaps(start, end) {
			line := src[start:end]
			if m := typeOnlyStar.FindSubmatchIndex(line); m != nil {
				blank(start+m[2], start+m[3], ' ')
			}
			for _, m := range varianceModifier.FindAllSubmatchIndex(line, -1) {
				if endsTypeParameter(line[m[1]:]) {
					blank(start+m[2], start+m[3], ' ')
				}
			}
			for _, m := range importType.FindAllSubmatchIndex(line, -1) {
				if rest := bytes.TrimLeft(line[m[1]:], " \t"); len(rest) == 0 || rest[0] != '(' {
					blank(start+m[2], start+m[3], ' ')
				}
			}
			for _, m := range keywordAlias.FindAllSubmatchIndex(line, -1) {
				blank(start+m[2], start+m[3], '_')
			}
		}
		start = end + 1
	}
	if n == 0 {
		return src, 0
	}
	return out, n
}

// endsTypeParameter reports whether rest, the text after a type parameter's
// name, goes on as a type parameter list does.
func endsTypeParameter(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t\r")
	if len(rest) == 0 {
		return true
	}
	switch rest[0] {
	case ',', '>':
		return true
	case '=':
		return len(rest) < 2 || rest[1] != '=' && rest[1] != '>'
	}
	return bytes.HasPrefix(rest, []byte("extends")) && (len(rest) == 7 || !ident.PartByte(rest[7]))
}
