package tokens

import (
	"container/heap"
	"math"
)

// smallPiece is the length up to which the simple quadratic merge loop is
// used: for the short pieces real code is made of it is faster than a heap.
const smallPiece = 64

// pieceTokens counts the tokens byte-pair encoding makes of one piece,
// merging as tiktoken does: always the adjacent pair of lowest rank, the
// leftmost of equals, until no pair has a rank.
func pieceTokens(piece string, ranks *table) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if _, ok := ranks.rank(piece); ok {
		return 1
	}
	if len(piece) <= smallPiece {
		return mergeSmall(piece, ranks)
	}
	return mergeLarge(piece, ranks)
}

// mergeSmall scans for the best pair after every merge: quadratic in the
// length of the piece, so only for short ones.
func mergeSmall(piece string, ranks *table) int {
	// parts[i] is where part i starts; rank[i] is the rank of parts i and
	// i+1 merged (math.MaxInt: no such token).
	var starts [smallPiece + 1]int
	var rankBuf [smallPiece + 1]int
	parts, rank := starts[:0], rankBuf[:0]
	for i := 0; i <= len(piece); i++ {
		parts = append(parts, i)
		rank = append(rank, math.MaxInt)
	}
	pair := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, ok := ranks.rank(piece[parts[i]:parts[i+skip+2]]); ok {
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

// mergeLarge makes the same merges as mergeSmall in O(n log n): the parts
// are a linked list over byte offsets and the candidate pairs a heap
// ordered by (rank, start), which is "lowest rank, leftmost of equals"
// because starts grow from left to right. A candidate made stale by a
// neighbouring merge is recognised when it is popped (its parts no longer
// end where they did) and dropped. A piece can be as long as a file (one
// string literal of 800 KB), where the quadratic loop took minutes.
func mergeLarge(piece string, ranks *table) int {
	n := len(piece)
	// next[i] is where the part starting at i ends; prev[i] where the part
	// before it starts (-1 for the first). Only offsets that start a live
	// part are meaningful.
	next := make([]int, n)
	prev := make([]int, n)
	for i := range n {
		next[i] = i + 1
		prev[i] = i - 1
	}
	h := make(pairHeap, 0, n)
	push := func(start int) {
		mid := next[start]
		if mid >= n {
			return
		}
		end := next[mid]
		if r, ok := ranks.rank(piece[start:end]); ok {
			h = append(h, pairCand{rank: r, start: start, end: end})
		}
	}
	for i := 0; i+1 < n; i++ {
		push(i)
	}
	heap.Init(&h)
	parts := n
	for len(h) > 0 {
		c := heap.Pop(&h).(pairCand)
		// Stale unless start still begins a part made of the same two
		// parts: merges only ever join parts, so a live start whose next
		// two parts end at c.end spans the bytes the rank was looked up for.
		mid := next[c.start]
		if mid < 0 || mid >= n || next[mid] != c.end {
			continue
		}
		next[c.start] = c.end
		next[mid] = -1 // mid no longer starts a part
		if c.end < n {
			prev[c.end] = c.start
		}
		parts--
		if p := prev[c.start]; p >= 0 {
			if r, ok := ranks.rank(piece[p:c.end]); ok {
				heap.Push(&h, pairCand{rank: r, start: p, end: c.end})
			}
		}
		if c.end < n {
			e := next[c.end]
			if r, ok := ranks.rank(piece[c.start:e]); ok {
				heap.Push(&h, pairCand{rank: r, start: c.start, end: e})
			}
		}
	}
	return parts
}

type pairCand struct{ rank, start, end int }

type pairHeap []pairCand

func (h pairHeap) Len() int { return len(h) }
func (h pairHeap) Less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].start < h[j].start
}
func (h pairHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pairHeap) Push(x any)   { *h = append(*h, x.(pairCand)) }
func (h *pairHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
