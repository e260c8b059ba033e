package render

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/textfmt"
)

// Diagnosis is `scry doctor`'s report; tools is how many MCP tools the
// server exposes.
func Diagnosis(d engine.Diagnosis, tools int) string {
	var b strings.Builder
	if d.Shared != nil {
		shared(&b, d)
		return b.String()
	}
	fmt.Fprintf(&b, "workspace: %s\n", textfmt.Name(d.Workspace))
	fmt.Fprintf(&b, "index:     %s (%d files, %d chunks)\n", textfmt.Name(d.IndexPath), d.Files, d.Chunks)
	if d.Files == 0 {
		fmt.Fprintln(&b, "           not built yet: `scry index` (any search builds it too)")
	}
	if d.ConfigErr != nil {
		fmt.Fprintf(&b, "config:    ERROR %v\n", d.ConfigErr)
	} else {
		c := d.Config
		fmt.Fprintf(&b, "config:    threshold %.2f, budget %d, rerank/vector weights %.2f/%.2f, candidates %d, call depth %d\n",
			c.Threshold, c.Budget, c.RerankWeight, c.VectorWeight, c.Candidates, c.CallDepth)
	}
	fmt.Fprintf(&b, "trust:     %s\n", d.Config.Origin.Trust)
	fmt.Fprintln(&b, "settings a workspace needs trust for (they run or send something, or raise a limit), and where each came from:")
	b.WriteString(Sensitive(d.Config, "           "))
	models(&b, d)
	fmt.Fprintf(&b, "typescript 7:\n%s\n", indentLines(d.TypeScript.String(), "  "))
	fmt.Fprintf(&b, "  state: %s\n", CompilerState(d.CompilerStatus, d.Served))
	if m := d.Compiler; m != nil {
		if m.Err != nil {
			fmt.Fprintf(&b, "  memory: not measured (%v)\n", m.Err)
		} else {
			fmt.Fprintf(&b, "  memory: %.0f MB resident (peak %.0f MB) with the project loaded in %.1f s\n",
				float64(m.RSS)/1e6, float64(m.Peak)/1e6, m.Ready.Seconds())
		}
	}
	if d.Governed+d.Ungoverned > 0 {
		fmt.Fprintf(&b, "projects:  %d files under a tsconfig.json or jsconfig.json, %d without one (given to TypeScript 7 as one program)\n", d.Governed, d.Ungoverned)
		if d.Ungoverned > engine.ManyUngoverned {
			fmt.Fprintln(&b, "           that program is large: a tsconfig.json or jsconfig.json whose include names the sources keeps TypeScript's memory down")
		}
	}
	if d.WatchOK {
		fmt.Fprintf(&b, "freshness: `scry serve` watches for changes (%s); the CLI and a failed watch scan mtimes on every question\n", d.WatchDetail)
	} else {
		fmt.Fprintf(&b, "freshness: mtime scan on every question, also in `scry serve` (%s)\n", d.WatchDetail)
	}
	fmt.Fprintf(&b, "mcp tools: %d exposed\n", tools)
	return b.String()
}

// models writes the ONNX Runtime, embedder and reranker lines.
func models(b *strings.Builder, d engine.Diagnosis) {
	rt := d.Runtime
	switch {
	case rt.Lib != "" && rt.LoadErr != nil:
		fmt.Fprintf(b, "onnx runtime: ERROR %s: %v\n", rt.Lib, rt.LoadErr)
	case rt.Lib != "":
		fmt.Fprintf(b, "onnx runtime: %s (version %s)\n", rt.Lib, rt.Version)
	case rt.Needed:
		fmt.Fprintf(b, "onnx runtime: MISSING, needed by the onnx provider: run `scry setup --onnx` (or set %s)\n", engine.EnvONNXRuntime)
	default:
		fmt.Fprintln(b, "onnx runtime: not installed (only needed for onnx models: `scry setup --onnx`)")
	}

	if d.SQLite != "" {
		fmt.Fprintf(b, "sqlite:       %s\n", d.SQLite)
	}
	if rm := d.RankerModel; rm.Err != nil {
		fmt.Fprintf(b, "ranker model: ERROR %v\n", rm.Err)
	} else if rm.ID != "" {
		fmt.Fprintf(b, "ranker model: built-in %s, %d dimensions, %.1f MB compiled in (the default ranker's semantic features; always on)\n",
			rm.ID, rm.Dim, float64(rm.Size)/(1<<20))
	}
	em := d.Embedder
	switch em.Provider {
	case "", engine.ProviderNone:
		fmt.Fprintln(b, "embedder:     none (lexical + structural retrieval; --embedder builtin|onnx|openai|voyage to add vectors)")
	default:
		fmt.Fprintf(b, "embedder:     %s%s\n", em.Provider, keyNote(em.KeyVars, em.KeySet))
		if em.Err != nil {
			fmt.Fprintf(b, "              ERROR %v\n", em.Err)
			break
		}
		fmt.Fprintf(b, "              model %s, %d dimensions", em.Model, em.Dim)
		if em.Size > 0 {
			fmt.Fprintf(b, ", %.1f MB compiled in", float64(em.Size)/(1<<20))
		}
		fmt.Fprintln(b)
		fmt.Fprintf(b, "              %d of %d chunks embedded, %d pending (embedded on the next index or search)\n", em.Embedded, d.Chunks, em.Pending)
		if em.Cached >= 0 {
			fmt.Fprintf(b, "              cache %s: %d vectors of this model\n", em.Cache, em.Cached)
		}
	}
	if len(d.Vectors) > 1 {
		var parts []string
		for m, n := range d.Vectors {
			parts = append(parts, fmt.Sprintf("%s (%d)", m, n))
		}
		sort.Strings(parts)
		fmt.Fprintf(b, "              vectors stored for %d models: %s\n", len(d.Vectors), strings.Join(parts, ", "))
	}

	rr := d.Reranker
	if rr.Err != nil {
		fmt.Fprintf(b, "reranker:     %s ERROR %v\n", rr.Provider, rr.Err)
		return
	}
	line := "reranker:     " + rr.Name
	if rr.Probed {
		line += keyNote(rr.KeyVars, rr.KeySet)
		if rr.ProbeErr != nil {
			line += "\n              ERROR " + rr.ProbeErr.Error()
		} else {
			line += "\n              answered a test request"
		}
	}
	if rr.Provider == engine.ProviderNone {
		line += " (final score = normalised first-stage score)"
	}
	fmt.Fprintln(b, line)
}

