package engine

import (
	"fmt"
	"slices"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/workspace"
)

// A long-running engine (scry serve) follows its workspace's .scry.toml: a
// user who adds an exclude to hide a directory from agents expects it to
// hold from the next question, not from the next restart.

// configStamp is the content hash of the workspace's .scry.toml as last
// loaded ("" when there was none).
func (e *Engine) configStamp() (string, error) {
	return config.WorkspaceFileHash(e.root.Dir())
}

// ConfigChanged reports whether the workspace's .scry.toml differs from
// the one the engine's configuration was loaded from.
func (e *Engine) ConfigChanged() bool {
	if e.store == nil {
		return false // a stateless reader of the shared index has no workspace file
	}
	h, err := e.configStamp()
	e.cfgMu.RLock()
	defer e.cfgMu.RUnlock()
	return err != nil || h != e.loadedStamp
}

// ReloadConfig loads the configuration again, as Open did (the workspace's
// file as far as its trust allows, the environment, the front end's
// settings). What selects files (include, exclude, maxFileSize) and how
// answers are ranked and cut take effect at once: the next sync drops the
// files now excluded and adds the ones now included. Settings that choose
// programs, models, tools or the backend stay as they are until a restart,
// and ReloadConfig names them in its notes. A configuration that no longer
// loads is an error, and the engine keeps the last one; the next call
// tries again. Calls running meanwhile see the old configuration or the
// new one (the MCP server holds its own calls off, so that one call never
// sees both).
func (e *Engine) ReloadConfig() (notes []string, err error) {
	stamp, err := e.configStamp()
	if err != nil {
		return nil, fmt.Errorf("reloading the configuration: %w", err)
	}
	cfg, err := loadConfig(e.root.Dir(), e.getenv, e.configure)
	if err != nil {
		return nil, fmt.Errorf("reloading the configuration (the previous one stays in force until it loads): %w", err)
	}
	old := e.conf()
	var later []string
	keep := func(name string, changed bool) {
		if changed {
			later = append(later, name)
		}
	}
	keep("tools", !slices.Equal(cfg.Tools, old.Tools))
	keep("tsgo", cfg.TSGo != old.TSGo)
	keep("embedding", cfg.Embedding != old.Embedding)
	keep("reranker", cfg.Reranking != old.Reranking)
	keep("backend", cfg.Backend != old.Backend || cfg.Weaviate.URL != old.Weaviate.URL || !slices.Equal(cfg.Weaviate.Repos, old.Weaviate.Repos))
	cfg.Tools, cfg.TSGo, cfg.Embedding, cfg.Reranking = old.Tools, old.TSGo, old.Embedding, old.Reranking
	cfg.Backend, cfg.Weaviate = old.Backend, old.Weaviate
	notes = cfg.Origin.Notes()
	if len(later) > 0 {
		notes = append(notes, fmt.Sprintf("the configuration changed %v: restart scry serve for those to take effect", later))
	}
	e.cfgMu.Lock()
	defer e.cfgMu.Unlock()
	ws := workspace.Options{Include: cfg.Include, Exclude: cfg.Exclude, MaxFileSize: cfg.MaxFileSize}
	if !slices.Equal(ws.Include, old.Include) || !slices.Equal(ws.Exclude, old.Exclude) || ws.MaxFileSize != old.MaxFileSize {
		e.indexOpts.Workspace = ws
		e.indexer.SetWorkspaceOptions(ws)
		e.described.Clear()
	}
	e.cfg, e.cfgErr, e.loadedStamp = cfg, nil, stamp
	return notes, nil
}
