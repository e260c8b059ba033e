package bench

import (
	"fmt"
	"io"
	"slices"
)

// ForeignSplit is the split of a question asked of a repository other than
// its own (ForeignQuestions): it has no answer there.
const ForeignSplit = "foreign"

// foreignOffsets pick the repositories whose questions one is asked: the
// next one and the fifth next one in the set's order, so that each is
// asked by two others and no repository only by its neighbour.
var foreignOffsets = []int{1, 5}

// ForeignQuestions are the questions each of asked is asked from other
// repositories of all (the next and the fifth next in all's order, distinct
// and never itself): none is answered in the repository asked, so their
// answers show what scry says when a codebase holds no answer. Each keeps
// its query and category (as "foreign-<category>") and has no gold.
func ForeignQuestions(all, asked []QuestionRepo, ins []Instance) []Instance {
	byRepo := map[string][]Instance{}
	for _, in := range ins {
		byRepo[in.Repo] = append(byRepo[in.Repo], in)
	}
	var out []Instance
	for _, r := range asked {
		at := slices.IndexFunc(all, func(a QuestionRepo) bool { return a.Repo == r.Repo })
		if at < 0 {
			continue
		}
		seen := map[int]bool{at: true}
		for _, off := range foreignOffsets {
			j := (at + off) % len(all)
			if seen[j] {
				continue
			}
			seen[j] = true
			for _, q := range byRepo[all[j].Repo] {
				out = append(out, Instance{ID: "foreign:" + r.Name + ":" + q.ID, Repo: r.Repo, Split: ForeignSplit,
					BaseCommit: r.Revision, Query: q.Query, Category: "foreign-" + q.Category, Root: r.root()})
			}
		}
	}
	return out
}

// ForeignAnswers summarise the default answers to foreign questions, per
// category: how many carried code (a full result), and how many said the
// name asked for is not in the index.
type ForeignAnswers struct {
	Category      string `json:"category"`
	N             int    `json:"n"`
	WithCode      int    `json:"with_code"`
	Unknown       int    `json:"unknown"`
	MedianResults int    `json:"median_results"`
	MedianTokens  int    `json:"median_tokens"`
}

func summarizeForeign(category string, as []QuestionAnswer) ForeignAnswers {
	f := ForeignAnswers{Category: category, N: len(as)}
	var res, toks []int
	for _, a := range as {
		if a.Results > 0 {
			f.WithCode++
		}
		if a.Unknown {
			f.Unknown++
		}
		res = append(res, a.Results)
		toks = append(toks, a.Tokens)
	}
	f.MedianResults, f.MedianTokens = median(res), median(toks)
	return f
}

func writeForeign(b io.Writer, title string, fs []ForeignAnswers) {
	fmt.Fprintf(b, "\n### %s\n\n| set | n | answers with code | name not in the index | median results | median tokens |\n|---|---:|---:|---:|---:|---:|\n", title)
	for _, f := range fs {
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d |\n", f.Category, f.N, f.WithCode, f.Unknown, f.MedianResults, f.MedianTokens)
	}
}
