// Documents: the files the server has open (overlays) and the check of a
// request's own file against the disk before the request goes out.

package tsls

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

type openDoc struct {
	version int
	text    string
}

type stamp struct {
	mtime time.Time
	size  int64
}

func languageID(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tsx":
		return "typescriptreact"
	case ".jsx":
		return "javascriptreact"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	default:
		return "typescript"
	}
}

func didOpenParams(path string, version int, text string) map[string]any {
	return map[string]any{"textDocument": map[string]any{
		"uri": PathToURI(path), "languageId": languageID(path), "version": version, "text": text,
	}}
}

// syncFile tells the server about a change to path made on disk since it
// last heard about it. A file first seen now counts as changed when it was
// modified after the process started (the process read the older content).
func (s *Server) syncFile(p *process, path string) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	st, err := os.Stat(path)
	s.mu.Lock()
	doc := s.docs[path]
	old, seen := s.stamps[path]
	var cur stamp
	if err == nil {
		cur = stamp{mtime: st.ModTime(), size: st.Size()}
		s.stamps[path] = cur
	} else {
		delete(s.stamps, path)
	}
	s.mu.Unlock()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && seen {
			return s.notifyEvents(p, []FileEvent{{Path: path, Type: FileDeleted}})
		}
		return nil // the request itself will report the problem
	}
	changed := (seen && old != cur) || (!seen && !cur.mtime.Before(p.started))
	if !changed {
		return nil
	}
	// Now a FIFO or device: told, the process would block reading it (as
	// NotifyFileEvents says).
	if why, ok := blockingFile(s.root, path); ok {
		err := blockingErr([]string{why})
		s.retire(p, err)
		return err
	}
	if doc != nil {
		return s.changeDoc(p, path)
	}
	return s.notifyEvents(p, []FileEvent{{Path: path, Type: FileChanged}})
}

// changeDoc re-reads an open document from disk and sends its whole text.
func (s *Server) changeDoc(p *process, path string) error {
	b, err := readSource(path)
	if err != nil {
		return s.closeDoc(p, path)
	}
	return s.setDoc(p, path, string(b))
}

func (s *Server) setDoc(p *process, path, text string) error {
	s.mu.Lock()
	d := s.docs[path]
	if d == nil {
		s.mu.Unlock()
		return nil
	}
	d.version++
	d.text = text
	v := d.version
	s.mu.Unlock()
	return s.notifyChange(p, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": PathToURI(path), "version": v},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

func (s *Server) closeDoc(p *process, path string) error {
	s.mu.Lock()
	_, ok := s.docs[path]
	delete(s.docs, path)
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return s.notifyChange(p, "textDocument/didClose", map[string]any{
		"textDocument": map[string]any{"uri": PathToURI(path)},
	})
}

// DidOpen opens path with its current disk content. From then on the server
// reads the client's copy: report edits with DidChange or FilesChanged.
func (s *Server) DidOpen(ctx context.Context, path string) error {
	path, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	b, err := readSource(path)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	p, err := s.live(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if d := s.docs[path]; d != nil {
		s.mu.Unlock()
		return s.setDoc(p, path, string(b))
	}
	s.docs[path] = &openDoc{version: 1, text: string(b)}
	s.mu.Unlock()
	return s.notifyChange(p, "textDocument/didOpen", didOpenParams(path, 1, string(b)))
}

// DidChange replaces an open document's content (unsaved edits).
func (s *Server) DidChange(ctx context.Context, path, text string) error {
	p, path, err := s.liveDoc(ctx, path)
	if err != nil {
		return err
	}
	s.mu.Lock()
	_, ok := s.docs[path]
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("didChange %s: document is not open", path)
	}
	return s.setDoc(p, path, text)
}

// DidClose closes a document; the server goes back to reading the disk.
func (s *Server) DidClose(ctx context.Context, path string) error {
	p, path, err := s.liveDoc(ctx, path)
	if err != nil {
		return err
	}
	return s.closeDoc(p, path)
}

// liveDoc is the running process, and path made absolute, for a notice
// about an open document.
func (s *Server) liveDoc(ctx context.Context, path string) (*process, string, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	p, err := s.live(ctx)
	return p, path, err
}
