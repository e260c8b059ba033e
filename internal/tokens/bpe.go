package tokens

import "math"

// pieceTokens counts the tokens byte-pair encoding makes of one piece,
// merging as tiktoken does: always the adjacent pair of lowest rank, the
// leftmost of equals, until no pair has a rank.
func pieceTokens(piece string, ranks map[string]int) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if _, ok := ranks[piece]; ok {
		return 1
	}
	// parts[i] is where part i starts; rank[i] is the rank of parts i and
	// i+1 merged (math.MaxInt: no such token).
	var starts [64]int
	var rankBuf [64]int
	parts, rank := starts[:0], rankBuf[:0]
	for i := 0; i <= len(piece); i++ {
		parts = append(parts, i)
		rank = append(rank, math.MaxInt)
	}
	pair := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, ok := ranks[piece[parts[i]:parts[i+skip+2]]]; ok {
				return r
			}
		}
		return math.MaxInt
	}
	for i := 0; i+2 < len(parts); i++ {
		rank[i] = pair(i, 0)
	}
	for len(parts) > 1 {
		best, at := math.MaxInt, -1
		for i := 0; i+1 < len(parts); i++ {
			if rank[i] < best {
				best, at = rank[i], i
			}
		}
		if at < 0 {
			break
		}
		rank[at] = pair(at, 1)
		if at > 0 {
			rank[at-1] = pair(at-1, 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
		rank = append(rank[:at+1], rank[at+2:]...)
	}
	return len(parts) - 1
}
