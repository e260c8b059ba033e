// Package weaviate keeps a shared index of many repositories in a Weaviate
// cluster: one tenant per repository in two multi-tenant collections,
// chunks (ScryChunk) and file records (ScryFile). Push writes a
// repository's local index into its tenant; Reader answers the search
// pipeline's reads (search.Reader) from one or more tenants, so stateless
// servers can rank and answer from the cluster with scry's own ranking.
//
// Every file is switched atomically: a file's chunks carry the content
// hash of the version they came from, and its file record names the live
// hash. A new version's chunks are written first, then the record is
// flipped (one object write), then the old chunks are deleted; readers
// keep only chunks whose hash is their file's live one. A sync killed at
// any point leaves each file answering from its old or its new version,
// never a mix.
package weaviate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	wv "github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/fault"
	"github.com/weaviate/weaviate/entities/models"
)

// The collections. Names are fixed: several scry servers and indexers
// share them.
const (
	ChunkClass = "ScryChunk"
	FileClass  = "ScryFile"
)

// Config says how to reach the cluster.
type Config struct {
	// URL is the REST endpoint, http(s)://host:port, or several nodes'
	// endpoints separated by commas: requests go to one node and move to
	// the next when it is down.
	URL string
	// Key is the API key (sent as a bearer token); "" for anonymous access.
	Key string
	// Replicas is the replication factor of the collections when this
	// client creates them (0: 1). Existing collections keep theirs.
	Replicas int
	// Timeout bounds each request (0: 30 s).
	Timeout time.Duration
	// AttemptTimeout bounds the wait for one node to begin answering
	// when another node is left to try (0: 10 s): a node that hangs is
	// left for the next.
	AttemptTimeout time.Duration
}

// Client is a connection to the cluster.
type Client struct {
	wv       *wv.Client
	url      string
	replicas int
	version  string
	factor   atomic.Int64 // the collections' replication factor once known (0: not yet)
	http     *http.Client
	base     string // scheme://first-host/v1
	headers  map[string]string
}

// ErrUnreachable, ErrUnauthorized: the two ways a misconfigured backend
// fails, so front ends can say which setting to fix.
var (
	ErrUnreachable  = errors.New("weaviate unreachable")
	ErrUnauthorized = errors.New("weaviate refused the API key")
)

// Connect reaches the cluster and checks the key with one authenticated
// request, so a wrong URL or key fails here with a clear error rather than
// in the middle of a sync.
func Connect(ctx context.Context, cfg Config) (*Client, error) {
	scheme, hosts, err := parseEndpoints(cfg.URL)
	if err != nil {
		return nil, err
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	attempt := cfg.AttemptTimeout
	if attempt <= 0 {
		attempt = 10 * time.Second
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	wcfg := wv.Config{
		Host: hosts[0], Scheme: scheme, Timeout: timeout,
		ConnectionClient: &http.Client{Timeout: timeout, Transport: &failover{base: base, hosts: hosts, attempt: attempt}},
	}
	if cfg.Key != "" {
		// What the client's auth.ApiKey sends; set here because the
		// client takes either an auth config or an HTTP client, and the
		// HTTP client is needed for failover.
		wcfg.Headers = map[string]string{"authorization": "Bearer " + cfg.Key}
	}
	cl, err := wv.NewClient(wcfg)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrUnreachable, cfg.URL, err)
	}
	c := &Client{wv: cl, url: cfg.URL, replicas: max(cfg.Replicas, 1), http: wcfg.ConnectionClient, base: scheme + "://" + hosts[0] + "/v1", headers: wcfg.Headers}
	meta, err := cl.Misc().MetaGetter().Do(ctx)
	if err != nil {
		return nil, classify(cfg.URL, err)
	}
	c.version = meta.Version
	return c, nil
}

