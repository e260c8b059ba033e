package search

import (
	"math"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/embed/builtin"
	"github.com/scry-dev/scry/internal/ident"
	"github.com/scry-dev/scry/internal/pathclass"
	"github.com/scry-dev/scry/internal/terms"
)

// Feature indexes of a candidate's feature vector. Every feature is in
// [0,1] (or {0,1}), computed from the query, the candidate and the other
// candidates only, so the same code serves the pipeline, the benchmark that
// records features and the fitter that learns their weights. Adding,
// removing or reordering features invalidates the fitted model
// (model.json): refit with `scry bench localize --dump` then `scry bench fit`.
const (
	FBM25         = iota // first-stage BM25F score over the best candidate's
	FBM25Rank            // 1/log2(rank+1) of the first-stage rank
	FCovAll              // IDF-weighted share of query terms in the chunk's own text
	FCovName             // … in its name
	FCovHeader           // … in its signature and JSDoc
	FCovParent           // … in the names of its enclosing symbols
	FCovPath             // … in its file's path (directories and file name)
	FCovBase             // … in its file name alone
	FDefines             // the query writes the chunk's name (case-insensitive, ≥ 3 letters)
	FDefinesCode         // … written as code (camelCase, snake_case, `x`, x(), a.b)
	FParentNamed         // the query writes the name of an enclosing symbol
	FBaseIdent           // the query writes the file name as one identifier (toJSONSchema ↔ to-json-schema.ts)
	FFileCov             // IDF-weighted share of query terms covered by the file's candidates together
	FFileBest            // best first-stage score in the chunk's file
	FFileCount           // how many candidates the file has (log-scaled)
	FTest                // a test file, and the query is not about tests
	FAux                 // examples, fixtures, docs, playgrounds, benchmarks, scripts, generated or vendored code, not asked for
	FDecl                // a declaration file (.d.ts)
	FNonCode             // import, re-export or comment chunk, the query not about them
	FStatement           // root statement or expression
	FCallable            // function, method, constructor, accessor, component, callback
	FTypeDecl            // interface, type alias, enum
	FContainer           // class, namespace, module
	FLines               // size: log of the line count
	FExported            // exported symbol
	FDepth               // nesting depth (0 top level … 1 at depth 3+)
	FRare                // how specific the chunk's name is: few other chunks share it (1 − log n / log N)
	FFileSum             // the file's summed first-stage scores over the best file's (file-level BM25)
	FStemName            // the chunk is named like its file (a module's main symbol)
	FExpanded            // added as a symbol of a top file, not matched by the first stage
	FSemantic            // cosine of the query and the chunk under the built-in embedding model
	FSemanticRel         // … over the best candidate's
	FFileSemantic        // the best of the chunk's file, over the best candidate's
	FTermFreq            // Σ idf·log(1+tf) of the query terms in the chunk's text, over the best candidate's: not divided by its length
	FWholeName           // the whole query is the chunk's name or its path of names (a bare identifier asked for: "StateManager", "Router.navigate")
	FTypesFile           // the chunk's file holds types by its name (types.ts, interfaces.ts, a types/ directory, a declaration file)
	FCallback            // an anonymous function passed as an argument (`items.forEach() callback`, `describe('x') callback`); FCallable too
	FCallee              // the strongest candidates call the chunk by name (see markCallees): ½ for one caller, 1 for two or more
	FFileCallee          // the best FCallee of the chunk's file: the file holds what the strongest candidates call
	FCovCode             // IDF-weighted share of query terms in the chunk's code: its name, signature and text outside comments and string literals
	FCovString           // … found only in its string literals, not in its code: an error or log message that reads like the question
	FHub                 // a question's strong candidate that calls other strong candidates by name (see markHubs): ½ for one, 1 for two or more
	FDirPeers            // how strong the other files of the chunk's directory are among the query's best ten (see markPeers)
	FImportLinks         // how strong the files are, among the query's best five, that the chunk's file imports or is imported by (see markLinks)
	// Query descriptors: the same for every candidate of a query, so a
	// linear score ignores them, but the trees use them to weigh the other
	// features differently for a sentence of prose and for a terse subject
	// full of identifiers.
	FQueryTerms // distinct query terms (÷ 12, at most 1)
	FQueryProse // share of the query's words that are function words ("the", "of", "to")
	FQueryCode  // words written as code (÷ 3, at most 1)
	FQueryTypes // the query asks about types, interfaces or definitions
	NumFeatures
)

