package main

import (
	"context"
	"fmt"
	"os"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/scry-dev/scry/internal/config"
	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/workspace"
)

// workspaceFlags are shared by every command that works on an index.
type workspaceFlags struct {
	root      string
	indexPath string
	include   []string
	exclude   []string
	maxSize   int64
}

func (w *workspaceFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&w.root, "root", "", "workspace root (default: the current directory)")
	cmd.Flags().StringVar(&w.indexPath, "index", "", "index file (default: in the user cache directory)")
	cmd.Flags().StringSliceVar(&w.include, "include", nil, "only index files matching these globs (relative to the root)")
	cmd.Flags().StringSliceVar(&w.exclude, "exclude", nil, "skip files matching these globs (relative to the root)")
	cmd.Flags().Int64Var(&w.maxSize, "max-file-size", 0, "skip files larger than this many bytes (default 1 MiB)")
}

// open opens the workspace's index; progress goes to stderr as a bar when it
// is a terminal, and nowhere otherwise.
func (w *workspaceFlags) open(progress bool) (*engine.Engine, func(), error) {
	opt := engine.Options{Root: w.root, IndexPath: w.indexPath}
	opt.Index.Workspace.Include = w.include
	opt.Index.Workspace.Exclude = w.exclude
	opt.Index.Workspace.MaxFileSize = w.maxSize
	var bar *progressbar.ProgressBar
	if progress && term.IsTerminal(int(os.Stderr.Fd())) {
		opt.Index.Progress = func(done, total int) {
			if total < 50 {
				return
			}
			if bar == nil {
				bar = progressbar.NewOptions(total,
					progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionSetDescription("indexing"),
					progressbar.OptionShowCount(),
					progressbar.OptionShowIts(),
					progressbar.OptionSetItsString("files"),
					progressbar.OptionSetPredictTime(true),
					progressbar.OptionClearOnFinish(),
				)
			}
			bar.Set(done)
		}
	}
	e, err := engine.Open(opt)
	if err != nil {
		return nil, nil, err
	}
	return e, func() {
		if bar != nil {
			bar.Finish()
		}
		e.Close()
	}, nil
}

func syncOrFail(ctx context.Context, e *engine.Engine) (index.Summary, error) {
	sum, err := e.Sync(ctx)
	if err != nil {
		return sum, fmt.Errorf("sync %s: %w", e.Root.Dir(), err)
	}
	return sum, nil
}

// loadConfig reads the workspace's configuration (file, then environment)
// and applies its file selection, except where a flag said otherwise.
func (w *workspaceFlags) loadConfig(cmd *cobra.Command, e *engine.Engine) (config.Config, error) {
	cfg, err := config.Load(e.Root.Dir(), os.Getenv)
	if err != nil {
		return cfg, err
	}
	opt := workspace.Options{Include: cfg.Include, Exclude: cfg.Exclude, MaxFileSize: cfg.MaxFileSize}
	f := cmd.Flags()
	if f.Changed("include") {
		opt.Include = w.include
	}
	if f.Changed("exclude") {
		opt.Exclude = w.exclude
	}
	if f.Changed("max-file-size") {
		opt.MaxFileSize = w.maxSize
	}
	e.Indexer.SetWorkspaceOptions(opt)
	return cfg, nil
}