// classify turns a client error into ErrUnreachable or ErrUnauthorized
// where it is one of those.
func classify(at string, err error) error {
	var ce *fault.WeaviateClientError
	if errors.As(err, &ce) {
		switch {
		case ce.StatusCode == 401 || ce.StatusCode == 403:
			return fmt.Errorf("%w (%s, status %d): check SCRY_WEAVIATE_KEY", ErrUnauthorized, at, ce.StatusCode)
		case ce.StatusCode <= 0 && ce.DerivedFromError != nil:
			return fmt.Errorf("%w at %s: %w", ErrUnreachable, at, ce.DerivedFromError)
		case ce.StatusCode <= 0:
			return fmt.Errorf("%w at %s: %v", ErrUnreachable, at, err)
		}
	}
	return fmt.Errorf("weaviate %s: %w", at, err)
}

// URL is the endpoint the client talks to.
func (c *Client) URL() string { return c.url }

// Version is the server's version.
func (c *Client) Version() string { return c.version }

var tenantName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidRepo checks a repository name: it is a tenant name, 1 to 64
// letters, digits, '-' or '_'.
func ValidRepo(name string) error {
	if !tenantName.MatchString(name) {
		return fmt.Errorf("weaviate: repository name %q: use 1 to 64 letters, digits, '-' or '_'", name)
	}
	return nil
}

// Consistency levels, named on every request that takes one. Writes wait
// for a quorum of replicas (2 of 3): an acknowledged write survives the
// loss of any one node, and one node down does not fail it. Reads ask a
// quorum too: with quorum writes that makes every read see every
// acknowledged write (2 + 2 > 3), even when the node that coordinates it
// has just restarted and not yet caught up, so a file's chunks and its
// record never disagree because they came from replicas of different
// ages. Reads at ONE would be faster but could answer from such a stale
// replica. Counts (Aggregate) take no level and read one replica; they
// feed statistics only. On one node every level is that node.
const (
	writeConsistency = "QUORUM"
	readConsistency  = "QUORUM"
)

// readLevel is the GraphQL argument that sets a read's consistency level,
// or "" for collections without replicas (whose schema has no such
// argument). The factor is read from the schema once it exists.
func (c *Client) readLevel(ctx context.Context) (string, error) {
	if f := c.factor.Load(); f > 0 {
		return levelArg(f), nil
	}
	var cls models.Class
	ok, err := c.localSchema(ctx, "/schema/"+ChunkClass, &cls)
	if err != nil || !ok {
		return "", err // !ok: nothing indexed yet, queries find nothing
	}
	f := int64(1)
	if cls.ReplicationConfig != nil && cls.ReplicationConfig.Factor > 1 {
		f = cls.ReplicationConfig.Factor
	}
	c.factor.Store(f)
	return levelArg(f), nil
}

func levelArg(factor int64) string {
	if factor <= 1 {
		return ""
	}
	return ",consistencyLevel:" + readConsistency
}

