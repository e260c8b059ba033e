package tsls

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A file that no tsconfig.json or jsconfig.json governs belongs to no
// configured project. tsgo 7.0.2 answers requests on such a file from its
// inferred project, whose roots are the open files plus the file asked
// about: each request on another file swaps that root, rebuilds the
// program and throws away the type checkers' work, and references are
// searched only among the files the current roots happen to import. (On the
// sources of rxjs and effect, which ship no tsconfig.json: a program
// rebuild for nearly every new file asked about, and references that
// depended on which file had been asked about before.)
//
// Those files are therefore handed to the server as one program: a
// document that exists only in the server's overlay, never on disk, holding
// a `/// <reference path>` directive per file. The program is built once at
// start, and again only when such files are created or deleted.

// programDocName is the overlay document's name in the workspace root.
const programDocName = "__scry_workspace__.ts"

// program is the set of ungoverned source files and the overlay document
// that lists them. Guarded by Server.mu.
type program struct {
	path    string          // the overlay document (absolute)
	files   map[string]bool // absolute paths listed in the document
	version int
	openIn  *process // the process that has the document open
}

func newProgram(root string) *program {
	return &program{
		path:  filepath.Join(root, programDocName),
		files: map[string]bool{},
	}
}

// set replaces the listed files; it reports whether the list changed.
func (pg *program) set(files map[string]bool) bool {
	changed := len(files) != len(pg.files)
	for p := range files {
		if !pg.files[p] {
			changed = true
			break
		}
	}
	pg.files = files
	return changed
}

// ungovernedFiles returns the source files among paths that no tsconfig.json or
// jsconfig.json governs: none sits in the file's directory or an ancestor,
// which is where tsgo looks for one. It stats the disk, so callers run it
// outside Server.mu.
func ungovernedFiles(paths []string) map[string]bool {
	configs := map[string]bool{} // directory → governed
	var governed func(dir string) bool
	governed = func(dir string) bool {
		if v, ok := configs[dir]; ok {
			return v
		}
		v := false
		for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				v = true
				break
			}
		}
		if parent := filepath.Dir(dir); !v && parent != dir {
			v = governed(parent)
		}
		configs[dir] = v
		return v
	}
	out := make(map[string]bool, len(paths))
	for _, p := range paths {
		if isSourceFile(p) && !strings.ContainsAny(p, "\"\n\r") && !governed(filepath.Dir(p)) {
			out[p] = true
		}
	}
	return out
}

// text is the overlay document: one reference directive per file, sorted
// so that the same set always gives the same text.
func (pg *program) text() string {
	paths := make([]string, 0, len(pg.files))
	for p := range pg.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	b.WriteString("// The workspace's files without a tsconfig.json, as one program (scry).\n")
	for _, p := range paths {
		b.WriteString(`/// <reference path="`)
		b.WriteString(filepath.ToSlash(p))
		b.WriteString("\" />\n")
	}
	return b.String()
}

var sourceExts = map[string]bool{
	".ts": true, ".tsx": true, ".mts": true, ".cts": true,
	".js": true, ".jsx": true, ".mjs": true, ".cjs": true,
}

func isSourceFile(path string) bool {
	return sourceExts[strings.ToLower(filepath.Ext(path))]
}

// ProgramSplit counts the source files among files (absolute paths) that a
// tsconfig.json or jsconfig.json governs, and those the server is given as
// one program instead.
func ProgramSplit(files []string) (governed, ungoverned int) {
	for _, f := range files {
		if isSourceFile(f) {
			governed++
		}
	}
	n := len(ungovernedFiles(files))
	return governed - n, n
}

// SetProgramFiles replaces the workspace's source files (absolute paths)
// from which the program of files without a tsconfig.json is made, and
// sends the server the new program when its list changed: call it after
// files are created or deleted.
func (s *Server) SetProgramFiles(ctx context.Context, files []string) error {
	next := ungovernedFiles(files)
	s.mu.Lock()
	if s.program == nil {
		s.program = newProgram(s.root)
	}
	changed := s.program.set(next)
	s.mu.Unlock()
	if !changed {
		return nil
	}
	p, err := s.live(ctx)
	if err != nil {
		return err
	}
	return s.sendProgram(p)
}

// sendProgram opens the program document in p, or sends its new text if
// p has it open already.
func (s *Server) sendProgram(p *process) error {
	s.mu.Lock()
	pg := s.program
	pg.version++
	text, v, open := pg.text(), pg.version, pg.openIn == p
	pg.openIn = p
	s.mu.Unlock()
	if !open {
		if err := s.notifyChange(p, "textDocument/didOpen", didOpenParams(pg.path, v, text)); err != nil {
			return fmt.Errorf("open the workspace program: %w", err)
		}
		return nil
	}
	if err := s.notifyChange(p, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": PathToURI(pg.path), "version": v},
		"contentChanges": []map[string]any{{"text": text}},
	}); err != nil {
		return fmt.Errorf("update the workspace program: %w", err)
	}
	return nil
}
