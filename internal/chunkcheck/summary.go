package chunkcheck

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/textfmt"
)

// FileResult is the validation outcome for one file: a fixture or a file of a
// real-code corpus.
type FileResult struct {
	// Path is the file as shown in the summary, normally its relative path.
	Path string
	// Symbols is the number of symbols the parser extracted (all levels).
	Symbols int
	// Chunks are the chunks of the first run.
	Chunks []chunk.Chunk
	// Violations of rules 1–10 (rule 8 only when several runs were given).
	Violations []Violation
	// Lines counts non-blank lines; Covered those inside a root chunk.
	Lines, Covered int
	// Runs is how many chunking runs were compared for rule 8 (1 = not checked).
	Runs int
	// Err records a file that could not be read, parsed or chunked at all.
	Err error
}

// Passed reports whether the file was processed and broke no rule.
func (r FileResult) Passed() bool { return r.Err == nil && len(r.Violations) == 0 }

// Evaluate checks one file. runs are the chunk lists of repeated chunking
// passes over the same source: the first is checked with Check, the others
// are compared with it by CheckDeterministic. symbols is the parser's symbol
// count, reported in the summary.
func Evaluate(path string, src []byte, symbols int, runs ...[]chunk.Chunk) FileResult {
	var first []chunk.Chunk
	if len(runs) > 0 {
		first = runs[0]
	}
	r := FileResult{Path: path, Symbols: symbols, Chunks: first, Runs: max(len(runs), 1)}
	r.Violations = Check(path, src, first)
	for _, again := range runs[min(1, len(runs)):] {
		r.Violations = append(r.Violations, CheckDeterministic(first, again)...)
	}
	r.Lines, r.Covered = Coverage(src, first)
	return r
}

// Coverage counts the non-blank lines of src and how many of them lie inside
// a depth-0 chunk.
func Coverage(src []byte, chunks []chunk.Chunk) (nonBlank, covered int) {
	lines := fileLines(src)
	in := make([]bool, len(lines)+2)
	for i := range chunks {
		if chunks[i].Depth != 0 {
			continue
		}
		for l := max(chunks[i].StartLine, 1); l <= min(chunks[i].EndLine, len(lines)); l++ {
			in[l] = true
		}
	}
	for l, line := range lines {
		if isBlank(line) {
			continue
		}
		nonBlank++
		if in[l+1] {
			covered++
		}
	}
	return nonBlank, covered
}

// Summary aggregates FileResults into the "Parser Validation
// Summary" dashboard (docs/architecture.md, rule 2).
type Summary struct {
	// Label names what was validated ("Fixtures", "Files"); "Files" if empty.
	Label string

	Passed, Failed int
	FailedPaths    []string
	Errors         int // files that could not be processed at all

	Symbols, Chunks int

	Lines, Covered int
	UncoveredFiles int

	MaxTokens           int
	MaxTokensBreadcrumb string
	MaxDepth            int
	MaxDepthPath        string

	// DeterminismFiles counts files checked with two or more runs; Runs is the
	// smallest run count among them; Unstable counts files whose ids changed.
	DeterminismFiles, Runs, Unstable int

	// ByRule counts violations per rule number.
	ByRule map[int]int
}

// Summarize aggregates per-file results.
func Summarize(results ...FileResult) Summary {
	s := Summary{ByRule: map[int]int{}, MaxDepth: -1}
	haveMax := false
	for _, r := range results {
		if r.Passed() {
			s.Passed++
		} else {
			s.Failed++
			s.FailedPaths = append(s.FailedPaths, r.Path)
		}
		if r.Err != nil {
			s.Errors++
		}
		s.Symbols += r.Symbols
		s.Chunks += len(r.Chunks)
		s.Lines += r.Lines
		s.Covered += r.Covered
		if r.Covered < r.Lines {
			s.UncoveredFiles++
		}
		for _, ch := range r.Chunks {
			if n := EstimateTokens(ch.EmbeddingText); n > s.MaxTokens || !haveMax {
				haveMax = true
				s.MaxTokens = n
				s.MaxTokensBreadcrumb = ch.Breadcrumb
				if s.MaxTokensBreadcrumb == "" {
					s.MaxTokensBreadcrumb = r.Path + BreadcrumbSep + ch.Name
				}
			}
			if ch.Depth > s.MaxDepth {
				s.MaxDepth = ch.Depth
				s.MaxDepthPath = r.Path
			}
		}
		unstable := false
		for _, v := range r.Violations {
			s.ByRule[v.Rule]++
			if v.Rule == RuleDeterminism {
				unstable = true
			}
		}
		if r.Runs >= 2 {
			if s.DeterminismFiles == 0 || r.Runs < s.Runs {
				s.Runs = r.Runs
			}
			s.DeterminismFiles++
			if unstable {
				s.Unstable++
			}
		}
	}
	if s.MaxDepth < 0 {
		s.MaxDepth = 0
	}
	return s
}

