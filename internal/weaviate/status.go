package weaviate

import (
	"context"
	"fmt"
	"sort"
)

// Node is one cluster node as the cluster reports it.
type Node struct {
	Name    string
	Status  string // HEALTHY, UNHEALTHY, UNAVAILABLE, ...
	Version string
	Objects int64 // objects on the node (replicas counted on each)
	Shards  int
}

// Tenant is one repository with its live object counts.
type Tenant struct {
	Repo   string
	Files  int
	Chunks int
}

// Status is the cluster's health and contents.
type Status struct {
	URL     string
	Version string
	Nodes   []Node
	Tenants []Tenant
}

// Status asks the cluster for its nodes and counts each tenant's objects.
func (c *Client) Status(ctx context.Context) (Status, error) {
	st := Status{URL: c.url, Version: c.version}
	resp, err := c.wv.Cluster().NodesStatusGetter().WithOutput("verbose").Do(ctx)
	if err != nil {
		return st, fmt.Errorf("weaviate: nodes: %w", classify(c.url, err))
	}
	for _, n := range resp.Nodes {
		node := Node{Name: n.Name, Version: n.Version, Shards: len(n.Shards)}
		if n.Status != nil {
			node.Status = *n.Status
		}
		if n.Stats != nil {
			node.Objects = n.Stats.ObjectCount
		}
		st.Nodes = append(st.Nodes, node)
	}
	sort.Slice(st.Nodes, func(i, j int) bool { return st.Nodes[i].Name < st.Nodes[j].Name })
	repos, err := c.Tenants(ctx)
	if err != nil {
		return st, err
	}
	sort.Strings(repos)
	for _, repo := range repos {
		t := &tenant{c: c, repo: repo}
		chunks, err := t.aggregate(ctx, map[string]where{"n": ""})
		if err != nil {
			return st, err
		}
		files, err := c.fileRecords(ctx, repo)
		if err != nil {
			return st, err
		}
		st.Tenants = append(st.Tenants, Tenant{Repo: repo, Files: len(files), Chunks: chunks["n"]})
	}
	return st, nil
}

// Counts are a repository's chunk and file objects as the node this
// client talks to counts them. Counts take no consistency level: the node
// counts its own replica of the tenant when it holds one, so asking each
// node in turn shows whether every replica holds every object.
func (c *Client) Counts(ctx context.Context, repo string) (chunks, files int, err error) {
	q := fmt.Sprintf(`{Aggregate{c:%s(tenant:%s){meta{count}} f:%s(tenant:%s){meta{count}}}}`, ChunkClass, quote(repo), FileClass, quote(repo))
	var resp aliasCounts
	if err := c.gql(ctx, q, &resp); err != nil {
		return 0, 0, fmt.Errorf("weaviate: count %s: %w", repo, err)
	}
	return resp.count("c"), resp.count("f"), nil
}
