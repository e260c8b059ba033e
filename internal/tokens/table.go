package tokens

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"hash/maphash"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// table holds o200k's merge ranks as one byte blob of the tokens in rank
// order and an open-addressing hash table of rank numbers over it. The
// library's loader built a map of 200,000 strings and then its encoder's
// own tables: about 120 ms of CPU and 60 MB in every process that counted
// one token, which was most of a one-file `scry search`. This is built in a
// few milliseconds, and holds no pointers for the garbage collector to scan.
type table struct {
	blob  []byte   // every token's bytes, in rank order
	off   []uint32 // token r is blob[off[r]:off[r+1]]
	slots []uint32 // rank+1 of the token hashed here; 0 is empty
	mask  uint64
	seed  maphash.Seed
}

// rank returns the merge rank of s, if s is a token.
func (t *table) rank(s string) (int, bool) {
	for i := maphash.String(t.seed, s) & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		r := v - 1
		if string(t.blob[t.off[r]:t.off[r+1]]) == s {
			return int(r), true
		}
	}
}

// loadTable reads the encoding's rank file ("<base64 token> <rank>" per
// line) from the tables the loader module embeds.
func loadTable(name string) (*table, error) {
	raw, err := assets.Assets.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("tokens: %w", err)
	}
	n := bytes.Count(raw, []byte{'\n'}) + 1
	t := &table{
		blob: make([]byte, 0, len(raw)/2),
		off:  make([]uint32, 1, n+1),
		seed: maphash.MakeSeed(),
	}
	for rest := raw; len(rest) > 0; {
		line := rest
		if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
			line, rest = rest[:nl], rest[nl+1:]
		} else {
			rest = nil
		}
		if len(line) == 0 {
			continue
		}
		sp := bytes.IndexByte(line, ' ')
		// Ranks are the line numbers in order; a file that says otherwise
		// is not the table this code was written for.
		if sp < 0 || !isDecimal(line[sp+1:], len(t.off)-1) {
			return nil, fmt.Errorf("tokens: %s line %d: rank missing or out of order", name, len(t.off))
		}
		t.blob, err = base64.StdEncoding.AppendDecode(t.blob, line[:sp])
		if err != nil {
			return nil, fmt.Errorf("tokens: %s line %d: %w", name, len(t.off), err)
		}
		t.off = append(t.off, uint32(len(t.blob)))
	}
	tokens := len(t.off) - 1
	size := 1
	for size < 2*tokens+1 { // at most half full: probes stay short
		size <<= 1
	}
	t.slots = make([]uint32, size)
	t.mask = uint64(size - 1)
	for r := range tokens {
		tok := t.blob[t.off[r]:t.off[r+1]]
		i := maphash.Bytes(t.seed, tok) & t.mask
		for t.slots[i] != 0 {
			if p := t.slots[i] - 1; bytes.Equal(t.blob[t.off[p]:t.off[p+1]], tok) {
				return nil, fmt.Errorf("tokens: %s: token of rank %d repeats rank %d", name, r, p)
			}
			i = (i + 1) & t.mask
		}
		t.slots[i] = uint32(r + 1)
	}
	return t, nil
}

// isDecimal reports whether b is n written in decimal.
func isDecimal(b []byte, n int) bool {
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
		v = v*10 + int(c-'0')
	}
	return len(b) > 0 && v == n
}