// NumQueryFeatures are the query descriptors, the last features.
const NumQueryFeatures = NumFeatures - FQueryTerms

// FeatureNames label the features in dumps, models and ablation tables.
var FeatureNames = [NumFeatures]string{
	"bm25", "bm25_rank", "cov_all", "cov_name", "cov_header", "cov_parent", "cov_path", "cov_base",
	"defines", "defines_code", "parent_named", "base_ident", "file_cov", "file_best", "file_count",
	"test", "aux", "decl", "noncode", "statement", "callable", "typedecl", "container", "lines",
	"exported", "depth", "rare", "file_sum", "stem_name", "expanded",
	"semantic", "semantic_rel", "file_semantic", "term_freq", "whole_name", "types_file", "callback", "callee", "file_callee",
	"cov_code", "cov_string", "hub", "dir_peers", "import_links",
	"query_terms", "query_prose", "query_code", "query_types",
}

// QueryFeatures computes the query descriptors (FQueryTerms…) of a query;
// they depend on its text alone.
func QueryFeatures(q string) [NumQueryFeatures]float64 {
	var out [NumQueryFeatures]float64
	qterms := queryTerms(q)
	out[0] = math.Min(1, float64(len(qterms))/12)
	words, stops, code := 0, 0, 0
	for _, raw := range rawWords(q) {
		w := strings.ToLower(strings.Trim(raw, ".,;:!?()[]{}'\"`"))
		if w == "" {
			continue
		}
		words++
		if terms.IsStopWord(w) {
			stops++
		}
		if looksLikeCode(raw) {
			code++
		}
	}
	if words > 0 {
		out[1] = float64(stops) / float64(words)
	}
	out[2] = math.Min(1, float64(code)/3)
	for _, t := range qterms {
		if typeWords[t] {
			out[3] = 1
		}
	}
	return out
}

// typeWords are the query terms (as terms.Query writes them) that ask
// about types rather than behaviour.
var typeWords = map[string]bool{
	"type": true, "types": true, "typed": true, "typing": true, "typings": true, "interfac": true, "interface": true, "interfaces": true,
	"definit": true, "definition": true, "definitions": true, "declar": true, "declaration": true, "declarations": true, "shape": true, "schema": true,
}

// wholeName is the query as one identifier or path of identifiers
// ("StateManager", "Router.navigate", "A > b", "`useStore`"), in the
// compound form of its last part and the parts before it; ok is false for
// a query of several words. typed is the last part with its case kept,
// letters and digits only.
func wholeName(q string) (name string, parents []string, typed string, ok bool) {
	q = strings.TrimSpace(strings.Trim(strings.TrimSpace(q), "`'\"()"))
	q = strings.TrimSuffix(q, "()")
	if q == "" {
		return "", nil, "", false
	}
	var parts []string
	last := ""
	for _, seg := range strings.Split(strings.ReplaceAll(q, ">", "."), ".") {
		seg = strings.TrimSpace(seg)
		if seg == "" || strings.ContainsFunc(seg, unicode.IsSpace) {
			return "", nil, "", false
		}
		for _, r := range seg {
			if !(r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return "", nil, "", false
			}
		}
		if seg == "prototype" {
			continue // Mocha.prototype.retries asks for what Mocha.retries does
		}
		parts = append(parts, compound(seg))
		last = seg
	}
	if len(parts) == 0 {
		return "", nil, "", false
	}
	return parts[len(parts)-1], parts[:len(parts)-1], letters(last), true
}

