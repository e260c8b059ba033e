package bench

import (
	"bufio"
	"fmt"
	"io"
	"sort"
)

// LocMetrics summarise one system on a set of instances, with the
// reference scorer's definitions.
type LocMetrics struct {
	N      int     `json:"n"`
	F1     float64 `json:"file_hit1"`
	F5     float64 `json:"file_hit5"`
	F10    float64 `json:"file_hit10"`
	FMRR   float64 `json:"file_mrr"`
	S1     float64 `json:"symbol_hit1"`
	S5     float64 `json:"symbol_hit5"`
	S10    float64 `json:"symbol_hit10"`
	SMRR   float64 `json:"symbol_mrr"`
	Files5 float64 `json:"files5"`
	Lines5 float64 `json:"lines5"`
}

// SummarizeLoc computes metrics from per-instance scores.
func SummarizeLoc(scores []LocScore) LocMetrics {
	m := LocMetrics{N: len(scores)}
	hit := func(r, k int) float64 {
		if r > 0 && r <= k {
			return 1
		}
		return 0
	}
	rr := func(r int) float64 {
		if r > 0 {
			return 1 / float64(r)
		}
		return 0
	}
	for _, s := range scores {
		m.F1 += hit(s.FileRank, 1)
		m.F5 += hit(s.FileRank, 5)
		m.F10 += hit(s.FileRank, 10)
		m.FMRR += rr(s.FileRank)
		m.S1 += hit(s.SymbolRank, 1)
		m.S5 += hit(s.SymbolRank, 5)
		m.S10 += hit(s.SymbolRank, 10)
		m.SMRR += rr(s.SymbolRank)
		m.Files5 += float64(s.Files5)
		m.Lines5 += float64(s.Lines5)
	}
	meansOver(len(scores), &m.F1, &m.F5, &m.F10, &m.FMRR, &m.S1, &m.S5, &m.S10, &m.SMRR, &m.Files5, &m.Lines5)
	return m
}

// AnswerMetrics summarise the default answers.
type AnswerMetrics struct {
	N              int     `json:"n"`
	GoldFile       float64 `json:"gold_file"`
	GoldFileOrLead float64 `json:"gold_file_or_lead"`
	GoldSymbol     float64 `json:"gold_symbol"`
	NoResults      float64 `json:"no_results"` // answered by leads alone
	Empty          float64 `json:"empty"`      // neither results nor leads
	MedianTokens   int     `json:"median_tokens"`
	MeanResults    float64 `json:"mean_results"`
}

// SummarizeAnswers aggregates the answers' figures over instances.
func SummarizeAnswers(as []LocAnswer) AnswerMetrics {
	m := AnswerMetrics{N: len(as)}
	toks := make([]int, 0, len(as))
	for _, a := range as {
		m.GoldFile += b2f(a.GoldFile)
		m.GoldFileOrLead += b2f(a.GoldFileOrLead)
		m.GoldSymbol += b2f(a.GoldSymbol)
		m.NoResults += b2f(a.Results == 0)
		m.Empty += b2f(a.Results == 0 && a.Leads == 0)
		m.MeanResults += float64(a.Results)
		toks = append(toks, a.Tokens)
	}
	meansOver(len(as), &m.GoldFile, &m.GoldFileOrLead, &m.GoldSymbol, &m.NoResults, &m.Empty, &m.MeanResults)
	m.MedianTokens = median(toks)
	return m
}

// LocReport is the localization benchmark's report.
type LocReport struct {
	Subsets []LocSubset `json:"subsets"`
	Results []LocResult `json:"results"`
}

// LocSubset is one row group: a split, optionally one repository or the
// instances whose query names a gold symbol.
type LocSubset struct {
	Name         string                `json:"name"`
	Systems      map[string]LocMetrics `json:"systems"`
	Answer       AnswerMetrics         `json:"answer"`
	V1Answer     AnswerMetrics         `json:"v1_answer"`
	HybridAnswer *AnswerMetrics        `json:"hybrid_answer,omitempty"`
	InCandidates float64               `json:"in_candidates"`
	// HybridInCandidates: the same for the hybrid pipeline (with an embedder).
	HybridInCandidates float64 `json:"hybrid_in_candidates,omitempty"`
}

