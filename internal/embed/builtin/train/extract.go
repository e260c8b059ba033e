package train

import (
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/jsdoc"
	"github.com/scry-dev/scry/internal/parse"
)

// Pair is one training example: a question in words and the code that
// answers it.
type Pair struct {
	Kind    Kind
	Query   string // a doc comment's first sentence, or a name's words
	Doc     string // the symbol's chunk embedding text, doc comments removed
	Package string // name@version
	File    string // path inside the package
	Name    string // the symbol's name
}

// Kind says where a pair comes from.
type Kind uint8

const (
	// FromDoc: a doc comment's summary → the implementation it documents.
	FromDoc Kind = iota
	// FromDecl: a doc comment's summary → a declaration without body
	// (a .d.ts file): it teaches which words go with which names and types.
	FromDecl
	// FromName: a function's name, as words → its code with the name
	// blanked, so that the model learns what bodies that do a thing look
	// like from the names programmers give them.
	FromName
)

func (k Kind) String() string {
	return [...]string{"doc", "decl", "name"}[k]
}

// Extraction bounds.
const (
	// maxFileBytes skips bundles and generated tables: a 2 MB file is
	// not what anyone documents symbol by symbol.
	maxFileBytes = 1 << 20
	// minSummaryWords drops summaries too short to say what the code
	// does ("Constructor.", "The options").
	minSummaryWords = 3
	// maxPerPackage keeps a few huge, heavily documented packages from
	// deciding what the model learns.
	maxPerPackage = 3000
)

// PackageStats counts one package's contribution.
type PackageStats struct {
	Package string
	Files   int // source files parsed
	Pairs   int // pairs kept (before corpus-wide deduplication)
}

// ReadPackageList reads a package list: one name@version a line, '#'
// starting a comment.
func ReadPackageList(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out, nil
}

// ExtractCorpus reads the listed packages (name@version) from dir/packages,
// where scripts/model-corpus.sh unpacks them, in name order, with workers
// goroutines; the result does not depend on workers, nor on other
// directories there. A listed package that is missing is an error.
func ExtractCorpus(dir string, list []string, workers int) ([]Pair, []PackageStats, error) {
	root := filepath.Join(dir, "packages")
	pkgs := append([]string(nil), list...)
	sort.Strings(pkgs)
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			return nil, nil, fmt.Errorf("train: package %s not unpacked (scripts/model-corpus.sh): %w", p, err)
		}
	}
	if workers < 1 {
		workers = 1
	}
	pairs := make([][]Pair, len(pkgs))
	stats := make([]PackageStats, len(pkgs))
	errs := make([]error, len(pkgs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				pairs[i], stats[i], errs[i] = ExtractPackage(filepath.Join(root, pkgs[i]), pkgs[i])
			}
		}()
	}
	for i := range pkgs {
		next <- i
	}
	close(next)
	wg.Wait()
	var all []Pair
	for i := range pkgs {
		if errs[i] != nil {
			return nil, nil, errs[i]
		}
		all = append(all, pairs[i]...)
	}
	return all, stats, nil
}

// ExtractPackage returns the pairs of one unpacked package: for every
// symbol whose doc comment has a usable summary, (summary, the symbol's
// chunk embedding text in a copy of the file with every /** */ comment
// blanked). Files are read in path order; node_modules, declaration files
// and minified files are skipped.
func ExtractPackage(dir, name string) ([]Pair, PackageStats, error) {
	st := PackageStats{Package: name}
	var out []Pair
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !sourceFile(d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxFileBytes {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("train: %w", err)
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		ps, ok := filePairs(path, rel, src, declarationFile(rel))
		if ok {
			st.Files++
		}
		for i := range ps {
			ps[i].Package = name
		}
		out = append(out, ps...)
		return nil
	})
	if err != nil {
		return nil, st, fmt.Errorf("train: %s: %w", name, err)
	}
	// Each kind is capped on its own, then the package's pairs are ordered
	// by kind so that deduplication keeps an implementation over its
	// declaration.
	var byKind [3][]Pair
	for _, p := range out {
		byKind[p.Kind] = append(byKind[p.Kind], p)
	}
	out = out[:0]
	for _, ps := range byKind {
		if len(ps) > maxPerPackage {
			ps = sample(ps, maxPerPackage)
		}
		out = append(out, ps...)
	}
	st.Pairs = len(out)
	return out, st, nil
}

// sourceFile says whether a file name is TS/JS source worth reading.
func sourceFile(name string) bool {
	if parse.LanguageOf(name) == "" {
		return false
	}
	for _, suffix := range []string{".min.js", ".min.mjs", ".bundle.js"} {
		if strings.HasSuffix(name, suffix) {
			return false
		}
	}
	return true
}

func declarationFile(rel string) bool {
	for _, suffix := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(rel, suffix) {
			return true
		}
	}
	return false
}

type target struct {
	kind                  Kind
	name, parent, summary string
	endLine               int
}

// minNameBody is the least code, in bytes of embedding text, that a name
// pair's body must have: a one-line getter says nothing its name does not.
const minNameBody = 120