// fileWord is the query, folded as compound folds names, when it is one
// word that can name a file: letters, digits, "_", "$" and "-" (no-console,
// user-profile); "" otherwise.
func fileWord(q string) string {
	q = strings.TrimSpace(strings.Trim(strings.TrimSpace(q), "`'\""))
	if q == "" || strings.ContainsFunc(q, func(r rune) bool {
		return !(r == '_' || r == '$' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}) {
		return ""
	}
	return compound(q)
}

// letters is s's letters and digits, case kept: USER_ID → USERID.
func letters(s string) string { return alnum(s, false) }

// isTypesPath says whether a file holds types by its name.
func isTypesPath(p string) bool {
	if pathclass.Decl(p) {
		return true
	}
	switch strings.ToLower(stem(p)) {
	case "types", "type", "typings", "interfaces", "interface", "definitions", "defs", "model", "models":
		return true
	}
	for _, seg := range strings.Split(strings.ToLower(path.Dir(p)), "/") {
		if seg == "types" || seg == "typings" || seg == "interfaces" || seg == "@types" {
			return true
		}
	}
	return false
}

// Features is one candidate's feature vector.
type Features [NumFeatures]float64

// queryInfo is what the features need to know about a query, computed once.
type queryInfo struct {
	terms  []string
	idf    map[string]float64
	pos    map[string]int // a term's index in terms
	idfSum float64
	// words are the query's raw words lowercased (≥ 3 letters), with
	// separators inside identifiers removed: "to_json" → "tojson".
	words map[string]bool
	// code are the words written as code.
	code map[string]bool
	// whole is the query as one name (see wholeName): its last part and
	// the parts before it; wholeOK says the query is one.
	whole        string
	wholeParents []string
	wholeOK      bool
	// wholeTyped is the last name as typed (letters and digits, case
	// kept): when a candidate is named exactly so, only such candidates
	// define it (asked for Router, the Router interface and not the router
	// property that holds one; asked for observable, the observable
	// function and not the OBSERVABLE constant); otherwise any case does.
	wholeTyped string
	// fileWord is the query as a file's name would be (see fileWord).
	fileWord string
	// wants records the query asking for what is otherwise demoted.
	wantsTests, wantsAux, wantsImports, wantsComments bool
	// testWords are the query's terms that set wantsTests; subjectFiles,
	// when they name the code's subject instead, the files named after a
	// definition of it (test.js defining Test), which are that code.
	testWords    []string
	subjectFiles map[string]bool
	descriptors  [NumQueryFeatures]float64
	// initials are the query terms' first letters: text words that start
	// otherwise cannot match, and are not even stemmed.
	initials *terms.Initials
	// sem embeds the candidates for the semantic features and qvec is the
	// query's vector under it; nil: those features stay 0.
	sem  *builtin.Model
	qvec []float32
	// embedderSims: the semantic features read each candidate's cosine
	// under the configured embedder (Result.Similarity, 0 beyond its
	// nearest neighbours) instead of the built-in model's.
	embedderSims bool
}

// withSemantic sets the model of the semantic features and embeds the
// query with it.
func (qi *queryInfo) withSemantic(m *builtin.Model, q string) {
	if m == nil {
		return
	}
	qi.sem, qi.qvec = m, m.Embed(q, builtin.Query)
}

// semanticTextBytes bounds the text of a chunk that the semantic features
// embed: its name, signature and first statements say what it does, and
// the pooling costs per distinct term, so a whole 6 KB chunk would cost a
// query several milliseconds over its hundreds of candidates.
const semanticTextBytes = 2 << 10

// similarity is the cosine of the query and the start of a chunk's text
// (both unit vectors), at least 0; sc is the calling goroutine's.
func (qi *queryInfo) similarity(sc *builtin.Scratch, text string) float64 {
	if qi.sem == nil {
		return 0
	}
	v := qi.sem.EmbedScratch(sc, builtin.Prefix(text, semanticTextBytes), builtin.Doc)
	var d float32
	for i, x := range v {
		d += x * qi.qvec[i]
	}
	return max(0, float64(d))
}

// newQueryInfo computes a query's terms, their IDF from the index's
// statistics and its raw words.
func newQueryInfo(q string, st chunkindex.TermStats) queryInfo {
	return newQueryInfoTerms(q, queryTerms(q), st)
}

// newQueryInfoTerms is newQueryInfo with the query's terms given.
func newQueryInfoTerms(q string, qterms []string, st chunkindex.TermStats) queryInfo {
	qi := queryInfo{terms: qterms, idf: map[string]float64{}, pos: map[string]int{}, words: map[string]bool{}, code: map[string]bool{},
		descriptors: QueryFeatures(q)}
	qi.initials = terms.InitialsOf(qi.terms)
	qi.whole, qi.wholeParents, qi.wholeTyped, qi.wholeOK = wholeName(q)
	qi.fileWord = fileWord(q)
	for i, t := range qi.terms {
		qi.pos[t] = i
	}
	n := float64(max(st.Chunks, 1))
	for _, t := range qi.terms {
		df := float64(st.DocFreq[t])
		// Okapi's IDF, kept positive for terms in most chunks.
		w := math.Log(1 + (n-df+0.5)/(df+0.5))
		qi.idf[t] = w
		qi.idfSum += w
	}
	for _, raw := range rawWords(q) {
		w := compound(raw)
		if len(w) < 3 {
			continue
		}
		qi.words[w] = true
		if looksLikeCode(raw) {
			qi.code[w] = true
		}
	}
	for _, t := range qi.terms {
		switch t {
		case "test", "tests", "spec", "specs", "mock", "mocks":
			qi.wantsTests = true
			qi.testWords = append(qi.testWords, t)
		case "exampl", "example", "examples", "fixtur", "fixture", "fixtures", "doc", "docs", "playground", "benchmark", "bench", "script", "scripts", "demo", "generat", "vendor":
			qi.wantsAux = true
		case "import", "imports", "export", "exports", "depend", "dependency":
			qi.wantsImports = true
		case "comment", "comments", "jsdoc", "todo", "licens", "license":
			qi.wantsComments = true
		}
	}
	return qi
}

// testsAreTheSubject keeps wantsTests only when a test word of the query
// can mean test files: in a test runner's own code "test" names its
// subject (mocha's Test, whose timeout "where is the timeout of a test
// enforced" asks about), and its hundreds of test files would crowd out
// the code. A word names the subject when one of defs (the chunks named
// by testNames) outside the test files defines it: a callable, class,
// interface or type of that name, singular or plural, in any case.
func (qi *queryInfo) testsAreTheSubject(defs []chunk.Chunk) {
	if !qi.wantsTests {
		return
	}
	named := map[string]bool{}
	homes := map[string]bool{}
	for _, c := range defs {
		if !isCallableOrType(c.NodeKind) {
			continue
		}
		// A file named after the definition it holds is that definition's
		// home, whatever its name says (mocha's test.js, indexed from
		// lib/, defines Test).
		home := strings.EqualFold(stem(c.RelativePath), c.Name)
		if pathclass.TestCode(c.RelativePath) && !home {
			continue
		}
		if home {
			homes[c.RelativePath] = true
		}
		n := strings.ToLower(c.Name)
		named[n], named[n+"s"] = true, true
	}
	for _, w := range qi.testWords {
		if !named[w] {
			return
		}
	}
	qi.wantsTests, qi.subjectFiles = false, homes
}

// testNames are the spellings a definition named by the query's test
// words would have (test: test, Test, tests, Tests).
func (qi *queryInfo) testNames() []string {
	var out []string
	for _, w := range qi.testWords {
		w = strings.TrimSuffix(w, "s")
		up := strings.ToUpper(w[:1]) + w[1:]
		out = append(out, w, up, w+"s", up+"s")
	}
	return out
}

// isCallableOrType: a chunk of this kind defines a callable or a type
// (narrower than definitionKinds, which also counts constants and
// properties).
func isCallableOrType(kind string) bool {
	switch kind {
	case "function", "method", "class", "interface", "type", "enum":
		return true
	}
	return false
}

// rawWords splits a query at anything that cannot be part of an identifier
// or a member path; '.' is kept inside words ("Router.buildLocation") and
// split apart by the callers that need the parts.
func rawWords(q string) []string {
	return strings.FieldsFunc(q, func(r rune) bool {
		return !(r == '_' || r == '$' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r))
	})
}

