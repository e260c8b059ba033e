package bench

import (
	"context"

	"github.com/scry-dev/scry/internal/search"
)

// asked is what a pipeline makes of one query: its candidates, their ranked
// list, and the results and leads of the default answer.
type asked struct {
	cands   search.Candidates
	ranked  []search.Result
	results []search.Result
	leads   []search.Lead
}

// ask puts query to p as scry does (gather, rank with m, select the default
// answer) and keeps each stage's output, which the benchmarks score each in
// their own way.
func ask(ctx context.Context, p *search.Pipeline, m *search.Model, query string, params search.Params) (asked, error) {
	cands, err := p.Gather(ctx, search.Request{Query: query, Params: params})
	if err != nil {
		return asked{}, err
	}
	ranked := search.ApplyModel(m, cands)
	results, leads, err := p.Answer(ranked, cands.Unknown, params)
	if err != nil {
		return asked{}, err
	}
	return asked{cands: cands, ranked: ranked, results: results, leads: leads}, nil
}
