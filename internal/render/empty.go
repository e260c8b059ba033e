package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/textfmt"
)

// sourceExtensions are the extensions scry indexes, as the empty-workspace
// note names them.
const sourceExtensions = ".ts, .tsx, .mts, .cts, .js, .jsx, .mjs, .cjs"

// EmptyWorkspace says why the index is empty and what to do, in a few
// lines: what scry found under the root, and the setting or directory that
// would change that.
func EmptyWorkspace(w *engine.EmptyWorkspace) string {
	root := textfmt.Name(w.Root)
	var lines []string
	skipped := 0
	for _, n := range w.Skipped {
		skipped += n
	}
	narrowed := len(w.Include) > 0 || len(w.Exclude) > 0
	switch {
	case w.Candidates > skipped && narrowed:
		lines = append(lines, fmt.Sprintf("The index is empty: the include/exclude settings leave out the %s under %s (%s).",
			sources(w.Candidates-skipped), root, globs(w.Include, w.Exclude)))
		lines = append(lines, "Widen them (--include/--exclude, `include`/`exclude` in .scry.toml, or your config file; `scry doctor` shows the settings).")
	case w.Candidates > skipped:
		lines = append(lines, fmt.Sprintf("The index is empty: it has not been brought up to date with the %s under %s; `scry index` does that.",
			sources(w.Candidates-skipped), root))
	case w.Candidates > 0:
		lines = append(lines, fmt.Sprintf("The index is empty: the %s under %s left out (%s).",
			sources(w.Candidates), root+were(w.Candidates), reasons(w.Skipped)))
		if w.Skipped["too-large"] > 0 {
			lines = append(lines, "--max-file-size (or `maxFileSize` in .scry.toml) raises the size limit.")
		}
	case w.HiddenTotal() > 0:
		var where []string
		for _, d := range w.HiddenDirs() {
			where = append(where, fmt.Sprintf("%s %s", textfmt.Name(d), textfmt.Thousands(w.Hidden[d])))
		}
		lines = append(lines, fmt.Sprintf("The index is empty: the %s under %s in directories scry skips (dependencies, build output) or ignore files exclude: %s.",
			sources(w.HiddenTotal()), root+are(w.HiddenTotal()), strings.Join(where, ", ")))
		lines = append(lines, "scry indexes a project's own sources: run it in (or pass --root) the directory that holds them.")
	default:
		lines = append(lines, fmt.Sprintf("The index is empty: no TypeScript or JavaScript files (%s) under %s (%s).",
			sourceExtensions, root, plural(w.Other, "other file")))
		if len(w.Markers) == 0 {
			lines = append(lines, "It does not look like a project (no package.json, tsconfig.json, jsconfig.json or .git there): run scry in your project's directory or pass --root DIR.")
		} else {
			lines = append(lines, "scry answers about TypeScript and JavaScript code only.")
		}
	}
	if w.Partial {
		lines = append(lines, "(Counted from the first entries of a large tree: the numbers are lower bounds.)")
	}
	return strings.Join(lines, "\n")
}

func globs(include, exclude []string) string {
	var parts []string
	if len(include) > 0 {
		parts = append(parts, "include "+quoteAll(include))
	}
	if len(exclude) > 0 {
		parts = append(parts, "exclude "+quoteAll(exclude))
	}
	return strings.Join(parts, "; ")
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = textfmt.Name(s)
	}
	return strings.Join(q, ", ")
}

func reasons(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// sources is "1 TypeScript/JavaScript file" or "N TypeScript/JavaScript files".
func sources(n int) string { return plural(n, "TypeScript/JavaScript file") }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return textfmt.Thousands(n) + " " + noun + "s"
}

func are(n int) string {
	if n == 1 {
		return " is"
	}
	return " are"
}

func were(n int) string {
	if n == 1 {
		return " was"
	}
	return " were"
}

// FoundRoot names the workspace root a command chose for itself, and why.
func FoundRoot(f engine.FoundRoot) string {
	return fmt.Sprintf("workspace root %s (%s; --root overrides)", textfmt.Name(f.Dir), f.Reason)
}

// AgentChange says what `scry install`/`uninstall` did to an agent's file
// (or, with dryRun, would do), and the entry it writes.
func AgentChange(agent string, c engine.AgentChange, backup string, dryRun bool) string {
	path := textfmt.Name(c.Path)
	verbs := map[string][2]string{
		"add":       {"would add scry to", "added scry to"},
		"update":    {"would update scry in", "updated scry in"},
		"remove":    {"would remove scry from", "removed scry from"},
		"unchanged": {"scry is already registered in", "scry is already registered in"},
		"absent":    {"scry is not registered in", "scry is not registered in"},
	}
	v := verbs[c.Action]
	verb := v[1]
	if dryRun {
		verb = v[0]
	}
	out := agent + ": " + verb + " " + path
	if backup != "" {
		out += " (the previous file is kept as " + textfmt.Name(backup) + ")"
	}
	if dryRun && c.Entry != "" && (c.Action == "add" || c.Action == "update") {
		out += "\n" + c.Entry
	}
	return out
}