// compound lowercases an identifier and removes its separators, the form in
// which userId, user_id, user-id and USER_ID are one word.
func compound(s string) string { return alnum(s, true) }

// alnum is s's letters and digits, lowercased when fold is set.
func alnum(s string, fold bool) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if fold {
				r = unicode.ToLower(r)
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// looksLikeCode reports whether a raw query word is written as code rather
// than prose: an inner capital (validateToken), an underscore or '$', a
// member path (a.b) or a trailing call or generic marker.
func looksLikeCode(raw string) bool {
	if strings.ContainsAny(raw, "_$") || strings.Contains(strings.Trim(raw, "."), ".") {
		return true
	}
	rs := []rune(raw)
	for i := 1; i < len(rs); i++ {
		if unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1]) {
			return true
		}
	}
	return false
}

// codeMarked adds the words the query marks as code with backticks or a call
// "f()" to qi.code. Only the first backtick span counts (the text after the
// first backtick, up to the next): that is how the shipped model's features
// were computed, and a change here needs a refit.
func (qi *queryInfo) codeMarked(q string) {
	for _, seg := range strings.Split(q, "`")[1:] {
		for _, w := range rawWords(seg) {
			if c := compound(w); len(c) >= 3 {
				qi.code[c] = true
			}
		}
		break
	}
	for i := strings.Index(q, "("); i > 0; {
		j := i
		for j > 0 && (unicode.IsLetter(rune(q[j-1])) || unicode.IsDigit(rune(q[j-1])) || q[j-1] == '_' || q[j-1] == '$') {
			j--
		}
		if c := compound(q[j:i]); len(c) >= 3 {
			qi.code[c] = true
		}
		k := strings.Index(q[i+1:], "(")
		if k < 0 {
			break
		}
		i += k + 1
	}
}

