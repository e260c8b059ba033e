package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/scry-dev/scry/internal/engine"
	"github.com/scry-dev/scry/internal/render"
)

// workspaceFlags are shared by every command that works on an index.
type workspaceFlags struct {
	root string
	// cwdRel is the current directory relative to a root found from it
	// (not named by --root), "" otherwise: paths typed relative to the
	// current directory are taken from there (fromCwd).
	cwdRel    string
	indexPath string
	include   []string
	exclude   []string
	maxSize   int64
}

func (w *workspaceFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&w.root, "root", "", "workspace root (default: the current directory)")
	cmd.Flags().StringVar(&w.indexPath, "index", "", "index file (default: in the user cache directory)")
	cmd.Flags().StringArrayVar(&w.include, "include", nil, "only index files matching this glob (relative to the root; repeat for several: commas and braces stay part of the glob)")
	cmd.Flags().StringArrayVar(&w.exclude, "exclude", nil, "skip files matching this glob (relative to the root; repeat for several)")
	cmd.Flags().Int64Var(&w.maxSize, "max-file-size", 0, "skip files larger than this many bytes (default 1 MiB)")
}

// findRoot chooses the workspace root when --root does not name one: the
// project enclosing the current directory (workspace.FindRoot), named on
// stderr when it is not the current directory itself, so that a command run
// from a subdirectory answers about the whole project and says so.
func (w *workspaceFlags) findRoot(cmd *cobra.Command) error {
	if w.root != "" {
		return nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("current directory: %w", err)
	}
	home, _ := os.UserHomeDir()
	found, err := engine.FindRoot(cwd, home)
	if err != nil {
		return err
	}
	w.root = found.Dir
	if found.Dir != cwd {
		if rel, err := filepath.Rel(found.Dir, cwd); err == nil {
			w.cwdRel = rel
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "scry:", render.FoundRoot(found))
	}
	return nil
}

// fromCwd rewrites a relative path typed in a subdirectory of a found root
// to the root-relative path the engine expects, when it names something
// that exists there; anything else (a package name, a glob, a path already
// relative to the root) is returned as it is.
func (w *workspaceFlags) fromCwd(p string) string {
	if w.cwdRel == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	if _, err := os.Lstat(p); err != nil {
		return p
	}
	return filepath.ToSlash(filepath.Join(w.cwdRel, p))
}

// symbolFromCwd rewrites the file part of a symbol path
// ("file > Parent > name") typed relative to the current directory.
func (w *workspaceFlags) symbolFromCwd(symbol string) string {
	file, rest, ok := strings.Cut(symbol, ">")
	if !ok {
		return symbol
	}
	f := strings.TrimSpace(file)
	if g := w.fromCwd(f); g != f {
		return g + " >" + rest
	}
	return symbol
}

// layer lays the file-selection flags the user set over the configuration.
func (w *workspaceFlags) layer(cmd *cobra.Command) func(*engine.Config) error {
	return func(cfg *engine.Config) error {
		setIfChanged(cmd, "include", &cfg.Include, w.include)
		setIfChanged(cmd, "exclude", &cfg.Exclude, w.exclude)
		setIfChanged(cmd, "max-file-size", &cfg.MaxFileSize, w.maxSize)
		return nil
	}
}

// setIfChanged sets *dst to the flag's value v when the user gave the flag
// name: a flag lays over the configuration (file, then environment) only
// where it was given, never with its default.
func setIfChanged[T any](cmd *cobra.Command, name string, dst *T, v T) {
	if cmd.Flags().Changed(name) {
		*dst = v
	}
}

// open opens the workspace with engine.Open: opt says which parts to
// attach; the workspace flags and then each layer (the command's other
// flags) are laid over the configuration. With progress, indexing shows a
// bar on stderr when it is a terminal. Problems that do not stop the
// command go to stderr; quietCompiler drops the ones saying structure is
// approximate (the answer says so itself).
//
// The returned function releases the engine (it closes it, unless the
// engine is a serving one's, below).
//
// Inside `scry serve`, answering a CLI call (viaServer), the engine is the
// server's, brought up to date as Open would, and left open.
func (w *workspaceFlags) open(cmd *cobra.Command, opt engine.Options, progress, quietCompiler bool, layers ...func(*engine.Config) error) (*engine.Engine, func(), error) {
	if e := served(cmd.Context()); e != nil {
		if opt.Sync {
			if _, err := e.Sync(cmd.Context()); err != nil {
				return nil, nil, fmt.Errorf("sync %s: %w", e.Dir(), err)
			}
		}
		return e, func() {}, nil
	}
	e, err := w.openEngine(cmd, opt, progress, quietCompiler, layers...)
	if err != nil {
		return nil, nil, err
	}
	return e, func() { e.Close() }, nil
}

func (w *workspaceFlags) openEngine(cmd *cobra.Command, opt engine.Options, progress, quietCompiler bool, layers ...func(*engine.Config) error) (*engine.Engine, error) {
	if err := w.findRoot(cmd); err != nil {
		return nil, err
	}
	opt.Root, opt.IndexPath = w.root, w.indexPath
	layers = append([]func(*engine.Config) error{w.layer(cmd)}, layers...)
	opt.Configure = func(cfg *engine.Config) error {
		for _, l := range layers {
			if err := l(cfg); err != nil {
				return err
			}
		}
		return nil
	}
	opt.Warn = func(err error) {
		if quietCompiler && errors.Is(err, engine.ErrApproximate) {
			return
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "scry:", err)
	}
	var bar *progressbar.ProgressBar
	if progress && term.IsTerminal(int(os.Stderr.Fd())) {
		opt.Progress = func(done, total int) {
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
	// A command without --backend asks what only a local index answers:
	// on a shared index the engine opens this machine's checkout instead.
	opt.LocalIndex = cmd.Flags().Lookup("backend") == nil
	e, err := engine.Open(cmd.Context(), opt)
	if bar != nil {
		bar.Finish()
	}
	if errors.Is(err, engine.ErrNeedsLocalIndex) {
		return nil, fmt.Errorf("%s needs a local index; the weaviate backend serves index, search, serve and doctor, and the other commands for one repository this machine has checked out (--repo NAME --checkout NAME=DIR), or use --backend sqlite", cmd.Name())
	}
	if err != nil {
		return nil, err
	}
	if opt.Sync {
		// An empty index answers every question with nothing; say why
		// once, before the answer.
		if empty, eerr := e.MaybeEmpty(cmd.Context(), e.LastSync()); eerr == nil && empty != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "scry:", render.EmptyWorkspace(empty))
		}
	}
	return e, nil
}
