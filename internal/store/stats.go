package store

import (
	"context"
	"fmt"
	"github.com/scry-dev/scry/internal/chunk"
)

// TermStats are corpus statistics for a set of terms: how many chunks hold
// each term, out of how many chunks in all. Rankers turn them into inverse
// document frequencies.
type TermStats struct {
	Chunks  int            // chunks in the index
	DocFreq map[string]int // chunks holding the term in any column; absent terms are missing
}

// TermStats looks terms up in the full-text vocabulary in one statement.
// Terms are normalised by terms.Query or terms.Split beforehand.
func (s *Store) TermStats(ts []string) (TermStats, error) {
	st := TermStats{DocFreq: make(map[string]int, len(ts))}
	ctx := context.Background()
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM chunks`).Scan(&st.Chunks); err != nil {
		return st, fmt.Errorf("store: term stats: %w", err)
	}
	if len(ts) == 0 {
		return st, nil
	}
	args := make([]any, len(ts))
	for i, t := range ts {
		args[i] = t
	}
	rows, err := s.db.QueryContext(ctx, `SELECT term, doc FROM chunks_vocab WHERE term IN (`+placeholders(len(ts))+`)`, args...)
	if err != nil {
		return st, fmt.Errorf("store: term stats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var df int
		if err := rows.Scan(&t, &df); err != nil {
			return st, fmt.Errorf("store: term stats: %w", err)
		}
		st.DocFreq[t] = df
	}
	if err := rows.Err(); err != nil {
		return st, fmt.Errorf("store: term stats: %w", err)
	}
	return st, nil
}

// ChunksNamed returns, light (see lightCols), the chunks whose name is any
// of names (exact, case sensitive: callers pass the spellings they want),
// at most limit of them, ordered by file and line.
func (s *Store) ChunksNamed(names []string, limit int) ([]chunk.Chunk, error) {
	if len(names) == 0 {
		return nil, nil
	}
	args := make([]any, 0, len(names)+1)
	for _, n := range names {
		args = append(args, n)
	}
	args = append(args, limit)
	out, err := s.queryChunks(`SELECT `+lightCols+` FROM chunks c WHERE c.name IN (`+placeholders(len(names))+`)
		ORDER BY c.relative_path, c.start_line, c.depth, c.seq LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: chunks named: %w", err)
	}
	return out, nil
}

// NameCounts returns how many chunks are named each of names (exact), by
// the name index: a name defined in many places (render, get, constructor)
// is generic, one defined once is specific.
func (s *Store) NameCounts(names []string) (map[string]int, error) {
	out := make(map[string]int, len(names))
	for start := 0; start < len(names); start += 500 {
		part := names[start:min(start+500, len(names))]
		args := make([]any, len(part))
		for i, n := range part {
			args[i] = n
		}
		rows, err := s.db.QueryContext(context.Background(), `SELECT name, count(*) FROM chunks WHERE name IN (`+placeholders(len(part))+`) GROUP BY name`, args...)
		if err != nil {
			return nil, fmt.Errorf("store: name counts: %w", err)
		}
		for rows.Next() {
			var n string
			var c int
			if err := rows.Scan(&n, &c); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: name counts: %w", err)
			}
			out[n] = c
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("store: name counts: %w", err)
		}
	}
	return out, nil
}