// termMask records which of the query's terms a text holds: bit i for
// qi.terms[i]. Coverage features only ask that, so a chunk's terms are
// checked against the query's as they are split, never collected.
type termMask []uint64

func (m termMask) or(o termMask) termMask {
	out := make(termMask, len(m))
	for i := range m {
		out[i] = m[i] | o[i]
	}
	return out
}

// andNot is the terms in m and not in o.
func (m termMask) andNot(o termMask) termMask {
	out := make(termMask, len(m))
	for i := range m {
		out[i] = m[i] &^ o[i]
	}
	return out
}

// featureText is the part of a chunk's text that the features read.
func featureText(t string) string {
	if len(t) > maxFeatureText {
		return t[:maxFeatureText]
	}
	return t
}

// mask splits texts as the index does (each cut to maxFeatureText bytes)
// and marks the query terms found.
func (qi *queryInfo) mask(texts ...string) termMask {
	m := make(termMask, (len(qi.terms)+63)/64)
	for _, t := range texts {
		for _, x := range terms.SplitWanted(featureText(t), qi.initials) {
			if i, ok := qi.pos[x]; ok {
				m[i/64] |= 1 << (i % 64)
			}
		}
	}
	return m
}

// countTerms splits text as the index does, adds how often each query term
// occurs to counts (indexed like qi.terms) and marks the terms that occur
// in its code in code and those in its string literals in str (splitProse).
func (qi *queryInfo) countTerms(text string, counts []int, code, str termMask) {
	splitProse(text, func(part string, kind partKind) {
		for _, x := range terms.SplitWanted(part, qi.initials) {
			if i, ok := qi.pos[x]; ok {
				counts[i]++
				switch kind {
				case codePart:
					code[i/64] |= 1 << (i % 64)
				case stringPart:
					str[i/64] |= 1 << (i % 64)
				}
			}
		}
	})
}

