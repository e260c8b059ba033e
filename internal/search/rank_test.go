package search

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/chunkindex"
	"github.com/scry-dev/scry/internal/embed/builtin"
	"github.com/scry-dev/scry/internal/parse"
)

func TestQueryWords(t *testing.T) {
	tests := []struct {
		query      string
		words      []string // compound forms expected in qi.words
		code       []string // expected in qi.code
		notCode    []string
		wantsTests bool
	}{
		{"where are JWT tokens validated", []string{"jwt", "tokens", "validated", "where"}, nil, []string{"tokens"}, false},
		{"toJSONSchema drops optional fields", []string{"tojsonschema", "drops"}, []string{"tojsonschema"}, []string{"drops"}, false},
		{"`req.param()` should return undefined", []string{"req.param", "should"}, []string{"req.param", "param"}, []string{"should"}, false},
		{"fix watch(Effect) in detached scope", []string{"watch", "effect"}, []string{"watch"}, []string{"effect", "detached"}, false},
		{"user_id is lost", []string{"userid"}, []string{"userid"}, nil, false},
		{"flaky spec for router", []string{"flaky"}, nil, nil, true},
	}
	for _, tt := range tests {
		qi := newQueryInfo(tt.query, chunkindex.TermStats{Chunks: 100})
		qi.codeMarked(tt.query)
		for _, w := range tt.words {
			if !qi.words[compound(w)] {
				t.Errorf("%q: word %q missing from %v", tt.query, w, qi.words)
			}
		}
		for _, w := range tt.code {
			if !qi.code[compound(w)] {
				t.Errorf("%q: %q not taken as code (%v)", tt.query, w, qi.code)
			}
		}
		for _, w := range tt.notCode {
			if qi.code[compound(w)] {
				t.Errorf("%q: prose word %q taken as code", tt.query, w)
			}
		}
		if qi.wantsTests != tt.wantsTests {
			t.Errorf("%q: wantsTests = %v", tt.query, qi.wantsTests)
		}
	}
}

// stem is the file name the name features compare a chunk's name with.
func TestStem(t *testing.T) {
	for p, want := range map[string]string{
		"src/auth/token.ts":                 "token",
		"src/auth/token.test.ts":            "token",
		"src/types/index.d.ts":              "index",
		"src/helpers/to-json-schema.ts":     "to-json-schema",
		"lib/test.helpers.js":               "test",
		"packages/core/src/link.test-d.tsx": "link",
		"Makefile":                          "Makefile",
	} {
		if got := stem(p); got != want {
			t.Errorf("stem(%q) = %q, want %q", p, got, want)
		}
	}
}

// The features of a small candidate list, each checked against what the
// query and the chunk say.
func TestFeaturize(t *testing.T) {
	st := chunkindex.TermStats{Chunks: 1000, DocFreq: map[string]int{"json": 10, "schema": 20, "tojsonschema": 2, "drop": 300, "option": 400, "field": 200}}
	q := "toJSONSchema drops optional fields"
	qi := newQueryInfo(q, st)
	qi.codeMarked(q)
	mk := func(path, name, kind string, start, end, depth int, text string) Result {
		return Result{Chunk: chunk.Chunk{ID: path + name, RelativePath: path, Name: name, NodeKind: kind, StartLine: start, EndLine: end,
			Depth: depth, Breadcrumb: path + " > " + name, EmbeddingText: text, FullSource: text}}
	}
	cands := []Result{
		mk("src/to-json-schema.ts", "toJSONSchema", "function", 10, 60, 0, "function toJSONSchema(schema) { drop optional fields }"),
		mk("src/to-json-schema.test.ts", "it", "callback", 1, 5, 0, "it('drops optional fields', () => toJSONSchema(x))"),
		mk("src/index.ts", "import", "import", 1, 1, 0, "import { toJSONSchema } from './to-json-schema'"),
	}
	cands[0].FirstStage, cands[1].FirstStage, cands[2].FirstStage = 1, 0.8, 0.3
	fs := featurize(&qi, cands, map[string]int{"toJSONSchema": 3}, 1000)
	def, test, imp := fs[0], fs[1], fs[2]
	checks := []struct {
		name string
		ok   bool
	}{
		{"defines", def[FDefines] == 1 && def[FDefinesCode] == 1 && test[FDefines] == 0},
		{"base ident (to-json-schema.ts)", def[FBaseIdent] == 1 && imp[FBaseIdent] == 0},
		{"test file demoted", test[FTest] == 1 && def[FTest] == 0},
		{"import is non-code", imp[FNonCode] == 1 && def[FNonCode] == 0},
		{"callable", def[FCallable] == 1},
		{"a callback is callable and a callback; a named function only callable", test[FCallable] == 1 && test[FCallback] == 1 && def[FCallback] == 0},
		{"coverage in [0,1] and full for the definition", def[FCovAll] > 0.99 && def[FCovAll] <= 1},
		{"rare name", def[FRare] > 0.8},
		{"rank feature decreasing", def[FBM25Rank] > test[FBM25Rank] && test[FBM25Rank] > imp[FBM25Rank]},
		{"name coverage weighted by IDF", def[FCovName] > 0.3 && imp[FCovName] == 0},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: features %v / %v / %v", c.name, def, test, imp)
		}
	}
	for i, f := range fs {
		for k, v := range f {
			if v < 0 || v > 1 || math.IsNaN(v) {
				t.Errorf("candidate %d feature %s = %v, outside [0,1]", i, FeatureNames[k], v)
			}
		}
	}
}

