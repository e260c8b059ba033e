package tokens

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"
)

// o200kTable is o200k's merge ranks laid out for lookup in place (see
// encodeTable), made from the tiktoken loader module's rank file by
// TestTableIsCurrent with -update. Building a lookup structure from the
// rank file in each process cost 12 ms of CPU, most of a one-file `scry
// search`; the library's own loader took 120 ms and 60 MB. This is read
// where it lies in the binary: loading it costs nothing, only the pages a
// lookup touches are read in, and the garbage collector never scans it.
//
//go:embed o200k.table
var o200kTable string

// Layout of an encoded table, little-endian:
//
//	magic (8 bytes) | n tokens (4) | slots (4, a power of two)
//	offsets: n+1 × uint32, token r is blob[off[r]:off[r+1]]
//	slots:   slots × uint32, rank+1 of the token hashed there, 0 empty
//	         (open addressing, linear probing, FNV-1a 32 of the token)
//	blob:    every token's bytes in rank order
const (
	tableMagic  = "o200kt1\x00"
	tableHeader = len(tableMagic) + 8
)

type table struct {
	data string
	// words is data seen as bytes, without a copy, for word loads: the
	// embedded string is read-only and nothing here writes to it.
	words                 []byte
	mask                  uint32
	offAt, slotAt, blobAt int
}

// newTable checks an encoded table's header and sizes.
func newTable(data string) (*table, error) {
	if len(data) < tableHeader || data[:len(tableMagic)] != tableMagic {
		return nil, errors.New("tokens: not an encoded rank table")
	}
	n := int(binary.LittleEndian.Uint32([]byte(data[8:12])))
	slots := int(binary.LittleEndian.Uint32([]byte(data[12:16])))
	t := &table{data: data, words: unsafe.Slice(unsafe.StringData(data), len(data)), mask: uint32(slots - 1), offAt: tableHeader}
	t.slotAt = t.offAt + 4*(n+1)
	t.blobAt = t.slotAt + 4*slots
	if slots <= n || slots&(slots-1) != 0 || t.blobAt > len(data) || t.blobAt+int(t.u32(t.offAt+4*n)) != len(data) {
		return nil, errors.New("tokens: rank table sizes do not add up")
	}
	return t, nil
}

func (t *table) u32(i int) uint32 {
	return binary.LittleEndian.Uint32(t.words[i:])
}

// rank returns the merge rank of s, if s is a token.
func (t *table) rank(s string) (int, bool) {
	for i := fnv32(s) & t.mask; ; i = (i + 1) & t.mask {
		v := t.u32(t.slotAt + 4*int(i))
		if v == 0 {
			return 0, false
		}
		r := int(v - 1)
		a, b := t.u32(t.offAt+4*r), t.u32(t.offAt+4*r+4)
		if t.data[t.blobAt+int(a):t.blobAt+int(b)] == s {
			return r, true
		}
	}
}

// fnv32 is FNV-1a: fixed (the slots are computed ahead of time) and quick
// on the few bytes a token has.
func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// encodeTable lays out tokens (in rank order) as newTable reads them, with
// slots at most half full so that the probes of a miss, the common case
// while merging, stay short.
func encodeTable(tokens []string) []byte {
	slots := 1
	for slots < 2*len(tokens)+1 {
		slots <<= 1
	}
	var blob []byte
	off := make([]uint32, 0, len(tokens)+1)
	off = append(off, 0)
	for _, tok := range tokens {
		blob = append(blob, tok...)
		off = append(off, uint32(len(blob)))
	}
	slot := make([]uint32, slots)
	for r, tok := range tokens {
		i := fnv32(tok) & uint32(slots-1)
		for slot[i] != 0 {
			i = (i + 1) & uint32(slots-1)
		}
		slot[i] = uint32(r + 1)
	}
	out := make([]byte, 0, tableHeader+4*(len(off)+slots)+len(blob))
	out = append(out, tableMagic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(tokens)))
	out = binary.LittleEndian.AppendUint32(out, uint32(slots))
	for _, o := range off {
		out = binary.LittleEndian.AppendUint32(out, o)
	}
	for _, s := range slot {
		out = binary.LittleEndian.AppendUint32(out, s)
	}
	return append(out, blob...)
}

// parseRankFile reads a tiktoken rank file ("<base64 token> <rank>" per
// line, ranks in order from 0) into the tokens in rank order.
func parseRankFile(raw []byte) ([]string, error) {
	var tokens []string
	seen := map[string]bool{}
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
		tok, rank, ok := bytes.Cut(line, []byte{' '})
		if !ok || string(rank) != fmt.Sprint(len(tokens)) {
			return nil, fmt.Errorf("tokens: rank file line %d: rank missing or out of order", len(tokens)+1)
		}
		b, err := base64.StdEncoding.DecodeString(string(tok))
		if err != nil {
			return nil, fmt.Errorf("tokens: rank file line %d: %w", len(tokens)+1, err)
		}
		if seen[string(b)] {
			return nil, fmt.Errorf("tokens: rank file line %d: token repeated", len(tokens)+1)
		}
		seen[string(b)] = true
		tokens = append(tokens, string(b))
	}
	return tokens, nil
}
