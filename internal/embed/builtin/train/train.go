// Package train fits the built-in embedding model (package builtin) on
// (summary → code) pairs, in plain Go so that `make model` and the tests
// need nothing but the Go toolchain.
//
// The loss is InfoNCE with in-batch negatives, both directions (each query
// against every code of its batch, each code against every query), at a
// fixed temperature. The parameters are the embedding table and the two
// sides' term weights; they are updated with Adagrad, sparse by row, so a
// batch costs in proportion to the terms it holds, not to the vocabulary.
// The table starts random, which makes the untrained model a random
// projection of TF-IDF weighted bag-of-words: training starts from a
// lexical matcher and learns which words mean the same thing.
//
// Everything is deterministic for a seed: one goroutine updates, the
// shuffles come from a seeded generator, and parallel work (extraction,
// evaluation) is collected in input order.
package train

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/scry-dev/scry/internal/embed/builtin"
)

// Config tunes training.
type Config struct {
	Dim      int     // vector size
	MinCount int     // a term joins the vocabulary when this many texts hold it
	MaxVocab int     // at most this many terms (the most frequent)
	Buckets  int     // trigram back-off rows
	Epochs   int     // passes over the training pairs
	Batch    int     // pairs per step (in-batch negatives: Batch-1 each)
	LR       float64 // Adagrad learning rate
	Scale    float64 // inverse temperature of the softmax
	Seed     uint64
	// Dropout drops each distinct term of a training text with this
	// probability, anew every time the text is seen: the model cannot
	// lean on one rare word, and many short epochs do not memorise.
	Dropout float64
	// EvalEvery reports validation figures after every this many epochs
	// (0: only at the end).
	EvalEvery int
	// MaxEval caps the validation pairs scored during training (0: all);
	// the final report always uses all of them.
	MaxEval int
	// SamePackage fills each batch from as few packages as it can (the
	// packages in a new random order every epoch, each one's pairs
	// shuffled), so that a pair's in-batch negatives are mostly code of the
	// same package: the model must tell apart the functions of one
	// codebase, which is what a search within a repository asks of it.
	SamePackage bool
}

// DefaultConfig is what `make model` trains. Validation on the held-out
// packages peaks after one or two epochs and then slowly declines (the
// table memorises the training pairs), hence two.
func DefaultConfig() Config {
	return Config{Dim: 256, MinCount: 3, MaxVocab: 50000, Buckets: 8192, Epochs: 2, Batch: 256,
		LR: 0.1, Scale: 20, Seed: 1, Dropout: 0.1, EvalEvery: 1, MaxEval: 4000}
}

// Example is a tokenised pair.
type Example struct {
	Query, Doc []builtin.Item
	Group      int // the package the pair comes from, numbered by Examples
}

// Report is what a training run measured.
type Report struct {
	Vocab      int
	TrainPairs int
	ValPairs   int
	Losses     []float64 // mean loss per epoch
	Initial    Metrics   // validation before the first step
	Final      Metrics   // validation after the last
	// FinalWithin is the final validation with each query ranking only
	// the codes of its own package (packages with at least
	// minWithinPairs validation pairs): the search inside one codebase
	// that scry does.
	FinalWithin Metrics
	Duration    time.Duration
}

// Metrics are retrieval figures: each query ranks every document of the
// set, and the one it came with is the answer.
type Metrics struct {
	N     int
	Hit1  float64
	Hit10 float64
	MRR   float64 // reciprocal rank, 0 past rank 10
}

func (m Metrics) String() string {
	return fmt.Sprintf("n=%d Hit@1 %.1f%% Hit@10 %.1f%% MRR@10 %.3f", m.N, 100*m.Hit1, 100*m.Hit10, m.MRR)
}