func unitModel(weights map[int]float64, penalty float64) *Model {
	m := &Model{Features: FeatureNames[:], Weights: make([]float64, NumFeatures), FilePenalty: penalty, Calibration: make([]float64, NumCalibrationInputs+1)}
	for i, w := range weights {
		m.Weights[i] = w
	}
	return m
}

func TestOrderDiversifiesFilesAndCollapsesMirrors(t *testing.T) {
	// Five chunks of a.ts score 1.0…0.6, one of b.ts 0.7, and c.ts's
	// mirror copy of a.ts's best chunk 1.0.
	scores := []float64{1.0, 0.9, 0.8, 0.7, 0.6, 0.7, 1.0}
	files := []string{"a.ts", "a.ts", "a.ts", "a.ts", "a.ts", "b.ts", "deno/a.ts"}
	keys := []string{"x", "", "", "", "", "", "x"}
	feats := make([]Features, len(scores))
	for i, s := range scores {
		feats[i][FBM25] = s
	}
	keyOf := func(i int) (string, string) { return files[i], keys[i] }
	order := unitModel(map[int]float64{FBM25: 1}, 0.25).Order(feats, keyOf, false)
	var got []int
	for _, o := range order {
		got = append(got, o.Index)
	}
	// a0 (1.0), a1 (0.9-0.25=0.65) loses to b (0.7); the mirror goes last.
	want := []int{0, 5, 1, 2, 3, 4, 6}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if top := unitModel(map[int]float64{FBM25: 1}, 0.25).OrderTop(feats, keyOf, 2, false); len(top) != 2 || top[1].Index != 5 {
		t.Fatalf("top 2: %v", top)
	}
	// Without the penalty one file fills the top.
	order = unitModel(map[int]float64{FBM25: 1}, 0).Order(feats, keyOf, false)
	if order[1].Index != 1 {
		t.Fatalf("no penalty: second is %d", order[1].Index)
	}
}

