package engine

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkcheck"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/workspace"
)

// SourceFiles are the files `scry chunks` parses: named by arguments
// confined to a workspace root like every other path argument, and read
// only through that root (regular files inside it, within the size limit).
type SourceFiles struct {
	root *workspace.Root
	// Files are the source files found, relative to the root, sorted.
	Files []string
}

// FindSources confines each argument (a file or directory, relative to
// rootDir or absolute inside it) to the root and lists the source files
// they name; directories are walked, skipping node_modules and .git. An
// argument outside the root is refused with workspace.ErrOutsideRoot.
func FindSources(rootDir string, args []string) (*SourceFiles, error) {
	root, err := workspace.NewRoot(rootDir)
	if err != nil {
		return nil, fmt.Errorf("chunks: %w", err)
	}
	s := &SourceFiles{root: root}
	seen := map[string]bool{}
	add := func(rel string) {
		if !seen[rel] {
			seen[rel] = true
			s.Files = append(s.Files, rel)
		}
	}
	for _, a := range args {
		abs, rel, err := root.Resolve(a)
		if err != nil {
			return nil, fmt.Errorf("chunks: %w (give --root to name another workspace)", err)
		}
		err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") && p != abs {
				return filepath.SkipDir
			}
			if p == abs && !d.IsDir() {
				add(rel) // a file named explicitly, whatever its extension
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if _, _, err := root.Resolve(p); err != nil {
					return nil // a link out of the root, met on the walk: left out, as discovery leaves it
				}
			}
			if !d.IsDir() && parse.LanguageOf(p) != "" {
				r, err := filepath.Rel(root.Dir(), p)
				if err != nil {
					return err
				}
				add(filepath.ToSlash(r))
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("chunks: %s: %w", textfmt.Name(a), err)
		}
	}
	sort.Strings(s.Files)
	return s, nil
}

// read reads one of the files, checking that the file opened is inside the
// root.
func (s *SourceFiles) read(rel string) ([]byte, error) {
	return s.root.ReadFile(filepath.Join(s.root.Dir(), filepath.FromSlash(rel)), workspace.MaxReadSize)
}

// Chunks parses one of the files into its chunks.
func (s *SourceFiles) Chunks(rel string) ([]chunk.Chunk, error) {
	src, err := s.read(rel)
	if err != nil {
		return nil, err
	}
	return s.chunkSource(rel, src)
}

func (s *SourceFiles) chunkSource(rel string, src []byte) ([]chunk.Chunk, error) {
	f, err := parse.Parse(rel, src, "")
	if err != nil {
		return nil, err
	}
	// These paths were not discovered (and vetted) by the workspace: a
	// name with a newline is shown quoted, so it cannot forge lines.
	return chunk.File(f, filepath.Join(s.root.Dir(), filepath.FromSlash(rel)), textfmt.Name(rel)), nil
}

// Check validates the chunks of each file against the chunking rules
// (chunking every file twice, so that ids are checked to be deterministic)
// and summarises the results under label.
func (s *SourceFiles) Check(label string) ([]chunkcheck.FileResult, chunkcheck.Summary, error) {
	var results []chunkcheck.FileResult
	for _, rel := range s.Files {
		src, err := s.read(rel)
		if err != nil {
			return nil, chunkcheck.Summary{}, err
		}
		first, err := s.chunkSource(rel, src)
		if err != nil {
			return nil, chunkcheck.Summary{}, err
		}
		second, err := s.chunkSource(rel, src)
		if err != nil {
			return nil, chunkcheck.Summary{}, err
		}
		res := chunkcheck.Evaluate(textfmt.Name(rel), src, len(first), first, second)
		for i := range res.Chunks {
			res.Chunks[i].FullSource = ""
		}
		results = append(results, res)
	}
	sum := chunkcheck.Summarize(results...)
	sum.Label = label
	return results, sum, nil
}