// Sensitive lists where each setting a workspace needs trust for came
// from (with its value when set), and what an untrusted workspace tried to
// set, one per line.
func Sensitive(cfg config.Config, indent string) string {
	o := cfg.Origin
	ignored := map[string]string{}
	for _, ig := range o.Ignored {
		ignored[ig.Key] = ig.Value
	}
	var b strings.Builder
	for _, s := range config.Sensitive {
		line := fmt.Sprintf("%s%-25s %s", indent, s.Key, o.Source(s.Key))
		if v := s.Value(&cfg); v != "" {
			line = fmt.Sprintf("%s%-25s %q from %s", indent, s.Key, v, o.Source(s.Key))
		}
		if v, ok := ignored[s.Key]; ok {
			line += fmt.Sprintf("; IGNORED %q from the untrusted workspace", v)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// keyNote says whether a provider's key is set, and from where; never the
// key.
func keyNote(vars string, set bool) string {
	switch {
	case vars == "":
		return ""
	case set:
		return " (key set from " + vars + ")"
	}
	return " (no key in " + vars + ")"
}

func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix)
}

// shared is the report of a shared-index (weaviate) engine.
func shared(b *strings.Builder, d engine.Diagnosis) {
	s := d.Shared
	fmt.Fprintf(b, "backend:   weaviate %s at %s\n", s.Version, s.URL)
	healthy := 0
	for _, n := range s.Nodes {
		if n.Status == "HEALTHY" {
			healthy++
		}
	}
	fmt.Fprintf(b, "nodes:     %d, %d healthy\n", len(s.Nodes), healthy)
	for _, n := range s.Nodes {
		fmt.Fprintf(b, "  %s  %s  %d objects, %d shards\n", n.Name, n.Status, n.Objects, n.Shards)
	}
	fmt.Fprintf(b, "tenants:   %d (searched: %s)\n", len(s.Tenants), strings.Join(d.Config.Weaviate.Repos, ", "))
	for _, t := range s.Tenants {
		fmt.Fprintf(b, "  %s  %d files, %d chunk objects\n", t.Repo, t.Files, t.Chunks)
	}
	if d.ConfigErr != nil {
		fmt.Fprintf(b, "config:    ERROR %v\n", d.ConfigErr)
	}
	fmt.Fprintln(b, "settings a workspace needs trust for (they run or send something, or raise a limit), and where each came from:")
	b.WriteString(Sensitive(d.Config, "           "))
}

// CompilerState is the TypeScript 7 server's state in one line, as doctor
// prints it; served says a running `scry serve` answered, so the state is
// the server's.
func CompilerState(s engine.CompilerStatus, served bool) string {
	var out string
	switch s.Phase {
	case engine.CompilerLoading:
		out = fmt.Sprintf("loading the project (%s files, %s so far); questions needing exact structure wait up to %s, then answer from the index and say so",
			textfmt.Thousands(s.Files), s.Elapsed.Round(100*time.Millisecond), s.Wait)
	case engine.CompilerReady:
		out = "ready"
		if s.Elapsed > 0 {
			out += fmt.Sprintf(" (project of %s files loaded in %s)", textfmt.Thousands(s.Files), s.Elapsed.Round(100*time.Millisecond))
		}
	case engine.CompilerFailed:
		out = "failed to start: " + s.Err + "; answers come from the index, marked approximate"
	default:
		out = "not running in this process (`scry serve` starts it in the background; the structure commands start it and wait; doctor --compiler starts it here)"
	}
	if served {
		out += "; as seen by the running `scry serve` for this workspace"
	}
	return out
}

// CompilerLoading is the note an answer carries while TypeScript 7 is
// still loading.
func CompilerLoading(s engine.CompilerStatus) string {
	return "Note: " + engine.LoadingReason(s) + ": structure in this answer comes from the index (approximate); ask again once it is ready for the compiler's answer."
}