// A question's list takes every file's best chunk before any file's
// second; any other query only its first SpreadFirst places, and the
// fitted penalty orders the rest, under which a strong file's second chunk
// can rank before a weak file's first.
func TestOrderSpreadsAQuestionOverFiles(t *testing.T) {
	// a.ts holds the three best chunks (1.0, 0.95, 0.9), b.ts one of 0.5,
	// c.ts one of 0.4; deno/a.ts mirrors a.ts's best.
	scores := []float64{1.0, 0.95, 0.9, 0.5, 0.4, 1.0}
	files := []string{"a.ts", "a.ts", "a.ts", "b.ts", "c.ts", "deno/a.ts"}
	keys := []string{"x", "", "", "", "", "x"}
	feats := make([]Features, len(scores))
	for i, s := range scores {
		feats[i][FBM25] = s
	}
	keyOf := func(i int) (string, string) { return files[i], keys[i] }
	m := unitModel(map[int]float64{FBM25: 1}, 0.25)
	tests := []struct {
		name        string
		question    bool
		spreadFirst int
		spreadTail  int
		k           int
		want        []int
	}{
		// 0.95-0.25 = 0.7 beats b.ts's 0.5; 0.9-0.5 = 0.4 ties c.ts and
		// ranks first as the better candidate; the mirror goes last.
		{"description", false, 0, 0, 6, []int{0, 1, 3, 2, 4, 5}},
		{"question", true, 0, 0, 6, []int{0, 3, 4, 1, 2, 5}},
		{"question, top 2", true, 0, 0, 2, []int{0, 3}},
		{"description, top 2", false, 0, 0, 2, []int{0, 1}},
		// The first two places go to a.ts and b.ts; then a.ts's second
		// chunk (0.7) before its third, which ties c.ts as above.
		{"description, first 2 spread", false, 2, 0, 6, []int{0, 3, 1, 2, 4, 5}},
		{"description, first 2 spread, top 1", false, 2, 0, 1, []int{0}},
		{"question, first 2 spread", true, 2, 0, 6, []int{0, 3, 4, 1, 2, 5}},
		// After the first two places (a.ts twice) the files not listed
		// yet come first, b.ts then c.ts, then a.ts's third chunk; the
		// mirror still goes last. c.ts comes from beyond the fourth place
		// of the list without the tail spread.
		{"description, tail after 2", false, 0, 2, 6, []int{0, 1, 3, 4, 2, 5}},
		{"description, tail after 2, top 4", false, 0, 2, 4, []int{0, 1, 3, 4}},
		{"description, tail after 1", false, 0, 1, 6, []int{0, 3, 4, 1, 2, 5}},
		// A list no longer than the places kept has no tail.
		{"description, tail after 2, top 2", false, 0, 2, 2, []int{0, 1}},
		{"question, tail after 2", true, 0, 2, 6, []int{0, 3, 4, 1, 2, 5}},
	}
	for _, tt := range tests {
		m := *m
		m.SpreadFirst = tt.spreadFirst
		m.SpreadTail = tt.spreadTail
		var got []int
		for _, o := range m.OrderTop(feats, keyOf, tt.k, tt.question) {
			got = append(got, o.Index)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: order %v, want %v", tt.name, got, tt.want)
		}
	}
	// The question's scores are penalised as usual: a file's second chunk
	// scores below its first.
	order := m.Order(feats, keyOf, true)
	if order[3].Index != 1 || math.Abs(order[3].Score-0.7) > 1e-9 {
		t.Errorf("question's fourth result %+v, want a.ts's second chunk at 0.7", order[3])
	}
}

func TestParseModelRefusesOtherFeatures(t *testing.T) {
	if _, err := ParseModel([]byte(`{"features":["bm25"],"weights":[1]}`)); err == nil || !strings.Contains(err.Error(), "refit") {
		t.Fatalf("short model accepted: %v", err)
	}
	names := append([]string{}, FeatureNames[:]...)
	names[3] = "something_else"
	b := fmt.Sprintf(`{"features":["%s"],"weights":[%s]}`, strings.Join(names, `","`), strings.TrimSuffix(strings.Repeat("0,", NumFeatures), ","))
	if _, err := ParseModel([]byte(b)); err == nil {
		t.Fatal("renamed feature accepted")
	}
	if DefaultModel == nil || len(DefaultModel.Weights) != NumFeatures {
		t.Fatal("shipped model not loaded")
	}
}

func TestSelectAnswerLeads(t *testing.T) {
	res := func(id string, p float64, src string) Result {
		return Result{Chunk: chunk.Chunk{ID: id, RelativePath: id + ".ts", StartLine: 1, EndLine: 3, FullSource: src, Name: id}, Score: p}
	}
	inner := func(file, id string, p float64) Result {
		return Result{Chunk: chunk.Chunk{ID: id, RelativePath: file + ".ts", StartLine: 2, EndLine: 2, Depth: 1, FullSource: "x", Name: id}, Score: p}
	}
	small := "function f() { return 1 }"
	many := func(n int) []Result {
		var rs []Result
		for i := 0; i < n; i++ {
			rs = append(rs, res(fmt.Sprint("c", i), 0.3-float64(i)/100, small))
		}
		return rs
	}
	big := strings.Repeat("const x = 1;\n", 400)
	prm := Params{Threshold: 0.5, Budget: 300}
	tests := []struct {
		name       string
		ranked     []Result
		results    int
		leads      int
		overBudget bool
	}{
		{"confident results, the rest as leads", []Result{res("a", 0.9, small), res("b", 0.6, small), res("c", 0.2, small)}, 2, 1, false},
		{"nothing confident: leads", []Result{res("a", 0.3, small), res("b", 0.2, small)}, 0, 2, false},
		{"leads capped", many(DefaultLeads + 3), 0, DefaultLeads, false},
		{"confident but over budget: a lead that says so", []Result{res("a", 0.9, big), res("b", 0.2, small)}, 0, 2, true},
		{"a lead never repeats or nests in a result", []Result{res("a", 0.9, small), inner("a", "a2", 0.4), res("b", 0.1, small)}, 1, 1, false},
		{"no candidates: empty", nil, 0, 0, false},
	}
	for _, tt := range tests {
		results, leads := SelectAnswer(tt.ranked, prm)
		if len(results) != tt.results || len(leads) != tt.leads {
			t.Errorf("%s: %d results, %d leads; want %d, %d", tt.name, len(results), len(leads), tt.results, tt.leads)
			continue
		}
		if tt.leads > 0 && leads[0].OverBudget != tt.overBudget {
			t.Errorf("%s: first lead over budget = %v", tt.name, leads[0].OverBudget)
		}
		if len(tt.ranked) > 0 && len(results)+len(leads) == 0 {
			t.Errorf("%s: empty answer although candidates exist", tt.name)
		}
	}
}

