package store

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/ident"
)

// SymbolMatch selects how FindSymbols compares names.
type SymbolMatch string

const (
	MatchExact  SymbolMatch = "exact"
	MatchPrefix SymbolMatch = "prefix"
	// MatchFuzzy compares case-insensitively: substring first, then the
	// query's characters in order (subsequence), as editors' symbol pickers do.
	MatchFuzzy SymbolMatch = "fuzzy"
)

// SymbolQuery asks for declarations by name.
type SymbolQuery struct {
	Name      string
	Match     SymbolMatch
	Kinds     []string
	Paths     []string // path patterns as in chunkindex.Query.Paths
	Languages []string
	Limit     int
	// IncludeStatements also matches imports, re-exports and other
	// statement chunks (their names are "import:<module>" and the like).
	IncludeStatements bool
}

// statementKinds never name a symbol an agent looks up by name.
const statementKinds = `'import','re-export','expression','statement','comment'`

// FindSymbols returns declarations whose names match, best first: exact
// matches, then shorter names, then by path.
func (s *Store) FindSymbols(q SymbolQuery) ([]chunk.Chunk, error) {
	if q.Name == "" {
		return nil, fmt.Errorf("store: find symbols: empty name")
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	var where []string
	var args []any
	switch q.Match {
	case MatchExact, "":
		// A name is also defined by a function assigned to a path ending
		// in it (Runner.prototype.run = function …), listed after the
		// declarations of that exact name by the ORDER BY below.
		w, a := nameIs(q.Name)
		where = append(where, "("+w+" OR c.assigned_name = ?)")
		args = append(append(args, a...), q.Name)
	case MatchPrefix:
		// A statement declaring several names ("A, B") matches when any
		// of them starts with the prefix; it is split below.
		where = append(where, `((c.name >= ? AND c.name < ?) OR (c.seq IN (SELECT seq FROM chunks INDEXED BY chunks_by_name
			WHERE instr(name, ', ') > 0 AND instr(', ' || name, ', ' || ?) > 0) AND c.node_kind IN (`+multiKinds+`)))`)
		args = append(args, q.Name, q.Name+"\U0010FFFF", q.Name)
	case MatchFuzzy:
		// Subsequence matching happens below, over the candidates that
		// contain the query's first character at least.
		where = append(where, "instr(lower(c.name), ?) > 0")
		args = append(args, strings.ToLower(q.Name[:1]))
	default:
		return nil, fmt.Errorf("store: find symbols: unknown match %q (exact, prefix or fuzzy)", q.Match)
	}
	if !q.IncludeStatements {
		// Declarations sharing a line are one "statement" chunk named
		// after them all ("a, f").
		where = append(where, "(c.node_kind NOT IN ("+statementKinds+") OR (c.node_kind = 'statement' AND instr(c.name, ', ') > 0))")
	}
	if len(q.Kinds) > 0 {
		// A line of declarations holds kinds of its own: filtered by
		// them once split below.
		where = append(where, "(c.node_kind IN ("+placeholders(len(q.Kinds))+") OR (c.node_kind = 'statement' AND instr(c.name, ', ') > 0))")
		for _, k := range q.Kinds {
			args = append(args, k)
		}
	}
	if len(q.Paths) > 0 {
		var ors []string
		for _, p := range q.Paths {
			ors = append(ors, "path_match(?, cf.path)")
			args = append(args, p)
		}
		where = append(where, "("+strings.Join(ors, " OR ")+")")
	}
	if len(q.Languages) > 0 {
		where = append(where, "cf.language IN ("+placeholders(len(q.Languages))+")")
		for _, l := range q.Languages {
			args = append(args, l)
		}
	}
	sqlLimit := limit
	if q.Match == MatchFuzzy {
		sqlLimit = 5000
	}
	query := "SELECT " + chunkCols + " FROM chunks c" + fileJoin + " WHERE " + strings.Join(where, " AND ") +
		fmt.Sprintf(" ORDER BY (c.name = ?) DESC, length(c.name), cf.path, c.start_line LIMIT %d", sqlLimit)
	args = append(args, q.Name)
	out, err := s.queryChunks(query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: find symbols %q: %w", q.Name, err)
	}
	switch q.Match {
	case MatchPrefix:
		out = byDeclarator(out, func(name string) bool { return strings.HasPrefix(name, q.Name) })
		sortByName(out, q.Name)
	case MatchFuzzy:
		out = fuzzyRank(q.Name, byDeclarator(out, func(string) bool { return true }))
	}
	if len(out) > limit {
		out = out[:limit]
	}
	if q.Match == MatchExact || q.Match == "" {
		out = asDeclarator(out, q.Name)
	}
	if len(q.Kinds) > 0 {
		out = slices.DeleteFunc(out, func(c chunk.Chunk) bool { return !slices.Contains(q.Kinds, c.NodeKind) })
	}
	return out, nil
}

// byDeclarator splits each chunk of a statement declaring several names
// ("A, B", from `export const A = 1, B = 2` or `const { a, b } = o`) into
// one copy per declarator that keep accepts, named after it as asDeclarator
// names an exact match, so that prefix and fuzzy lookups list every
// declarator under its own name. Other chunks pass through.
func byDeclarator(cs []chunk.Chunk, keep func(name string) bool) []chunk.Chunk {
	out := cs[:0:0]
	for _, c := range cs {
		if !multiDeclarator(c) {
			out = append(out, c)
			continue
		}
		for _, name := range strings.Split(c.Name, ", ") {
			// A line of declarations may hold an import or expression
			// too ("import:./a, f"): only declared names are symbols.
			if keep(name) && ident.Is(name) {
				out = append(out, asDeclarator([]chunk.Chunk{c}, name)...)
			}
		}
	}
	return out
}

// multiDeclarator reports whether c is one statement declaring several
// variables, or several declarations sharing a line.
func multiDeclarator(c chunk.Chunk) bool {
	return strings.Contains(c.Name, ", ") && (c.NodeKind == "const" || c.NodeKind == "variable" || c.NodeKind == "statement")
}

// sortByName orders prefix matches as the query does: the exact name
// first, then shorter names, then by path and line.
func sortByName(cs []chunk.Chunk, name string) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if (a.Name == name) != (b.Name == name) {
			return a.Name == name
		}
		if len(a.Name) != len(b.Name) {
			return len(a.Name) < len(b.Name)
		}
		if a.RelativePath != b.RelativePath {
			return a.RelativePath < b.RelativePath
		}
		return a.StartLine < b.StartLine
	})
}

