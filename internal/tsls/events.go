// File events: telling the server which files changed on disk, since
// tsgo does not watch the disk itself.

package tsls

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FileChangeType is the LSP FileChangeType.
type FileChangeType int

// File change kinds.
const (
	FileCreated FileChangeType = 1
	FileChanged FileChangeType = 2
	FileDeleted FileChangeType = 3
)

// FileEvent is one file change to report.
type FileEvent struct {
	Path string
	Type FileChangeType
}

// NotifyFileEvents reports created, changed and deleted files. Open
// documents are re-sent (or closed) instead, since the server reads them
// from the client, not the disk.
func (s *Server) NotifyFileEvents(ctx context.Context, events []FileEvent) error {
	p, err := s.live(ctx)
	if err != nil {
		return err
	}
	// A file replaced by a FIFO or device: told of the change, the
	// process would block reading it, and every request after with it.
	// Stop it instead; requests are refused at once, naming the file,
	// until the file is a file again.
	var bad []string
	for _, ev := range events {
		if ev.Type == FileDeleted {
			continue
		}
		if path, err := filepath.Abs(ev.Path); err == nil {
			if why, ok := blockingFile(s.root, path); ok && len(bad) < maxBlockingNamed {
				bad = append(bad, why)
			}
		}
	}
	if len(bad) > 0 {
		err := blockingErr(bad)
		s.retire(p, err)
		return err
	}
	var rest []FileEvent
	for _, ev := range events {
		path, err := filepath.Abs(ev.Path)
		if err != nil {
			continue
		}
		ev.Path = path
		s.mu.Lock()
		doc := s.docs[path]
		if st, err := os.Stat(path); err == nil {
			s.stamps[path] = stamp{mtime: st.ModTime(), size: st.Size()}
		} else {
			delete(s.stamps, path)
		}
		s.mu.Unlock()
		switch {
		case doc != nil && ev.Type == FileDeleted:
			if err := s.closeDoc(p, path); err != nil {
				return err
			}
			rest = append(rest, ev)
		case doc != nil:
			if err := s.changeDoc(p, path); err != nil {
				return err
			}
		default:
			rest = append(rest, ev)
		}
	}
	return s.notifyEvents(p, rest)
}

// FilesChanged reports files whose content may have changed on disk:
// existing files as changed, missing ones as deleted. Use NotifyFileEvents
// for created files, which make the server re-read its project's file list.
func (s *Server) FilesChanged(ctx context.Context, paths ...string) error {
	events := make([]FileEvent, 0, len(paths))
	for _, p := range paths {
		t := FileChanged
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			t = FileDeleted
		}
		events = append(events, FileEvent{Path: p, Type: t})
	}
	return s.NotifyFileEvents(ctx, events)
}

// notifyChange sends a notification that changes what the server knows
// of the workspace's files.
func (s *Server) notifyChange(p *process, method string, params any) error {
	s.generation.Add(1)
	return p.conn.notify(method, params)
}

// Generation changes whenever the server may answer differently: a file
// change was sent, a document opened or closed, or a new process started.
// Answers cached under one generation are stale under another.
func (s *Server) Generation() uint64 { return s.generation.Load() }

func (s *Server) notifyEvents(p *process, events []FileEvent) error {
	if len(events) == 0 {
		return nil
	}
	changes := make([]map[string]any, len(events))
	for i, ev := range events {
		changes[i] = map[string]any{"uri": PathToURI(ev.Path), "type": int(ev.Type)}
	}
	if err := s.notifyChange(p, "workspace/didChangeWatchedFiles", map[string]any{"changes": changes}); err != nil {
		return fmt.Errorf("notify file changes: %w", err)
	}
	return nil
}
