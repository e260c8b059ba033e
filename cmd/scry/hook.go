package main

import (
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

// maxHookInput bounds what the hook reads from Claude Code.
const maxHookInput = 1 << 20

// newHookCmd is `scry hook claude-code`, run by Claude Code after its own
// Grep and Glob calls when the hook is installed (scry install claude-code
// --hook). It reads the call from stdin and prints scry's best matches for
// the same words as context for the agent. It answers only through a
// running `scry serve` for the project (the agent's MCP server), which
// answers in milliseconds; without one, and on any error, it prints
// nothing, so the agent's call is never slowed or disturbed.
func newHookCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "hook claude-code",
		Short:  "Claude Code hook: add scry's best matches to the agent's Grep and Glob calls",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] != "claude-code" {
				return nil
			}
			var in struct {
				ToolName  string `json:"tool_name"`
				Cwd       string `json:"cwd"`
				ToolInput struct {
					Pattern string `json:"pattern"`
				} `json:"tool_input"`
			}
			b, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), maxHookInput))
			if err != nil || json.Unmarshal(b, &in) != nil || in.Cwd == "" {
				return nil
			}
			query := hookQuery(in.ToolName, in.ToolInput.Pattern)
			if query == "" {
				return nil
			}
			home, _ := os.UserHomeDir()
			found, err := engine.FindRoot(in.Cwd, home)
			if err != nil {
				return nil
			}
			resp, err := engine.CallLocal(cmd.Context(), found.Dir, []string{"search", "--root", found.Dir, "--json", "-k=5", "--", query})
			if err != nil || resp.Code != 0 {
				return nil
			}
			var ans struct {
				Results []render.HookHit `json:"results"`
			}
			if json.Unmarshal([]byte(resp.Stdout), &ans) != nil || len(ans.Results) == 0 {
				return nil
			}
			out := map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName":     "PostToolUse",
				"additionalContext": render.HookContext(query, ans.Results),
			}}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetEscapeHTML(false)
			return enc.Encode(out)
		},
	}
}

var hookWord = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]{2,}`)

// hookQuery turns a Grep pattern or a Glob into words to search for: the
// identifiers in it (a regex's syntax and a glob's extensions left out).
func hookQuery(tool, pattern string) string {
	if tool != "Grep" && tool != "Glob" {
		return ""
	}
	var words []string
	for _, w := range hookWord.FindAllString(pattern, 8) {
		switch strings.ToLower(w) {
		case "tsx", "jsx", "mjs", "cjs", "mts", "cts", "js", "ts", "json", "src", "lib", "test", "spec":
			continue
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}