// Probabilities never rise down the ranked list, whatever the calibration
// says of a single result.
func TestRankedProbabilitiesNonIncreasing(t *testing.T) {
	m := unitModel(map[int]float64{FBM25: 1}, 0)
	// The calibration rewards FTest, which the ranking ignores: the second
	// result alone would be more probable than the first.
	m.Calibration[NumCalibrationInputs-NumFeatures+FTest] = 5
	feats := []Features{{}, {}, {}}
	feats[1][FTest] = 1
	scores := []float64{1, 0.9, 0.8}
	raw := m.Probability(scores, 1, &feats[1])
	if raw <= m.Probability(scores, 0, &feats[0]) {
		t.Fatal("the test's calibration does not raise the second result")
	}
	p := m.RankedProbabilities(scores, func(k int) *Features { return &feats[k] })
	for k := 1; k < len(p); k++ {
		if p[k] > p[k-1] {
			t.Fatalf("probabilities rise down the list: %v", p)
		}
	}
	if p[0] != m.Probability(scores, 0, &feats[0]) {
		t.Fatalf("the first probability changed: %v", p)
	}
}

// The semantic features come from the built-in model: a chunk about what
// the query asks for, in other words, scores above an unrelated one; the
// relative features put the best candidate at 1; with no model they are 0.
func TestSemanticFeatures(t *testing.T) {
	m, err := builtin.Default()
	if err != nil {
		t.Fatal(err)
	}
	q := "where are bearer tokens checked before a request is handled"
	mk := func(path, name, text string) Result {
		return Result{Chunk: chunk.Chunk{ID: path + name, RelativePath: path, Name: name, NodeKind: "function", StartLine: 1, EndLine: 9,
			Breadcrumb: path + " > " + name, EmbeddingText: text, FullSource: text}}
	}
	cands := []Result{
		mk("src/auth.ts", "verifyAuthorization", "function verifyAuthorization(req, res, next) { const header = req.headers.authorization; if (!header?.startsWith('Bearer ')) return res.status(401).end(); jwt.verify(header.slice(7), secret); next() }"),
		mk("src/dates.ts", "formatDate", "function formatDate(d: Date): string { return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) }"),
		mk("src/auth.ts", "logout", "function logout(session) { session.destroy() }"),
	}
	for i := range cands {
		cands[i].FirstStage = 1
	}
	tests := []struct {
		name  string
		model *builtin.Model
		check func(fs []Features) bool
	}{
		{"related above unrelated", m, func(fs []Features) bool { return fs[0][FSemantic] > fs[1][FSemantic] }},
		{"the best is 1 relative", m, func(fs []Features) bool { return fs[0][FSemanticRel] == 1 && fs[1][FSemanticRel] < 1 }},
		{"a file carries its best", m, func(fs []Features) bool {
			return fs[2][FFileSemantic] == fs[0][FFileSemantic] && fs[0][FFileSemantic] == 1 && fs[1][FFileSemantic] < 1
		}},
		{"no model, no semantic features", nil, func(fs []Features) bool {
			for _, f := range fs {
				if f[FSemantic] != 0 || f[FSemanticRel] != 0 || f[FFileSemantic] != 0 {
					return false
				}
			}
			return true
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qi := newQueryInfo(q, chunkindex.TermStats{Chunks: 100, DocFreq: map[string]int{}})
			qi.withSemantic(tt.model, q)
			fs := featurize(&qi, cands, map[string]int{}, 100)
			if !tt.check(fs) {
				for i, f := range fs {
					t.Logf("%s: semantic %.3f rel %.3f file %.3f", cands[i].Chunk.Name, f[FSemantic], f[FSemanticRel], f[FFileSemantic])
				}
				t.Fail()
			}
		})
	}
}

