package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/snapshot"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/weaviate"
)

// The shared index (backend weaviate): `scry index` fills one repository's
// tenant from the local index it keeps up to date; every other command is
// stateless and reads the cluster alone: no local index, no sync, and
// structure from the index's chunks (approximate), since the server need
// not have the repository checked out.

// reasonShared is why structure from the shared index is approximate
// when the server has no checkout of the repository.
const reasonShared = "answered from the shared index: calls, callers and references are not resolved (no checkout of the repository on this server)"

// connectShared reaches the cluster named by the configuration.
func connectShared(ctx context.Context, cfg Config) (*weaviate.Client, error) {
	c, err := weaviate.Connect(ctx, weaviate.Config{URL: cfg.Weaviate.URL, Key: cfg.Weaviate.Key, Replicas: cfg.Weaviate.Replicas})
	if err != nil {
		return nil, fmt.Errorf("backend weaviate: %w", err)
	}
	return c, nil
}

// PublishSummary says what `scry index --backend weaviate` did.
type PublishSummary = weaviate.PushSummary

// Publish brings the local index up to date, then the repository's tenant
// in the shared index (only files whose content changed are sent).
func (e *Engine) Publish(ctx context.Context) (PublishSummary, error) {
	if e.shared == nil || e.store == nil {
		return PublishSummary{}, fmt.Errorf("publish: the engine was not opened to index into a shared index")
	}
	repos := e.conf().Weaviate.Repos
	if len(repos) != 1 {
		return PublishSummary{}, fmt.Errorf("index into weaviate: name exactly one repository (--repo NAME), not %d", len(repos))
	}
	if _, err := e.Sync(ctx); err != nil {
		return PublishSummary{}, err
	}
	opt := weaviate.PushOptions{
		ReadFile: func(rel string) ([]byte, error) {
			abs, _, err := e.root.Resolve(rel)
			if err != nil {
				return nil, err
			}
			return e.localReads().ReadFile(abs)
		},
		Progress: e.progress,
	}
	if emb := e.neural.embedder(); emb != nil {
		model := emb.ModelID()
		opt.VectorModel = model
		opt.Vectors = func(ids []string) (map[string][]float32, error) {
			out := make(map[string][]float32, len(ids))
			for _, id := range ids {
				if v, err := e.store.GetVector(id, model); err == nil {
					out[id] = v
				}
			}
			return out, nil
		}
	}
	return e.shared.Push(ctx, repos[0], e.store, opt)
}

// Indexed is what `scry index` did: the sync of the local index (Open
// ran it), and on a shared index what publishing the repository's tenant
// from it sent.
type Indexed struct {
	Sync index.Summary
	// Repo and Published: the repository published to, and what was
	// sent (nil on a local index).
	Repo      string
	Published *PublishSummary
}

// MarshalJSON is `scry index --json`: what was published, where the
// engine publishes, else the sync's summary.
func (r Indexed) MarshalJSON() ([]byte, error) {
	if r.Published != nil {
		return json.Marshal(r.Published)
	}
	return json.Marshal(r.Sync)
}

// Index finishes `scry index` on an engine opened with Sync and Publish:
// on a shared index it publishes the repository's tenant from the local
// index; on a local index the sync Open ran is the whole of it.
func (e *Engine) Index(ctx context.Context) (Indexed, error) {
	if e.shared == nil {
		return Indexed{Sync: e.lastSync}, nil
	}
	sum, err := e.Publish(ctx)
	if err != nil {
		return Indexed{}, err
	}
	return Indexed{Sync: e.lastSync, Repo: e.conf().Weaviate.Repos[0], Published: &sum}, nil
}

// ErrNotServed: a query named a repository outside the engine's served
// set.
var ErrNotServed = errors.New("repository not served")

// sharedReader reads the repositories a query names, else the configured
// ones. The configured set (--repo, SCRY_REPO) is a boundary: a query may
// narrow it, never widen it, so a server's clients read only what its
// operator chose to serve. A name outside it is refused before the
// cluster is asked, with the same answer whether or not such a tenant
// exists, so clients cannot probe for other repositories.
func (e *Engine) sharedReader(ctx context.Context, repos []string) (*weaviate.Reader, error) {
	served := e.conf().Weaviate.Repos
	if len(served) == 0 {
		return nil, fmt.Errorf("search the shared index: name the repositories (--repo or SCRY_REPO)")
	}
	for _, r := range repos {
		if !slices.Contains(served, r) {
			return nil, fmt.Errorf("%w: %s; this server reads %s (its --repo list)", ErrNotServed, textfmt.Name(r), strings.Join(served, ", "))
		}
	}
	if len(repos) == 0 {
		repos = served
	}
	return e.shared.Reader(ctx, repos)
}

// sharedSnapshot builds a snapshot from the file's text as indexed.
func sharedSnapshot(rd *weaviate.Reader, file string, targets []snapshot.Target) (string, error) {
	text, err := rd.FileText(file)
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", file, err)
	}
	return snapshot.Build(file, []byte(text), targets)
}

// embedder is the configured embedder, or nil.
func (n *neural) embedder() interface{ ModelID() string } {
	if n == nil || n.Embedder == nil {
		return nil
	}
	return n.Embedder
}