// BuildVocab returns the terms held by at least minCount texts, the most
// frequent first (ties by term), at most maxVocab, and each one's document
// frequency; n is the number of texts.
func BuildVocab(texts [][]string, minCount, maxVocab int) (vocab []string, df map[string]int) {
	df = map[string]int{}
	for _, ts := range texts {
		seen := map[string]bool{}
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	for t, n := range df {
		if n >= minCount {
			vocab = append(vocab, t)
		}
	}
	sort.Slice(vocab, func(i, j int) bool {
		if df[vocab[i]] != df[vocab[j]] {
			return df[vocab[i]] > df[vocab[j]]
		}
		return vocab[i] < vocab[j]
	})
	if maxVocab > 0 && len(vocab) > maxVocab {
		vocab = vocab[:maxVocab]
	}
	return vocab, df
}

// Trainer holds a model being fitted.
type Trainer struct {
	cfg Config
	W   *builtin.Weights
	Tok *builtin.Tokenizer
	// Adagrad accumulators: per table value, per weight.
	accE         []float32
	accQW, accDW []float32
	// per-batch gradient scratch
	gE       []float32
	touched  []int32
	isTouch  []bool
	gQW, gDW []float32
	drop     *rand.Rand
}

// New starts a model on the training pairs: vocabulary, IDF-initialised
// term weights, and a random table from the seed.
func New(pairs []Pair, cfg Config) *Trainer {
	texts := make([][]string, 0, 2*len(pairs))
	for _, p := range pairs {
		texts = append(texts, builtin.Terms(p.Query), builtin.Terms(p.Doc))
	}
	vocab, df := BuildVocab(texts, cfg.MinCount, cfg.MaxVocab)
	w := &builtin.Weights{Dim: cfg.Dim, Vocab: vocab, Buckets: cfg.Buckets}
	rows := w.Rows()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5c77))
	w.Emb = make([]float32, rows*cfg.Dim)
	sd := 1 / math.Sqrt(float64(cfg.Dim))
	for i := range w.Emb {
		w.Emb[i] = float32(rng.NormFloat64() * sd)
	}
	// IDF, scaled so that the mean weight is 1; unknown terms are rare,
	// so they start at the weight of a term held by minCount texts.
	n := float64(len(texts))
	w.QueryWeight = make([]float32, len(vocab)+1)
	var sum float64
	for i, t := range vocab {
		v := math.Log((n + 1) / (float64(df[t]) + 1))
		w.QueryWeight[i] = float32(v)
		sum += v
	}
	w.QueryWeight[len(vocab)] = float32(math.Log((n + 1) / (float64(cfg.MinCount) + 1)))
	mean := float32(1.0)
	if len(vocab) > 0 && sum > 0 {
		mean = float32(sum / float64(len(vocab)))
	}
	for i := range w.QueryWeight {
		w.QueryWeight[i] /= mean
	}
	w.DocWeight = append([]float32(nil), w.QueryWeight...)
	return &Trainer{
		cfg: cfg, W: w, Tok: builtin.NewTokenizer(vocab, cfg.Buckets),
		accE: make([]float32, len(w.Emb)), accQW: make([]float32, len(w.QueryWeight)), accDW: make([]float32, len(w.DocWeight)),
		gE: make([]float32, len(w.Emb)), isTouch: make([]bool, rows),
		gQW: make([]float32, len(w.QueryWeight)), gDW: make([]float32, len(w.DocWeight)),
		drop: rand.New(rand.NewPCG(cfg.Seed, 0xd209)),
	}
}

// dropout returns items without the ones dropped this time (never all).
func (t *Trainer) dropout(items []builtin.Item) []builtin.Item {
	if t.cfg.Dropout <= 0 || len(items) < 2 {
		return items
	}
	out := make([]builtin.Item, 0, len(items))
	for _, it := range items {
		if t.drop.Float64() >= t.cfg.Dropout {
			out = append(out, it)
		}
	}
	if len(out) == 0 {
		return items
	}
	return out
}

// Examples tokenises pairs with the trainer's vocabulary.
func (t *Trainer) Examples(pairs []Pair) []Example {
	out := make([]Example, len(pairs))
	groups := map[string]int{}
	for i, p := range pairs {
		g, ok := groups[p.Package]
		if !ok {
			g = len(groups)
			groups[p.Package] = g
		}
		out[i] = Example{Query: t.Tok.Items(p.Query), Doc: t.Tok.Items(p.Doc), Group: g}
	}
	return out
}

// encoded is one pooled text kept for the backward pass.
type encoded struct {
	items []builtin.Item
	u     []float32 // unit vector
	norm  float32   // length before normalising
}

func (t *Trainer) encode(items []builtin.Item, weights []float32) encoded {
	d := t.cfg.Dim
	v := make([]float32, d)
	for _, it := range items {
		a := weights[it.Weight] * it.Coef() / float32(len(it.Rows))
		for _, r := range it.Rows {
			row := t.W.Emb[int(r)*d : int(r+1)*d]
			for j, x := range row {
				v[j] += a * x
			}
		}
	}
	n := builtin.Normalize(v)
	return encoded{items: items, u: v, norm: n}
}

// Embed returns the unit vector of items with the float weights.
func (t *Trainer) Embed(items []builtin.Item, side builtin.Side) []float32 {
	w := t.W.DocWeight
	if side == builtin.Query {
		w = t.W.QueryWeight
	}
	return t.encode(items, w).u
}

