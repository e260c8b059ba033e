package terms

import "strings"

// Joiner writes the terms of texts as the index stores them: Split's
// terms, in order, separated by single spaces. It is what
// strings.Join(Split(text), " ") returns, computed faster for a caller that
// indexes a lot of code: each identifier's terms are remembered, joined, so
// an identifier met again (and code repeats its identifiers) costs one map
// lookup instead of being segmented, lowercased and looked up in the stem
// cache sub-word by sub-word; and no slice of terms is built.
//
// A Joiner is not safe for concurrent use: each goroutine keeps its own
// (the stem cache under it is shared).
type Joiner struct {
	ids   map[string]string // identifier run → its terms joined ("" none)
	terms []string          // scratch for an identifier not yet known
}

const (
	// joinerMax bounds the identifiers a Joiner remembers; it forgets
	// them all when full, as the stem cache does.
	joinerMax = 1 << 16
	// joinerIDMax: longer runs are mostly data (base64, hashes) met once;
	// they are split without being remembered.
	joinerIDMax = 48
)

// NewJoiner returns an empty Joiner.
func NewJoiner() *Joiner {
	return &Joiner{ids: make(map[string]string, 4096)}
}

// Append appends the terms of text to dst, separated by single spaces, with
// one space before the first when dst is not empty and text has any term.
// So appending several texts to one buffer gives the terms of the texts
// joined by "\n" (which no identifier crosses).
func (j *Joiner) Append(dst []byte, text string) []byte {
	// The scan for identifier runs is appendTermsWith's, with the
	// classification of ASCII bytes inlined.
	for i := 0; i < len(text); {
		if c := text[i]; c < 0x80 {
			if asciiClass[c] == clNone {
				i++
				continue
			}
		} else if _, w, cl := decode(text, i); cl == clNone {
			i += w
			continue
		}
		start := i
		for i < len(text) {
			if c := text[i]; c < 0x80 {
				if asciiClass[c] == clNone {
					break
				}
				i++
				continue
			}
			_, w, cl := decode(text, i)
			if cl == clNone {
				break
			}
			i += w
		}
		t := j.identifier(text[start:i])
		if t == "" {
			continue
		}
		if len(dst) > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, t...)
	}
	return dst
}

// identifier returns the joined terms of one identifier run.
func (j *Joiner) identifier(id string) string {
	if t, ok := j.ids[id]; ok {
		return t
	}
	s := splitterPool.Get().(*splitter)
	s.out = j.terms[:0]
	s.identifier(id)
	j.terms = s.out
	s.out = nil
	splitterPool.Put(s)
	var t string
	switch len(j.terms) {
	case 0:
	case 1:
		t = j.terms[0]
	default:
		t = strings.Join(j.terms, " ")
	}
	clear(j.terms)
	if len(id) <= joinerIDMax {
		if len(j.ids) >= joinerMax {
			clear(j.ids)
		}
		// A copy: id is a substring of the caller's text, which the
		// map would otherwise keep alive.
		j.ids[strings.Clone(id)] = t
	}
	return t
}
