package fit

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/bench"
	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/testkit"
)

// A symbol hit is discounted by the ratio of the gold's lines to the
// result's, raised to the configured power.
func TestSizePowerDiscountsLargeHits(t *testing.T) {
	// The gold symbol has 3 lines, the only result 12: ratio 1/4.
	fi := &fitInstance{
		in: bench.Instance{Repo: "o/r", Split: "tune", GoldFiles: []string{"a.ts"},
			GoldSymbols: []bench.GoldSymbol{{File: "a.ts", StartLine: 5, EndLine: 7}}},
		feats:   []search.Features{{}},
		results: []search.Result{{Chunk: chunk.Chunk{ID: "0", RelativePath: "a.ts", StartLine: 1, EndLine: 12}}},
		mirror:  []string{""},
		symRel:  []bool{true},
		fileRel: []bool{true},
	}
	tests := []struct {
		name  string
		power float64
		want  float64 // objective: (symbol gain + file gain) / 2 at rank 1
	}{
		{"default: square root", 0, (0.5 + 1) / 2},
		{"explicit square root", 0.5, (0.5 + 1) / 2},
		{"linear", 1, (0.25 + 1) / 2},
		{"none", -1, 1},
	}
	for _, tc := range tests {
		got := objective([]*fitInstance{fi}, search.DefaultModel, Options{SizePower: tc.power})
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: objective %.4f, want %.4f", tc.name, got, tc.want)
		}
	}
}

// synthetic builds tune instances of several repositories and JSDoc
// packages whose relevant candidate is the one with the largest first
// feature, blurred by noise, so that trees have something to learn.
func synthetic(repos []string, perRepo, cands int) []*fitInstance {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []*fitInstance
	for _, repo := range repos {
		for q := range perRepo {
			fi := &fitInstance{in: bench.Instance{ID: repo + strconv.Itoa(q), Repo: repo, Split: "tune", GoldFiles: []string{"gold.ts"},
				GoldSymbols: []bench.GoldSymbol{{File: "gold.ts", StartLine: 1, EndLine: 5}}}}
			best := rng.IntN(cands)
			for c := range cands {
				var f search.Features
				for k := range f {
					f[k] = rng.Float64() * 0.5
				}
				file := "other" + strconv.Itoa(c) + ".ts"
				if c == best {
					f[search.FCovAll] += 0.4
					file = "gold.ts"
				}
				fi.feats = append(fi.feats, f)
				fi.results = append(fi.results, search.Result{Chunk: chunk.Chunk{ID: strconv.Itoa(c), RelativePath: file, StartLine: 1, EndLine: 5}})
				fi.mirror = append(fi.mirror, "")
				fi.symRel = append(fi.symRel, c == best)
				fi.fileRel = append(fi.fileRel, c == best)
			}
			out = append(out, fi)
		}
	}
	return out
}

func TestFoldsDealBothKinds(t *testing.T) {
	set := synthetic([]string{"o/d", "o/a", "o/c", "o/b", "jsdoc/y", "jsdoc/x"}, 1, 2)
	got := foldsOf(set, 2)
	want := map[string]int{"o/a": 0, "o/b": 1, "o/c": 0, "o/d": 1, "jsdoc/x": 0, "jsdoc/y": 1}
	for repo, k := range want {
		if got[repo] != k {
			t.Errorf("%s in fold %d, want %d", repo, got[repo], k)
		}
	}
}