// maskOf marks the query terms whose count is positive.
func (qi *queryInfo) maskOf(counts []int) termMask {
	m := make(termMask, (len(qi.terms)+63)/64)
	for i, n := range counts {
		if n > 0 {
			m[i/64] |= 1 << (i % 64)
		}
	}
	return m
}

// termFrequency is Σ idf·log(1+tf) over the query's terms: how much of the
// query a text repeats, not divided by its length as BM25 divides it (a
// fix lands more often in a long function that keeps using the subject's
// words than in a short one that names them once). Like the coverage
// features it reads the first maxFeatureText bytes, which is what a
// light read returns.
func (qi *queryInfo) termFrequency(counts []int) float64 {
	s := 0.0
	for i, n := range counts {
		if n > 0 {
			s += qi.idf[qi.terms[i]] * math.Log1p(float64(n))
		}
	}
	return s
}

// coverage is the IDF-weighted share of the query's terms in a mask.
func (qi *queryInfo) coverage(m termMask) float64 {
	if qi.idfSum == 0 {
		return 0
	}
	s := 0.0
	for i, t := range qi.terms {
		if m[i/64]&(1<<(i%64)) != 0 {
			s += qi.idf[t]
		}
	}
	return s / qi.idfSum
}

// maxFeatureText bounds the text of one chunk that term coverage reads: a
// chunk's first few kilobytes hold its name, signature and the collapsed
// stubs of its members, and reading more costs query latency for nothing.
const maxFeatureText = 6 << 10

// stem is a file name without its extensions (".d.ts", ".test.ts" …).
func stem(p string) string {
	b := path.Base(p)
	if i := strings.IndexByte(b, '.'); i > 0 {
		return b[:i]
	}
	return b
}