// step runs one batch and returns its mean loss.
func (t *Trainer) step(batch []Example) float64 {
	b, d := len(batch), t.cfg.Dim
	s := float32(t.cfg.Scale)
	q := make([]encoded, b)
	c := make([]encoded, b)
	for i, ex := range batch {
		q[i] = t.encode(t.dropout(ex.Query), t.W.QueryWeight)
		c[i] = t.encode(t.dropout(ex.Doc), t.W.DocWeight)
	}
	// logits S[i][j] = s * q_i . c_j
	S := make([]float64, b*b)
	for i := 0; i < b; i++ {
		for j := 0; j < b; j++ {
			S[i*b+j] = float64(s * dot(q[i].u, c[j].u))
		}
	}
	// dS from both directions: rows (query → codes) and columns (code →
	// queries), each averaged over the batch.
	dS := make([]float64, b*b)
	loss := 0.0
	for i := 0; i < b; i++ {
		lse := logSumExp(S[i*b : (i+1)*b])
		loss += lse - S[i*b+i]
		for j := 0; j < b; j++ {
			dS[i*b+j] += math.Exp(S[i*b+j]-lse) / float64(b)
		}
		dS[i*b+i] -= 1 / float64(b)
	}
	col := make([]float64, b)
	for j := 0; j < b; j++ {
		for i := 0; i < b; i++ {
			col[i] = S[i*b+j]
		}
		lse := logSumExp(col)
		loss += lse - S[j*b+j]
		for i := 0; i < b; i++ {
			dS[i*b+j] += math.Exp(col[i]-lse) / float64(b)
		}
		dS[j*b+j] -= 1 / float64(b)
	}
	// Gradients of the unit vectors, then of the raw sums.
	du := make([]float32, d)
	for i := 0; i < b; i++ {
		clear(du)
		for j := 0; j < b; j++ {
			axpy(du, float32(dS[i*b+j])*s, c[j].u)
		}
		t.backward(q[i], du, t.W.QueryWeight, t.gQW)
	}
	for j := 0; j < b; j++ {
		clear(du)
		for i := 0; i < b; i++ {
			axpy(du, float32(dS[i*b+j])*s, q[i].u)
		}
		t.backward(c[j], du, t.W.DocWeight, t.gDW)
	}
	t.apply()
	return loss / float64(2*b)
}

// backward turns the gradient du of a unit vector into gradients of the
// table rows and term weights it was pooled from.
func (t *Trainer) backward(e encoded, du []float32, weights, gW []float32) {
	if e.norm == 0 {
		return
	}
	d := t.cfg.Dim
	// through normalisation: dv = (du - u (u.du)) / |v|
	ud := dot(e.u, du)
	dv := make([]float32, d)
	for j := range dv {
		dv[j] = (du[j] - e.u[j]*ud) / e.norm
	}
	for _, it := range e.items {
		coef := it.Coef() / float32(len(it.Rows))
		a := weights[it.Weight] * coef
		var dw float32
		for _, r := range it.Rows {
			off := int(r) * d
			row := t.W.Emb[off : off+d]
			dw += coef * dot(row, dv)
			if !t.isTouch[r] {
				t.isTouch[r] = true
				t.touched = append(t.touched, r)
			}
			axpy(t.gE[off:off+d], a, dv)
		}
		gW[it.Weight] += dw
	}
}

// apply takes one Adagrad step on every touched row and weight, then
// clears the scratch.
func (t *Trainer) apply() {
	d := t.cfg.Dim
	lr := float32(t.cfg.LR)
	const eps = 1e-8
	for _, r := range t.touched {
		off := int(r) * d
		g := t.gE[off : off+d]
		acc := t.accE[off : off+d]
		row := t.W.Emb[off : off+d]
		for j, x := range g {
			acc[j] += x * x
			row[j] -= lr * x / (float32(math.Sqrt(float64(acc[j]))) + eps)
			g[j] = 0
		}
		t.isTouch[r] = false
	}
	t.touched = t.touched[:0]
	// Weights move ten times slower than rows: they rescale whole terms.
	for _, p := range []struct{ w, g, acc []float32 }{{t.W.QueryWeight, t.gQW, t.accQW}, {t.W.DocWeight, t.gDW, t.accDW}} {
		for i, x := range p.g {
			if x == 0 {
				continue
			}
			p.acc[i] += x * x
			p.w[i] -= lr / 10 * x / (float32(math.Sqrt(float64(p.acc[i]))) + eps)
			if p.w[i] < 0 {
				p.w[i] = 0
			}
			p.g[i] = 0
		}
	}
}

