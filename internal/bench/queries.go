package bench

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/scry-dev/scry/internal/jsdoc"
	"github.com/scry-dev/scry/internal/parse"
)

// MinQueryWords is the shortest summary used as a query: "Returns the
// value." says nothing about which function it documents.
const MinQueryWords = 4

// maxQueryWords bounds a query; a longer first "sentence" is a paragraph
// with no full stop.
const maxQueryWords = 64

// Query is one benchmark question and its answer.
type Query struct {
	ID      int    `json:"id"`
	Package string `json:"package"`
	Text    string `json:"query"`
	// The answer: a symbol in File (relative to the corpus root), with its
	// line range in the indexed copy, where its JSDoc is blank so that the
	// symbol starts at its declaration.
	File      string `json:"file"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	// NamesAnswer is set when the query contains the answer's name as a
	// word ("Creates a `debounce` function ..."): such queries are easier,
	// and their share says how much of a score that explains.
	NamesAnswer bool `json:"names_answer"`

	declLine int // line of the declaration, the same before and after stripping
	doc      [][2]int
}

// candidate is a documented function or method that may become a query.
type candidate struct {
	file     int // index into the corpus files
	name     string
	kind     string
	summary  string
	declLine int
	doc      [][2]int
}

// parsedFile is one corpus file after extraction.
type parsedFile struct {
	CorpusFile
	src   []byte
	lines int
	cands []candidate
	// summaries are the JSDoc summaries of every documented symbol of the
	// file, whatever its kind, for the duplicate check.
	summaries []string
	err       error
}

// extract reads and parses every file on all CPUs and collects candidates.
func extract(files []CorpusFile) ([]*parsedFile, error) {
	out := make([]*parsedFile, len(files))
	onAllCPUs(context.Background(), len(files), func(i int) {
		out[i] = extractFile(i, files[i])
	})
	for _, f := range out {
		if f.err != nil {
			return nil, f.err
		}
	}
	return out, nil
}

func extractFile(i int, cf CorpusFile) *parsedFile {
	pf := &parsedFile{CorpusFile: cf}
	src, err := os.ReadFile(cf.Src)
	if err != nil {
		pf.err = fmt.Errorf("bench: %w", err)
		return pf
	}
	pf.src, pf.lines = src, countLines(src)
	if parse.LanguageOf(cf.Rel) == "" {
		return pf
	}
	f, err := parse.Parse(cf.Rel, src, "")
	if err != nil {
		pf.err = fmt.Errorf("bench: %w", err)
		return pf
	}
	walkSymbols(f.Symbols, func(s *parse.Symbol) {
		if s.JSDoc == "" {
			return
		}
		sum := jsdoc.Summary(s.JSDoc)
		if sum == "" {
			return
		}
		pf.summaries = append(pf.summaries, sum)
		if !documentsFunction(src, s) || jsdoc.Words(sum) < MinQueryWords || jsdoc.Words(sum) > maxQueryWords {
			return
		}
		pf.cands = append(pf.cands, candidate{
			file: i, name: s.Name, kind: s.Kind, summary: sum,
			declLine: lineAt(src, s.DeclStartByte), doc: jsdoc.DocRanges(src, s, sum),
		})
	})
	return pf
}

func walkSymbols(ss []*parse.Symbol, fn func(*parse.Symbol)) {
	for _, s := range ss {
		fn(s)
		walkSymbols(s.Children, fn)
	}
}

var functionWord = regexp.MustCompile(`\bfunction\b`)

// documentsFunction reports whether s is a function or a method. JavaScript
// libraries define most functions as variables (ramda's curried `var adjust
// = _curry3(function adjust(...))`, effect's `export const map: {...} =
// dual(...)`), so a variable counts when its declaration holds a function
// literal or a function type.
func documentsFunction(src []byte, s *parse.Symbol) bool {
	if s.Name == "" {
		return false
	}
	switch s.Kind {
	case parse.KindFunction, parse.KindMethod:
		return true
	case parse.KindVariable, parse.KindConst:
		decl := src[min(s.DeclStartByte, len(src)):min(s.EndByte, len(src))]
		return bytes.Contains(decl, []byte("=>")) || functionWord.Match(decl)
	}
	return false
}

func lineAt(src []byte, off int) int {
	return bytes.Count(src[:min(off, len(src))], []byte{'\n'}) + 1
}

// PackageStats describes one package's share of a corpus.
type PackageStats struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Files   int    `json:"files"`
	Lines   int    `json:"lines"`
	Bytes   int64  `json:"bytes"`
	// Documented counts documented functions and methods with a usable,
	// unique summary; Queries is how many of them were sampled.
	Documented int `json:"documented"`
	Queries    int `json:"queries"`
}

// corpus is a benchmark corpus written to disk, with its queries.
type corpus struct {
	Dir      string
	Files    []*parsedFile
	Queries  []Query
	Packages []PackageStats
	// Dropped counts sampled queries whose answer could not be found again
	// in the stripped file (none expected; reported if any).
	Dropped int
}

