package render

import (
	"fmt"
	"strings"

	"github.com/scry-dev/scry/internal/answer"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/tokens"
)

// Impact is a change's blast radius as text, within budget tokens: the
// changed symbols (the widest reach first), then as much of each one's
// callers (nearest first), references (most used files first) and
// importers, and of the tests reaching them (nearest first), as fits; what
// does not fit is counted ("… 12 more"). When even the bare symbols do not
// fit, those with the narrowest reach go, counted too.
func Impact(imp answer.Impact, budget int) string {
	// The lists shrink together until the answer fits.
	for _, keep := range []int{1 << 30, 24, 12, 8, 5, 3, 2, 1} {
		text := impactText(imp, keep, budget, 0)
		if budget <= 0 || tokens.Count(text) <= budget {
			return text
		}
	}
	text := impactText(imp, 0, budget, 0)
	// Still over: the changed symbols with the narrowest reach go, counted.
	for all := len(imp.Symbols); tokens.Count(text) > budget && len(imp.Symbols) > 1; {
		imp.Symbols = imp.Symbols[:len(imp.Symbols)-1]
		text = impactText(imp, 0, budget, all-len(imp.Symbols))
	}
	if n := tokens.Count(text); n > budget {
		// Even the changed symbols alone do not fit: say so rather than
		// cut them.
		text += fmt.Sprintf("The token budget %s is too small for this answer: its shortest form takes %s tokens.\n",
			textfmt.Thousands(budget), textfmt.Thousands(n))
	}
	return text
}

// impactText is the answer with at most keep items per list; omitted
// changed symbols are counted but not shown.
func impactText(imp answer.Impact, keep, budget, omitted int) string {
	var b strings.Builder
	what := "the working tree against HEAD"
	if imp.Rev != "" {
		what = textfmt.Name(imp.Rev)
		if !strings.Contains(imp.Rev, "..") {
			what = "the working tree against " + what
		}
	}
	fmt.Fprintf(&b, "Impact of %s: %s changed, %s, %s reaching them (callers and importers to depth %d)\n",
		what, plural(len(imp.Files), "TypeScript/JavaScript file"), plural(len(imp.Symbols)+omitted, "changed symbol"), plural(len(imp.Tests), "test file"), imp.Depth)
	if imp.Approximate {
		fmt.Fprintf(&b, "(approximate: from the index, %s)\n", imp.Reason)
	}
	if len(imp.Files) == 0 {
		b.WriteString("\nNo TypeScript or JavaScript file changed.\n")
		return b.String()
	}
	b.WriteString("\nChanged files:\n")
	for _, f := range imp.Files {
		fmt.Fprintf(&b, "  %s %s\n", f.Status, textfmt.Name(f.Path))
	}
	for _, s := range imp.Symbols {
		fmt.Fprintf(&b, "\n%s %s — %s:%d", s.Kind, textfmt.Name(s.Name), textfmt.Name(s.File), s.Line)
		if s.Exported {
			b.WriteString(" [exported]")
		}
		b.WriteString("\n")
		if len(s.Callers) > 0 {
			fmt.Fprintf(&b, "  callers (%d):\n", len(s.Callers))
			firstOf(s.Callers, keep, func(c answer.ImpactCaller) {
				fmt.Fprintf(&b, "    %s%s — %s:%d\n", strings.Repeat("↑", c.Depth), textfmt.Name(c.Name), textfmt.Name(c.File), c.Line)
			}, func(left int) { fmt.Fprintf(&b, "    … %d more\n", left) })
		} else {
			b.WriteString("  callers: none\n")
		}
		if len(s.References) > 0 {
			total := 0
			for _, r := range s.References {
				total += r.Count
			}
			fmt.Fprintf(&b, "  references: %d in %s\n", total, plural(len(s.References), "file"))
			firstOf(s.References, keep, func(r answer.FileCount) {
				fmt.Fprintf(&b, "    %s (%d)\n", textfmt.Name(r.File), r.Count)
			}, func(left int) { fmt.Fprintf(&b, "    … %s more\n", plural(left, "file")) })
		}
		if len(s.Importers) > 0 {
			fmt.Fprintf(&b, "  imported by (%d):", len(s.Importers))
			firstOf(s.Importers, keep, func(f string) { b.WriteString(" " + textfmt.Name(f)) },
				func(left int) { fmt.Fprintf(&b, " … %d more", left) })
			b.WriteString("\n")
		}
	}
	if omitted > 0 {
		fmt.Fprintf(&b, "\n… %d more changed %s, reaching less (--json lists every one)\n", omitted, map[bool]string{true: "symbol", false: "symbols"}[omitted == 1])
	}
	if len(imp.Tests) > 0 {
		b.WriteString("\nTests reaching the change:\n")
		firstOf(imp.Tests, keep*2, func(t answer.ImpactTest) {
			how := "reaches " + textfmt.Name(t.Via)
			switch {
			case t.Via == "":
				how = "changed"
			case t.Hops > 0:
				how = fmt.Sprintf("imports %s (%s away)", textfmt.Name(t.Via), plural(t.Hops, "import"))
			}
			fmt.Fprintf(&b, "  %s — %s\n", textfmt.Name(t.File), how)
		}, func(left int) { fmt.Fprintf(&b, "  … %d more\n", left) })
	} else {
		b.WriteString("\nNo test file reaches the change.\n")
	}
	if budget > 0 {
		fmt.Fprintf(&b, "\n%s/%s tokens\n", textfmt.Thousands(tokens.Count(b.String())), textfmt.Thousands(budget))
	}
	return b.String()
}

// firstOf writes the first keep of items with line, then, when it left
// any out, how many with more.
func firstOf[T any](items []T, keep int, line func(T), more func(left int)) {
	for i, x := range items {
		if i == keep {
			more(len(items) - keep)
			return
		}
		line(x)
	}
}

// HookHit is one search result as `scry search --json` gives it, read by
// the Claude Code hook.
type HookHit struct {
	File      string  `json:"file"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Score     float64 `json:"score"`
}

// HookContext is what the Claude Code hook adds after a Grep or Glob:
// scry's best matches for the same words, one line each.
func HookContext(query string, hits []HookHit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "scry's best matches for %q (complete symbols: codebase_search or `scry search` shows them):\n", query)
	for _, h := range hits {
		fmt.Fprintf(&b, "- %s %s  %s:%d-%d  p=%.2f\n", h.Kind, textfmt.Name(h.Name), textfmt.Name(h.File), h.StartLine, h.EndLine, h.Score)
	}
	return strings.TrimRight(b.String(), "\n")
}
