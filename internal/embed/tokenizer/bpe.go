package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/dlclark/regexp2"
	"golang.org/x/text/unicode/norm"
)

// bpeModel is a byte-level (or plain) BPE tokenizer as the reference
// implementation runs it: added tokens split out first, then normalizer,
// pre-tokenizer pieces, and BPE merges inside each piece by merge rank.
type bpeModel struct {
	vocab     map[string]int
	ranks     map[[2]string]int
	unk       string
	fuseUnk   bool
	byteFB    bool
	ignoreMrg bool
	prefix    string // continuing_subword_prefix
	suffix    string // end_of_word_suffix

	added   []addedToken // longest first
	norm    func(string) string
	pretok  []func([]string) ([]string, error)
	byteLvl bool // pieces are mapped to byte-level characters

	mu    sync.Mutex
	cache map[string][]int64
}

type bpeFile struct {
	Model struct {
		Vocab                   map[string]int  `json:"vocab"`
		Merges                  json.RawMessage `json:"merges"`
		UnkToken                *string         `json:"unk_token"`
		ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
		EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
		FuseUnk                 bool            `json:"fuse_unk"`
		ByteFallback            bool            `json:"byte_fallback"`
		IgnoreMerges            bool            `json:"ignore_merges"`
		Dropout                 *float64        `json:"dropout"`
	} `json:"model"`
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	AddedTokens  []addedToken    `json:"added_tokens"`
}

func newBPE(data []byte) (*bpeModel, error) {
	var f bpeFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("BPE model: %w", err)
	}
	m := &bpeModel{vocab: f.Model.Vocab, ranks: map[[2]string]int{}, fuseUnk: f.Model.FuseUnk,
		byteFB: f.Model.ByteFallback, ignoreMrg: f.Model.IgnoreMerges, cache: map[string][]int64{}}
	if m.vocab == nil {
		return nil, errors.New("BPE model has no vocab")
	}
	if f.Model.UnkToken != nil {
		m.unk = *f.Model.UnkToken
	}
	if f.Model.ContinuingSubwordPrefix != nil {
		m.prefix = *f.Model.ContinuingSubwordPrefix
	}
	if f.Model.EndOfWordSuffix != nil {
		m.suffix = *f.Model.EndOfWordSuffix
	}
	// Merges are "a b" strings in older files and ["a", "b"] pairs in
	// newer ones (which allows spaces inside tokens).
	var asStrings []string
	var asPairs [][2]string
	if err := json.Unmarshal(f.Model.Merges, &asStrings); err == nil {
		for i, s := range asStrings {
			a, b, ok := strings.Cut(s, " ")
			if !ok {
				return nil, fmt.Errorf("BPE merge %d %q is not two tokens", i, s)
			}
			m.addMerge(a, b, i)
		}
	} else if err := json.Unmarshal(f.Model.Merges, &asPairs); err == nil {
		for i, p := range asPairs {
			m.addMerge(p[0], p[1], i)
		}
	} else {
		return nil, fmt.Errorf("BPE merges: %w", err)
	}
	for _, t := range f.AddedTokens {
		if t.Content != "" {
			m.added = append(m.added, t)
			m.vocab[t.Content] = t.ID
		}
	}
	sort.SliceStable(m.added, func(i, j int) bool { return len(m.added[i].Content) > len(m.added[j].Content) })
	var err error
	if m.norm, err = parseNormalizer(f.Normalizer); err != nil {
		return nil, fmt.Errorf("normalizer: %w", err)
	}
	if err := m.parsePreTokenizer(f.PreTokenizer); err != nil {
		return nil, fmt.Errorf("pre_tokenizer: %w", err)
	}
	return m, nil
}

func (m *bpeModel) addMerge(a, b string, rank int) {
	k := [2]string{a, b}
	if _, dup := m.ranks[k]; !dup {
		m.ranks[k] = rank
	}
}

