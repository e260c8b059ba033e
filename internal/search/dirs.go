package search

import "path"

// peerFiles is how many of the best files (each by its best candidate's
// score before the mark) count as strong; peerCap is the share of them
// beside a file that makes a full mark.
const (
	peerFiles = 10
	peerCap   = 3.0
)

// markPeers sets FDirPeers on every candidate: how strong the other files
// of its directory are among the query's best files. A subsystem lives in
// a directory (typeorm's persistence/, hono's router/reg-exp-router/), and
// a question about it is answered by several of its files, of which the
// words match some better than others; a file whose neighbours rank well
// is likelier part of the answer than an equally matched file alone
// elsewhere. Each strong file counts by exp(score − best file's score),
// so a neighbour far below the best counts for little, and the file's
// own strength is left to the other features. Like markCallees, the
// mark reads the model's first ranking: after a refit, dump again before
// fitting again.
func markPeers(m *Model, cands []Result, feats []Features) {
	if m == nil || len(cands) < 2 {
		return
	}
	dirWeight := map[string]float64{}
	own := map[string]float64{}
	for _, f := range strongFiles(m, cands, feats, peerFiles) {
		dirWeight[path.Dir(f.path)] += f.weight
		own[f.path] = f.weight
	}
	for i, c := range cands {
		p := c.Chunk.RelativePath
		peers := dirWeight[path.Dir(p)] - own[p]
		feats[i][FDirPeers] = min(max(peers, 0), peerCap) / peerCap
	}
}
