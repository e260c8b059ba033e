// Package jsdoc reads and removes JSDoc comments: a comment's summary (its
// first sentence of prose), the comments that document a declaration, and
// blanking them with every line and offset kept. The quality benchmark asks
// its questions with it, and the embedding model's trainer shapes its
// training pairs like the benchmark's answers.
package jsdoc

import (
	"regexp"
	"strings"
	"unicode"
)

// Summary returns the first sentence of a JSDoc comment's prose (the text of
// parse.Symbol.JSDoc, markers already removed), cleaned of inline markup, or
// "" when the comment has no prose. The prose is the text before the first
// block tag; when there is none, the @description or @summary tag stands in
// for it (date-fns writes all its prose there).
func Summary(doc string) string {
	prose := description(doc)
	if prose == "" {
		return ""
	}
	return firstSentence(clean(firstParagraph(prose)))
}

// description is the comment's free text: the lines before the first line
// that starts with a block tag, else the body of @description / @summary.
func description(doc string) string {
	lines := strings.Split(doc, "\n")
	var pre []string
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "@") {
			break
		}
		pre = append(pre, l)
	}
	if s := strings.TrimSpace(strings.Join(pre, "\n")); s != "" {
		return s
	}
	for _, tag := range []string{"@description", "@summary"} {
		if s := tagText(lines, tag); s != "" {
			return s
		}
	}
	return ""
}

// tagText returns the text of a block tag: the rest of its line and the
// lines that follow until the next tag.
func tagText(lines []string, tag string) string {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t != tag && !strings.HasPrefix(t, tag+" ") && !strings.HasPrefix(t, tag+"\t") {
			continue
		}
		out := []string{strings.TrimSpace(strings.TrimPrefix(t, tag))}
		for _, m := range lines[i+1:] {
			if strings.HasPrefix(strings.TrimSpace(m), "@") {
				break
			}
			out = append(out, m)
		}
		return strings.TrimSpace(strings.Join(out, "\n"))
	}
	return ""
}

// firstParagraph cuts at the first blank line: a summary that ends in a colon
// or a list has no full stop, and the next paragraph is not part of it.
func firstParagraph(s string) string {
	s = strings.TrimSpace(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			return strings.Join(lines[:i], "\n")
		}
	}
	return s
}

var (
	inlineTag = regexp.MustCompile(`\{@(?:link|linkcode|linkplain|code)\s+([^}|\s]+)(?:\s*\|\s*|\s+)?([^}]*)\}`)
	mdLink    = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	htmlTag   = regexp.MustCompile(`</?[a-zA-Z][^>]*>`)
)

// clean replaces inline markup by the words a reader sees ({@link a | b} is
// b, {@link a} is a, [text](url) is text, tags vanish) and collapses space.
func clean(s string) string {
	s = inlineTag.ReplaceAllStringFunc(s, func(m string) string {
		sub := inlineTag.FindStringSubmatch(m)
		if t := strings.TrimSpace(sub[2]); t != "" {
			return t
		}
		return sub[1]
	})
	s = mdLink.ReplaceAllString(s, "$1")
	s = htmlTag.ReplaceAllString(s, "")
	return strings.Join(strings.Fields(s), " ")
}

// abbreviations end in a full stop without ending the sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true, "resp": true}

// firstSentence cuts s after the first '.', '!' or '?' that is followed by
// white space (or ends the text) and does not end an abbreviation; a dot
// inside a word (Array.prototype.map, 1.5) never ends a sentence.
func firstSentence(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		if i+1 < len(s) && !unicode.IsSpace(rune(s[i+1])) {
			continue
		}
		if c == '.' {
			start := strings.LastIndexByte(s[:i], ' ') + 1
			word := strings.ToLower(strings.TrimLeft(s[start:i], "(\"'`"))
			if abbreviations[word] {
				continue
			}
		}
		return strings.TrimSpace(s[:i+1])
	}
	return strings.TrimSpace(s)
}

// Words counts the words of a query: runs of letters or digits.
func Words(s string) int {
	return len(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
}

// Normalize is the key under which summaries are compared for
// duplicates: case, spacing and the final stop do not make two texts differ.
func Normalize(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimRight(s, ".!? ")
}
