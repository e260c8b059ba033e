package engine

import (
	"fmt"
	"path/filepath"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkcheck"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/textfmt"
	"github.com/scry-dev/scry/internal/workspace"
)

// IsSource reports whether scry parses files named like path.
func IsSource(path string) bool { return parse.LanguageOf(path) != "" }

// ChunkFile parses one file, inside a workspace or not, into its chunks.
func ChunkFile(path string) ([]chunk.Chunk, error) {
	src, err := workspace.ReadRegular(path, workspace.MaxReadSize)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return chunkSource(path, src)
}

func chunkSource(path string, src []byte) ([]chunk.Chunk, error) {
	f, err := parse.Parse(path, src, "")
	if err != nil {
		return nil, err
	}
	abs, _ := filepath.Abs(path)
	// These paths were not discovered (and vetted) by the workspace: a
	// name with a newline is shown quoted, so it cannot forge lines.
	return chunk.File(f, abs, textfmt.Name(filepath.ToSlash(path))), nil
}

// CheckChunks validates the chunks of each file against the chunking rules
// (chunking every file twice, so that ids are checked to be deterministic)
// and summarises the results under label.
func CheckChunks(files []string, label string) ([]chunkcheck.FileResult, chunkcheck.Summary, error) {
	var results []chunkcheck.FileResult
	for _, path := range files {
		src, err := workspace.ReadRegular(path, workspace.MaxReadSize)
		if err != nil {
			return nil, chunkcheck.Summary{}, fmt.Errorf("read %s: %w", path, err)
		}
		first, err := chunkSource(path, src)
		if err != nil {
			return nil, chunkcheck.Summary{}, err
		}
		second, err := chunkSource(path, src)
		if err != nil {
			return nil, chunkcheck.Summary{}, err
		}
		res := chunkcheck.Evaluate(textfmt.Name(filepath.ToSlash(path)), src, len(first), first, second)
		for i := range res.Chunks {
			res.Chunks[i].FullSource = ""
		}
		results = append(results, res)
	}
	sum := chunkcheck.Summarize(results...)
	sum.Label = label
	return results, sum, nil
}
