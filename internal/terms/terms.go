// Package terms turns code and prose into the search terms that both the index
// and the queries use, so that a query word and an identifier fragment meet on
// the same string: identifiers are split at case, digit and separator
// boundaries, lowercased and stemmed with the English Porter2 stemmer.
//
// The split is deliberately symmetric: Split feeds the index and Query feeds
// the search, and both run the same normalisation, so any change here must be
// paired with a store schema version bump (stored terms would no longer match).
package terms

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

const (
	// Terms longer than this are almost always data (base64, hashes,
	// minified code) rather than words anyone searches for, and they bloat
	// the FTS vocabulary.
	maxTermBytes = 64
	// Long digit strings are literals (timestamps, magic numbers, ids) that
	// nobody types into a query; short ones (404, 2024, 256 in sha256) are
	// worth keeping.
	maxDigitRun = 6
)

// stopWords are prose function words. The list is kept small on purpose:
// words like "get", "set", "new", "not" or "all" carry meaning in code.
var stopWords = map[string]struct{}{
	"a": {}, "an": {}, "and": {}, "are": {}, "as": {}, "at": {}, "be": {},
	"been": {}, "by": {}, "did": {}, "do": {}, "does": {}, "for": {},
	"from": {}, "how": {}, "if": {}, "in": {}, "into": {}, "is": {}, "it": {},
	"its": {}, "of": {}, "on": {}, "or": {}, "so": {}, "than": {}, "that": {},
	"the": {}, "their": {}, "them": {}, "then": {}, "there": {}, "these": {},
	"this": {}, "those": {}, "to": {}, "was": {}, "we": {}, "were": {},
	"what": {}, "when": {}, "where": {}, "which": {}, "who": {}, "why": {},
	"with": {}, "you": {}, "your": {},
}

// IsStopWord reports whether a lowercased word is dropped by Split.
func IsStopWord(w string) bool {
	_, ok := stopWords[w]
	return ok
}

// Split extracts the terms of a piece of code or prose, in order and with
// repetitions (term frequency matters to BM25).
//
// Each identifier (a run of letters, digits, '_' and '$') is cut into
// sub-words at '_'/'$', lower→Upper, ACRONYM→Word (parseHTTPResponse → parse,
// http, response; a plural "s" stays with its acronym: URLs → urls) and
// letter↔digit boundaries (base64Encode → base, 64, encode). Sub-words are
// lowercased and stemmed; sub-words of one character, stop words, digit runs
// longer than six and anything over 64 bytes are dropped. Numeric literals
// with a radix prefix (0xff, 0b1010) are skipped whole.
//
// When an identifier was split into two or more sub-words, its whole form is
// emitted too, lowercased with the separators removed and not stemmed
// (validateToken → validat, token, validatetoken). That term lets an exact
// identifier in a query outrank documents that merely contain its words,
// and it makes userId, user_id and USER_ID the same term. It is not stemmed
// because stemming a compound only mangles its last word, and a compound is
// not an English word.
func Split(text string) []string {
	out := make([]string, 0, len(text)/8+1)
	return appendTerms(out, text)
}

// AppendSplit is Split appending to dst, for callers that split many texts
// in turn and reuse one slice.
func AppendSplit(dst []string, text string) []string {
	return appendTerms(dst, text)
}

// Query normalises a user query exactly as Split normalises indexed text,
// dropping repeated terms but keeping the order of first appearance.
func Query(q string) []string {
	all := Split(q)
	seen := make(map[string]struct{}, len(all))
	out := all[:0]
	for _, t := range all {
		if _, dup := seen[t]; dup {
			continue
		}
		seen[t] = struct{}{}
		out = append(out, t)
	}
	return out
}

// character classes inside an identifier
const (
	clNone  = iota // ends the identifier
	clSep          // '_' or '$': splits but belongs to the identifier
	clLower        // lowercase, or a letter/mark without case
	clUpper
	clDigit
)

var asciiClass [128]uint8

