package search

import (
	"strings"
	"unicode"
)

// acronyms are the short forms code spells for phrases a question writes
// out: asked "how are command line flags turned into options", the answer
// is translate-cli-options.js, and "regular expression" is RegExp in code.
// Only phrases of two or more words are listed: a one-word abbreviation
// (image/img, directory/dir) matches everywhere its short form is common
// and was measured to hurt as much as it helps (BENCHMARKS.md). Each short
// form is one term as the index splits it (a numeronym such as i18n is
// not: its digits split it).
var acronyms = []struct {
	phrase []string // lowercase words; the last may take a plural s
	short  []string // terms added to the query
}{
	{[]string{"abstract", "syntax", "tree"}, []string{"ast"}},
	{[]string{"application", "programming", "interface"}, []string{"api"}},
	{[]string{"command", "line"}, []string{"cli"}},
	{[]string{"regular", "expression"}, []string{"regexp", "regex"}},
	{[]string{"server", "side", "rendering"}, []string{"ssr"}},
	{[]string{"static", "site", "generation"}, []string{"ssg"}},
	{[]string{"hot", "module", "replacement"}, []string{"hmr"}},
	{[]string{"hot", "module", "reloading"}, []string{"hmr"}},
	{[]string{"time", "to", "live"}, []string{"ttl"}},
	{[]string{"json", "web", "token"}, []string{"jwt"}},
	{[]string{"cross", "site", "request", "forgery"}, []string{"csrf"}},
	{[]string{"cross", "site", "scripting"}, []string{"xss"}},
	{[]string{"cross", "origin", "resource", "sharing"}, []string{"cors"}},
	{[]string{"content", "security", "policy"}, []string{"csp"}},
	{[]string{"document", "object", "model"}, []string{"dom"}},
	{[]string{"virtual", "dom"}, []string{"vdom"}},
	{[]string{"least", "recently", "used"}, []string{"lru"}},
	{[]string{"first", "in", "first", "out"}, []string{"fifo"}},
	{[]string{"last", "in", "first", "out"}, []string{"lifo"}},
	{[]string{"domain", "name", "system"}, []string{"dns"}},
	{[]string{"single", "sign", "on"}, []string{"sso"}},
	{[]string{"uniform", "resource", "locator"}, []string{"url"}},
	{[]string{"uniform", "resource", "identifier"}, []string{"uri"}},
	{[]string{"universally", "unique", "identifier"}, []string{"uuid"}},
	{[]string{"globally", "unique", "identifier"}, []string{"guid"}},
	{[]string{"transport", "layer", "security"}, []string{"tls"}},
	{[]string{"secure", "sockets", "layer"}, []string{"ssl"}},
	{[]string{"server", "sent", "event"}, []string{"sse"}},
	{[]string{"byte", "order", "mark"}, []string{"bom"}},
	{[]string{"entity", "tag"}, []string{"etag"}},
	{[]string{"just", "in", "time"}, []string{"jit"}},
	{[]string{"ahead", "of", "time"}, []string{"aot"}},
	{[]string{"garbage", "collection"}, []string{"gc"}},
	{[]string{"object", "relational", "mapping"}, []string{"orm"}},
	{[]string{"object", "relational", "mapper"}, []string{"orm"}},
	{[]string{"remote", "procedure", "call"}, []string{"rpc"}},
	{[]string{"user", "interface"}, []string{"ui"}},
	{[]string{"operating", "system"}, []string{"os"}},
	{[]string{"right", "to", "left"}, []string{"rtl"}},
	{[]string{"multi", "factor", "authentication"}, []string{"mfa"}},
	{[]string{"one", "time", "password"}, []string{"otp"}},
	{[]string{"hash", "based", "message", "authentication", "code"}, []string{"hmac"}},
	{[]string{"content", "delivery", "network"}, []string{"cdn"}},
	{[]string{"web", "assembly"}, []string{"wasm"}},
}

// withAcronyms returns q with the short forms of the phrases it writes out
// appended, each once and only when q does not already spell it.
func withAcronyms(q string) string {
	words := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	have := make(map[string]bool, len(words))
	for _, w := range words {
		have[w] = true
	}
	var add []string
	for _, a := range acronyms {
		if !containsPhrase(words, a.phrase) {
			continue
		}
		for _, s := range a.short {
			if !have[s] {
				have[s] = true
				add = append(add, s)
			}
		}
	}
	if len(add) == 0 {
		return q
	}
	return q + " " + strings.Join(add, " ")
}

// containsPhrase says whether phrase occurs in words as consecutive words,
// its last word also in the plural ("regular expressions").
func containsPhrase(words, phrase []string) bool {
	n := len(phrase)
	for i := 0; i+n <= len(words); i++ {
		match := true
		for j, p := range phrase {
			w := words[i+j]
			if w != p && (j != n-1 || w != p+"s") {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