// featurize fills the feature vectors of candidates sorted by first-stage
// score (best first). nameCount holds, per candidate name, how many chunks
// of the index have that name.
func featurize(qi *queryInfo, cands []Result, nameCount map[string]int, nChunks int) []Features {
	out := make([]Features, len(cands))
	type fileAgg struct {
		cov       termMask
		best, sum float64
		n         int
		path      termMask // the file's path
		base      termMask // its file name
		sim       float64  // the best similarity of its candidates
	}
	files := map[string]*fileAgg{}
	// A bare name is defined in the case it is written in when some
	// candidate has that exact name (see queryInfo.wholeTyped).
	exactName := false
	for i := 0; qi.wholeOK && !exactName && i < len(cands); i++ {
		name, _ := definedName(cands[i].Chunk.Name)
		exactName = letters(name) == qi.wholeTyped
	}
	type chunkMasks struct{ all, name, header, code, str termMask }
	masks := make([]chunkMasks, len(cands))
	sims := make([]float64, len(cands))
	tfs := make([]float64, len(cands))
	// Splitting the candidates' text is most of the features' cost and
	// each candidate's is independent: spread it over the cores.
	workers := min(runtime.GOMAXPROCS(0), max(1, len(cands)/32))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var sc builtin.Scratch
			counts := make([]int, len(qi.terms))
			for i := w; i < len(cands); i += workers {
				c := cands[i].Chunk
				name, sig, doc := qi.mask(c.Name), qi.mask(c.Signature), qi.mask(c.JSDoc)
				header := sig.or(doc)
				// The text is split once, for its terms' presence and
				// their counts.
				clear(counts)
				code, str := name.or(sig), make(termMask, len(name))
				qi.countTerms(featureText(c.EmbeddingText), counts, code, str)
				masks[i] = chunkMasks{all: name.or(header).or(qi.maskOf(counts)), name: name, header: header, code: code, str: str}
				tfs[i] = qi.termFrequency(counts)
				if qi.embedderSims {
					sims[i] = max(0, cands[i].Similarity)
				} else {
					sims[i] = qi.similarity(&sc, c.EmbeddingText)
				}
			}
		}(w)
	}
	wg.Wait()
	for i, r := range cands {
		c := r.Chunk
		fa := files[c.RelativePath]
		if fa == nil {
			fa = &fileAgg{cov: make(termMask, len(masks[i].all)),
				path: qi.mask(strings.ReplaceAll(c.RelativePath, "/", " ")), base: qi.mask(stem(c.RelativePath))}
			files[c.RelativePath] = fa
		}
		fa.cov = fa.cov.or(masks[i].all)
		fa.best = max(fa.best, r.FirstStage)
		fa.sum += r.FirstStage
		fa.n++
		fa.sim = max(fa.sim, sims[i])
	}
	bestSim, bestTF := 0.0, 0.0
	for i, x := range sims {
		bestSim = max(bestSim, x)
		bestTF = max(bestTF, tfs[i])
	}
	bestSum := 0.0
	for _, fa := range files {
		bestSum = max(bestSum, fa.sum)
	}
	logN := math.Log(float64(max(nChunks, 2)))
	logCands := math.Log(float64(len(cands) + 1))
	for i, r := range cands {
		c := r.Chunk
		f := &out[i]
		fa := files[c.RelativePath]
		f[FBM25] = clamp01(r.FirstStage)
		f[FBM25Rank] = 1 / math.Log2(float64(i)+2)
		f[FCovAll] = qi.coverage(masks[i].all)
		if bestTF > 0 {
			f[FTermFreq] = tfs[i] / bestTF
		}
		f[FCovName] = qi.coverage(masks[i].name)
		f[FCovHeader] = qi.coverage(masks[i].header)
		f[FCovCode] = qi.coverage(masks[i].code)
		f[FCovString] = qi.coverage(masks[i].str.andNot(masks[i].code))
		parents := parentNames(c.Breadcrumb)
		f[FCovParent] = qi.coverage(qi.mask(strings.Join(parents, " ")))
		defined, owners := definedName(c.Name)
		parents = append(parents, owners...)
		f[FCovPath] = qi.coverage(fa.path)
		f[FCovBase] = qi.coverage(fa.base)
		if name := compound(defined); len(name) >= 3 && qi.words[name] {
			f[FDefines] = 1
			if qi.code[name] {
				f[FDefinesCode] = 1
			}
		}
		for _, p := range parents {
			if pc := compound(p); len(pc) >= 3 && qi.words[pc] {
				f[FParentNamed] = 1
			}
		}
		if b := compound(stem(c.RelativePath)); len(b) >= 3 && qi.words[b] {
			f[FBaseIdent] = 1
		}
		if qi.wholeOK && compound(defined) == qi.whole && endsWith(parents, qi.wholeParents) &&
			(!exactName || letters(defined) == qi.wholeTyped) {
			f[FWholeName] = 1
		}
		// A module's default export (export default {…}, module.exports =
		// …) has no name of its own: its importers call it by its file's,
		// so an eslint rule's id (no-console) or a page's file name asks
		// for it. One that only names another (export default app;) is no
		// definition.
		if qi.fileWord != "" && isModuleExport(c.Name) && c.EndLine > c.StartLine &&
			compound(stem(c.RelativePath)) == qi.fileWord {
			f[FWholeName] = 1
		}
		// A file's name written as it is (content-type-parser) asks for
		// the definition named so in code (ContentTypeParser), as the
		// identifier itself would.
		if !qi.wholeOK && qi.fileWord != "" && len(parents) == 0 && compound(defined) == qi.fileWord {
			f[FWholeName] = 1
		}
		if isTypesPath(c.RelativePath) {
			f[FTypesFile] = 1
		}
		f[FFileCov] = qi.coverage(fa.cov)
		f[FFileBest] = clamp01(fa.best)
		f[FFileCount] = math.Log(float64(fa.n)+1) / logCands
		if bestSum > 0 {
			f[FFileSum] = fa.sum / bestSum
		}
		if n := compound(c.Name); len(n) >= 3 && n == compound(stem(c.RelativePath)) {
			f[FStemName] = 1
		}
		if r.expanded {
			f[FExpanded] = 1
		}
		f[FSemantic] = clamp01(sims[i])
		if bestSim > 0 {
			f[FSemanticRel] = sims[i] / bestSim
			f[FFileSemantic] = fa.sim / bestSim
		}
		copy(f[FQueryTerms:], qi.descriptors[:])
		if pathclass.TestCode(c.RelativePath) && !qi.wantsTests && !qi.subjectFiles[c.RelativePath] {
			f[FTest] = 1
		}
		if (pathclass.Aux(c.RelativePath) || slices.Contains(c.Modifiers, chunk.GeneratedModifier)) && !qi.wantsAux {
			f[FAux] = 1
		}
		if pathclass.Decl(c.RelativePath) {
			f[FDecl] = 1
		}
		switch c.NodeKind {
		case "import", "re-export":
			if !qi.wantsImports {
				f[FNonCode] = 1
			}
		case "comment":
			if !qi.wantsComments {
				f[FNonCode] = 1
			}
		case "statement", "expression":
			f[FStatement] = 1
		case "function", "method", "constructor", "getter", "setter", "component", "callback":
			f[FCallable] = 1
			if c.NodeKind == "callback" {
				f[FCallback] = 1
			}
		case "interface", "type", "enum":
			f[FTypeDecl] = 1
		case "class", "namespace", "module":
			f[FContainer] = 1
		}
		f[FLines] = min(math.Log(float64(c.EndLine-c.StartLine+2))/math.Log(2000), 1)
		if c.Exported {
			f[FExported] = 1
		}
		f[FDepth] = min(float64(c.Depth), 3) / 3
		if n := nameCount[c.Name]; n > 0 {
			f[FRare] = clamp01(1 - math.Log(float64(n))/logN)
		}
	}
	return out
}

