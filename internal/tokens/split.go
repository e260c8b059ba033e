package tokens

import (
	"unicode"
	"unicode/utf8"
)

// pieces cuts s as o200k's pre-tokenizer pattern does, calling emit for
// each piece in order. The pattern (as tiktoken-go states it) is
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n/]*
//	|\s*[\r\n]+
//	|\s+(?!\S)
//	|\s+
//
// matched by a backtracking engine: at each position the first alternative
// that matches wins. The library runs it through a general regex engine at
// about 2 MB/s, which made counting the largest cost of an answer; this
// walks the same choices directly. s must be valid UTF-8 (Count makes it
// so); the tests hold it equal to the library on real code, every rune
// class and fuzzed input.
func pieces(s string, emit func(string)) {
	for i := 0; i < len(s); {
		e := letters(s, i, upperThenLower)
		if e < 0 {
			e = letters(s, i, upperRun)
		}
		if e < 0 {
			e = digits(s, i)
		}
		if e < 0 {
			e = punctuation(s, i)
		}
		if e < 0 {
			e = spaces(s, i)
		}
		emit(s[i:e])
		i = e
	}
}

func runeAt(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isNumber(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsNumber(r)
}

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	return unicode.IsSpace(r)
}

// isUpperish is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
func isUpperish(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

// isLowerish is [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func isLowerish(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

// isLead is [^\r\n\p{L}\p{N}], the optional character before a word.
func isLead(r rune) bool {
	return r != '\r' && r != '\n' && !isLetter(r) && !isNumber(r)
}

// isSymbol is [^\s\p{L}\p{N}].
func isSymbol(r rune) bool {
	return !isSpace(r) && !isLetter(r) && !isNumber(r)
}

// letters matches the first (word) or second (capitals) alternative at i:
// an optional lead character, then the word, then a contraction. The lead
// is tried first, as the engine does.
func letters(s string, i int, word func(s string, j int) int) int {
	r, n := runeAt(s, i)
	if isLead(r) && i+n < len(s) {
		if e := word(s, i+n); e >= 0 {
			return contraction(s, e)
		}
	}
	if e := word(s, i); e >= 0 {
		return contraction(s, e)
	}
	return -1
}

// upperThenLower matches [upperish]*[lowerish]+ at j. The two classes
// share Lm, Lo and M, so when no lowerish character follows the upperish
// run the engine gives back its last characters until one of them can
// start the lowerish run; that character then ends the match, as what
// follows it is not lowerish.
func upperThenLower(s string, j int) int {
	k, lastLowerEnd := j, -1
	for k < len(s) {
		r, n := runeAt(s, k)
		if !isUpperish(r) {
			break
		}
		k += n
		if isLowerish(r) {
			lastLowerEnd = k
		}
	}
	if e := span(s, k, isLowerish); e > k {
		return e
	}
	return lastLowerEnd
}

// upperRun matches [upperish]+[lowerish]* at j.
func upperRun(s string, j int) int {
	k := span(s, j, isUpperish)
	if k == j {
		return -1
	}
	return span(s, k, isLowerish)
}

// span returns where the run of characters in class starting at k ends.
func span(s string, k int, class func(rune) bool) int {
	for k < len(s) {
		r, n := runeAt(s, k)
		if !class(r) {
			break
		}
		k += n
	}
	return k
}

// contraction extends a word ending at e by 's, 't, 're, 've, 'm, 'll or
// 'd, in any case.
func contraction(s string, e int) int {
	if e >= len(s) || s[e] != '\'' {
		return e
	}
	lower := func(k int) (rune, int) {
		if k >= len(s) {
			return 0, 0
		}
		r, n := runeAt(s, k)
		return unicode.ToLower(r), n
	}
	a, n := lower(e + 1)
	switch a {
	case 's', 't', 'm', 'd':
		return e + 1 + n
	case 'r', 'v', 'l':
		b, m := lower(e + 1 + n)
		if a == 'r' && b == 'e' || a == 'v' && b == 'e' || a == 'l' && b == 'l' {
			return e + 1 + n + m
		}
	}
	return e
}

// digits matches \p{N}{1,3}.
func digits(s string, i int) int {
	k := i
	for c := 0; c < 3 && k < len(s); c++ {
		r, n := runeAt(s, k)
		if !isNumber(r) {
			break
		}
		k += n
	}
	if k == i {
		return -1
	}
	return k
}

// punctuation matches " ?[^\s\p{L}\p{N}]+[\r\n/]*".
func punctuation(s string, i int) int {
	k := i
	if s[k] == ' ' && k+1 < len(s) {
		if r, _ := runeAt(s, k+1); isSymbol(r) {
			k++
		}
	}
	start := k
	if k = span(s, k, isSymbol); k == start {
		return -1
	}
	for k < len(s) && (s[k] == '\r' || s[k] == '\n' || s[k] == '/') {
		k++
	}
	return k
}

// spaces matches the last three alternatives at i, which must hold a
// space (every other character is matched above): through the last line
// break of the run of spaces; else the run without its last space when
// something follows it, so that the space starts the next word; else the
// whole run.
func spaces(s string, i int) int {
	k, lastBreak, lastStart := i, -1, i
	for k < len(s) {
		r, n := runeAt(s, k)
		if !isSpace(r) {
			break
		}
		if r == '\r' || r == '\n' {
			lastBreak = k + 1
		}
		lastStart = k
		k += n
	}
	switch {
	case lastBreak >= 0:
		return lastBreak
	case k == len(s) || lastStart == i:
		return k
	default:
		return lastStart
	}
}
