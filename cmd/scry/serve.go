package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/mcpserver"
)

func newServeCmd() *cobra.Command {
	var ws workspaceFlags
	var tf tuningFlags
	var nf neuralFlags
	var bf backendFlags
	var httpAddr, token string
	var tools []string
	cmd := &cobra.Command{
		Use:   "serve [--root DIR] [--http ADDR]",
		Short: "Serve the workspace to agents over MCP (stdio by default)",
		Long: `serve runs scry's MCP server for one workspace. Over stdio (the default) an
MCP client starts it as a subprocess. With --http ADDR it serves streamable
HTTP at /mcp, bound to loopback unless ADDR names another host; --token (or
SCRY_TOKEN) then requires "Authorization: Bearer <token>" on every request.
An address beyond loopback is refused without a token.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			toolsLayer := func(cfg *engine.Config) error {
				if cmd.Flags().Changed("tools") {
					cfg.Tools = tools
				}
				return nil
			}
			e, done, err := ws.open(cmd, engine.Options{Models: true, Compiler: engine.CompilerBackground, Watch: true}, false, false, tf.layer(cmd), toolsLayer, nf.layer(cmd), bf.layer(cmd))
			if err != nil {
				return err
			}
			defer done()
			srv, err := mcpserver.New(e)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			serveLocal(ctx, cmd, e)
			if httpAddr == "" {
				return mcpserver.ServeStdio(ctx, srv, os.Stdin, os.Stdout)
			}
			if token == "" {
				token = os.Getenv("SCRY_TOKEN")
			}
			ln, err := mcpserver.Listen(httpAddr, token)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "scry: serving MCP at http://%s/mcp\n", ln.Addr())
			return mcpserver.ServeHTTP(ctx, srv, ln, token, mcpserver.DefaultHTTPLimits())
		},
	}
	ws.register(cmd)
	tf.register(cmd)
	nf.register(cmd)
	bf.register(cmd)
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on ADDR (e.g. :7424 binds 127.0.0.1:7424)")
	cmd.Flags().StringVar(&token, "token", "", "require this bearer token over HTTP (env SCRY_TOKEN)")
	cmd.Flags().StringSliceVar(&tools, "tools", nil, "expose only these tools (comma-separated; env SCRY_TOOLS)")
	return cmd
}