// Cross-validation scores every tune instance once, by a model that did
// not see its repository; bagged trees are the mean of the folds' own
// ensembles.
func TestCrossValidationAndBagging(t *testing.T) {
	repos := []string{"o/a", "o/b", "o/c", "o/d", "jsdoc/x", "jsdoc/y"}
	set := synthetic(repos, 12, 10)
	opt := Options{KeepLinear: true, Trees: 30, Depth: 2, MinLeaf: 5, Folds: 2}
	r, err := Fit(set, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.CrossValidated.N != 48 || r.CrossValidatedJSDoc.N != 24 {
		t.Fatalf("cross-validated %d fix commits and %d questions, want 48 and 24", r.CrossValidated.N, r.CrossValidatedJSDoc.N)
	}
	// The synthetic signal is learnable from other repositories: the
	// cross-validated figure beats chance (1 in 10 at rank 1) by far.
	if r.CrossValidated.S1 < 0.3 {
		t.Errorf("cross-validated S@1 %.3f: the folds' models learned nothing", r.CrossValidated.S1)
	}

	// The bag's sum is the mean of the sums of the ensembles boosted
	// without each fold and stopped on it.
	opt.Bag = true
	bagged, _ := boostTrees(set, search.DefaultModel, opt)
	fold := foldsOf(set, 2)
	var folds [2][]float64
	for k := range 2 {
		valPart, fitPart := foldParts(set, fold, k)
		ts, _, _ := boostStopping(fitPart, valPart, search.DefaultModel, opt)
		if len(ts) == 0 {
			t.Fatalf("fold %d grew no tree", k)
		}
		for _, fi := range set[:5] {
			var s float64
			for _, tr := range ts {
				s += tr.Eval(fi.feats[0][:])
			}
			folds[k] = append(folds[k], s)
		}
	}
	for i, fi := range set[:5] {
		var s float64
		for _, tr := range bagged {
			s += tr.Eval(fi.feats[0][:])
		}
		if want := (folds[0][i] + folds[1][i]) / 2; math.Abs(s-want) > 1e-9 {
			t.Errorf("instance %d: bagged trees sum to %.6f, the folds' mean is %.6f", i, s, want)
		}
	}
}

// FitLinear fits the named features' weights and keeps every other one
// (and the file penalty) as the starting model has them.
func TestFitLinearMovesOnlyTheNamedWeights(t *testing.T) {
	set := synthetic([]string{"o/a", "o/b", "jsdoc/x"}, 10, 8)
	start := *search.DefaultModel
	start.Weights = make([]float64, search.NumFeatures)
	start.Weights[search.FBM25] = 0.3
	start.FilePenalty = 0.2
	start.Trees = nil
	m, _ := fitModel(set, &start, Options{KeepLinear: true, FitLinear: []int{search.FCovAll}, Passes: 2})
	for i, w := range m.Weights {
		if i != search.FCovAll && w != start.Weights[i] {
			t.Errorf("weight of %s moved from %v to %v", search.FeatureNames[i], start.Weights[i], w)
		}
	}
	if m.FilePenalty != start.FilePenalty {
		t.Errorf("file penalty moved from %v to %v", start.FilePenalty, m.FilePenalty)
	}
	// The synthetic signal is in FCovAll: its weight must grow.
	if m.Weights[search.FCovAll] <= 0 {
		t.Errorf("weight of cov_all %v: the free feature was not fitted", m.Weights[search.FCovAll])
	}
}

func TestFeatureIndexes(t *testing.T) {
	got, err := FeatureIndexes([]string{"term_freq", "bm25"})
	if err != nil || len(got) != 2 || got[0] != search.FTermFreq || got[1] != search.FBM25 {
		t.Errorf("FeatureIndexes = %v, %v", got, err)
	}
	if _, err := FeatureIndexes([]string{"no_such_feature"}); err == nil {
		t.Error("an unknown feature name was accepted")
	}
}

// A feature left out of every ablation group would never be switched off,
// and the table would not account for it; one in two groups would be
// counted twice.
func TestAblationGroupsCoverEveryFeature(t *testing.T) {
	groups := make([]int, search.NumFeatures+1) // the last: the file diversity penalty
	for _, g := range AblationGroups {
		for _, f := range g.Features {
			groups[f]++
		}
	}
	for f, n := range groups {
		name := "the file diversity penalty"
		if f < search.NumFeatures {
			name = search.FeatureNames[f]
		}
		if n != 1 {
			t.Errorf("%s is in %d ablation groups, want 1", name, n)
		}
	}
}

// The repository's sources (testkit.TokenTS, testkit.CartTS).
const tokenTS, cartTS = testkit.TokenTS, testkit.CartTS

// The localize benchmark's dump feeds the fitter; the fitted model
// round-trips through model.json.
func TestFitOnALocalizeDump(t *testing.T) {
	states := []map[string]string{
		{"src/token.ts": tokenTS, "src/cart.ts": cartTS},
		{"src/token.ts": tokenTS, "src/cart.ts": cartTS + "\nexport const EMPTY: string[] = [];\n"},
	}
	mirrors, commits := testkit.GitMirror(t, "acme+widgets", states)
	instances := []bench.Instance{
		{ID: "acme__widgets-1", Repo: "acme/widgets", Split: "tune", BaseCommit: commits[0], Date: "2024-01-01",
			Query: "validateToken accepts expired tokens", GoldFiles: []string{"src/token.ts"},
			GoldSymbols: []bench.GoldSymbol{{File: "src/token.ts", Name: "validateToken", StartLine: 5, EndLine: 8}}, MentionsGoldSymbol: true},
		{ID: "acme__widgets-2", Repo: "acme/widgets", Split: "holdout", BaseCommit: commits[1], Date: "2024-02-01",
			Query: "removing an item from the cart keeps duplicates", GoldFiles: []string{"src/cart.ts"},
			GoldSymbols: []bench.GoldSymbol{{File: "src/cart.ts", Name: "removeItem", StartLine: 5, EndLine: 7}}},
	}
	var dump bytes.Buffer
	if _, err := bench.RunLocalize(context.Background(), bench.RunOptions{Instances: instances, Mirrors: mirrors, Work: t.TempDir(), Dump: &dump}); err != nil {
		t.Fatal(err)
	}
	dumpPath := filepath.Join(t.TempDir(), "dump.jsonl")
	if err := os.WriteFile(dumpPath, dump.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := LoadDump(dumpPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(set) != 2 || len(set[0].feats) == 0 {
		t.Fatalf("dump: %d instances", len(set))
	}
	fr, err := Fit(set, Options{Passes: 2, Ablate: true})
	if err != nil {
		t.Fatal(err)
	}
	if fr.Tune.S1 < fr.StartTune.S1 {
		t.Errorf("fit lowered tune S@1: %.2f → %.2f", fr.StartTune.S1, fr.Tune.S1)
	}
	if len(fr.Ablations) != len(AblationGroups)+1 || fr.Ablations[0].Off != "nothing (the same refit)" {
		t.Errorf("%d ablations", len(fr.Ablations))
	}
	// A kept-linear ablation zeroes the group's weights (or the penalty),
	// keeps the others and grows no tree on the group's features.
	base := *search.DefaultModel
	abl, _ := ablateTrees(set, &base, []int{search.FCovPath, search.NumFeatures}, Options{Trees: 5, Depth: 2, MinLeaf: 1})
	if abl.Weights[search.FCovPath] != 0 || abl.FilePenalty != 0 || base.Weights[search.FCovPath] == 0 || abl.Weights[search.FCovName] != base.Weights[search.FCovName] {
		t.Errorf("ablation weights: cov_path %v, penalty %v, cov_name %v (shipped %v, %v)", abl.Weights[search.FCovPath], abl.FilePenalty, abl.Weights[search.FCovName], base.Weights[search.FCovPath], base.Weights[search.FCovName])
	}
	for _, tr := range abl.Trees {
		if slices.Contains(tr.Feature, search.FCovPath) {
			t.Errorf("an ablation tree splits on the ablated feature: %+v", tr)
		}
	}
	modelPath := filepath.Join(t.TempDir(), "model.json")
	if err := fr.WriteModel(modelPath, "test"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := search.ParseModel(b); err != nil {
		t.Fatalf("written model does not parse: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || !strings.Contains(m["provenance"].(string), "holdout") {
		t.Fatalf("provenance: %v %v", err, m["provenance"])
	}
}

// A fit refuses JSDoc questions alone: its calibration needs fix commits.
func TestFitRefusesJSDocAlone(t *testing.T) {
	set := synthetic([]string{"jsdoc/x", "jsdoc/y"}, 10, 8)
	if _, err := Fit(set, Options{Passes: 1}); err == nil || !strings.Contains(err.Error(), "fix commits") {
		t.Errorf("fit on JSDoc questions alone: %v, want a refusal naming fix commits", err)
	}
}

// The objective weighs fix commits and JSDoc questions as two halves,
// whatever their numbers, so many easy questions of one kind cannot drown
// the other.
func TestObjectiveBalancesKinds(t *testing.T) {
	inst := func(repo string, hit bool) *fitInstance {
		in := bench.Instance{ID: repo, Repo: repo, Split: "tune", GoldFiles: []string{"a.ts"},
			GoldSymbols: []bench.GoldSymbol{{File: "a.ts", Name: "f", StartLine: 1, EndLine: 3}}}
		file := "b.ts"
		if hit {
			file = "a.ts"
		}
		return &fitInstance{
			in:      in,
			feats:   []search.Features{{}},
			results: []search.Result{{Chunk: chunk.Chunk{ID: "0", RelativePath: file, Name: "f", StartLine: 1, EndLine: 3}}},
			mirror:  []string{""},
			symRel:  []bool{hit},
			fileRel: []bool{hit},
		}
	}
	tests := []struct {
		name string
		set  []*fitInstance
		want float64
	}{
		{"fix commits only", []*fitInstance{inst("o/r", true), inst("o/r", false)}, 0.5},
		{"one hit commit, three missed questions", []*fitInstance{inst("o/r", true), inst("jsdoc/p", false), inst("jsdoc/p", false), inst("jsdoc/p", false)}, 0.5},
		{"three hit questions, one missed commit", []*fitInstance{inst("o/r", false), inst("jsdoc/p", true), inst("jsdoc/p", true), inst("jsdoc/p", true)}, 0.5},
		{"all hit", []*fitInstance{inst("o/r", true), inst("jsdoc/p", true)}, 1},
	}
	for _, tc := range tests {
		if got := Objective(tc.set, search.DefaultModel); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: objective %.3f, want %.3f", tc.name, got, tc.want)
		}
	}
}

// Agent questions from `scry bench queries --dump` are a kind of their
// own: labelled by file, scored by NDCG@10, and reported left out one
// repository at a time.
func TestFitOnAQuestionsDump(t *testing.T) {
	mirrors, commits := testkit.GitMirror(t, "acme+widgets", []map[string]string{{"src/token.ts": tokenTS, "src/cart.ts": cartTS}})
	dir := t.TempDir()
	write := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("repos.json", []bench.QuestionRepo{{Name: "widgets", Repo: "acme/widgets", Revision: commits[0], BenchmarkRoot: "src"}})
	write("widgets.json", []map[string]any{
		{"query": "TokenService", "relevant": []string{"src/token.ts"}, "category": "symbol"},
		{"query": "removing items from a cart", "relevant": []string{"src/cart.ts"}, "category": "semantic"},
		// A name in no chunk (its words cart and item are): leads only.
		{"query": "clearCartItems", "relevant": []string{"src/cart.ts"}, "category": "symbol"},
	})
	repos, ins, err := bench.LoadQuestions(dir)
	if err != nil {
		t.Fatal(err)
	}
	var qdump, ldump bytes.Buffer
	if _, err := bench.RunQuestions(context.Background(), bench.QuestionOptions{Repos: repos, RunOptions: bench.RunOptions{Instances: ins, Mirrors: mirrors, Work: t.TempDir(), Dump: &qdump}}); err != nil {
		t.Fatal(err)
	}
	otherMirrors, otherCommits := testkit.GitMirror(t, "acme+other", []map[string]string{{"src/token.ts": tokenTS, "src/cart.ts": cartTS}})
	loc := []bench.Instance{{ID: "acme__other-1", Repo: "acme/other", Split: "tune", BaseCommit: otherCommits[0], Date: "2024-01-01",
		Query: "validateToken accepts expired tokens", GoldFiles: []string{"src/token.ts"},
		GoldSymbols: []bench.GoldSymbol{{File: "src/token.ts", Name: "validateToken", StartLine: 5, EndLine: 8}}}}
	if _, err := bench.RunLocalize(context.Background(), bench.RunOptions{Instances: loc, Mirrors: otherMirrors, Work: t.TempDir(), Dump: &ldump}); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for name, b := range map[string][]byte{"q.jsonl": qdump.Bytes(), "l.jsonl": ldump.Bytes()} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	set, err := LoadDumps(paths)
	if err != nil {
		t.Fatal(err)
	}
	n := kindCounts(set)
	if n[kindQuestion] != 3 || n[kindFix] != 1 {
		t.Fatalf("kinds %v", n)
	}
	for _, fi := range set {
		if fi.kind() != kindQuestion {
			continue
		}
		if fi.in.Query == "clearCartItems" {
			// The dump says the name is unknown, and the simulated answer
			// holds leads only, as the pipeline's does.
			a := fi.answer(search.DefaultModel, search.DefaultParams())
			if fi.unknown != "clearCartItems" || a.Results != 0 || a.Leads == 0 {
				t.Errorf("unknown name: unknown %q, %d results, %d leads", fi.unknown, a.Results, a.Leads)
			}
			continue
		}
		if fi.unknown != "" {
			t.Errorf("%s: unknown %q", fi.in.ID, fi.unknown)
		}
		if got := fi.ndcg(search.DefaultModel); got != 1 {
			t.Errorf("%s: NDCG@10 %.3f, want 1", fi.in.ID, got)
		}
		for i, r := range fi.results {
			if fi.fileRel[i] != (r.Chunk.RelativePath == fi.in.GoldFiles[0]) || fi.symRel[i] != fi.fileRel[i] {
				t.Errorf("%s: candidate in %s labelled file %v symbol %v", fi.in.ID, r.Chunk.RelativePath, fi.fileRel[i], fi.symRel[i])
			}
		}
	}
	r, err := Fit(set, Options{KeepLinear: true, Trees: 5, Depth: 2, MinLeaf: 1, LeaveOneOut: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.QuestionsStart == nil || r.QuestionsLOO == nil || r.QuestionsLOO.Answer.N != 3 {
		t.Fatalf("question figures: start %v, left out %v", r.QuestionsStart, r.QuestionsLOO)
	}
	if !strings.Contains(r.Model.Relevance, "answers the question") {
		t.Errorf("relevance %q", r.Model.Relevance)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil || !strings.Contains(text.String(), "leave one repository out") {
		t.Errorf("report: %v\n%s", err, text.String())
	}
}

// The objective weighs each kind by its share, whatever their numbers: an
// agent question gains its NDCG@10.
func TestObjectiveWeighsQuestions(t *testing.T) {
	q := func(hit bool) *fitInstance {
		file := "b.ts"
		if hit {
			file = "a.ts"
		}
		return &fitInstance{in: bench.Instance{ID: "q", Repo: "o/r", Split: bench.QuestionSplit, GoldFiles: []string{"a.ts"}},
			feats: []search.Features{{}}, mirror: []string{""}, symRel: []bool{hit}, fileRel: []bool{hit},
			results: []search.Result{{Chunk: chunk.Chunk{ID: "0", RelativePath: file}}}}
	}
	set := []*fitInstance{q(true), q(false), q(false), q(false)}
	if got := Objective(set, search.DefaultModel); math.Abs(got-0.25) > 1e-9 {
		t.Errorf("questions alone: objective %.3f, want 0.25", got)
	}
	w := kindShares([numKinds]int{1, 1, 1}, Options{})
	if math.Abs(w[kindQuestion]-DefaultQuestionShare) > 1e-9 || math.Abs(w[kindFix]+w[kindJSDoc]+w[kindQuestion]-1) > 1e-9 {
		t.Errorf("shares %v", w)
	}
	if w := kindShares([numKinds]int{1, 0, 1}, Options{}); math.Abs(w[kindFix]+w[kindQuestion]-1) > 1e-9 || w[kindJSDoc] != 0 {
		t.Errorf("shares without JSDoc questions %v", w)
	}
}

// The ablations are fitted without the agent questions, so that their
// NDCG@10 in the table is held out: relabelling the questions changes no
// ablation's fitted figures, only its question figures, and every row
// (the first with nothing off) reports them.
func TestAblationsHoldTheQuestionsOut(t *testing.T) {
	build := func(relabel bool) []*fitInstance {
		set := synthetic([]string{"o/a", "o/b", "o/c", "jsdoc/x", "jsdoc/y"}, 10, 8)
		qs := synthetic([]string{"o/q", "o/r"}, 10, 8)
		for _, fi := range qs {
			fi.in.Split = bench.QuestionSplit
			fi.in.Category = "semantic"
			if relabel {
				// The gold becomes the candidate the signal does not mark.
				for i := range fi.fileRel {
					fi.fileRel[i], fi.symRel[i] = !fi.fileRel[i], !fi.symRel[i]
				}
				for i := range fi.results {
					if fi.fileRel[i] {
						fi.in.GoldFiles = []string{fi.results[i].Chunk.RelativePath}
						break
					}
				}
			}
		}
		return append(set, qs...)
	}
	opt := Options{KeepLinear: true, KeepRanking: true, Trees: 10, Depth: 2, MinLeaf: 5, Ablate: true}
	a, err := Fit(build(false), opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(build(true), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Ablations) != len(AblationGroups)+1 {
		t.Fatalf("%d ablation rows", len(a.Ablations))
	}
	for i := range a.Ablations {
		x, y := a.Ablations[i], b.Ablations[i]
		if x.Tune != y.Tune || x.HeldBack != y.HeldBack && !(math.IsNaN(x.HeldBack) && math.IsNaN(y.HeldBack)) {
			t.Errorf("%s: the questions' labels moved the fit (tune %+v vs %+v)", x.Off, x.Tune, y.Tune)
		}
		if _, ok := x.Questions["overall"]; !ok || x.Questions["semantic"] == y.Questions["semantic"] {
			t.Errorf("%s: question figures %v and %v", x.Off, x.Questions, y.Questions)
		}
	}
}

// The fitter ranks a question as the pipeline does, spread over files: a
// dumped question's second file ranks second even when the first file's
// second chunk scores higher.
func TestFitRanksQuestionsSpread(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "q.jsonl")
	var b bytes.Buffer
	for _, q := range []string{"how is a session refreshed", "refresh a session"} {
		d := bench.DumpInstance{Instance: bench.Instance{ID: q, Repo: "o/r", Split: bench.QuestionSplit, Query: q, GoldFiles: []string{"b.ts"}}}
		for i, c := range []struct {
			file string
			bm25 float64
		}{{"a.ts", 1}, {"a.ts", 0.95}, {"b.ts", 0.5}} {
			f := make([]float64, search.NumFeatures)
			f[search.FBM25] = c.bm25
			d.Candidates = append(d.Candidates, bench.DumpCandidate{File: c.file, StartLine: 10 * i, EndLine: 10*i + 5, Features: f})
		}
		line, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := LoadDump(p)
	if err != nil {
		t.Fatal(err)
	}
	m := &search.Model{Features: search.FeatureNames[:], Weights: make([]float64, search.NumFeatures), FilePenalty: 0.25,
		Calibration: make([]float64, search.NumCalibrationInputs+1)}
	m.Weights[search.FBM25] = 1
	want := map[string]float64{"how is a session refreshed": 1 / math.Log2(3), "refresh a session": 0.5}
	for _, fi := range set {
		if got := fi.ndcg(m); math.Abs(got-want[fi.in.Query]) > 1e-9 {
			t.Errorf("%q: NDCG@10 %.3f, want %.3f", fi.in.Query, got, want[fi.in.Query])
		}
	}
}

// Dumps written before a feature was added still load: the features they
// lack were 0 for every candidate (the callee marks) or depend on the query
// alone (the query descriptors), and a length scry never wrote is refused.
func TestLoadDumpRefusesOtherFeatureSets(t *testing.T) {
	var full search.Features
	for i := range full {
		full[i] = float64(i+1) / 100
	}
	query := "how does save persist an entity graph"
	set, err := LoadDump(writeOneCandidateDump(t, query, full[:]))
	if err != nil {
		t.Fatal(err)
	}
	if got := set[0].feats[0]; got != full {
		t.Errorf("features\n got %v\nwant %v", got, full)
	}
	// Earlier layouts (before the code and prose coverage: 43, 41 and 37
	// features), and lengths scry never wrote, are refused, not padded.
	for _, n := range []int{search.NumFeatures - 2, search.NumFeatures - 4, search.FCallee, search.NumFeatures - 1, search.NumFeatures + 1} {
		_, err := LoadDump(writeOneCandidateDump(t, query, slices.Concat(full[:], full[:])[:n]))
		if err == nil || !strings.Contains(err.Error(), "dump again") {
			t.Errorf("a dump of %d features: error %v, want one that says to dump again", n, err)
		}
	}
}

func writeOneCandidateDump(t *testing.T, query string, feats []float64) string {
	t.Helper()
	d := bench.DumpInstance{
		Instance:   bench.Instance{ID: "acme__widgets-1", Repo: "acme/widgets", Split: "tune", Query: query, GoldFiles: []string{"a.ts"}},
		Candidates: []bench.DumpCandidate{{File: "a.ts", StartLine: 1, EndLine: 3, Name: "save", Features: feats}},
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dump.jsonl")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