// The margin input is the best's lead over the second, and a lone
// candidate, which has no second, takes the model's LoneMargin.
func TestCalibrationMargin(t *testing.T) {
	var f Features
	tests := []struct {
		name   string
		scores []float64
		rank   int
		lone   float64
		want   float64
	}{
		{"lead over the second", []float64{3, 1, 0.5}, 0, 9, 2},
		{"same for a lower rank", []float64{3, 1, 0.5}, 2, 9, 2},
		{"a tie", []float64{2, 2}, 1, 9, 0},
		{"lone candidate", []float64{3}, 0, 1.25, 1.25},
	}
	for _, tt := range tests {
		if got := CalibrationInputs(tt.scores, tt.rank, &f, tt.lone)[2]; got != tt.want {
			t.Errorf("%s: margin %v, want %v", tt.name, got, tt.want)
		}
	}
	if DefaultModel.LoneMargin <= 0 {
		t.Errorf("the shipped model has no lone margin (%v): refit it", DefaultModel.LoneMargin)
	}
}

// Term frequency grows with how often a text repeats the query's terms,
// whatever its length, and reads the same head of the text as coverage.
func TestFeaturizeTermFrequency(t *testing.T) {
	st := chunkindex.TermStats{Chunks: 1000, DocFreq: map[string]int{"retri": 5, "timeout": 8}}
	q := "retry on timeout"
	qi := newQueryInfo(q, st)
	mk := func(name, text string) Result {
		return Result{Chunk: chunk.Chunk{ID: name, RelativePath: "src/" + name + ".ts", Name: name, NodeKind: "function", StartLine: 1,
			EndLine: 1 + strings.Count(text, "\n"), Breadcrumb: "src/" + name + ".ts > " + name, EmbeddingText: text, FullSource: text}}
	}
	filler := strings.Repeat("  const value = compute(input)\n", 40)
	beyond := strings.Repeat("  const value = compute(input)\n", maxFeatureText/30+10)
	cands := []Result{
		mk("often", "function often() {\n"+filler+"  retry(timeout)\n  retry(timeout)\n  retry(timeout)\n}"),
		mk("once", "function once() { retry(timeout) }"),
		mk("late", "function late() {\n"+beyond+"  retry(timeout)\n}"),
		mk("none", "function none() { return 1 }"),
	}
	fs := featurize(&qi, cands, map[string]int{}, 1000)
	often, once, late, none := fs[0], fs[1], fs[2], fs[3]
	tests := []struct {
		name string
		ok   bool
	}{
		{"repetition in a long text is the best", often[FTermFreq] == 1},
		{"one mention counts less", once[FTermFreq] > 0 && once[FTermFreq] < often[FTermFreq]},
		{"coverage does not count repetition", often[FCovAll] > 0.99 && once[FCovAll] > 0.99},
		{"terms beyond the light text are not read", late[FTermFreq] == 0 && late[FCovAll] == 0},
		{"no query term, no frequency", none[FTermFreq] == 0},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: often %v / once %v / late %v / none %v", tt.name, often, once, late, none)
		}
	}
}

// Code coverage counts the query's terms in a chunk's name, signature and
// code; string coverage the ones only its string literals hold: an error
// class whose message repeats the question matches it in strings alone.
// Comments and JSDoc are neither.
func TestFeaturizeCodeAndStringCoverage(t *testing.T) {
	st := chunkindex.TermStats{Chunks: 1000, DocFreq: map[string]int{"join": 5, "column": 8}}
	qi := newQueryInfo("join column missing", st)
	mk := func(name, sig, doc, text string) Result {
		return Result{Chunk: chunk.Chunk{ID: name, RelativePath: "src/" + name + ".ts", Name: name, NodeKind: "function", StartLine: 1,
			EndLine: 1 + strings.Count(text, "\n"), Breadcrumb: "src/" + name + ".ts > " + name, Signature: sig, JSDoc: doc,
			EmbeddingText: text, FullSource: text}}
	}
	cands := []Result{
		mk("buildJoinColumns", "buildJoinColumns(missing)", "", "function buildJoinColumns(missing) { return missing.map(toColumn) }"),
		mk("raise", "raise()", "", "function raise() { throw new Error(`join column missing`) }"),
		mk("described", "described()", "Finds the join column when missing.", "/** Finds the join column when missing. */\nfunction described() { return 1 }"),
		mk("half", "half()", "", "function half(join) { log('column missing for', join) }"),
	}
	fs := featurize(&qi, cands, map[string]int{}, 1000)
	code, str, doc, half := fs[0], fs[1], fs[2], fs[3]
	tests := []struct {
		name string
		ok   bool
	}{
		{"identifiers are code", code[FCovCode] > 0.99 && code[FCovString] == 0},
		{"an error message is a string", str[FCovCode] == 0 && str[FCovString] > 0.99 && str[FCovAll] > 0.99},
		{"JSDoc is neither", doc[FCovCode] == 0 && doc[FCovString] == 0 && doc[FCovAll] > 0.99},
		{"a term in code and in a string counts as code", half[FCovCode] > 0 && half[FCovString] > 0 && half[FCovCode]+half[FCovString] > 0.99},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: code %v / string %v / doc %v / half %v", tt.name, code, str, doc, half)
		}
	}
}