// NewLocReport groups results by split, then by repository and by whether
// the query names a gold symbol.
func NewLocReport(results []LocResult) *LocReport {
	r := &LocReport{Results: results}
	splits := []string{"tune", "holdout"}
	for _, sp := range splits {
		var all []LocResult
		repos := map[string][]LocResult{}
		var mentions []LocResult
		for _, x := range results {
			if x.Split != sp {
				continue
			}
			all = append(all, x)
			repos[x.Repo] = append(repos[x.Repo], x)
			if x.Mentions {
				mentions = append(mentions, x)
			}
		}
		if len(all) == 0 {
			continue
		}
		r.Subsets = append(r.Subsets, locSubset(sp, all))
		if len(mentions) > 0 {
			r.Subsets = append(r.Subsets, locSubset(sp+", mentions_gold_symbol", mentions))
		}
		names := make([]string, 0, len(repos))
		for n := range repos {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			r.Subsets = append(r.Subsets, locSubset(sp+", "+n, repos[n]))
		}
	}
	return r
}

func locSubset(name string, rs []LocResult) LocSubset {
	s := LocSubset{Name: name, Systems: map[string]LocMetrics{}}
	for _, sys := range locSystems(rs) {
		var sc []LocScore
		for _, x := range rs {
			sc = append(sc, x.Scores[sys])
		}
		s.Systems[sys] = SummarizeLoc(sc)
	}
	var as, v1, hy []LocAnswer
	for _, x := range rs {
		as = append(as, x.Answer)
		v1 = append(v1, x.V1Answer)
		hy = append(hy, x.HybridAnswer)
		if x.InCandidates {
			s.InCandidates++
		}
		if x.HybridInCandidates {
			s.HybridInCandidates++
		}
	}
	if len(rs) > 0 {
		s.InCandidates /= float64(len(rs))
		s.HybridInCandidates /= float64(len(rs))
	}
	s.Answer, s.V1Answer = SummarizeAnswers(as), SummarizeAnswers(v1)
	if _, ok := s.Systems[LocHybrid]; ok {
		h := SummarizeAnswers(hy)
		s.HybridAnswer = &h
	}
	return s
}

// WriteText writes the report as Markdown tables.
func (r *LocReport) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "## Localization (real fix commits)\n\nSystems:\n\n")
	systems := locOrder
	if len(r.Subsets) > 0 && r.Subsets[0].HybridAnswer != nil {
		systems = append(append([]string(nil), locOrder...), LocVector, LocFused, LocHybrid)
	}
	for _, s := range systems {
		fmt.Fprintf(bw, "- `%s`: %s\n", s, locDescriptions[s])
	}
	for _, sub := range r.Subsets {
		m := sub.Systems[LocScry]
		fmt.Fprintf(bw, "\n### %s (n = %d)\n\n", sub.Name, m.N)
		fmt.Fprintf(bw, "| system | F@1 | F@5 | F@10 | F-MRR | S@1 | S@5 | S@10 | S-MRR | files@5 | lines@5 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, s := range systems {
			x := sub.Systems[s]
			fmt.Fprintf(bw, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.0f |\n",
				s, x.F1, x.F5, x.F10, x.FMRR, x.S1, x.S5, x.S10, x.SMRR, x.Files5, x.Lines5)
		}
		fmt.Fprintf(bw, "\nGold symbol among scry's candidates: %.3f", sub.InCandidates)
		if sub.HybridAnswer != nil {
			fmt.Fprintf(bw, " (hybrid: %.3f)", sub.HybridInCandidates)
		}
		fmt.Fprintf(bw, ".\n\n")
		fmt.Fprintf(bw, "| default answer | gold file in results | gold file in results or leads | gold symbol in results | leads only | empty | median tokens | mean results |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
		rows := []struct {
			name string
			a    AnswerMetrics
		}{{LocV1, sub.V1Answer}, {LocScry, sub.Answer}}
		if sub.HybridAnswer != nil {
			rows = append(rows, struct {
				name string
				a    AnswerMetrics
			}{LocHybrid, *sub.HybridAnswer})
		}
		for _, row := range rows {
			a := row.a
			fmt.Fprintf(bw, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %d | %.1f |\n",
				row.name, a.GoldFile, a.GoldFileOrLead, a.GoldSymbol, a.NoResults, a.Empty, a.MedianTokens, a.MeanResults)
		}
	}
	return bw.Flush()
}
