package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/mcpserver"
)

// maxRequestBytes bounds one HTTP request body: tool arguments are small,
// and a client must not be able to make the server buffer gigabytes.
const maxRequestBytes = 4 << 20

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
SCRY_TOKEN) then requires "Authorization: Bearer <token>" on every request.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			toolsLayer := func(cfg *engine.Config) error {
				if cmd.Flags().Changed("tools") {
					cfg.Tools = tools
				}
				return nil
			}
			e, err := ws.open(cmd, engine.Options{Models: true, Compiler: engine.CompilerBackground, Watch: true}, false, false, tf.layer(cmd), toolsLayer, nf.layer(cmd), bf.layer(cmd))
			if err != nil {
				return err
			}
			defer e.Close()
			srv, err := mcpserver.New(e)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if httpAddr == "" {
				return srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(mcpserver.GuardReader(os.Stdin)), Writer: nopCloser{os.Stdout}})
			}
			if token == "" {
				token = os.Getenv("SCRY_TOKEN")
			}
			return serveHTTP(ctx, srv, httpAddr, token, defaultHTTPLimits(), cmd)
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

// listenAddr binds a bare port to loopback: exposing the workspace to the
// network must be asked for by naming the host.
func listenAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

func serveHTTP(ctx context.Context, srv *mcp.Server, addr, token string, lim httpLimits, cmd *cobra.Command) error {
	bind, err := listenAddr(addr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	ln = newLimitListener(ln, lim.MaxConns)
	hs := newHTTPServer(srv, token, lim)
	fmt.Fprintf(cmd.ErrOrStderr(), "scry: serving MCP at http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// guard enforces the bearer token, the request size limit and the body
// deadline, and refuses cross-origin requests from pages on other hosts (no
// CORS headers are ever sent, so browsers cannot read answers either).
func guard(next http.Handler, token string, bodyTimeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if bodyTimeout > 0 && r.Body != nil && r.Body != http.NoBody {
			// Bounds a slow body, and the server's draining of the body of
			// a refused request. Cleared below once the body is in, so a
			// long answer is never cut. (Not supported by test recorders.)
			_ = rc.SetReadDeadline(time.Now().Add(bodyTimeout))
		}
		if origin := r.Header.Get("Origin"); origin != "" && !loopbackOrigin(origin) {
			http.Error(w, "cross-origin requests are not allowed", http.StatusForbidden)
			return
		}
		if token != "" {
			if !bearerOK(r.Header.Get("Authorization"), token) {
				w.Header().Set("WWW-Authenticate", `Bearer realm="scry"`)
				http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxRequestBytes)
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				var tooBig *http.MaxBytesError
				if errors.As(err, &tooBig) {
					http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
				} else {
					http.Error(w, "request body not received in time", http.StatusRequestTimeout)
				}
				return
			}
			if mcpserver.Nesting(body, mcpserver.MaxNesting) > mcpserver.MaxNesting {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				id := mcpserver.RequestID(body)
				if id == nil {
					id = []byte("null")
				}
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"message nested deeper than %d levels"}}`, id, mcpserver.MaxNesting)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		if bodyTimeout > 0 {
			_ = rc.SetReadDeadline(time.Time{})
		}
		next.ServeHTTP(w, r)
	})
}

func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// nopCloser keeps the transport from closing stdout.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