// With answerCoverage, results below the threshold join while the files
// shown are together unlikely to hold the answer, never below the floor,
// one file counted once; without it the threshold alone decides.
func TestSelectCoverage(t *testing.T) {
	res := func(file string, p float64) Result {
		return Result{Chunk: chunk.Chunk{ID: fmt.Sprint(file, p), RelativePath: file, StartLine: 1, EndLine: 1, FullSource: "x"}, Score: p}
	}
	comment := func(r Result) Result {
		r.Chunk.NodeKind = "comment"
		return r
	}
	tests := []struct {
		name   string
		ranked []Result
		prm    Params
		want   int
	}{
		{"threshold alone", []Result{res("a", 0.4), res("b", 0.3)}, Params{Threshold: 0.5}, 0},
		{"unsure: the likeliest until 0.8 is covered", []Result{res("a", 0.4), res("b", 0.4), res("c", 0.4), res("d", 0.4)}, Params{Threshold: 0.5, Coverage: 0.8}, 4},
		{"covered after three", []Result{res("a", 0.5), res("b", 0.4), res("c", 0.4), res("d", 0.4)}, Params{Threshold: 0.5, Coverage: 0.8}, 3},
		{"a confident result covers the answer", []Result{res("a", 0.9), res("b", 0.3)}, Params{Threshold: 0.5, Coverage: 0.8}, 1},
		{"confident results all stay", []Result{res("a", 0.95), res("b", 0.9), res("c", 0.3)}, Params{Threshold: 0.5, Coverage: 0.8}, 2},
		{"never below the floor", []Result{res("a", 0.3), res("b", 0.01)}, Params{Threshold: 0.5, Coverage: 0.9}, 1},
		{"no plausible match: nothing", []Result{res("a", 0.01)}, Params{Threshold: 0.5, Coverage: 0.9}, 0},
		{"a candidate read light is never shown", []Result{res("a", 0.3), {Chunk: chunk.Chunk{ID: "b", RelativePath: "b"}, Score: 0.3}}, Params{Threshold: 0.5, Coverage: 0.9}, 1},
		{"a second chunk of a shown file adds no coverage", []Result{res("a", 0.4), res("a", 0.39), res("b", 0.3)}, Params{Threshold: 0.5, Coverage: 0.5, Floor: 0.1}, 2},
		{"a comment never joins for coverage", []Result{comment(res("a", 0.4)), res("b", 0.3)}, Params{Threshold: 0.5, Coverage: 0.9}, 1},
		{"a confident comment stays", []Result{comment(res("a", 0.6)), res("b", 0.3)}, Params{Threshold: 0.5, Coverage: 0.9}, 2},
	}
	for _, tt := range tests {
		if got := Select(tt.ranked, tt.prm); len(got) != tt.want {
			t.Errorf("%s: %d results, want %d", tt.name, len(got), tt.want)
		}
	}
}

// A chunk of a generated file (its header says a tool wrote it) is
// auxiliary code like an example's, unless the query asks for generated
// code.
func TestGeneratedChunksAreAux(t *testing.T) {
	st := chunkindex.TermStats{Chunks: 100, DocFreq: map[string]int{"element": 10, "nest": 5, "invalid": 20, "generat": 3}}
	cands := []Result{
		{Chunk: chunk.Chunk{ID: "a", RelativePath: "compiler/errors.js", Name: "element_invalid_nesting", NodeKind: "function", StartLine: 1, EndLine: 3,
			Modifiers: []string{"exported", chunk.GeneratedModifier}, FullSource: "export function element_invalid_nesting(node) {}"}, FirstStage: 1},
		{Chunk: chunk.Chunk{ID: "b", RelativePath: "compiler/validate.js", Name: "validate_nesting", NodeKind: "function", StartLine: 1, EndLine: 9,
			Modifiers: []string{"exported"}, FullSource: "export function validate_nesting(element) {}"}, FirstStage: 0.5},
	}
	for _, tt := range []struct {
		query   string
		wantAux float64
	}{{"invalid element nesting", 1}, {"generated invalid element nesting", 0}} {
		qi := newQueryInfo(tt.query, st)
		fs := featurize(&qi, cands, map[string]int{}, 100)
		if fs[0][FAux] != tt.wantAux || fs[1][FAux] != 0 {
			t.Errorf("%q: aux of the generated chunk %v (want %v), of the written one %v (want 0)", tt.query, fs[0][FAux], tt.wantAux, fs[1][FAux])
		}
	}
}

