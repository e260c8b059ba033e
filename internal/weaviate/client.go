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
	"net/url"
	"regexp"
	"strings"
	"time"

	wv "github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/auth"
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
	// URL is the REST endpoint, http(s)://host:port.
	URL string
	// Key is the API key (sent as a bearer token); "" for anonymous access.
	Key string
	// Replicas is the replication factor of the collections when this
	// client creates them (0: 1). Existing collections keep theirs.
	Replicas int
	// Timeout bounds each request (0: 30 s).
	Timeout time.Duration
}

// Client is a connection to the cluster.
type Client struct {
	wv       *wv.Client
	url      string
	replicas int
	version  string
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
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("weaviate: url %q: want http(s)://host:port", cfg.URL)
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	wcfg := wv.Config{Host: u.Host, Scheme: u.Scheme, Timeout: timeout}
	if cfg.Key != "" {
		wcfg.AuthConfig = auth.ApiKey{Value: cfg.Key}
	}
	cl, err := wv.NewClient(wcfg)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrUnreachable, cfg.URL, err)
	}
	c := &Client{wv: cl, url: cfg.URL, replicas: max(cfg.Replicas, 1)}
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

// EnsureSchema creates the two collections when they do not exist.
func (c *Client) EnsureSchema(ctx context.Context) error {
	for _, cls := range []*models.Class{c.chunkClass(), c.fileClass()} {
		ok, err := c.wv.Schema().ClassExistenceChecker().WithClassName(cls.Class).Do(ctx)
		if err != nil {
			return classify(c.url, err)
		}
		if ok {
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

func (c *Client) chunkClass() *models.Class {
	stored := func(name, typ string) *models.Property { return prop(name, typ, false, false, "word") }
	exact := func(name string) *models.Property { return prop(name, "text", false, true, "field") }
	words := func(name string) *models.Property { return prop(name, "text", true, true, "whitespace") }
	return &models.Class{
		Class:              ChunkClass,
		Description:        "scry chunks: one per symbol, per repository tenant",
		Vectorizer:         "none",
		MultiTenancyConfig: &models.MultiTenancyConfig{Enabled: true},
		ReplicationConfig:  &models.ReplicationConfig{Factor: int64(c.replicas)},
		Properties: []*models.Property{
			exact("chunkId"), exact("path"), exact("language"), exact("fileHash"), exact("nodeKind"), exact("name"),
			stored("parentName", "text"), stored("parentChunkId", "text"), stored("childChunkIds", "text[]"),
			prop("depth", "int", false, true, ""), prop("seq", "int", false, true, ""),
			stored("signature", "text"), stored("fullSource", "text"), stored("jsdoc", "text"),
			stored("embeddingText", "text"), stored("breadcrumb", "text"),
			prop("startLine", "int", false, true, ""), prop("endLine", "int", false, false, ""),
			stored("relevantImports", "text[]"), stored("modifiers", "text[]"), prop("exported", "boolean", false, false, ""),
			words("fName"), words("fBreadcrumb"), words("fSignature"), words("fJsdoc"), words("fIdents"),
		},
	}
}

func (c *Client) fileClass() *models.Class {
	exact := func(name string) *models.Property { return prop(name, "text", false, true, "field") }
	return &models.Class{
		Class:              FileClass,
		Description:        "scry file records: content hash, mtime, compressed text, per repository tenant",
		Vectorizer:         "none",
		MultiTenancyConfig: &models.MultiTenancyConfig{Enabled: true},
		ReplicationConfig:  &models.ReplicationConfig{Factor: int64(c.replicas)},
		Properties: []*models.Property{
			exact("path"), exact("hash"), exact("state"), exact("language"), exact("mtime"),
			prop("size", "int", false, false, ""), prop("chunks", "int", false, false, ""),
			prop("text", "blob", false, false, ""),
		},
	}
}

// EnsureTenant adds a repository's tenant to both collections.
func (c *Client) EnsureTenant(ctx context.Context, repo string) error {
	if err := ValidRepo(repo); err != nil {
		return err
	}
	for _, cls := range []string{ChunkClass, FileClass} {
		ok, err := c.wv.Schema().TenantsExists().WithClassName(cls).WithTenant(repo).Do(ctx)
		if err == nil && ok {
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