func (m *bpeModel) encode(text string) ([]int64, error) {
	var ids []int64
	for _, seg := range m.splitAdded(text) {
		if seg.id >= 0 {
			ids = append(ids, int64(seg.id))
			continue
		}
		s := m.norm(seg.text)
		pieces := []string{s}
		for _, p := range m.pretok {
			var err error
			if pieces, err = p(pieces); err != nil {
				return nil, err
			}
		}
		for _, p := range pieces {
			if p == "" {
				continue
			}
			ids = append(ids, m.word(p)...)
		}
	}
	return ids, nil
}

type segment struct {
	text string
	id   int // >= 0 for an added token
}

// splitAdded cuts out added tokens (e.g. <|endoftext|>) matched literally.
func (m *bpeModel) splitAdded(text string) []segment {
	if len(m.added) == 0 {
		return []segment{{text: text, id: -1}}
	}
	var out []segment
	start := 0
	for i := 0; i < len(text); {
		matched := false
		for _, t := range m.added {
			if strings.HasPrefix(text[i:], t.Content) {
				if start < i {
					out = append(out, segment{text: text[start:i], id: -1})
				}
				out = append(out, segment{id: t.ID})
				i += len(t.Content)
				start = i
				matched = true
				break
			}
		}
		if !matched {
			i++
		}
	}
	if start < len(text) {
		out = append(out, segment{text: text[start:], id: -1})
	}
	return out
}

// word runs BPE over one pre-tokenized piece.
func (m *bpeModel) word(w string) []int64 {
	m.mu.Lock()
	if ids, ok := m.cache[w]; ok {
		m.mu.Unlock()
		return ids
	}
	m.mu.Unlock()
	ids := m.merge(w)
	m.mu.Lock()
	if len(m.cache) > 200_000 {
		m.cache = map[string][]int64{}
	}
	m.cache[w] = ids
	m.mu.Unlock()
	return ids
}