// OK reports whether every file passed.
func (s Summary) OK() bool { return s.Failed == 0 }

// String renders the dashboard.
func (s Summary) String() string {
	label := s.Label
	if label == "" {
		label = "Files"
	}
	var b strings.Builder
	b.WriteString("Parser Validation Summary\n")
	b.WriteString(strings.Repeat("═", 35) + "\n")
	fmt.Fprintf(&b, "%s: %s passed, %s failed\n", label, textfmt.Thousands(s.Passed), textfmt.Thousands(s.Failed))
	fmt.Fprintf(&b, "Total symbols extracted: %s\n", textfmt.Thousands(s.Symbols))
	fmt.Fprintf(&b, "Total chunks produced: %s\n", textfmt.Thousands(s.Chunks))
	switch {
	case s.Covered >= s.Lines:
		b.WriteString("Coverage: 100% (no uncovered lines)\n")
	default:
		pct := math.Floor(float64(s.Covered)/float64(s.Lines)*10000) / 100
		fmt.Fprintf(&b, "Coverage: %s%% (%s uncovered lines in %s files)\n",
			strconv.FormatFloat(pct, 'f', -1, 64), textfmt.Thousands(s.Lines-s.Covered), textfmt.Thousands(s.UncoveredFiles))
	}
	if s.Chunks > 0 {
		fmt.Fprintf(&b, "Max chunk token count: %s (%s)\n", textfmt.Thousands(s.MaxTokens), s.MaxTokensBreadcrumb)
		fmt.Fprintf(&b, "Max depth observed: %d (%s)\n", s.MaxDepth, s.MaxDepthPath)
	} else {
		b.WriteString("Max chunk token count: 0\n")
		b.WriteString("Max depth observed: 0\n")
	}
	switch {
	case s.DeterminismFiles == 0:
		b.WriteString("Determinism: – (not checked)\n")
	case s.Unstable == 0:
		fmt.Fprintf(&b, "Determinism: ✓ (all IDs stable across %d runs)\n", s.Runs)
	default:
		fmt.Fprintf(&b, "Determinism: ✗ (IDs changed in %s of %s files)\n", textfmt.Thousands(s.Unstable), textfmt.Thousands(s.DeterminismFiles))
	}
	if s.Failed > 0 {
		rules := make([]int, 0, len(s.ByRule))
		for r := range s.ByRule {
			rules = append(rules, r)
		}
		sort.Ints(rules)
		parts := make([]string, 0, len(rules))
		for _, r := range rules {
			parts = append(parts, fmt.Sprintf("%d %s ×%s", r, RuleName(r), textfmt.Thousands(s.ByRule[r])))
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, "Violations: %s\n", strings.Join(parts, ", "))
		}
		if s.Errors > 0 {
			fmt.Fprintf(&b, "Unprocessable: %s\n", textfmt.Thousands(s.Errors))
		}
		const show = 10
		failed := s.FailedPaths
		more := ""
		if len(failed) > show {
			more = fmt.Sprintf(" (+%d more)", len(failed)-show)
			failed = failed[:show]
		}
		fmt.Fprintf(&b, "Failed: %s%s\n", strings.Join(failed, ", "), more)
	}
	return b.String()
}