// The spread never separates the definitions of a name asked for: a
// class and the type of the same name in one file keep their places
// before another file's chunk, though the first places go to different
// files otherwise.
func TestSpreadKeepsDefinitionsTogether(t *testing.T) {
	// router.ts defines RouterCore twice (2.0, 1.8); load.ts has a chunk of
	// 1.9 that only uses it.
	files := []string{"router.ts", "router.ts", "load.ts"}
	feats := make([]Features, len(files))
	for i, s := range []float64{2.0, 1.8, 1.9} {
		feats[i][FBM25] = s
	}
	feats[0][FWholeName], feats[1][FWholeName] = 1, 1
	m := unitModel(map[int]float64{FBM25: 1}, 0.25)
	m.SpreadFirst = 3
	keyOf := func(i int) (string, string) { return files[i], "" }
	for _, question := range []bool{false, true} {
		var got []int
		for _, o := range m.Order(feats, keyOf, question) {
			got = append(got, o.Index)
		}
		if want := []int{0, 1, 2}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("question %v: order %v, want %v", question, got, want)
		}
	}
}

func TestCalledNames(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"plain and method calls", "function save(e) { return this.manager.save(e).then(done) }", []string{"save", "then"}},
		{"new and private methods", "const x = new EntityPersistExecutor(a); this.#dispatch(req)", []string{"EntityPersistExecutor", "#dispatch"}},
		{"type arguments", "const s = createSelector<State, Out>(a, b)", []string{"createSelector"}},
		{"a comparison is not type arguments", "if (a < b) { run(a) } else if (c > d) stop()", []string{"run", "stop"}},
		{"keywords and short names left out", "for (;;) { if (x) return fn(x); while (ok) go(); switch (k) {} }", nil},
		{"space before the parenthesis", "compose (middleware)", []string{"compose"}},
		{"each name once", "emit(a); emit(b); emit(c)", []string{"emit"}},
		{"no call", "const a = b.c + d", nil},
		{"unicode identifiers", "größe(x); ñandú()", []string{"größe", "ñandú"}},
		{"unterminated type arguments", "const a = f<", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := calledNames(tt.src); !slices.Equal(got, tt.want) {
				t.Errorf("calledNames(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

// cand is a candidate of the second-stage marks: its file, name, text and
// modifiers are all they read.
func cand(file, name, text string, modifiers ...string) Result {
	return Result{Chunk: chunk.Chunk{Name: name, EmbeddingText: text, RelativePath: file, Modifiers: modifiers}}
}

func TestMarkCalleesMarksWhatTheStrongestCandidatesCall(t *testing.T) {
	cands := []Result{
		cand("Repository.ts", "Repository.save", "save(e) { return this.manager.save(e) }"),
		cand("EntityManager.ts", "EntityManager.save", "save(e) { return new EntityPersistExecutor(e).execute() }"),
		cand("BaseEntity.ts", "BaseEntity.save", "save() { return this.execute(this) }"),
		cand("EntityPersistExecutor.ts", "EntityPersistExecutor", "class EntityPersistExecutor { execute() {} }"),
		cand("EntityPersistExecutor.ts", "execute", "execute() { return run() }"),
		cand("EntityPersistExecutor.ts", "helper", "helper() {}"),
		cand("unrelated.ts", "unrelated", "unrelated() {}"),
		// Called by a chunk ranked below the three strongest: not marked.
		cand("run.ts", "run", "run() {}"),
	}
	feats := make([]Features, len(cands))
	for i := range feats {
		feats[i][FBM25] = 1 - float64(i)/10
	}
	m := unitModel(map[int]float64{FBM25: 1}, 0)
	markCallees(m, cands, feats)
	want := []struct{ callee, file float64 }{{0, 0}, {0, 0}, {0, 0}, {0.5, 1}, {1, 1}, {0, 1}, {0, 0}, {0, 0}}
	for i, w := range want {
		if got := feats[i][FCallee]; got != w.callee {
			t.Errorf("%s: callee %v, want %v", cands[i].Chunk.Name, got, w.callee)
		}
		if got := feats[i][FFileCallee]; got != w.file {
			t.Errorf("%s: file callee %v, want %v", cands[i].Chunk.Name, got, w.file)
		}
	}
	// The strongest candidates themselves stay unmarked even when they
	// call one another ("save" calls save): the mark is for what they
	// lead to.
	if feats[0][FCallee] != 0 || feats[1][FCallee] != 0 {
		t.Error("a source candidate was marked")
	}
}

func TestMarkCalleesLeavesFewCandidatesAlone(t *testing.T) {
	cands := []Result{{Chunk: chunk.Chunk{Name: "a", EmbeddingText: "a() { b() }"}}}
	feats := make([]Features, 1)
	markCallees(DefaultModel, cands, feats)
	if feats[0][FCallee] != 0 || feats[0][FFileCallee] != 0 {
		t.Errorf("a lone candidate was marked: %v", feats[0])
	}
	markCallees(nil, cands, feats) // no model: nothing to rank by, no panic
}

// FuzzCalledNames: whatever the text (minified, binary, half a generic),
// calledNames returns distinct names of at least three bytes, none of them
// a keyword, each standing in the text.
func FuzzCalledNames(f *testing.F) {
	for _, s := range []string{"save(e)", "new X<A<B>>(1)", "a < b > (c)", "this.#run()", "\xff\xfe(", "f<", "größe ()"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		seen := map[string]bool{}
		for _, n := range calledNames(src) {
			if seen[n] || notCalls[n] || len(strings.TrimPrefix(n, "#")) < 3 || !strings.Contains(src, n) {
				t.Fatalf("calledNames(%q) returned %q", src, n)
			}
			seen[n] = true
		}
	})
}

func TestMarkHubsMarksStrongCandidatesThatCallOtherStrongOnes(t *testing.T) {
	cands := []Result{
		cand("request.ts", "cloneRawRequest", "cloneRawRequest(req) { return new Request(req.url) }"),
		cand("hono-base.ts", "Hono.fetch", "fetch(request) { return this.#dispatch(request) }"),
		// Calls two strong candidates, one a private method by its '#'.
		cand("hono-base.ts", "Hono.#dispatch", "#dispatch(request) { const m = this.router.match(request); return compose(m) }"),
		cand("router.ts", "match", "match(path) { return this.routes.find(path) }"),
		cand("compose.ts", "compose", "compose(handlers) { return (c) => handlers[0](c) }"),
		// Calls itself and nothing strong: no hub.
		cand("loop.ts", "loop", "loop() { return loop() }"),
	}
	// Beyond the strongest hubSources: neither marked nor counted.
	for i := 0; i < hubSources; i++ {
		cands = append(cands, cand("far.ts", fmt.Sprintf("far%d", i), "far() { return match(compose()) }"))
	}
	feats := make([]Features, len(cands))
	for i := range feats {
		feats[i][FBM25] = 1 - float64(i)/100
	}
	markHubs(unitModel(map[int]float64{FBM25: 1}, 0), cands, feats)
	want := map[string]float64{"cloneRawRequest": 0, "Hono.fetch": 0.5, "Hono.#dispatch": 1, "match": 0, "compose": 0, "loop": 0}
	for i, c := range cands {
		w, ok := want[c.Chunk.Name]
		if !ok {
			w = 0
			if i < hubSources {
				w = 1 // a strong far chunk calls match and compose
			}
		}
		if got := feats[i][FHub]; got != w {
			t.Errorf("%s: hub %v, want %v", c.Chunk.Name, got, w)
		}
	}
	few := []Result{cand("a.ts", "a", "a() { b() }")}
	markHubs(DefaultModel, few, make([]Features, 1)) // one candidate: nothing to call
	markHubs(nil, cands, feats)                      // no model: no panic
}

// An interface's method signature is not what a call runs: the callee mark
// goes to the implementations of the name, not to the declaration.
func TestMarkCalleesSkipsSignatures(t *testing.T) {
	cands := []Result{
		cand("cacheCollection.ts", "handleUnsubscribe", "handleUnsubscribe() { api.unsubscribe() }"),
		cand("a.ts", "pad", "pad() {}"),
		cand("b.ts", "pad", "pad() {}"),
		cand("types.ts", "unsubscribe", "unsubscribe(): void", parse.SignatureModifier),
		cand("buildInitiate.ts", "unsubscribe", "unsubscribe() { dispatch(remove()) }"),
	}
	feats := make([]Features, len(cands))
	for i := range feats {
		feats[i][FBM25] = 1 - float64(i)/10
	}
	markCallees(unitModel(map[int]float64{FBM25: 1}, 0), cands, feats)
	if feats[3][FCallee] != 0 || feats[3][FFileCallee] != 0 {
		t.Errorf("the signature in types.ts was marked: callee %v, file %v", feats[3][FCallee], feats[3][FFileCallee])
	}
	if feats[4][FCallee] == 0 {
		t.Error("the implementation in buildInitiate.ts was not marked")
	}
}