func (m *bpeModel) merge(w string) []int64 {
	if m.ignoreMrg {
		if id, ok := m.vocab[w]; ok {
			return []int64{int64(id)}
		}
	}
	runes := []rune(w)
	syms := make([]string, len(runes))
	for i, r := range runes {
		s := string(r)
		if i > 0 && m.prefix != "" {
			s = m.prefix + s
		}
		if i == len(runes)-1 && m.suffix != "" {
			s += m.suffix
		}
		syms[i] = s
	}
	// Merge the lowest-ranked adjacent pair (leftmost on ties) until none
	// is in the merge table: the order the reference's priority queue
	// produces.
	for len(syms) > 1 {
		best, at := -1, -1
		for i := 0; i+1 < len(syms); i++ {
			if r, ok := m.ranks[[2]string{syms[i], syms[i+1]}]; ok && (best < 0 || r < best) {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		merged := syms[at] + strings.TrimPrefix(syms[at+1], m.prefix)
		syms = append(syms[:at+1], syms[at+2:]...)
		syms[at] = merged
	}
	var ids []int64
	lastUnk := false
	for _, s := range syms {
		if id, ok := m.vocab[s]; ok {
			ids = append(ids, int64(id))
			lastUnk = false
			continue
		}
		if m.byteFB {
			ok := true
			var fb []int64
			for _, b := range []byte(strings.TrimPrefix(s, m.prefix)) {
				id, found := m.vocab[fmt.Sprintf("<0x%02X>", b)]
				if !found {
					ok = false
					break
				}
				fb = append(fb, int64(id))
			}
			if ok {
				ids = append(ids, fb...)
				lastUnk = false
				continue
			}
		}
		if id, ok := m.vocab[m.unk]; ok && m.unk != "" {
			if !(m.fuseUnk && lastUnk) {
				ids = append(ids, int64(id))
			}
			lastUnk = true
		}
	}
	return ids
}

// parseNormalizer supports the normalizers BPE embedding models use.
func parseNormalizer(raw json.RawMessage) (func(string) string, error) {
	id := func(s string) string { return s }
	if len(raw) == 0 || string(raw) == "null" {
		return id, nil
	}
	var n struct {
		Type        string            `json:"type"`
		Normalizers []json.RawMessage `json:"normalizers"`
		Pattern     map[string]string `json:"pattern"`
		Content     string            `json:"content"`
		Prepend     string            `json:"prepend"`
		StripLeft   bool              `json:"left"`
		StripRight  bool              `json:"right"`
	}
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, err
	}
	switch n.Type {
	case "NFC":
		return norm.NFC.String, nil
	case "NFD":
		return norm.NFD.String, nil
	case "NFKC":
		return norm.NFKC.String, nil
	case "NFKD":
		return norm.NFKD.String, nil
	case "Lowercase":
		return strings.ToLower, nil
	case "Prepend":
		return func(s string) string {
			if s == "" {
				return s
			}
			return n.Prepend + s
		}, nil
	case "Strip":
		return func(s string) string {
			if n.StripLeft {
				s = strings.TrimLeftFunc(s, unicode.IsSpace)
			}
			if n.StripRight {
				s = strings.TrimRightFunc(s, unicode.IsSpace)
			}
			return s
		}, nil
	case "Replace":
		if lit, ok := n.Pattern["String"]; ok {
			return func(s string) string { return strings.ReplaceAll(s, lit, n.Content) }, nil
		}
		re, err := compile(n.Pattern["Regex"])
		if err != nil {
			return nil, err
		}
		return func(s string) string {
			out, err := re.Replace(s, n.Content, -1, -1)
			if err != nil {
				return s
			}
			return out
		}, nil
	case "Sequence":
		var fs []func(string) string
		for _, r := range n.Normalizers {
			f, err := parseNormalizer(r)
			if err != nil {
				return nil, err
			}
			fs = append(fs, f)
		}
		return func(s string) string {
			for _, f := range fs {
				s = f(s)
			}
			return s
		}, nil
	}
	return nil, fmt.Errorf("unsupported normalizer %q for a BPE model", n.Type)
}

// gpt2Split is the GPT-2 pre-tokenizer pattern ByteLevel uses when
// use_regex is on. The lookahead (?!\S) keeps the last space of a run for
// the next word; RE2 cannot express it, regexp2 can.
const gpt2Split = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

func compile(pattern string) (*regexp2.Regexp, error) {
	re, err := regexp2.Compile(pattern, regexp2.None)
	if err != nil {
		return nil, fmt.Errorf("regex %q: %w", pattern, err)
	}
	// A pathological pattern must not hang indexing.
	re.MatchTimeout = 5 * time.Second
	return re, nil
}

func (m *bpeModel) parsePreTokenizer(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var p struct {
		Type             string            `json:"type"`
		PreTokenizers    []json.RawMessage `json:"pretokenizers"`
		AddPrefixSpace   bool              `json:"add_prefix_space"`
		UseRegex         *bool             `json:"use_regex"`
		Pattern          map[string]string `json:"pattern"`
		Behavior         string            `json:"behavior"`
		Invert           bool              `json:"invert"`
		IndividualDigits bool              `json:"individual_digits"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	switch p.Type {
	case "Sequence":
		for _, r := range p.PreTokenizers {
			if err := m.parsePreTokenizer(r); err != nil {
				return err
			}
		}
		return nil
	case "ByteLevel":
		m.byteLvl = true
		useRegex := p.UseRegex == nil || *p.UseRegex
		var re *regexp2.Regexp
		if useRegex {
			var err error
			if re, err = compile(gpt2Split); err != nil {
				return err
			}
		}
		add := p.AddPrefixSpace
		m.pretok = append(m.pretok, func(in []string) ([]string, error) {
			var out []string
			for _, s := range in {
				if add && !strings.HasPrefix(s, " ") {
					s = " " + s
				}
				parts := []string{s}
				if re != nil {
					var err error
					if parts, err = split(re, s, "Isolated", false); err != nil {
						return nil, err
					}
				}
				for _, x := range parts {
					out = append(out, byteLevel(x))
				}
			}
			return out, nil
		})
		return nil
	case "Split":
		var re *regexp2.Regexp
		var err error
		if lit, ok := p.Pattern["String"]; ok {
			re, err = compile(regexp2.Escape(lit))
		} else {
			re, err = compile(p.Pattern["Regex"])
		}
		if err != nil {
			return err
		}
		behavior, invert := p.Behavior, p.Invert
		m.pretok = append(m.pretok, eachPiece(func(s string) ([]string, error) { return split(re, s, behavior, invert) }))
		return nil
	case "Digits":
		pat := `\p{N}+`
		if p.IndividualDigits {
			pat = `\p{N}`
		}
		re, err := compile(pat)
		if err != nil {
			return err
		}
		m.pretok = append(m.pretok, eachPiece(func(s string) ([]string, error) { return split(re, s, "Isolated", false) }))
		return nil
	case "Whitespace":
		re, err := compile(`\w+|[^\w\s]+`)
		if err != nil {
			return err
		}
		// The pattern matches the words to keep: the whitespace between
		// them is the delimiter, removed.
		m.pretok = append(m.pretok, eachPiece(func(s string) ([]string, error) { return split(re, s, "Removed", true) }))
		return nil
	case "WhitespaceSplit":
		m.pretok = append(m.pretok, eachPiece(func(s string) ([]string, error) { return strings.Fields(s), nil }))
		return nil
	}
	return fmt.Errorf("unsupported pre-tokenizer %q for a BPE model", p.Type)
}

// eachPiece lifts a per-piece splitter to the whole piece list.
func eachPiece(f func(string) ([]string, error)) func([]string) ([]string, error) {
	return func(in []string) ([]string, error) {
		var out []string
		for _, s := range in {
			parts, err := f(s)
			if err != nil {
				return nil, err
			}
			out = append(out, parts...)
		}
		return out, nil
	}
}

// split cuts s at the matches of re, as the reference's Split
// pre-tokenizer does for each behaviour. With invert the matches are the
// pieces to keep and the gaps the delimiters.
func split(re *regexp2.Regexp, s, behavior string, invert bool) ([]string, error) {
	runes := []rune(s)
	type span struct {
		lo, hi int
		match  bool
	}
	var spans []span
	prev := 0
	m, err := re.FindRunesMatch(runes)
	for ; err == nil && m != nil; m, err = re.FindNextMatch(m) {
		lo, hi := m.Index, m.Index+m.Length
		if hi == lo {
			continue
		}
		if lo > prev {
			spans = append(spans, span{prev, lo, false})
		}
		spans = append(spans, span{lo, hi, true})
		prev = hi
	}
	if err != nil {
		return nil, fmt.Errorf("pre-tokenizer regex: %w", err)
	}
	if prev < len(runes) {
		spans = append(spans, span{prev, len(runes), false})
	}
	if invert {
		for i := range spans {
			spans[i].match = !spans[i].match
		}
	}
	var out []string
	str := func(sp span) string { return string(runes[sp.lo:sp.hi]) }
	switch behavior {
	case "Removed":
		for _, sp := range spans {
			if !sp.match {
				out = append(out, str(sp))
			}
		}
	case "Isolated", "":
		for _, sp := range spans {
			out = append(out, str(sp))
		}
	case "MergedWithPrevious":
		for _, sp := range spans {
			if sp.match && len(out) > 0 {
				out[len(out)-1] += str(sp)
			} else {
				out = append(out, str(sp))
			}
		}
	case "MergedWithNext":
		pending := ""
		for _, sp := range spans {
			if sp.match {
				pending += str(sp)
				continue
			}
			out = append(out, pending+str(sp))
			pending = ""
		}
		if pending != "" {
			out = append(out, pending)
		}
	case "Contiguous":
		lastMatch := false
		for _, sp := range spans {
			if sp.match && lastMatch {
				out[len(out)-1] += str(sp)
			} else {
				out = append(out, str(sp))
			}
			lastMatch = sp.match
		}
	default:
		return nil, fmt.Errorf("unsupported split behavior %q", behavior)
	}
	return out, nil
}

// byteChars maps each byte to the printable character GPT-2's byte-level
// BPE uses for it (bytes_to_unicode).
var byteChars = func() [256]rune {
	var t [256]rune
	n := 0
	for b := 0; b < 256; b++ {
		switch {
		case b >= '!' && b <= '~', b >= 0xA1 && b <= 0xAC, b >= 0xAE && b <= 0xFF:
			t[b] = rune(b)
		default:
			t[b] = rune(256 + n)
			n++
		}
	}
	return t
}()

func byteLevel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(byteChars[s[i]])
	}
	return b.String()
}