// filePairs parses src twice: once to find the documented symbols and their
// summaries, once with every JSDoc block blanked to chunk the code the way
// the index would see it undocumented. Blanking keeps line numbers, so a
// symbol is found again by name, parent and last line.
func filePairs(abs, rel string, src []byte, decl bool) ([]Pair, bool) {
	f, err := parse.Parse(rel, src, "")
	if err != nil {
		return nil, false
	}
	var targets []target
	var walk func([]*parse.Symbol)
	walk = func(ss []*parse.Symbol) {
		for _, s := range ss {
			if s.JSDoc != "" && s.Name != "" {
				if sum := jsdoc.Summary(s.JSDoc); words(sum) >= minSummaryWords {
					k := FromDoc
					if decl {
						k = FromDecl
					}
					targets = append(targets, target{k, s.Name, s.ParentName, sum, s.EndLine})
				}
			}
			if !decl && (s.Kind == parse.KindFunction || s.Kind == parse.KindMethod) {
				if ws := nameWords(s.Name); len(ws) >= 2 {
					targets = append(targets, target{FromName, s.Name, s.ParentName, strings.Join(ws, " "), s.EndLine})
				}
			}
			walk(s.Children)
		}
	}
	walk(f.Symbols)
	if len(targets) == 0 {
		return nil, true
	}
	stripped, err := parse.Parse(rel, jsdoc.BlankAll(src), "")
	if err != nil {
		return nil, true
	}
	type key struct {
		name, parent string
		end          int
	}
	byKey := map[key]string{}
	for _, c := range chunk.File(stripped, abs, rel) {
		byKey[key{c.Name, c.ParentName, c.EndLine}] = c.EmbeddingText
	}
	var out []Pair
	for _, t := range targets {
		text, ok := byKey[key{t.name, t.parent, t.endLine}]
		if !ok || len(strings.TrimSpace(text)) < 16 {
			continue
		}
		if t.kind == FromName {
			if len(text) < minNameBody {
				continue
			}
			text = blankWord(text, t.name)
		}
		out = append(out, Pair{Kind: t.kind, Query: t.summary, Doc: strings.TrimSpace(text), File: rel, Name: t.name})
	}
	return out, true
}

// nameWords splits an identifier into lowercase words at case, digit and
// separator boundaries (parseHTTPResponse → parse http response).
func nameWords(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '$' || unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r):
			// a new word starts at an upper-case letter after a lower-case
			// one, or before a lower-case one inside an acronym (HTTPResponse)
			// (a plural s stays with its acronym: URLs)
			if i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]) && !(i+2 == len(rs) && rs[i+1] == 's')) {
				flush()
			}
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// blankWord replaces every whole-word occurrence of name in text by
// spaces, so that a name pair cannot be solved by reading the name.
func blankWord(text, name string) string {
	b := []byte(text)
	isID := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			break
		}
		at := i + j
		end := at + len(name)
		if (at == 0 || !isID(text[at-1])) && (end == len(text) || !isID(text[end])) {
			for k := at; k < end; k++ {
				b[k] = ' '
			}
		}
		i = end
	}
	return string(b)
}

// words counts runs of letters.
func words(s string) int {
	return len(strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
	}))
}

// sample keeps n pairs chosen by a hash of their text: deterministic, and
// stable when a package gains or loses other pairs.
func sample(ps []Pair, n int) []Pair {
	type scored struct {
		h uint64
		i int
	}
	s := make([]scored, len(ps))
	for i, p := range ps {
		s[i] = scored{hash64(p.File + "\x00" + p.Name + "\x00" + p.Query), i}
	}
	sort.Slice(s, func(a, b int) bool { return s[a].h < s[b].h })
	keep := make([]int, n)
	for i := range keep {
		keep[i] = s[i].i
	}
	sort.Ints(keep)
	out := make([]Pair, n)
	for i, k := range keep {
		out[i] = ps[k]
	}
	return out
}

func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// normalize is the key under which two summaries are the same question.
func normalize(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimRight(s, ".!?: ")
}

// Split deduplicates pairs and divides them into training and validation
// sets: a package is held out when the hash of its name (without version)
// falls in the valPercent share. A pair is a duplicate when another pair
// has the same summary and symbol name (the ESM and CommonJS copies of one
// function, a function re-exported by two packages); a summary shared by
// more than maxShared different symbols is boilerplate ("Module
// dependencies.", "Creates a new instance.") and dropped everywhere.
// Validation holds only doc pairs, the task the model is for. A
// validation pair whose key also occurs in training is dropped, so the
// held-out figures never reward memorising.
func Split(pairs []Pair, valPercent int) (trainSet, valSet []Pair, heldOut []string) {
	const maxShared = 3
	type key struct{ summary, name string }
	names := map[string]map[string]bool{}
	for _, p := range pairs {
		k := normalize(p.Query)
		if names[k] == nil {
			names[k] = map[string]bool{}
		}
		names[k][p.Name] = true
	}
	isVal := func(pkg string) bool {
		base := pkg
		if i := strings.LastIndexByte(pkg, '@'); i > 0 {
			base = pkg[:i]
		}
		return hash64("holdout\x00"+base)%100 < uint64(valPercent)
	}
	seen := map[key]bool{}
	held := map[string]bool{}
	var val []Pair
	for _, p := range pairs {
		k := key{normalize(p.Query), p.Name}
		if len(names[k.summary]) > maxShared || seen[k] {
			continue
		}
		if isVal(p.Package) {
			held[p.Package] = true
			if p.Kind == FromDoc {
				val = append(val, p)
			}
			continue
		}
		seen[k] = true
		trainSet = append(trainSet, p)
	}
	for _, p := range val {
		k := key{normalize(p.Query), p.Name}
		if seen[k] {
			continue
		}
		seen[k] = true
		valSet = append(valSet, p)
	}
	for p := range held {
		heldOut = append(heldOut, p)
	}
	sort.Strings(heldOut)
	return trainSet, valSet, heldOut
}