func init() {
	for c := 'a'; c <= 'z'; c++ {
		asciiClass[c] = clLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		asciiClass[c] = clUpper
	}
	for c := '0'; c <= '9'; c++ {
		asciiClass[c] = clDigit
	}
	asciiClass['_'] = clSep
	asciiClass['$'] = clSep
}

func classOf(r rune) uint8 {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	switch {
	case unicode.IsUpper(r):
		return clUpper
	case unicode.IsLetter(r), unicode.Is(unicode.Mn, r), unicode.Is(unicode.Mc, r):
		return clLower
	case unicode.IsDigit(r):
		return clDigit
	}
	return clNone
}

// decode returns the rune at text[i], its width and class, with an ASCII
// fast path because code is overwhelmingly ASCII.
func decode(text string, i int) (rune, int, uint8) {
	if c := text[i]; c < utf8.RuneSelf {
		return rune(c), 1, asciiClass[c]
	}
	r, w := utf8.DecodeRuneInString(text[i:])
	if r == utf8.RuneError && w <= 1 {
		return r, 1, clNone
	}
	return r, w, classOf(r)
}

// Initials is a set of ASCII first letters (lowercase) and digits.
type Initials [utf8.RuneSelf]bool

// InitialsOf are the first letters of terms (those that begin with ASCII).
func InitialsOf(ts []string) *Initials {
	var in Initials
	for _, t := range ts {
		if t != "" && t[0] < utf8.RuneSelf {
			in[t[0]] = true
		}
	}
	return &in
}

// SplitWanted is Split for a caller that only asks whether some terms
// occur: it leaves out the terms that cannot be among them because their
// first letter is not in want, and so skips lowercasing, stemming and
// joining most words. A term keeps its word's first letter (lowercased;
// the stemmer changes endings only), so every wanted term that Split would
// return, SplitWanted returns too. Words that begin with a non-ASCII
// letter are always kept.
func SplitWanted(text string, want *Initials) []string {
	s := splitterPool.Get().(*splitter)
	s.want = want
	return appendTermsWith(s, make([]string, 0, 8), text)
}

// splitter holds the per-call scratch space so a call allocates only the
// terms it returns.
type splitter struct {
	want   *Initials // nil: every term
	out    []string
	segs   [][2]int // byte ranges of sub-words inside the current identifier
	lower  []byte
	joined []byte
}

var splitterPool = sync.Pool{New: func() any { return new(splitter) }}

func appendTerms(out []string, text string) []string {
	return appendTermsWith(splitterPool.Get().(*splitter), out, text)
}

// unwanted says whether a word's terms cannot be wanted (see SplitWanted).
func (s *splitter) unwanted(w string) bool {
	if s.want == nil {
		return false
	}
	c := w[0]
	if c >= utf8.RuneSelf {
		return false
	}
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	return !s.want[c]
}

func appendTermsWith(s *splitter, out []string, text string) []string {
	s.out = out
	for i := 0; i < len(text); {
		_, w, cl := decode(text, i)
		if cl == clNone {
			i += w
			continue
		}
		start := i
		for i < len(text) {
			_, w, cl = decode(text, i)
			if cl == clNone {
				break
			}
			i += w
		}
		s.identifier(text[start:i])
	}
	out = s.out
	s.out, s.want = nil, nil
	splitterPool.Put(s)
	return out
}

// identifier emits the terms of one identifier run.
func (s *splitter) identifier(id string) {
	if len(id) > 2 && id[0] == '0' {
		switch id[1] {
		case 'x', 'X', 'b', 'B', 'o', 'O':
			return
		}
	}
	s.segs = segment(s.segs[:0], id)
	for _, sg := range s.segs {
		s.word(id[sg[0]:sg[1]])
	}
	if len(s.segs) < 2 || isDigit(id[0]) {
		// A run that starts with a digit is a literal (1e10, 100ms), not
		// a name anyone looks up whole.
		return
	}
	if s.unwanted(id[s.segs[0][0]:]) {
		return
	}
	s.joined = s.joined[:0]
	for _, sg := range s.segs {
		s.joined = appendLower(s.joined, id[sg[0]:sg[1]])
		if len(s.joined) > maxTermBytes {
			return
		}
	}
	if utf8.RuneCount(s.joined) < 2 {
		return
	}
	if _, stop := stopWords[string(s.joined)]; stop {
		return
	}
	s.out = append(s.out, string(s.joined))
}

