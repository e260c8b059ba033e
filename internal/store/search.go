package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/sqlitedb"
	"golang.org/x/sync/errgroup"
)

// Column weights for bm25(), in FTS column order. A query word in the name is
// the strongest evidence; the breadcrumb carries the file and parent names
// (and the name again); the signature says what the symbol takes and
// returns; idents (the chunk's own identifiers and JSDoc) outweighs the
// whole body so that containers are not ranked for their children's code.
// FTS5's bm25 sums weighted term frequencies and normalises by the whole
// row's length, so long chunks are damped relative to short ones.
const bm25Weights = "10.0, 6.0, 4.0, 3.0, 1.0, 5.0" // name, breadcrumb, signature, jsdoc, body, idents

// Search ranks chunks by BM25F over the full-text columns. Terms are ORed so
// that chunks matching only some of them still rank (below those matching
// more). Path and language filters are applied inside the query, so Limit
// counts only matching chunks. Hits are best first.
//
// Cost grows with the number of chunks matching any term (bm25() runs for
// each): about 1.5 µs per candidate at 100k chunks on this machine.
func (s *Store) Search(q chunkindex.Query) ([]chunkindex.Hit, error) {
	match := ftsTerms(s.informativeTerms(q.Terms), " OR ")
	if match == "" {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = chunkindex.DefaultLimit
	}
	filter, fargs, err := fileFilter(q.Paths, q.Languages, nil)
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	args := []any{match}
	restrict := ""
	if filter != "" {
		cond, condArgs, ok, err := s.restriction(filter, fargs)
		if err != nil {
			return nil, fmt.Errorf("store: search: %w", err)
		}
		if !ok {
			return nil, nil // no file passes the filters
		}
		restrict = cond
		args = append(args, condArgs...)
	}
	ctx := q.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if parts := min(runtime.GOMAXPROCS(0), maxSearchParts); parts > 1 && restrict == "" {
		st, err := s.stats.lookup(s.db, nil)
		if err != nil {
			return nil, fmt.Errorf("store: search: %w", err)
		}
		if st.Chunks >= s.splitMin() {
			return s.searchParts(ctx, match, parts, limit, q.Light)
		}
	}
	args = append(args, limit)

	// The inner query ranks and cuts to the limit touching only the FTS
	// index; the wide chunk rows are read for the survivors only.
	cols, language := readCols(q.Light)
	query := `WITH top AS (
			SELECT rowid AS seq, ` + bm25Expr + ` AS score
			FROM chunks_fts
			WHERE chunks_fts MATCH ?` + restrict + `
			ORDER BY score, seq LIMIT ?)
		SELECT ` + cols + `, ` + language + `, top.score
		FROM top JOIN chunks c ON c.seq = top.seq` + fileJoin + `
		ORDER BY top.score, top.seq`
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	hits, err := collectRows(rows, func(r *sql.Rows) (chunkindex.Hit, error) {
		var h chunkindex.Hit
		var rank float64
		var err error
		h.Chunk, err = scanChunk(r, &h.Language, &rank)
		// bm25() is negative, lower is better.
		h.Score = -rank
		return h, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	return hits, nil
}

const bm25Expr = `bm25(chunks_fts, ` + bm25Weights + `)`

// readCols are the chunk columns and the language expression a search
// reads its hits with (from chunks c joined by fileJoin). A light read is
// for ranking, which does not need the language.
func readCols(light bool) (cols, language string) {
	if light {
		return lightCols, "''"
	}
	return chunkCols, "cf.language"
}

// The first stage on a large index runs as several queries side by side,
// each scoring every parts-th chunk (see searchParts). bm25() runs for
// every chunk that holds any query term, and most of its cost is a lookup
// of that chunk's column sizes (measured: about two thirds of a 140k-chunk
// query), so a single query's time grows with the index on one core.
const (
	// maxSearchParts bounds the parts however many cores there are: each
	// part walks the terms' whole posting lists again and repeats FTS5's
	// per-query set-up (the terms' document counts for bm25's IDF).
	maxSearchParts = 4
	// splitMinChunks is the index size from which a search is split;
	// below it a query costs a few milliseconds and the split's own cost
	// is not worth it. On SQLite translated to Go a query at 140k chunks
	// costs about 23 ms of CPU, and the split halves its wait.
	splitMinChunks = 20_000
	// splitMinChunksC is the same for SQLite compiled from C, where that
	// query costs about 9 ms on one core and the split adds a quarter to
	// its CPU (12 ms) while barely shortening its wait on two cores
	// (`scry bench speed`, BENCHMARKS.md): split only well beyond that.
	splitMinChunksC = 250_000
)

func (s *Store) splitMin() int {
	if s.splitMinChunks > 0 {
		return s.splitMinChunks
	}
	if sqlitedb.CompiledFromC {
		return splitMinChunksC
	}
	return splitMinChunks
}

// scoredRow is a first-stage hit before its chunk is read.
type scoredRow struct {
	seq   int64
	score float64 // bm25(): negative, lower is better
	part  int
}

// searchParts answers an unfiltered search as several queries side by
// side, each on its own connection, query i scoring the chunks whose rowid
// is i modulo parts. SQLite evaluates bm25() only for rows that pass the
// WHERE clause, so each query pays the column-size lookups of its share of
// the matching chunks alone. Interleaving by rowid (whose low bits are a
// chunk's ordinal in its file) shares every file, and so every package a
// query's words cluster in, alike; contiguous rowid runs were measured to
// leave one part twice as slow as another, differently for each query.
//
// The answer is the same as one query's: bm25() takes its IDF from the
// whole table whatever the WHERE clause (FTS5 counts each phrase's rows
// with a cursor of its own) and scores each row alone, so the best limit
// of the union are the best limit of the parts' best limits, and the order
// (score, then rowid) is the single query's. The survivors' rows are then
// read, each part's on its own connection. A write between the reads may
// mix two states of the index, as two searches in a row would.
func (s *Store) searchParts(ctx context.Context, match string, nParts, limit int, light bool) ([]chunkindex.Hit, error) {
	tops := make([][]scoredRow, nParts)
	g, gctx := errgroup.WithContext(ctx)
	for i := range nParts {
		g.Go(func() error {
			rows, err := s.db.QueryContext(gctx, `SELECT rowid, `+bm25Expr+` AS score FROM chunks_fts
				WHERE chunks_fts MATCH ? AND rowid % ? = ? ORDER BY score, rowid LIMIT ?`, match, nParts, i, limit)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				r := scoredRow{part: i}
				if err := rows.Scan(&r.seq, &r.score); err != nil {
					return err
				}
				tops[i] = append(tops[i], r)
			}
			return rows.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	all := slices.Concat(tops...)
	slices.SortFunc(all, func(a, b scoredRow) int {
		if c := cmp.Compare(a.score, b.score); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	all = all[:min(limit, len(all))]

	bySeq := make(map[int64]chunkindex.Hit, len(all))
	var mu sync.Mutex
	cols, language := readCols(light)
	g, gctx = errgroup.WithContext(ctx)
	for i := range nParts {
		var seqs []any
		for _, r := range all {
			if r.part == i {
				seqs = append(seqs, r.seq)
			}
		}
		if len(seqs) == 0 {
			continue
		}
		g.Go(func() error {
			rows, err := s.db.QueryContext(gctx, `SELECT `+cols+`, `+language+`, c.seq
				FROM chunks c`+fileJoin+` WHERE c.seq IN (`+placeholders(len(seqs))+`)`, seqs...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var h chunkindex.Hit
				var seq int64
				if h.Chunk, err = scanChunk(rows, &h.Language, &seq); err != nil {
					return err
				}
				mu.Lock()
				bySeq[seq] = h
				mu.Unlock()
			}
			return rows.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	var hits []chunkindex.Hit
	for _, r := range all {
		h, ok := bySeq[r.seq]
		if !ok { // deleted between the two reads, as the join would drop it
			continue
		}
		h.Score = -r.score
		hits = append(hits, h)
	}
	return hits, nil
}

// ftsTerms quotes each term as an FTS5 string joined by op. Inside double
// quotes FTS5 syntax (NEAR, AND, *, -, ^, :, parentheses) is plain text to
// the tokenizer; embedded quotes are doubled. NUL is replaced because FTS5
// reads the expression as a C string and would see an unterminated quote. A
// term that tokenises to nothing matches nothing, harmlessly.
func ftsTerms(ts []string, op string) string {
	var b strings.Builder
	seen := make(map[string]bool, len(ts))
	for _, t := range ts {
		t = strings.ReplaceAll(t, "\x00", " ")
		if strings.TrimSpace(t) == "" || seen[t] {
			continue
		}
		seen[t] = true
		if b.Len() > 0 {
			b.WriteString(op)
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(t, `"`, `""`))
		b.WriteByte('"')
	}
	return b.String()
}

// maxRanges bounds the rowid ranges a filter is turned into before falling
// back to a set of file ids.
const maxRanges = 16

// restriction turns the file filter into a condition on FTS rowids, with its
// arguments. A chunk's rowid carries its file's id (see fileShift), so a
// candidate's file is known with no lookup. One pass over files decides
// which files pass (path_match runs once per file, not per chunk); their ids
// then decide the form:
//   - all files: no condition;
//   - a few runs of consecutive ids (a directory, as discovery indexes a
//     tree in order): rowid ranges, which FTS5 uses to skip whole stretches
//     of its posting lists;
//   - otherwise: the ids as a set SQLite builds once in memory, which costs
//     a lookup per candidate (still far less than reading the chunk).
//
// ok is false when no file passes.
func (s *Store) restriction(filter string, args []any) (cond string, condArgs []any, ok bool, err error) {
	var n, total int
	var idsJSON string
	if err := s.db.QueryRowContext(context.Background(),
		`SELECT count(*), (SELECT count(*) FROM files), json_group_array(f.id) FROM files f WHERE 1`+filter,
		args...).Scan(&n, &total, &idsJSON); err != nil {
		return "", nil, false, err
	}
	switch {
	case n == 0:
		return "", nil, false, nil
	case n == total:
		return "", nil, true, nil
	}
	var ids []int64
	if err := json.Unmarshal([]byte(idsJSON), &ids); err != nil {
		return "", nil, false, err
	}
	slices.Sort(ids)
	var ranges [][2]int64
	for _, id := range ids {
		if k := len(ranges); k > 0 && ranges[k-1][1]+1 == id {
			ranges[k-1][1] = id
		} else if k < maxRanges {
			ranges = append(ranges, [2]int64{id, id})
		} else {
			return ` AND (rowid >> ` + strconv.Itoa(fileShift) + `) IN (SELECT value FROM json_each(?))`,
				[]any{idsJSON}, true, nil
		}
	}
	var b strings.Builder
	b.WriteString(" AND (")
	for i, r := range ranges {
		if i > 0 {
			b.WriteString(" OR ")
		}
		fmt.Fprintf(&b, "rowid BETWEEN %d AND %d", r[0]<<fileShift, (r[1]+1)<<fileShift-1)
	}
	b.WriteString(")")
	return b.String(), nil, true, nil
}

// fileFilter is the SQL (" AND …", over files f and chunks c) and the
// arguments that keep the chunks of files matching any of the path
// patterns and written in one of the languages, and of one of the kinds;
// an empty list does not filter.
func fileFilter(paths, languages, kinds []string) (string, []any, error) {
	var where strings.Builder
	var args []any
	if len(paths) > 0 {
		where.WriteString(" AND (")
		for i, p := range paths {
			if !chunkindex.ValidPattern(p) {
				return "", nil, fmt.Errorf("bad path pattern %q", p)
			}
			if i > 0 {
				where.WriteString(" OR ")
			}
			where.WriteString("path_match(?, f.path)")
			args = append(args, p)
		}
		where.WriteString(")")
	}
	in := func(column string, values []string) {
		if len(values) > 0 {
			where.WriteString(" AND " + column + " IN (" + placeholders(len(values)) + ")")
			for _, v := range values {
				args = append(args, v)
			}
		}
	}
	in("f.language", languages)
	in("c.node_kind", kinds)
	return where.String(), args, nil
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func init() {
	// path_match(pattern, path): the Paths filter inside SQL, so that a
	// query's LIMIT counts only the chunks of files that pass it.
	sqlitedb.RegisterPredicate("path_match", chunkindex.PathMatch)
}

// Query terms found in more than commonShare of all chunks are dropped when
// at least minTerms rarer ones remain: their BM25 weight is close to zero,
// but each one makes the OR-query score tens of thousands of rows (a
// 15-word question on a 140k-chunk index spent most of its 90 ms there).
const (
	commonShare = 0.05
	minTerms    = 3
)

func (s *Store) informativeTerms(ts []string) []string {
	if len(ts) <= minTerms {
		return ts
	}
	st, err := s.TermStats(ts)
	if err != nil || st.Chunks < 2000 {
		return ts // small indexes: nothing to save
	}
	total := st.Chunks
	type tdf struct {
		term string
		df   int
	}
	dfs := make([]tdf, 0, len(ts))
	for _, t := range ts {
		dfs = append(dfs, tdf{t, st.DocFreq[t]})
	}
	limit := int(commonShare * float64(total))
	var keep []string
	for _, d := range dfs {
		if d.df <= limit {
			keep = append(keep, d.term)
		}
	}
	if len(keep) >= minTerms {
		return keep
	}
	// Too few rare terms: keep the rarest few.
	sort.Slice(dfs, func(i, j int) bool { return dfs[i].df < dfs[j].df })
	keep = keep[:0]
	for _, d := range dfs[:minTerms] {
		keep = append(keep, d.term)
	}
	return keep
}