// buildCorpus extracts queries from files, samples at most perPackage per
// package (seeded, so the same seed gives the same queries), and writes the
// corpus under dir: every file copied, and with strip set the JSDoc of every
// answer blanked out. With dir "" nothing is written (the queries of a
// corpus copied as it is).
func buildCorpus(files []CorpusFile, pkgs []Package, dir string, seed uint64, perPackage int, strip bool) (*corpus, error) {
	parsed, err := extract(files)
	if err != nil {
		return nil, err
	}
	c := &corpus{Dir: dir, Files: parsed}

	// A summary that documents two symbols (overloads documented twice, a
	// function and its alias, an interface and its implementation) has no
	// single answer; such summaries are not used.
	seen := map[string]int{}
	for _, f := range parsed {
		for _, s := range f.summaries {
			seen[jsdoc.Normalize(s)]++
		}
	}
	byPkg := map[string][]candidate{}
	for _, f := range parsed {
		for _, cd := range f.cands {
			if seen[jsdoc.Normalize(cd.summary)] == 1 {
				byPkg[f.Package] = append(byPkg[f.Package], cd)
			}
		}
	}

	stats := map[string]*PackageStats{}
	for _, p := range pkgs {
		stats[p.Name] = &PackageStats{Name: p.Name, Version: p.Version}
	}
	for _, f := range parsed {
		st := stats[f.Package]
		st.Files++
		st.Lines += f.lines
		st.Bytes += int64(len(f.src))
	}

	for _, p := range pkgs {
		cands := byPkg[p.Name]
		stats[p.Name].Documented = len(cands)
		for _, cd := range sample(cands, parsed, seed, perPackage) {
			f := parsed[cd.file]
			c.Queries = append(c.Queries, Query{
				Package: p.Name, Text: cd.summary, File: f.Rel, Name: cd.name, Kind: cd.kind,
				NamesAnswer: namesWord(cd.summary, cd.name), declLine: cd.declLine, doc: cd.doc,
			})
		}
	}

	if dir != "" {
		if err := c.write(strip); err != nil {
			return nil, err
		}
	}
	if err := c.locateAnswers(); err != nil {
		return nil, err
	}
	for i := range c.Queries {
		c.Queries[i].ID = i + 1
		stats[c.Queries[i].Package].Queries++
	}
	for _, p := range pkgs {
		c.Packages = append(c.Packages, *stats[p.Name])
	}
	return c, nil
}

// sample picks at most n candidates: those with the smallest hash of (seed,
// file, name, line). Unlike a shuffle, a candidate's chance of being picked
// does not depend on the others, so a package update that adds functions
// leaves the other picks alone. The result is in file and line order.
func sample(cands []candidate, files []*parsedFile, seed uint64, n int) []candidate {
	type keyed struct {
		c candidate
		k uint64
	}
	ks := make([]keyed, len(cands))
	for i, cd := range cands {
		ks[i] = keyed{cd, sampleKey(seed, files[cd.file].Rel, cd.name, cd.declLine)}
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i].k < ks[j].k })
	if n > 0 && len(ks) > n {
		ks = ks[:n]
	}
	out := make([]candidate, len(ks))
	for i, k := range ks {
		out[i] = k.c
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := files[out[i].file].Rel, files[out[j].file].Rel
		if a != b {
			return a < b
		}
		return out[i].declLine < out[j].declLine
	})
	return out
}

// sampleKey orders candidates for sampling.
func sampleKey(seed uint64, file, name string, declLine int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%d", seed, file, name, declLine)
	return h.Sum64()
}

// namesWord reports whether text contains name as a whole word, ignoring
// case ("_.debounce" and "`debounce`" name debounce).
func namesWord(text, name string) bool {
	if name == "" {
		return false
	}
	re, err := regexp.Compile(`(?i)(^|[^\w$])` + regexp.QuoteMeta(name) + `($|[^\w$])`)
	return err == nil && re.MatchString(text)
}

// write copies the corpus under c.Dir, blanking the answers' JSDoc when
// strip is set.
func (c *corpus) write(strip bool) error {
	docs := map[string][][2]int{}
	if strip {
		for _, q := range c.Queries {
			docs[q.File] = append(docs[q.File], q.doc...)
		}
	}
	for _, f := range c.Files {
		dst := filepath.Join(c.Dir, filepath.FromSlash(f.Rel))
		var err error
		if r, ok := docs[f.Rel]; ok {
			f.src = jsdoc.Blank(f.src, r)
			err = writeFile(dst, f.src)
		} else {
			err = copyFile(f.Src, dst)
		}
		if err != nil {
			return fmt.Errorf("bench: write corpus: %w", err)
		}
	}
	return nil
}

// locateAnswers re-parses the files that hold answers, as the index will see
// them, and takes each answer's line range from there: without its JSDoc a
// symbol starts at its declaration, not at the comment.
func (c *corpus) locateAnswers() error {
	byFile := map[string]*parsedFile{}
	for _, f := range c.Files {
		byFile[f.Rel] = f
	}
	syms := map[string]map[string]*parse.Symbol{}
	key := func(name, kind string, line int) string { return name + "\x00" + kind + "\x00" + strconv.Itoa(line) }
	var kept []Query
	for _, q := range c.Queries {
		m, ok := syms[q.File]
		if !ok {
			f := byFile[q.File]
			pf, err := parse.Parse(f.Rel, f.src, "")
			if err != nil {
				return fmt.Errorf("bench: %w", err)
			}
			m = map[string]*parse.Symbol{}
			walkSymbols(pf.Symbols, func(s *parse.Symbol) {
				m[key(s.Name, s.Kind, lineAt(f.src, s.DeclStartByte))] = s
			})
			syms[q.File] = m
		}
		s, ok := m[key(q.Name, q.Kind, q.declLine)]
		if !ok {
			c.Dropped++
			continue
		}
		q.StartLine, q.EndLine = s.StartLine, s.EndLine
		kept = append(kept, q)
	}
	c.Queries = kept
	return nil
}

// wordsOf lowercases s and splits it into runs of letters and digits.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) })
}
