package weaviate_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/weaviate"
	"github.com/scry-dev/scry/internal/weaviate/weaviatetest"
)

// hungNode listens on loopback and accepts connections but never answers
// them, as a stopped (SIGSTOP) or swapping node does: its kernel completes
// the handshake, nothing reads the request.
func hungNode(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

// TestHungNodeFailsOver is issue 29 B.8: a node that accepts connections
// and never answers is left for the next node after the attempt's time,
// instead of holding every request for the whole deadline (and its
// retries: ~122 s per MCP query before).
func TestHungNodeFailsOver(t *testing.T) {
	cfg := weaviatetest.Config(t)
	cfg.URL = hungNode(t) + "," + cfg.URL
	cfg.AttemptTimeout, cfg.Timeout = 500*time.Millisecond, time.Minute
	ctx := context.Background()
	c, err := weaviate.Connect(ctx, cfg)
	if err != nil {
		t.Fatalf("connect with the first node hung: %v", err)
	}
	repo := weaviatetest.TenantOf(t, c, "hung")
	w := newWorkspace(t, map[string]string{"src/a.ts": "export function validateToken(token: string): boolean {\n  return token.length > 0;\n}\n"})
	w.push(t, c, repo)
	rd := readerOf(t, c, repo)
	cs, err := rd.ChunksByName("validateToken")
	if err != nil || len(cs) != 1 {
		t.Errorf("read with the first node hung: %d chunks, %v", len(cs), err)
	}
}

// TestStoppedNodeFailsOver: node 1 of the 3-node cluster is stopped
// (SIGSTOP, as in the finding); clients that try it first still answer
// every query, and only the first pays the attempt's time.
func TestStoppedNodeFailsOver(t *testing.T) {
	dir, env := clusterDir(t)
	urls := strings.Split(env["SCRY_WEAVIATE_URLS"], ",")
	ctx := context.Background()
	c, err := weaviate.Connect(ctx, weaviate.Config{URL: strings.Join(urls, ","), Key: env["SCRY_WEAVIATE_KEY"], Replicas: 3, AttemptTimeout: time.Second, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	repo := weaviatetest.TenantOf(t, c, "stopped")
	w := newWorkspace(t, corpusFiles(t))
	w.push(t, c, repo)

	b, err := os.ReadFile(filepath.Join(dir, "node1.pid"))
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for _, ch := range strings.TrimSpace(string(b)) {
		pid = pid*10 + int(ch-'0')
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) })

	// A new client, node 1 first, as a server started while it hangs.
	hung, err := weaviate.Connect(ctx, weaviate.Config{URL: strings.Join(urls, ","), Key: env["SCRY_WEAVIATE_KEY"], AttemptTimeout: time.Second, Timeout: time.Minute})
	if err != nil {
		t.Fatalf("connect with node 1 stopped: %v", err)
	}
	rd, err := hung.Reader(ctx, []string{repo})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"where are tokens validated", "freeze deeply", "issue a token for a user"} {
		rs, err := (&search.Pipeline{Store: rd}).Rank(ctx, search.Request{Query: q, Params: search.DefaultParams()})
		if err != nil || len(rs) == 0 {
			t.Errorf("%q with node 1 stopped: %d results, %v", q, len(rs), err)
		}
	}
}