// localSchema reads part of the schema (path under /v1) from the node
// that answers rather than from the Raft leader (header consistency:
// false): the schema is replicated to every node, and a read that waits
// for the leader fails for as long as the cluster elects a new one after
// losing it. ok is false when the class or tenant does not exist. Changes
// still go through the leader.
func (c *Client) localSchema(ctx context.Context, path string, out any) (ok bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return false, fmt.Errorf("weaviate: schema %s: %w", path, err)
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("consistency", "false")
	resp, err := c.http.Do(req)
	if err != nil {
		return false, fmt.Errorf("%w at %s: %w", ErrUnreachable, c.url, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return false, nil
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return false, fmt.Errorf("%w (%s, status %d): check SCRY_WEAVIATE_KEY", ErrUnauthorized, c.url, resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return false, fmt.Errorf("weaviate: schema %s: %s: %s", path, resp.Status, strings.TrimSpace(string(body)))
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return false, fmt.Errorf("weaviate: schema %s: %w", path, err)
		}
	}
	return true, nil
}

// replication is the collections' replication setting. With replicas,
// asynchronous replication is on, so a node that was down catches up with
// the writes it missed by itself (not only when a read repairs an object),
// and a deletion that conflicts with an older write wins by time.
func (c *Client) replication() *models.ReplicationConfig {
	rc := &models.ReplicationConfig{Factor: int64(c.replicas)}
	if c.replicas > 1 {
		rc.AsyncEnabled = true
		rc.DeletionStrategy = "TimeBasedResolution"
	}
	return rc
}

// EnsureSchema creates the two collections when they do not exist.
func (c *Client) EnsureSchema(ctx context.Context) error {
	for _, cls := range []*models.Class{c.chunkClass(), c.fileClass()} {
		var have models.Class
		ok, err := c.localSchema(ctx, "/schema/"+cls.Class, &have)
		if err != nil {
			return err
		}
		if ok {
			if err := c.addMissingProperties(ctx, cls, &have); err != nil {
				return err
			}
			continue
		}
		if err := c.wv.Schema().ClassCreator().WithClass(cls).Do(ctx); err != nil {
			// Another indexer may have created it in between.
			if ok, cerr := c.wv.Schema().ClassExistenceChecker().WithClassName(cls.Class).Do(ctx); cerr == nil && ok {
				continue
			}
			return fmt.Errorf("weaviate: create %s: %w", cls.Class, classify(c.url, err))
		}
	}
	return nil
}

// addMissingProperties adds the properties a collection created by an
// earlier scry lacks (objects written before have none of them).
func (c *Client) addMissingProperties(ctx context.Context, want, have *models.Class) error {
	got := map[string]bool{}
	for _, p := range have.Properties {
		got[p.Name] = true
	}
	for _, p := range want.Properties {
		if got[p.Name] {
			continue
		}
		if err := c.wv.Schema().PropertyCreator().WithClassName(want.Class).WithProperty(p).Do(ctx); err != nil {
			return fmt.Errorf("weaviate: add %s to %s: %w", p.Name, want.Class, classify(c.url, err))
		}
	}
	return nil
}

func boolp(b bool) *bool { return &b }

// prop builds a property; searchable text is tokenized on whitespace (scry
// splits and stems it first, as for SQLite's full-text index, so both
// backends see the same terms); stored-only fields are not indexed.
func prop(name, typ string, searchable, filterable bool, tokenization string) *models.Property {
	p := &models.Property{Name: name, DataType: []string{typ}, IndexFilterable: boolp(filterable), IndexSearchable: boolp(searchable)}
	if typ == "text" || typ == "text[]" {
		p.Tokenization = tokenization
	}
	return p
}

// tenantClass is a collection of scry's: one tenant per repository, no
// vectorizer of Weaviate's (scry embeds), replicated as configured.
func (c *Client) tenantClass(name, description string, props ...*models.Property) *models.Class {
	return &models.Class{
		Class:              name,
		Description:        description,
		Vectorizer:         "none",
		MultiTenancyConfig: &models.MultiTenancyConfig{Enabled: true},
		ReplicationConfig:  c.replication(),
		Properties:         props,
	}
}

func (c *Client) chunkClass() *models.Class {
	stored := func(name, typ string) *models.Property { return prop(name, typ, false, false, "word") }
	exact := func(name string) *models.Property { return prop(name, "text", false, true, "field") }
	words := func(name string) *models.Property { return prop(name, "text", true, true, "whitespace") }
	return c.tenantClass(ChunkClass, "scry chunks: one per symbol, per repository tenant",
		exact("chunkId"), exact("path"), exact("language"), exact("fileHash"), exact("nodeKind"), exact("name"),
		stored("parentName", "text"), stored("parentChunkId", "text"), stored("childChunkIds", "text[]"),
		prop("depth", "int", false, true, ""), prop("seq", "int", false, true, ""),
		stored("signature", "text"), stored("fullSource", "text"), stored("jsdoc", "text"),
		stored("embeddingText", "text"), stored("breadcrumb", "text"),
		prop("startLine", "int", false, true, ""), prop("endLine", "int", false, false, ""),
		stored("relevantImports", "text[]"), stored("modifiers", "text[]"), prop("exported", "boolean", false, false, ""),
		words("fName"), words("fBreadcrumb"), words("fSignature"), words("fJsdoc"), words("fIdents"),
		exact("embedModel"), exact("assignedName"),
	)
}

func (c *Client) fileClass() *models.Class {
	exact := func(name string) *models.Property { return prop(name, "text", false, true, "field") }
	return c.tenantClass(FileClass, "scry file records: content hash, mtime, compressed text, per repository tenant",
		exact("path"), exact("hash"), exact("state"), exact("language"), exact("mtime"), exact("embedModel"),
		prop("size", "int", false, false, ""), prop("chunks", "int", false, false, ""),
		prop("text", "blob", false, false, ""),
	)
}

// EnsureTenant adds a repository's tenant to both collections.
func (c *Client) EnsureTenant(ctx context.Context, repo string) error {
	if err := ValidRepo(repo); err != nil {
		return err
	}
	for _, cls := range []string{ChunkClass, FileClass} {
		if ok, err := c.localSchema(ctx, "/schema/"+cls+"/tenants/"+repo, nil); err == nil && ok {
			continue
		}
		if err := c.wv.Schema().TenantsCreator().WithClassName(cls).WithTenants(models.Tenant{Name: repo}).Do(ctx); err != nil {
			if ok, cerr := c.wv.Schema().TenantsExists().WithClassName(cls).WithTenant(repo).Do(ctx); cerr == nil && ok {
				continue
			}
			return fmt.Errorf("weaviate: tenant %s of %s: %w", repo, cls, classify(c.url, err))
		}
	}
	return nil
}

// Tenants lists the repositories in the shared index.
func (c *Client) Tenants(ctx context.Context) ([]string, error) {
	ok, err := c.wv.Schema().ClassExistenceChecker().WithClassName(FileClass).Do(ctx)
	if err != nil {
		return nil, classify(c.url, err)
	}
	if !ok {
		return nil, nil
	}
	ts, err := c.wv.Schema().TenantsGetter().WithClassName(FileClass).Do(ctx)
	if err != nil {
		return nil, classify(c.url, err)
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out, nil
}

// DeleteTenant removes a repository from the shared index.
func (c *Client) DeleteTenant(ctx context.Context, repo string) error {
	for _, cls := range []string{ChunkClass, FileClass} {
		if err := c.wv.Schema().TenantsDeleter().WithClassName(cls).WithTenants(repo).Do(ctx); err != nil {
			return fmt.Errorf("weaviate: delete tenant %s: %w", repo, classify(c.url, err))
		}
	}
	return nil
}

// gql runs a GraphQL query and decodes its data into out.
func (c *Client) gql(ctx context.Context, query string, out any) error {
	return retry(ctx, func() error { return c.gqlOnce(ctx, query, out) })
}

func (c *Client) gqlOnce(ctx context.Context, query string, out any) error {
	resp, err := c.wv.GraphQL().Raw().WithQuery(query).Do(ctx)
	if err != nil {
		return classify(c.url, err)
	}
	if len(resp.Errors) > 0 {
		msgs := make([]string, len(resp.Errors))
		for i, e := range resp.Errors {
			msgs[i] = e.Message
		}
		return fmt.Errorf("weaviate: query: %s", strings.Join(msgs, "; "))
	}
	data, err := json.Marshal(resp.Data)
	if err != nil {
		return fmt.Errorf("weaviate: query: %w", err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("weaviate: decode answer: %w", err)
	}
	return nil
}

// quote writes s as a GraphQL string literal (JSON's escapes are
// GraphQL's).
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = quote(x)
	}
	return "[" + strings.Join(q, ",") + "]"
}