// Fit trains on train for cfg.Epochs and evaluates on val; progress lines
// go to log.
func (t *Trainer) Fit(train, val []Example, log io.Writer) Report {
	start := time.Now()
	rep := Report{Vocab: len(t.W.Vocab), TrainPairs: len(train), ValPairs: len(val)}
	evalSet := val
	if t.cfg.MaxEval > 0 && len(evalSet) > t.cfg.MaxEval {
		evalSet = evalSet[:t.cfg.MaxEval]
	}
	rep.Initial = t.Evaluate(val)
	fmt.Fprintf(log, "epoch 0: validation %s\n", rep.Initial)
	rng := rand.New(rand.NewPCG(t.cfg.Seed, 0x7a11))
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	batch := make([]Example, 0, t.cfg.Batch)
	for ep := 1; ep <= t.cfg.Epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		if t.cfg.SamePackage {
			groupBatches(order, train, rng)
		}
		var sum float64
		steps := 0
		for lo := 0; lo+t.cfg.Batch <= len(order); lo += t.cfg.Batch {
			batch = batch[:0]
			for _, k := range order[lo : lo+t.cfg.Batch] {
				batch = append(batch, train[k])
			}
			sum += t.step(batch)
			steps++
		}
		loss := sum / float64(max(steps, 1))
		rep.Losses = append(rep.Losses, loss)
		line := fmt.Sprintf("epoch %d: loss %.4f (%s)", ep, loss, time.Since(start).Round(time.Second))
		if t.cfg.EvalEvery > 0 && ep%t.cfg.EvalEvery == 0 && ep != t.cfg.Epochs {
			line += "; validation " + t.Evaluate(evalSet).String()
		}
		fmt.Fprintln(log, line)
	}
	rep.Final = t.Evaluate(val)
	rep.FinalWithin = t.EvaluateWithin(val)
	rep.Duration = time.Since(start)
	fmt.Fprintf(log, "final: validation %s\n", rep.Final)
	return rep
}

// Evaluate ranks every validation code for every validation query with
// the current float weights.
func (t *Trainer) Evaluate(val []Example) Metrics {
	qs := make([][]float32, len(val))
	ds := make([][]float32, len(val))
	for i, ex := range val {
		qs[i] = t.Embed(ex.Query, builtin.Query)
		ds[i] = t.Embed(ex.Doc, builtin.Doc)
	}
	return Retrieval(qs, ds)
}

// minWithinPairs is the fewest validation pairs a package needs to count in
// the within-package figures: with fewer, ranking its own codes is trivial.
const minWithinPairs = 10

// EvaluateWithin ranks, for every validation query, only the validation
// codes of its own package.
func (t *Trainer) EvaluateWithin(val []Example) Metrics {
	byGroup := map[int][]Example{}
	for _, ex := range val {
		byGroup[ex.Group] = append(byGroup[ex.Group], ex)
	}
	var all Metrics
	groups := make([]int, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Ints(groups)
	for _, g := range groups {
		exs := byGroup[g]
		if len(exs) < minWithinPairs {
			continue
		}
		m := t.Evaluate(exs)
		n := float64(m.N)
		all.N += m.N
		all.Hit1 += m.Hit1 * n
		all.Hit10 += m.Hit10 * n
		all.MRR += m.MRR * n
	}
	if all.N > 0 {
		all.finish()
	}
	return all
}

// groupBatches reorders a shuffled order so that each package's pairs
// stand together, the packages in a random order: consecutive batches then
// draw from one or a few packages. Within a package the shuffled order is
// kept.
func groupBatches(order []int, train []Example, rng *rand.Rand) {
	groups := 0
	for _, ex := range train {
		groups = max(groups, ex.Group+1)
	}
	place := rng.Perm(groups)
	sort.SliceStable(order, func(i, j int) bool {
		return place[train[order[i]].Group] < place[train[order[j]].Group]
	})
}

// Retrieval scores query i against every doc; doc i is its answer. A doc
// scoring the same as the answer ranks ahead of it (no credit for ties).
func Retrieval(qs, ds [][]float32) Metrics {
	m := Metrics{N: len(qs)}
	if len(qs) == 0 {
		return m
	}
	for i, q := range qs {
		gold := dot(q, ds[i])
		rank := 1
		for j, d := range ds {
			if j != i && dot(q, d) >= gold {
				rank++
			}
		}
		m.add(rank)
	}
	m.finish()
	return m
}

func (m *Metrics) add(rank int) {
	if rank == 1 {
		m.Hit1++
	}
	if rank <= 10 {
		m.Hit10++
		m.MRR += 1 / float64(rank)
	}
}

func (m *Metrics) finish() {
	n := float64(m.N)
	m.Hit1 /= n
	m.Hit10 /= n
	m.MRR /= n
}

func dot(a, b []float32) float32 {
	var s float32
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

func axpy(dst []float32, a float32, x []float32) {
	for i, v := range x {
		dst[i] += a * v
	}
}

func logSumExp(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	var s float64
	for _, x := range xs {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}
