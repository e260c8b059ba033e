// Package ltr fits ranking models: coordinate ascent for the weights of a
// linear scoring function against any list metric (Metzler and Croft,
// "Linear feature-based models for information retrieval", 2007), and
// logistic regression for calibrating scores into probabilities (Platt
// scaling). Both are deterministic for a given seed, so a fitted model can
// be reproduced exactly from the same data.
package ltr

import (
	"math"
	"math/rand/v2"
)

// AscentOptions configure CoordinateAscent.
type AscentOptions struct {
	// Steps are the moves tried along each coordinate, in both directions;
	// nil uses DefaultSteps.
	Steps []float64
	// Passes bounds the sweeps over all coordinates; 0 means 10.
	Passes int
	// Restarts adds random starting points beside the given one; the best
	// result wins.
	Restarts int
	// Tolerance: a sweep improving the objective by less ends the ascent.
	Tolerance float64
	Seed      uint64
	// Fixed coordinates are never moved (e.g. a feature switched off for
	// an ablation).
	Fixed map[int]bool
	// Log, when set, is told each sweep's objective.
	Log func(restart, pass int, objective float64)
}

// DefaultSteps span two orders of magnitude.
var DefaultSteps = []float64{0.02, 0.05, 0.1, 0.25, 0.5, 1, 2}

// CoordinateAscent maximises objective over the parameter vector, starting
// from start (which it does not modify): each sweep visits the coordinates
// in a seeded random order and moves each to the best of the tried steps,
// keeping a move only if it improves the objective. It returns the best
// parameters and their objective.
func CoordinateAscent(start []float64, objective func([]float64) float64, opt AscentOptions) ([]float64, float64) {
	steps := opt.Steps
	if steps == nil {
		steps = DefaultSteps
	}
	passes := opt.Passes
	if passes <= 0 {
		passes = 10
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5c27))
	best := append([]float64(nil), start...)
	bestObj := objective(best)
	for r := 0; r <= opt.Restarts; r++ {
		x := append([]float64(nil), start...)
		if r > 0 {
			for i := range x {
				if !opt.Fixed[i] {
					x[i] += rng.NormFloat64() * 0.5
				}
			}
		}
		obj := objective(x)
		for pass := 0; pass < passes; pass++ {
			before := obj
			for _, i := range rng.Perm(len(x)) {
				if opt.Fixed[i] {
					continue
				}
				orig := x[i]
				bestVal, bestHere := orig, obj
				for _, s := range steps {
					for _, v := range []float64{orig + s, orig - s} {
						x[i] = v
						if o := objective(x); o > bestHere+1e-12 {
							bestVal, bestHere = v, o
						}
					}
				}
				x[i] = bestVal
				obj = bestHere
			}
			if opt.Log != nil {
				opt.Log(r, pass, obj)
			}
			if obj-before < opt.Tolerance || obj == before {
				break
			}
		}
		if obj > bestObj {
			best, bestObj = append([]float64(nil), x...), obj
		}
	}
	return best, bestObj
}

// Logistic fits P(y=1 | s) = 1/(1+exp(-(a·s+b))) to scores and labels by
// Newton's method on the log-likelihood, with a tiny ridge on a for
// stability when the classes are separable. It returns a and b.
func Logistic(scores []float64, labels []bool) (a, b float64) {
	const ridge = 1e-6
	for iter := 0; iter < 100; iter++ {
		var ga, gb, haa, hab, hbb float64
		for i, s := range scores {
			p := 1 / (1 + math.Exp(-(a*s + b)))
			y := 0.0
			if labels[i] {
				y = 1
			}
			ga += (y - p) * s
			gb += y - p
			w := p * (1 - p)
			haa += w * s * s
			hab += w * s
			hbb += w
		}
		ga -= ridge * a
		haa += ridge
		det := haa*hbb - hab*hab
		if det <= 1e-18 {
			break
		}
		da := (hbb*ga - hab*gb) / det
		db := (haa*gb - hab*ga) / det
		a += da
		b += db
		if math.Abs(da) < 1e-10 && math.Abs(db) < 1e-10 {
			break
		}
	}
	return a, b
}

// LogLoss is the mean negative log-likelihood of labels under
// probabilities, a check on a calibration.
func LogLoss(probs []float64, labels []bool) float64 {
	if len(probs) == 0 {
		return 0
	}
	s := 0.0
	for i, p := range probs {
		p = math.Min(math.Max(p, 1e-12), 1-1e-12)
		if labels[i] {
			s -= math.Log(p)
		} else {
			s -= math.Log(1 - p)
		}
	}
	return s / float64(len(probs))
}

// LogisticN fits P(y=1 | x) = 1/(1+exp(-(w·x + b))) by Newton's method with
// a small ridge on w (for stability when classes are separable). It
// returns w and b.
func LogisticN(xs [][]float64, labels []bool) (w []float64, b float64) {
	return LogisticNWeighted(xs, labels, nil)
}

// LogisticNWeighted is LogisticN with a weight per example (nil: all 1):
// examples of several sets can count each set as a whole, whatever its
// size.
func LogisticNWeighted(xs [][]float64, labels []bool, weights []float64) (w []float64, b float64) {
	if len(xs) == 0 {
		return nil, 0
	}
	d := len(xs[0])
	n := d + 1 // the bias is the last coordinate
	theta := make([]float64, n)
	const ridge = 1e-4
	for iter := 0; iter < 100; iter++ {
		g := make([]float64, n)
		h := make([][]float64, n)
		for i := range h {
			h[i] = make([]float64, n)
		}
		for i, x := range xs {
			z := theta[d]
			for k := 0; k < d; k++ {
				z += theta[k] * x[k]
			}
			p := 1 / (1 + math.Exp(-z))
			y := 0.0
			if labels[i] {
				y = 1
			}
			ew := 1.0
			if weights != nil {
				ew = weights[i]
			}
			wgt := ew * p * (1 - p)
			for a := 0; a < n; a++ {
				xa := 1.0
				if a < d {
					xa = x[a]
				}
				g[a] += ew * (y - p) * xa
				for c := 0; c < n; c++ {
					xc := 1.0
					if c < d {
						xc = x[c]
					}
					h[a][c] += wgt * xa * xc
				}
			}
		}
		for k := 0; k < d; k++ {
			g[k] -= ridge * theta[k]
			h[k][k] += ridge
		}
		step, ok := solve(h, g)
		if !ok {
			break
		}
		done := true
		for k := range theta {
			theta[k] += step[k]
			if math.Abs(step[k]) > 1e-10 {
				done = false
			}
		}
		if done {
			break
		}
	}
	return theta[:d], theta[d]
}

// solve solves h·x = g by Gaussian elimination with partial pivoting.
func solve(h [][]float64, g []float64) ([]float64, bool) {
	n := len(g)
	a := make([][]float64, n)
	for i := range a {
		a[i] = append(append([]float64(nil), h[i]...), g[i])
	}
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) < 1e-14 {
			return nil, false
		}
		a[col], a[piv] = a[piv], a[col]
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c <= n; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := a[r][n]
		for c := r + 1; c < n; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}
