package search

import "strings"

// hubSources is how many of a question's best candidates (by the model's
// score before the mark) are read for calls, and are the names a call
// counts against; hubCalls is how many such calls make a full hub.
const (
	hubSources = 20
	hubCalls   = 2
)

// markHubs sets FHub on those of a question's strongest candidates that
// call other strong candidates by name. A question asks how something
// works ("how a request goes from fetch through routing to middleware",
// "how an action batches changes and suspends dependency tracking"); each
// strong candidate matches a part of it, and the code that ties the parts
// together — Hono's #dispatch calling the router's match and compose,
// mobx's _startAction calling startBatch and untrackedStart — is the one
// that calls them. Its own text often matches fewer of the words than the
// parts do. Only questions are marked (AsksQuestion): a fix or a
// description of behaviour asks for one piece of code, not for what
// connects several. Like markCallees, the mark reads the model's first
// ranking, so a refit must dump again before fitting again.
func markHubs(m *Model, cands []Result, feats []Features) {
	if m == nil || len(cands) < 2 {
		return
	}
	order := byScore(m, feats)
	top := order[:min(hubSources, len(order))]
	strong := make(map[string]bool, len(top))
	for _, i := range top {
		strong[hubName(cands[i].Chunk.Name)] = true
	}
	for _, i := range top {
		own := hubName(cands[i].Chunk.Name)
		n := 0
		for _, name := range calledNames(cands[i].Chunk.EmbeddingText) {
			if name := hubName(name); name != own && strong[name] {
				n++
			}
		}
		feats[i][FHub] = float64(min(n, hubCalls)) / hubCalls
	}
}

// hubName is the name a call and a chunk meet on: the last part of a
// chunk's name, without a private name's '#' (`this.#dispatch(…)` calls
// the method `#dispatch`).
func hubName(name string) string {
	return strings.TrimPrefix(simpleName(name), "#")
}