// segment appends the byte ranges of the sub-words of id to segs.
func segment(segs [][2]int, id string) [][2]int {
	start := -1
	var prev uint8 = clNone
	for i := 0; i < len(id); {
		_, w, cl := decode(id, i)
		if cl == clSep {
			if start >= 0 {
				segs = append(segs, [2]int{start, i})
				start = -1
			}
			prev = clNone
			i += w
			continue
		}
		if start >= 0 && boundary(id, i, w, prev, cl) {
			segs = append(segs, [2]int{start, i})
			start = i
		}
		if start < 0 {
			start = i
		}
		prev = cl
		i += w
	}
	if start >= 0 {
		segs = append(segs, [2]int{start, len(id)})
	}
	return segs
}

// boundary reports whether a new sub-word starts at id[i] (class cl, width
// w) after a character of class prev.
func boundary(id string, i, w int, prev, cl uint8) bool {
	switch {
	case prev == cl:
		if cl != clUpper || i+w >= len(id) {
			return false
		}
		// ACRONYMWord: the last capital of a run starts the next word
		// (HTTPResponse → HTTP|Response), except for a plural "s"
		// (URLs, getIDs) which stays with the acronym.
		r, nw, next := decode(id, i+w)
		if next != clLower {
			return false
		}
		if r == 's' {
			if j := i + w + nw; j >= len(id) {
				return false
			} else if _, _, after := decode(id, j); after != clLower {
				return false
			}
		}
		return true
	case prev == clDigit || cl == clDigit:
		return true
	case prev == clLower && cl == clUpper:
		return true
	}
	// Upper→lower continues a word (Response).
	return false
}

func (s *splitter) word(w string) {
	if len(w) > maxTermBytes || s.unwanted(w) {
		return
	}
	if t := term(w, &s.lower); t != "" {
		s.out = append(s.out, t)
	}
}

// term returns the normalised form of one sub-word, or "" to drop it.
func term(w string, scratch *[]byte) string {
	if isDigit(w[0]) && (len(w) < 2 || len(w) > maxDigitRun) {
		// Digit sub-words are all digits: segment splits at letter↔digit.
		return ""
	}
	lw := appendLower((*scratch)[:0], w)
	*scratch = lw
	return cachedBytes(lw)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func appendLower(dst []byte, w string) []byte {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return append(dst, strings.ToLower(w[i:])...)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// normalise computes the term of a lowercased word (no cache).
func normalise(lw string) string {
	if utf8.RuneCountInString(lw) < 2 {
		return ""
	}
	if _, stop := stopWords[lw]; stop {
		return ""
	}
	ascii := true
	for i := 0; i < len(lw); i++ {
		if c := lw[i]; c < 'a' || c > 'z' {
			ascii = false
			break
		}
	}
	if !ascii {
		// The English stemmer would only damage other scripts and
		// digit-bearing words.
		return lw
	}
	st := english.Stem(lw, true)
	if len(st) < 2 {
		return lw
	}
	return st
}

// The stem cache makes Split fast: stemming costs about a microsecond, and
// code repeats a small vocabulary. It is cleared when full so a long-lived
// process indexing many repositories stays bounded.
const stemCacheMax = 1 << 17

var stemCache = struct {
	sync.RWMutex
	m map[string]string // lowercased word → term ("" = dropped)
}{m: make(map[string]string, 4096)}

func cachedBytes(lw []byte) string {
	stemCache.RLock()
	t, ok := stemCache.m[string(lw)]
	stemCache.RUnlock()
	if ok {
		return t
	}
	// A fresh string: a substring of the caller's text would pin it in the
	// cache.
	return store(string(lw))
}

func store(lw string) string {
	t := normalise(lw)
	stemCache.Lock()
	if len(stemCache.m) >= stemCacheMax {
		clear(stemCache.m)
	}
	stemCache.m[lw] = t
	stemCache.Unlock()
	return t
}
