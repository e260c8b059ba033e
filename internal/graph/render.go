package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/textfmt"
)

const (
	// listCap bounds member, subtype and call lists: past a dozen entries
	// the agent gains little and pays for every one.
	listCap = 12
	// patternCap bounds each kind of pattern line.
	patternCap = 6
	// treeCap bounds the call-tree lines of the Graph section, which a
	// transitive call depth could otherwise make larger than the code.
	treeCap = 80

	approximateNote = "(structure approximate: TypeScript server unavailable)"
	detailIndent    = "    "
)

// summary is the first line. It is rendered apart from the body because the
// token count it states is only known once the body is.
func summary(in Input, total int) string {
	var b strings.Builder
	b.WriteString("Search: ")
	b.WriteString(strconv.Quote(in.Query))
	b.WriteString(" | ")
	n := len(in.Results)
	files := map[string]bool{}
	for _, r := range in.Results {
		files[r.File] = true
	}
	switch {
	case n == 1:
		b.WriteString("1 result")
	case n == 0 || len(files) > 1:
		b.WriteString(plural(n, "result"))
		if n > 0 {
			b.WriteString(" across " + plural(len(files), "file"))
		}
	default:
		b.WriteString(plural(n, "result") + " in 1 file")
	}
	b.WriteString(" | ")
	b.WriteString(textfmt.Thousands(total))
	if in.Budget > 0 {
		b.WriteString("/" + textfmt.Thousands(in.Budget))
	}
	b.WriteString(" tokens")
	return b.String()
}

// TooSmall is the whole answer when the budget cannot hold a useful one:
// one line that says so and names the smallest budget that can.
func TooSmall(query string, budget, need int) string {
	return fmt.Sprintf("Search: %s | the token budget %s is too small for an answer: the smallest useful one takes %s tokens",
		strconv.Quote(query), textfmt.Thousands(budget), textfmt.Thousands(need))
}

// approxNote says that, and why, a result's structure is approximate.
func approxNote(r Result) string {
	if r.ApproximateReason == "" {
		return approximateNote
	}
	return "(structure approximate: " + r.ApproximateReason + ")"
}

// body is everything after the summary line.
func (m *model) body() string {
	rs := m.in.Results
	if len(rs) == 0 && len(m.in.Leads) > 0 {
		return "\n\n" + leadLines(m.in)
	}
	if len(rs) == 0 {
		return "\n\nNo results."
	}
	allApprox := true
	for _, r := range rs {
		allApprox = allApprox && r.Approximate && approxNote(r) == approxNote(rs[0])
	}
	var sections []string
	if l := m.in.Leads; len(l) > 0 && l[0].OverBudget && m.in.Lookup {
		sections = append(sections, fmt.Sprintf("The symbol asked for, %s %s (%s:%d), takes %s tokens, more than the %s budget: %s. Other matches:",
			l[0].Kind, l[0].Name, textfmt.Name(l[0].File), l[0].Line, textfmt.Thousands(l[0].Tokens), textfmt.Thousands(m.in.Budget), lookupAdvice))
	}
	head := ""
	if allApprox {
		// One note covers every result when the server was down for all
		// of them, instead of repeating it per result.
		head = "\n" + approxNote(rs[0])
	}
	if len(rs) == 1 {
		sections = append(sections, strings.Join(m.details(1, true, !allApprox), "\n"))
		if len(m.in.Leads) > 0 {
			sections = append(sections, otherLeads(m.in))
		}
		return head + "\n\n" + strings.Join(sections, "\n\n")
	}
	sections = append(sections, "Graph:\n"+strings.Join(m.graphLines(), "\n"))
	if p := m.patternLines(); len(p) > 0 {
		sections = append(sections, "Patterns:\n"+strings.Join(p, "\n"))
	}
	for i := range rs {
		sections = append(sections, strings.Join(m.details(i+1, false, !allApprox), "\n"))
	}
	if len(m.in.Leads) > 0 {
		sections = append(sections, otherLeads(m.in))
	}
	return head + "\n\n" + strings.Join(sections, "\n\n")
}

// lookupAdvice is what to do about a symbol asked for that outgrows the
// budget, wherever the answer says so.
const lookupAdvice = "raise the budget, or ask for its structure (info, callers, refs)"

// leadLines say why no result is shown and name the best candidates, one
// line each, so that the next question can ask for one of them by name.
func leadLines(in Input) string {
	var b strings.Builder
	switch {
	case in.Missing != "":
		fmt.Fprintf(&b, "No symbol %s in this index. Nearest symbols:", strconv.Quote(in.Missing))
	case in.Unknown != "":
		fmt.Fprintf(&b, "Nothing in this index defines or mentions %s. Nearest leads, which share only part of the name:", in.Unknown)
	case in.Leads[0].OverBudget && in.Lookup:
		b.WriteString("The symbol asked for is larger than the token budget; " + lookupAdvice + " instead of its source:")
	case in.Leads[0].OverBudget:
		b.WriteString("The best matches are larger than the token budget; ask for one by name (symbol = …) or raise the budget:")
	default:
		fmt.Fprintf(&b, "No result is confident (none reaches the relevance threshold %.2f). Best leads:", in.Threshold)
	}
	writeLeads(&b, in)
	return b.String()
}

// otherLeads follows the results: the next candidates, one line each.
func otherLeads(in Input) string {
	var b strings.Builder
	b.WriteString("Other leads:")
	writeLeads(&b, in)
	return b.String()
}

func writeLeads(b *strings.Builder, in Input) {
	for _, l := range in.Leads {
		fmt.Fprintf(b, "\n- %s %s  %s:%d", l.Kind, l.Name, textfmt.Name(l.File), l.Line)
		if in.Missing == "" {
			// A near symbol is named for its name, not for a relevance.
			fmt.Fprintf(b, "  p=%.2f", l.Probability)
		}
		if l.OverBudget {
			fmt.Fprintf(b, " (%s tokens, over the %s budget)", textfmt.Thousands(l.Tokens), textfmt.Thousands(in.Budget))
		}
	}
}