// fuzzyRank keeps names containing the query's characters in order and
// ranks contiguous matches first, then earlier ones, then shorter names.
func fuzzyRank(query string, cs []chunk.Chunk) []chunk.Chunk {
	q := strings.ToLower(query)
	type scored struct {
		c     chunk.Chunk
		score int
	}
	var keep []scored
	for _, c := range cs {
		name := strings.ToLower(c.Name)
		score := 0
		if i := strings.Index(name, q); i >= 0 {
			score = 1000 - i*10 - len(name)
		} else if subsequence(name, q) {
			score = 500 - len(name)
		} else {
			continue
		}
		keep = append(keep, scored{c, score})
	}
	// stable insertion sort: candidate lists are small
	for i := 1; i < len(keep); i++ {
		for j := i; j > 0 && keep[j].score > keep[j-1].score; j-- {
			keep[j], keep[j-1] = keep[j-1], keep[j]
		}
	}
	out := make([]chunk.Chunk, len(keep))
	for i, k := range keep {
		out[i] = k.c
	}
	return out
}

func subsequence(s, sub string) bool {
	i := 0
	for j := 0; j < len(s) && i < len(sub); j++ {
		if s[j] == sub[i] {
			i++
		}
	}
	return i == len(sub)
}

// FilesReferencing lists the files (other than excludeFile) with a chunk
// whose text names the identifier: the index's approximation of references
// when the compiler is unavailable.
func (s *Store) FilesReferencing(name, excludeFile string) ([]string, error) {
	ids, err := s.ChunksReferencing(name, excludeFile)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	seen := map[string]bool{}
	var files []string
	const batch = 500
	for i := 0; i < len(ids); i += batch {
		part := ids[i:min(i+batch, len(ids))]
		args := make([]any, len(part))
		for j, id := range part {
			args[j] = id
		}
		rows, err := s.db.Query("SELECT DISTINCT cf.path FROM chunks c"+fileJoin+" WHERE c.id IN ("+placeholders(len(part))+")", args...)
		if err != nil {
			return nil, fmt.Errorf("store: files referencing %s: %w", name, err)
		}
		for rows.Next() {
			var f string
			if err := rows.Scan(&f); err != nil {
				rows.Close()
				return nil, err
			}
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
		rows.Close()
	}
	return files, nil
}