// endsWith says whether the enclosing names end with the names a query
// path writes before its last part (compound forms); a query without
// parents matches any.
func endsWith(parents, want []string) bool {
	if len(want) > len(parents) {
		return false
	}
	off := len(parents) - len(want)
	for i, w := range want {
		if compound(parents[off+i]) != w {
			return false
		}
	}
	return true
}

// definedName splits a symbol named by the path it was assigned to
// (Mocha.prototype.retries = function …, Queue.create = …) into the name it
// defines and the names that own it, leaving out "prototype": asked for
// retries, Mocha.retries or Mocha > retries, that symbol is the definition.
// Any other name is returned whole.
func definedName(name string) (string, []string) {
	last := ident.Assigned(name)
	if last == "" {
		return name, nil
	}
	var owners []string
	for s := range strings.SplitSeq(name[:len(name)-len(last)-1], ".") {
		if s != "prototype" {
			owners = append(owners, s)
		}
	}
	return last, owners
}

// isModuleExport: a chunk so named is its module's default export.
func isModuleExport(name string) bool {
	return name == "default" || name == "module.exports"
}

// parentNames are the enclosing symbols' names from a breadcrumb
// "path > Outer > Inner > name": everything between the path and the name.
func parentNames(breadcrumb string) []string {
	parts := strings.Split(breadcrumb, " > ")
	if len(parts) <= 2 {
		return nil
	}
	return parts[1 : len(parts)-1]
}
