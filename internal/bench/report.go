package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The text reports are Markdown tables, so that a run pastes into
// BENCHMARKS.md as it is.

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

func metricCells(m *Metrics) string {
	if m == nil {
		return "– | – | – | –"
	}
	return fmt.Sprintf("%s | %s | %s | %.3f", pct(m.Hit1), pct(m.Hit5), pct(m.Hit10), m.MRR)
}

const systemsHeader = "| system | sym H@1 | sym H@5 | sym H@10 | sym MRR | file H@1 | file H@5 | file H@10 | file MRR |\n" +
	"|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"

// WriteText writes the report as Markdown.
func (r *QualityReport) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	files, lines, bytes := 0, 0, int64(0)
	for _, p := range r.Packages {
		files += p.Files
		lines += p.Lines
		bytes += p.Bytes
	}
	fmt.Fprintf(bw, "## Retrieval quality\n\n")
	capText := fmt.Sprintf("at most %d per package", r.PerPackage)
	if r.PerPackage < 0 {
		capText = "no cap per package"
	}
	fmt.Fprintf(bw, "%d queries from %d packages (seed %d, %s); corpus %d files, %d lines, %.1f MB; "+
		"indexed in %.1f s (%d files, %d chunks, %d skipped).\n",
		r.Queries, len(r.Packages), r.Seed, capText, files, lines, float64(bytes)/1e6,
		r.Index.Seconds, r.Index.Files, r.Index.Chunks, r.Index.Skipped)
	fmt.Fprintf(bw, "Queries that name their answer: %s. Sampled answers dropped (parser no longer finds the symbol once its JSDoc is blank): %d.\n\n",
		pct(r.NamesAnswer), r.Dropped)

	fmt.Fprintf(bw, "| package | version | files | lines | documented functions | queries |\n|---|---|---:|---:|---:|---:|\n")
	for _, p := range r.Packages {
		fmt.Fprintf(bw, "| %s | %s | %d | %d | %d | %d |\n", p.Name, p.Version, p.Files, p.Lines, p.Documented, p.Queries)
	}

	fmt.Fprintf(bw, "\n### Ranked lists, all queries (top %d before the gate and budget)\n\n", TopK)
	bw.WriteString(systemsHeader)
	for _, s := range r.Systems {
		fmt.Fprintf(bw, "| %s | %s | %s |\n", s.Name, metricCells(s.Symbol), metricCells(&s.File))
	}
	fmt.Fprintf(bw, "\nhybrid: %s\n\n", r.Hybrid)
	for _, h := range r.HeadToHead {
		fmt.Fprintf(bw, "File rank, query by query, %s vs %s: better on %d, worse on %d, tied on %d.\n", h.A, h.B, h.Better, h.Worse, h.Tied)
	}
	bw.WriteString("\n")
	for _, s := range r.Systems {
		fmt.Fprintf(bw, "- `%s`: %s\n", s.Name, s.Description)
	}

	fmt.Fprintf(bw, "\n### Default selection (threshold %.2g, budget %d tokens, %d candidates)\n\n",
		r.Params.Threshold, r.Params.Budget, r.Params.Candidates)
	fmt.Fprintf(bw, "| package | n | answer selected | answer's file selected | nothing selected | mean results | mean tokens | answer in candidates |\n")
	fmt.Fprintf(bw, "|---|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, s SelectionMetrics) {
		fmt.Fprintf(bw, "| %s | %d | %s | %s | %s | %.2f | %.0f | %s |\n", name, s.N, pct(s.AnswerSelected),
			pct(s.FileSelected), pct(s.Empty), s.MeanResults, s.MeanTokens, pct(s.CandidateRecall))
	}
	row("all", r.Selection)
	for _, s := range r.SelectionP {
		row(s.Package, s)
	}
	fmt.Fprintf(bw, "\nMean tokens per query: the answer symbol alone %.0f; scry's selection %.0f; "+
		"grep's best file read whole %.0f; grep's best five files read whole %.0f.\n",
		r.Tokens.Answer, r.Tokens.ScrySelected, r.Tokens.GrepTop1, r.Tokens.GrepTop5)
	if r.SelectionMismatches > 0 {
		fmt.Fprintf(bw, "\nWARNING: the benchmark's replica of the pipeline disagreed with the real pipeline on %d queries.\n", r.SelectionMismatches)
	}

	fmt.Fprintf(bw, "\n### Per package\n")
	for i, p := range r.Packages {
		if p.Queries == 0 {
			continue
		}
		fmt.Fprintf(bw, "\n%s (%d queries)\n\n", p.Name, p.Queries)
		bw.WriteString(systemsHeader)
		for _, s := range r.Systems {
			for _, pm := range s.PerPackage {
				if pm.Package == r.Packages[i].Name {
					fmt.Fprintf(bw, "| %s | %s | %s |\n", s.Name, metricCells(pm.Symbol), metricCells(&pm.File))
				}
			}
		}
	}
	fmt.Fprintf(bw, "\nTotal time %.1f s.\n", r.Seconds)
	return bw.Flush()
}

// WriteFiles writes report.json, report.md and queries.jsonl (every query,
// its answer and every system's rank) into dir.
func (r *QualityReport) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := WriteJSON(filepath.Join(dir, "report.json"), r); err != nil {
		return err
	}
	var md strings.Builder
	if err := r.WriteText(&md); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.md"), []byte(md.String()), 0o644); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, q := range r.Results {
		if err := enc.Encode(q); err != nil {
			f.Close()
			return fmt.Errorf("bench: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("bench: %w", err)
	}
	return f.Close()
}

// WriteJSON writes v to path as indented JSON ending in a newline: the
// form of every report and model file the benchmarks write.
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}
