package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

func newInstallCmd() *cobra.Command { return agentCmd(false) }

func newUninstallCmd() *cobra.Command { return agentCmd(true) }

// agentCmd builds `scry install AGENT` and `scry uninstall AGENT`.
func agentCmd(remove bool) *cobra.Command {
	var scope, root string
	var dryRun, list, hook bool
	use, short := "install AGENT", "Register scry's MCP server in an agent's configuration"
	if remove {
		use, short = "uninstall AGENT", "Remove scry's MCP server from an agent's configuration"
	}
	var ids []string
	for _, a := range engine.Agents() {
		ids = append(ids, a.ID)
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + ` (` + strings.Join(ids, ", ") + `).

The agent's own file is read, the scry entry added, replaced or removed, and
the file written atomically after a copy of the old one (FILE.scry-backup);
the other entries, their order, formatting and comments are kept. A file scry
cannot read is left untouched and the error says where it is malformed.

--scope user (the default) writes the agent's file in your home directory:
the server then answers for the project the agent starts it in. --scope
project writes the project's file (e.g. .mcp.json, .vscode/mcp.json), with
the project as the server's --root. --print shows the change instead.

--hook (claude-code only; off unless asked for) installs, instead, a hook in
Claude Code's settings.json that runs after the agent's own Grep and Glob
calls and adds scry's best matches for the same words; it answers only when
a scry serve runs for the project (the MCP server), and adds nothing
otherwise.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			env, err := engine.AgentEnv()
			if err != nil {
				return err
			}
			if list {
				for _, a := range engine.Agents() {
					user, _ := a.Path(engine.ScopeUser, "", env)
					project, err := a.Path(engine.ScopeProject, ".", env)
					if err != nil {
						project = "-"
					}
					fmt.Fprintf(cmd.OutOrStdout(), "%-15s %-19s user: %s  project: %s\n", a.ID, a.Name, user, project)
				}
				return nil
			}
			a, err := engine.FindAgent(args[0])
			if err != nil {
				return err
			}
			bin, err := os.Executable()
			if err != nil {
				return fmt.Errorf("scry's own path: %w", err)
			}
			if real, err := filepath.EvalSymlinks(bin); err == nil {
				bin = real
			}
			var ws workspaceFlags
			ws.root = root
			if scope == engine.ScopeProject {
				if err := ws.findRoot(cmd); err != nil {
					return err
				}
				if ws.root, err = filepath.Abs(ws.root); err != nil {
					return err
				}
			}
			req := engine.AgentRequest{Agent: a, Scope: scope, Root: ws.root, Bin: bin, Remove: remove, Env: env}
			plan, name := engine.PlanAgent, a.Name
			if hook {
				if a.ID != "claude-code" {
					return fmt.Errorf("--hook is for claude-code only")
				}
				plan, name = engine.PlanClaudeHook, a.Name+" hook"
			}
			c, err := plan(req)
			if err != nil {
				return err
			}
			if dryRun {
				fmt.Fprintln(cmd.OutOrStdout(), render.AgentChange(name, c, "", true))
				return nil
			}
			backup, err := engine.ApplyAgent(c)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), render.AgentChange(name, c, backup, false))
			return nil
		},
	}
	cmd.Flags().StringVar(&scope, "scope", engine.ScopeUser, "user (your home directory's file) or project (the project's file)")
	cmd.Flags().StringVar(&root, "root", "", "the project, for --scope project (default: the project enclosing the current directory)")
	cmd.Flags().BoolVar(&dryRun, "print", false, "show the change instead of writing it")
	cmd.Flags().BoolVar(&list, "list", false, "list the agents and their configuration files")
	cmd.Flags().BoolVar(&hook, "hook", false, "claude-code only, optional: instead, the hook that adds scry's best matches to the agent's Grep and Glob calls (.claude/settings.json)")
	return cmd
}
