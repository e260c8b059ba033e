package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
)

// TermStats looks terms up in the full-text vocabulary. Terms are
// normalised by terms.Query or terms.Split beforehand. The figures are
// cached until the index changes (see statsCache), so a query that asks
// twice, or a run of queries, pays once.
func (s *Store) TermStats(ts []string) (chunkindex.TermStats, error) {
	return s.stats.lookup(s.db, ts)
}

// statsCache keeps the chunk count and the document frequencies of terms
// already asked for, for as long as the index is unchanged. Counting 140k
// chunks and probing the vocabulary cost several milliseconds per query,
// which is most of what ranking adds to the first stage. Change is
// detected by PRAGMA data_version on a connection kept for this: its value
// moves whenever any other connection, in this process or another, commits
// (SQLite's documented way to notice other writers), and this connection
// never writes.
type statsCache struct {
	mu      sync.Mutex
	conn    *sql.Conn
	version int64
	chunks  int
	df      map[string]int // -1: not in the vocabulary
}

// maxCachedTerms bounds the cache: past it, the cache is cleared, which
// costs one vocabulary probe per term of the next query.
const maxCachedTerms = 50_000

func (c *statsCache) lookup(db *sql.DB, ts []string) (chunkindex.TermStats, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx := context.Background()
	if c.conn == nil {
		conn, err := db.Conn(ctx)
		if err != nil {
			return chunkindex.TermStats{}, fmt.Errorf("store: term stats: %w", err)
		}
		c.conn, c.version = conn, -1
	}
	var v int64
	if err := c.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		return chunkindex.TermStats{}, c.fail(err)
	}
	if v != c.version || c.df == nil || len(c.df) > maxCachedTerms {
		c.df = map[string]int{}
		if err := c.conn.QueryRowContext(ctx, `SELECT count(*) FROM chunks`).Scan(&c.chunks); err != nil {
			return chunkindex.TermStats{}, c.fail(err)
		}
		c.version = v
	}
	st := chunkindex.TermStats{Chunks: c.chunks, DocFreq: make(map[string]int, len(ts))}
	var missing []any
	for _, t := range ts {
		df, ok := c.df[t]
		switch {
		case !ok:
			missing = append(missing, t)
		case df >= 0:
			st.DocFreq[t] = df
		}
	}
	if len(missing) == 0 {
		return st, nil
	}
	rows, err := c.conn.QueryContext(ctx, `SELECT term, doc FROM chunks_vocab WHERE term IN (`+placeholders(len(missing))+`)`, missing...)
	if err != nil {
		return chunkindex.TermStats{}, c.fail(err)
	}
	found := map[string]int{}
	for rows.Next() {
		var t string
		var df int
		if err := rows.Scan(&t, &df); err != nil {
			rows.Close()
			return chunkindex.TermStats{}, c.fail(err)
		}
		found[t] = df
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return chunkindex.TermStats{}, c.fail(err)
	}
	for _, m := range missing {
		t := m.(string)
		df, ok := found[t]
		if !ok {
			df = -1
		} else {
			st.DocFreq[t] = df
		}
		c.df[t] = df
	}
	return st, nil
}

// fail drops the kept connection (it may be broken) and the cache, and
// wraps err.
func (c *statsCache) fail(err error) error {
	if c.conn != nil {
		c.conn.Close()
	}
	c.conn, c.df = nil, nil
	return fmt.Errorf("store: term stats: %w", err)
}

// close releases the kept connection.
func (c *statsCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// ChunksNamed returns, light (see lightCols), the chunks whose name is any
// of names (exact, case sensitive: callers pass the spellings they want),
// then those assigned to a dotted path whose last name is (retries finds
// Mocha.prototype.retries = function …), at most limit of them, each group
// ordered by file and line.
func (s *Store) ChunksNamed(names []string, limit int) ([]chunk.Chunk, error) {
	if len(names) == 0 {
		return nil, nil
	}
	args := make([]any, 0, 3*len(names)+1)
	for range 3 {
		for _, n := range names {
			args = append(args, n)
		}
	}
	args = append(args, limit)
	in := `(` + placeholders(len(names)) + `)`
	out, err := s.queryChunks(`SELECT `+lightCols+` FROM chunks c`+fileJoin+` WHERE c.name IN `+in+` OR c.assigned_name IN `+in+`
		ORDER BY c.name NOT IN `+in+`, cf.path, c.start_line, c.depth, c.seq LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: chunks named: %w", err)
	}
	return out, nil
}

// nameCount is one row of NameCounts' query.
type nameCount struct {
	name  string
	count int
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
		counts, err := collectRows(rows, func(r *sql.Rows) (nameCount, error) {
			var nc nameCount
			err := r.Scan(&nc.name, &nc.count)
			return nc, err
		})
		if err != nil {
			return nil, fmt.Errorf("store: name counts: %w", err)
		}
		for _, nc := range counts {
			out[nc.name] = nc.count
		}
	}
	return out, nil
}
