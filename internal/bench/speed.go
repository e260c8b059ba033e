package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/embed"
	"github.com/scry-dev/scry/internal/index"
	"github.com/scry-dev/scry/internal/search"
	"github.com/scry-dev/scry/internal/store"
	"github.com/scry-dev/scry/internal/vector"
	"github.com/scry-dev/scry/internal/watch"
	"github.com/scry-dev/scry/internal/workspace"
)

// SpeedOptions configure RunSpeed.
type SpeedOptions struct {
	// Prefix is the npm prefix the packages are installed under.
	Prefix   string
	Packages []Package // default SpeedPackages
	// Queries is the number of latency queries (default 200), drawn as the
	// quality benchmark draws them from the files of QueryPackages
	// (default QualityPackages) among Packages.
	Queries       int
	QueryPackages []Package
	// Runs is how many times each re-sync is measured (default 5).
	Runs int
	Seed uint64 // default DefaultSeed
	// WorkDir receives the corpus and its index; "" uses a temporary
	// directory removed afterwards.
	WorkDir string
	Log     io.Writer
	// Executable, when set, is the scry binary whose CLI fixed cost is
	// measured (CLIRuns runs of `scry search` on a one-file workspace,
	// default 20).
	Executable string
	CLIRuns    int
	// Embedder, when set, embeds every chunk right after the cold index
	// (timed on its own), so that the index size includes the vectors.
	Embedder embed.Embedder
}

// Durations are repeated measurements in milliseconds.
type Durations struct {
	Runs   []float64 `json:"runs_ms"`
	Median float64   `json:"median_ms"`
	Max    float64   `json:"max_ms"`
}

// durationsOf summarises ms; the 100th percentile is the slowest run (0
// when there is none).
func durationsOf(ms []float64) Durations {
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	return Durations{Runs: ms, Median: percentile(s, 50), Max: percentile(s, 100)}
}

// Latency summarises query latencies in milliseconds.
type Latency struct {
	N    int     `json:"n"`
	P50  float64 `json:"p50_ms"`
	P95  float64 `json:"p95_ms"`
	Mean float64 `json:"mean_ms"`
	Max  float64 `json:"max_ms"`
	// CPUMean is the process's CPU time per query (all threads, so SQLite
	// and the garbage collector count); -1 where not measured.
	CPUMean float64 `json:"cpu_mean_ms"`
	// CPUP50 is the median of the process's CPU time over each query,
	// read before and after it; -1 where not measured.
	CPUP50 float64 `json:"cpu_p50_ms"`
}

func latencyOf(ms []float64) Latency {
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	return Latency{N: len(s), P50: percentile(s, 50), P95: percentile(s, 95), Mean: mean(s), Max: percentile(s, 100)}
}

// ColdIndex is the first full index of the corpus.
type ColdIndex struct {
	Seconds     float64        `json:"seconds"`
	MBPerSec    float64        `json:"mb_per_sec"`
	FilesPerSec float64        `json:"files_per_sec"`
	Indexed     int            `json:"indexed"`
	Bytes       int64          `json:"bytes"`
	Skipped     map[string]int `json:"skipped"`
	Chunks      int            `json:"chunks"`
	// CPUSeconds is the CPU time (user + system, all threads) the cold
	// index used; -1 where not measured.
	CPUSeconds float64 `json:"cpu_seconds"`
	// MBPerCPUSecond is the CPU efficiency: MB of source indexed per
	// CPU-second (0 where CPU time was not measured).
	MBPerCPUSecond float64 `json:"mb_per_cpu_second"`
	// PeakRSS is the process's peak resident set size right after the cold
	// index (bytes; -1 where not measured). Nothing before it in the run
	// holds more than one file in memory.
	PeakRSS int64 `json:"peak_rss_bytes"`
	// With an embedder: its model, the chunks it embedded after the cold
	// index, and the wall and CPU time that took.
	EmbedModel      string  `json:"embed_model,omitempty"`
	Embedded        int     `json:"embedded,omitempty"`
	EmbedSeconds    float64 `json:"embed_seconds,omitempty"`
	EmbedCPUSeconds float64 `json:"embed_cpu_seconds,omitempty"`
}

// SpeedReport is the outcome of RunSpeed.
type SpeedReport struct {
	Packages   []PackageStats `json:"packages"`
	Files      int            `json:"files"`
	Lines      int            `json:"lines"`
	Bytes      int64          `json:"bytes"`
	GOMAXPROCS int            `json:"gomaxprocs"`
	Cold       ColdIndex      `json:"cold"`
	NoChange   Durations      `json:"no_change_resync"`
	OneEdit    Durations      `json:"one_edit_resync"`
	EditedFile string         `json:"edited_file"`
	// EditReparsed is the number of files the one-edit re-syncs parsed,
	// summed over the runs: one per run when incremental sync works.
	EditReparsed int     `json:"edit_reparsed"`
	Lexical      Latency `json:"lexical_latency"`
	Full         Latency `json:"full_latency"`
	// With an embedder: the full pipeline with vector neighbours fused
	// in, and the time to load the vectors into memory (what a process
	// pays once before its first hybrid query).
	Hybrid            *Latency `json:"hybrid_latency,omitempty"`
	VectorLoadSeconds float64  `json:"vector_load_seconds,omitempty"`
	// IndexBytes is the index file; WALBytes its write-ahead log, which
	// SQLite folds back into the file at checkpoints.
	IndexBytes int64 `json:"index_bytes"`
	WALBytes   int64 `json:"wal_bytes"`
	// CheckpointedBytes is the index file plus its log after a
	// checkpoint; SizeRatio is that over the corpus's bytes.
	CheckpointedBytes int64   `json:"checkpointed_bytes"`
	SizeRatio         float64 `json:"size_ratio"`
	// WatchedNoChange and WatchedOneEdit are the re-syncs again with a
	// file watcher (watch mode): only the files it names are examined.
	WatchedNoChange Durations `json:"watched_no_change_resync"`
	WatchedOneEdit  Durations `json:"watched_one_edit_resync"`
	// WatchReason is why watched syncs could not be measured ("" when
	// they were).
	WatchReason string `json:"watch_reason,omitempty"`
	// CLI is the fixed cost of one `scry search` (nil when not measured).
	CLI     *CLICost `json:"cli,omitempty"`
	Chunks  int      `json:"chunks"`
	Seconds float64  `json:"seconds"`
	// LoadBefore and LoadAfter are /proc/loadavg at the start and the end:
	// timings on a machine busy with other work are not comparable.
	LoadBefore string `json:"load_before,omitempty"`
	LoadAfter  string `json:"load_after,omitempty"`
}

// editTarget is the file the one-edit re-sync appends to: a typical
// hand-written source file of ordinary size.
const editTarget = "rxjs/src/internal/operators/map.ts"

// RunSpeed copies the corpus into a plain tree, indexes it cold, re-syncs it
// unchanged and after one edit, and times queries.
func RunSpeed(ctx context.Context, opt SpeedOptions) (*SpeedReport, error) {
	start := time.Now()
	log := logger{opt.Log, start}
	if opt.Packages == nil {
		opt.Packages = SpeedPackages
	}
	if opt.Queries <= 0 {
		opt.Queries = 200
	}
	if opt.Runs <= 0 {
		opt.Runs = 5
	}
	if opt.Seed == 0 {
		opt.Seed = DefaultSeed
	}
	work, cleanup, files, err := prepareWork(opt.WorkDir, "speed", opt.Prefix, opt.Packages)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	dir := filepath.Join(work, "corpus")
	r := &SpeedReport{GOMAXPROCS: runtime.GOMAXPROCS(0), LoadBefore: loadAverage()}
	log.printf("speed: copying %d files", len(files))
	stats := map[string]*PackageStats{}
	for _, p := range opt.Packages {
		stats[p.Name] = &PackageStats{Name: p.Name, Version: p.Version}
	}
	for _, f := range files {
		data, err := os.ReadFile(f.Src)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(f.Rel)), data); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		st := stats[f.Package]
		st.Files++
		st.Lines += countLines(data)
		st.Bytes += int64(len(data))
	}
	for _, p := range opt.Packages {
		s := *stats[p.Name]
		r.Packages = append(r.Packages, s)
		r.Files += s.Files
		r.Lines += s.Lines
		r.Bytes += s.Bytes
	}
	log.printf("speed: corpus of %d files, %d lines, %.1f MB", r.Files, r.Lines, float64(r.Bytes)/1e6)

	dbPath := filepath.Join(work, "index.db")
	if err := removeIndex(dbPath); err != nil {
		return nil, err
	}
	root, st, ix, err := openIndex(dir, dbPath)
	if err != nil {
		return nil, err
	}
	defer st.Close()

	log.printf("speed: cold index")
	cpu0 := cpuTime()
	sync := func() (index.Summary, float64, error) {
		t0 := time.Now()
		sum, err := ix.Sync(ctx)
		ms := float64(time.Since(t0).Microseconds()) / 1000
		if err != nil {
			return sum, ms, fmt.Errorf("bench: %w", err)
		}
		return sum, ms, nil
	}
	sum, ms, err := sync()
	if err != nil {
		return nil, err
	}
	r.Cold = ColdIndex{Seconds: ms / 1000, Indexed: sum.Indexed, Bytes: sum.Bytes, Skipped: sum.Skipped, PeakRSS: peakRSS(), CPUSeconds: -1}
	if cpu1 := cpuTime(); cpu0 >= 0 && cpu1 >= 0 {
		r.Cold.CPUSeconds = (cpu1 - cpu0).Seconds()
		if r.Cold.CPUSeconds > 0 {
			r.Cold.MBPerCPUSecond = float64(sum.Bytes) / 1e6 / r.Cold.CPUSeconds
		}
	}
	if r.Cold.Seconds > 0 {
		r.Cold.MBPerSec = float64(sum.Bytes) / 1e6 / r.Cold.Seconds
		r.Cold.FilesPerSec = float64(sum.Indexed) / r.Cold.Seconds
	}
	if _, r.Cold.Chunks, err = st.Stats(); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	log.printf("speed: cold index done: %d files, %d chunks in %.1f s", sum.Indexed, r.Cold.Chunks, r.Cold.Seconds)
	if opt.Embedder != nil {
		c0, t0 := cpuTime(), time.Now()
		es, err := index.EmbedPending(ctx, st, opt.Embedder, index.EmbedOptions{})
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		r.Cold.EmbedModel, r.Cold.Embedded, r.Cold.EmbedSeconds = es.Model, es.Embedded, time.Since(t0).Seconds()
		if c1 := cpuTime(); c0 >= 0 && c1 >= 0 {
			r.Cold.EmbedCPUSeconds = (c1 - c0).Seconds()
		}
		log.printf("speed: embedded %d chunks with %s in %.1f s", es.Embedded, es.Model, r.Cold.EmbedSeconds)
	}

	var noChange []float64
	for i := 0; i < opt.Runs; i++ {
		sum, ms, err := sync()
		if err != nil {
			return nil, err
		}
		if sum.Indexed != 0 {
			return nil, fmt.Errorf("bench: a sync with no change re-indexed %d files", sum.Indexed)
		}
		noChange = append(noChange, ms)
	}
	r.NoChange = durationsOf(noChange)

	r.EditedFile = editTarget
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(editTarget))); err != nil {
		r.EditedFile = middleFile(files)
	}
	var edits []float64
	for i := 0; i < opt.Runs; i++ {
		if err := appendFunction(filepath.Join(dir, filepath.FromSlash(r.EditedFile)), i); err != nil {
			return nil, err
		}
		sum, ms, err := sync()
		if err != nil {
			return nil, err
		}
		r.EditReparsed += sum.Indexed
		edits = append(edits, ms)
	}
	r.OneEdit = durationsOf(edits)
	if _, r.Chunks, err = st.Stats(); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if info, err := os.Stat(dbPath); err == nil {
		r.IndexBytes = info.Size()
	}
	if info, err := os.Stat(dbPath + "-wal"); err == nil {
		r.WALBytes = info.Size()
	}
	if err := st.Checkpoint(); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	for _, p := range []string{dbPath, dbPath + "-wal"} {
		if info, err := os.Stat(p); err == nil {
			r.CheckpointedBytes += info.Size()
		}
	}
	if r.Bytes > 0 {
		r.SizeRatio = float64(r.CheckpointedBytes) / float64(r.Bytes)
	}

	if err := r.measureWatched(ctx, root, st, dir, opt.Runs); err != nil {
		return nil, err
	}
	if opt.Executable != "" {
		runs := opt.CLIRuns
		if runs <= 0 {
			runs = 20
		}
		log.printf("speed: CLI fixed cost, %d runs", runs)
		if r.CLI, err = measureCLICost(ctx, opt.Executable, work, runs); err != nil {
			return nil, err
		}
	}

	log.printf("speed: drawing queries")
	queries, err := speedQueries(files, opt)
	if err != nil {
		return nil, err
	}
	log.printf("speed: timing %d queries", len(queries))
	prm := search.DefaultParams()
	pl := &search.Pipeline{Store: st}
	// Warm-up: the first query loads the tokenizer tables and fills
	// SQLite's page cache; neither is what an agent waits for per query.
	for i := 0; i < min(10, len(queries)); i++ {
		if _, err := pl.Search(ctx, search.Request{Query: queries[i].Text, Params: prm}); err != nil {
			return nil, err
		}
	}
	// Each kind of query runs as its own pass so that the process's CPU
	// time over the pass is that kind's alone.
	var lex, full, lexCPU, fullCPU []float64
	toMS := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	cpu0 = cpuTime()
	for _, q := range queries {
		t0, c0 := time.Now(), cpuTime()
		if _, err := firstStage(st, q.Text, prm.Candidates); err != nil {
			return nil, err
		}
		lex, lexCPU = append(lex, toMS(time.Since(t0))), append(lexCPU, toMS(cpuTime()-c0))
	}
	cpu1 := cpuTime()
	for _, q := range queries {
		t0, c0 := time.Now(), cpuTime()
		if _, err := pl.Search(ctx, search.Request{Query: q.Text, Params: prm}); err != nil {
			return nil, err
		}
		full, fullCPU = append(full, toMS(time.Since(t0))), append(fullCPU, toMS(cpuTime()-c0))
	}
	cpu2 := cpuTime()
	r.Lexical, r.Full = latencyOf(lex), latencyOf(full)
	r.Lexical.CPUMean, r.Full.CPUMean = -1, -1
	r.Lexical.CPUP50, r.Full.CPUP50 = -1, -1
	if cpu0 >= 0 && len(queries) > 0 {
		r.Lexical.CPUP50, r.Full.CPUP50 = latencyOf(lexCPU).P50, latencyOf(fullCPU).P50
		r.Lexical.CPUMean = float64((cpu1 - cpu0).Microseconds()) / 1000 / float64(len(queries))
		r.Full.CPUMean = float64((cpu2 - cpu1).Microseconds()) / 1000 / float64(len(queries))
	}
	if opt.Embedder != nil {
		if err := r.measureHybrid(ctx, st, opt.Embedder, queries, prm); err != nil {
			return nil, err
		}
	}
	r.Seconds = time.Since(start).Seconds()
	r.LoadAfter = loadAverage()
	return r, nil
}

// measureWatched times re-syncs with a file watcher: with no change and
// after one edit (appended to the edit target, as the plain re-syncs do).
// measureHybrid loads the embedder's vectors and times the full pipeline
// with vector neighbours fused in, as a pass of its own.
func (r *SpeedReport) measureHybrid(ctx context.Context, st *store.Store, emb embed.Embedder, queries []Query, prm search.Params) error {
	t0 := time.Now()
	ix, _, err := vector.Load(st, emb.ModelID(), emb.Dim(), vector.Options{})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	r.VectorLoadSeconds = time.Since(t0).Seconds()
	hp := &search.Pipeline{Store: st, Hybrid: &search.Hybrid{Embedder: emb, Index: ix}}
	for i := 0; i < min(10, len(queries)); i++ {
		if _, err := hp.Search(ctx, search.Request{Query: queries[i].Text, Params: prm}); err != nil {
			return err
		}
	}
	var ms []float64
	cpu0 := cpuTime()
	for _, q := range queries {
		t0 := time.Now()
		if _, err := hp.Search(ctx, search.Request{Query: q.Text, Params: prm}); err != nil {
			return err
		}
		ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
	}
	cpu1 := cpuTime()
	h := latencyOf(ms)
	h.CPUMean = -1
	if cpu0 >= 0 && len(queries) > 0 {
		h.CPUMean = float64((cpu1 - cpu0).Microseconds()) / 1000 / float64(len(queries))
	}
	r.Hybrid = &h
	return nil
}

func (r *SpeedReport) measureWatched(ctx context.Context, root *workspace.Root, st *store.Store, dir string, runs int) error {
	w, err := watch.New(dir)
	if err != nil {
		r.WatchReason = err.Error()
		return nil
	}
	defer w.Close()
	ix := index.New(root, st, index.Options{Workspace: workspace.Options{MaxFileSize: BenchMaxFileSize}, Changes: w})
	// The first syncs scan and set the watches up.
	for i := 0; i < 3; i++ {
		sum, err := ix.Sync(ctx)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		if sum.Watched {
			break
		}
		if i == 2 {
			r.WatchReason = "still scanning after three syncs: " + sum.ScanReason
			return nil
		}
	}
	timed := func(edit int) (float64, error) {
		if edit >= 0 {
			if err := appendFunction(filepath.Join(dir, filepath.FromSlash(r.EditedFile)), 100+edit); err != nil {
				return 0, err
			}
		}
		t0 := time.Now()
		sum, err := ix.Sync(ctx)
		ms := float64(time.Since(t0).Microseconds()) / 1000
		if err != nil {
			return 0, fmt.Errorf("bench: %w", err)
		}
		if !sum.Watched {
			return 0, fmt.Errorf("bench: a watched sync scanned the tree: %s", sum.ScanReason)
		}
		if want := min(edit+1, 1); sum.Indexed != want {
			return 0, fmt.Errorf("bench: a watched sync indexed %d files, want %d", sum.Indexed, want)
		}
		return ms, nil
	}
	var none, edits []float64
	for i := 0; i < runs; i++ {
		ms, err := timed(-1)
		if err != nil {
			return err
		}
		none = append(none, ms)
	}
	for i := 0; i < runs; i++ {
		ms, err := timed(i)
		if err != nil {
			return err
		}
		edits = append(edits, ms)
	}
	r.WatchedNoChange, r.WatchedOneEdit = durationsOf(none), durationsOf(edits)
	return nil
}

// speedQueries draws the latency queries as the quality benchmark draws its
// own, from the quality packages' own files (not the builds the speed corpus
// adds), spread as evenly over the packages as their sizes allow.
func speedQueries(files []CorpusFile, opt SpeedOptions) ([]Query, error) {
	quality := map[string]Package{}
	from := opt.QueryPackages
	if from == nil {
		from = QualityPackages
	}
	for _, p := range from {
		quality[p.Name] = p
	}
	var pkgs []Package
	for _, p := range opt.Packages {
		if q, ok := quality[p.Name]; ok {
			pkgs = append(pkgs, q)
		}
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("bench: the speed corpus has none of the packages to draw queries from")
	}
	var src []CorpusFile
	for _, f := range files {
		if q, ok := quality[f.Package]; ok && matchAny(q.Include, f.PkgPath) && !matchAny(q.Exclude, f.PkgPath) {
			src = append(src, f)
		}
	}
	c, err := buildCorpus(src, pkgs, "", opt.Seed, -1, false)
	if err != nil {
		return nil, err
	}
	byPkg := map[string][]Query{}
	for _, q := range c.Queries {
		byPkg[q.Package] = append(byPkg[q.Package], q)
	}
	sizes := make([]int, len(pkgs))
	for i, p := range pkgs {
		sizes[i] = len(byPkg[p.Name])
	}
	var out []Query
	for i, p := range pkgs {
		qs := byPkg[p.Name]
		sort.Slice(qs, func(a, b int) bool {
			return sampleKey(opt.Seed, qs[a].File, qs[a].Name, qs[a].declLine) < sampleKey(opt.Seed, qs[b].File, qs[b].Name, qs[b].declLine)
		})
		out = append(out, qs[:quotas(sizes, opt.Queries)[i]]...)
	}
	return out, nil
}

// quotas shares n among groups of the given sizes as evenly as possible: a
// group smaller than its share gives the rest to the others.
func quotas(sizes []int, n int) []int {
	q := make([]int, len(sizes))
	for n > 0 {
		open := 0
		for i, s := range sizes {
			if q[i] < s {
				open++
			}
		}
		if open == 0 {
			break
		}
		share := max(n/open, 1)
		for i, s := range sizes {
			if n == 0 {
				break
			}
			take := min(share, s-q[i], n)
			q[i] += take
			n -= take
		}
	}
	return q
}

// middleFile is the corpus file of median size: the edit target when the
// usual one is not in the corpus.
func middleFile(files []CorpusFile) string {
	s := append([]CorpusFile(nil), files...)
	sort.Slice(s, func(i, j int) bool { return s[i].Size < s[j].Size })
	return s[len(s)/2].Rel
}

// appendFunction adds a small exported function at the end of a file, the
// kind of edit an agent makes between two questions.
func appendFunction(path string, n int) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	_, err = fmt.Fprintf(f, "\nexport function scryBenchEdit%d(value: number): number {\n  return value * %d + 1;\n}\n", n, n+2)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// WriteText writes the report as Markdown.
func (r *SpeedReport) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "## Speed\n\n")
	fmt.Fprintf(bw, "Corpus: %d files, %d lines, %.1f MB (GOMAXPROCS %d).\n\n", r.Files, r.Lines, float64(r.Bytes)/1e6, r.GOMAXPROCS)
	fmt.Fprintf(bw, "| package | version | files | lines | MB |\n|---|---|---:|---:|---:|\n")
	for _, p := range r.Packages {
		fmt.Fprintf(bw, "| %s | %s | %d | %d | %.1f |\n", p.Name, p.Version, p.Files, p.Lines, float64(p.Bytes)/1e6)
	}
	skipped := "none"
	if len(r.Cold.Skipped) > 0 {
		var parts []string
		for k, v := range r.Cold.Skipped {
			parts = append(parts, fmt.Sprintf("%s %d", k, v))
		}
		sort.Strings(parts)
		skipped = fmt.Sprint(parts)
	}
	rss := "n/a"
	if r.Cold.PeakRSS >= 0 {
		rss = fmt.Sprintf("%.0f MB", float64(r.Cold.PeakRSS)/1e6)
	}
	fmt.Fprintf(bw, "\n| measure | value |\n|---|---:|\n")
	fmt.Fprintf(bw, "| cold index, wall time | %.1f s |\n", r.Cold.Seconds)
	fmt.Fprintf(bw, "| cold index, throughput | %.2f MB/s, %.0f files/s |\n", r.Cold.MBPerSec, r.Cold.FilesPerSec)
	if r.Cold.CPUSeconds > 0 {
		fmt.Fprintf(bw, "| cold index, CPU time (user + system) | %.1f s |\n", r.Cold.CPUSeconds)
		fmt.Fprintf(bw, "| cold index, CPU efficiency | %.2f MB of source per CPU-second |\n", r.Cold.MBPerCPUSecond)
	}
	fmt.Fprintf(bw, "| cold index, files indexed / skipped | %d / %s |\n", r.Cold.Indexed, skipped)
	if r.Cold.EmbedModel != "" {
		fmt.Fprintf(bw, "| then embedding %d chunks with %s: wall / CPU time | %.1f s / %.1f s |\n", r.Cold.Embedded, r.Cold.EmbedModel, r.Cold.EmbedSeconds, r.Cold.EmbedCPUSeconds)
	}
	fmt.Fprintf(bw, "| peak RSS (process, after cold index) | %s |\n", rss)
	fmt.Fprintf(bw, "| chunks | %d |\n", r.Chunks)
	fmt.Fprintf(bw, "| index size on disk: file + write-ahead log | %.1f + %.1f MB |\n", float64(r.IndexBytes)/1e6, float64(r.WALBytes)/1e6)
	fmt.Fprintf(bw, "| index size after a checkpoint / source size | %.1f MB / %.1f MB = %.2f× |\n", float64(r.CheckpointedBytes)/1e6, float64(r.Bytes)/1e6, r.SizeRatio)
	fmt.Fprintf(bw, "| no-change re-sync (median / max of %d) | %.0f / %.0f ms |\n", len(r.NoChange.Runs), r.NoChange.Median, r.NoChange.Max)
	fmt.Fprintf(bw, "| one-edit re-sync (median / max of %d; %s, %d files re-parsed in all) | %.0f / %.0f ms |\n",
		len(r.OneEdit.Runs), r.EditedFile, r.EditReparsed, r.OneEdit.Median, r.OneEdit.Max)
	if r.WatchReason == "" {
		fmt.Fprintf(bw, "| watch mode: no-change re-sync (median / max of %d) | %.1f / %.1f ms |\n", len(r.WatchedNoChange.Runs), r.WatchedNoChange.Median, r.WatchedNoChange.Max)
		fmt.Fprintf(bw, "| watch mode: one-edit re-sync (median / max of %d) | %.1f / %.1f ms |\n", len(r.WatchedOneEdit.Runs), r.WatchedOneEdit.Median, r.WatchedOneEdit.Max)
	} else {
		fmt.Fprintf(bw, "| watch mode | not measured: %s |\n", r.WatchReason)
	}
	fmt.Fprintf(bw, "| lexical query latency (first stage), p50 / p95 over %d | %.1f / %.1f ms |\n", r.Lexical.N, r.Lexical.P50, r.Lexical.P95)
	fmt.Fprintf(bw, "| full pipeline latency, p50 / p95 over %d | %.1f / %.1f ms |\n", r.Full.N, r.Full.P50, r.Full.P95)
	if r.Lexical.CPUMean >= 0 {
		fmt.Fprintf(bw, "| CPU time per query, mean: lexical / full pipeline | %.1f / %.1f ms |\n", r.Lexical.CPUMean, r.Full.CPUMean)
		fmt.Fprintf(bw, "| CPU time per query, p50: lexical / full pipeline | %.1f / %.1f ms |\n", r.Lexical.CPUP50, r.Full.CPUP50)
	}
	if h := r.Hybrid; h != nil {
		fmt.Fprintf(bw, "| hybrid pipeline latency (vector neighbours joined), p50 / p95 over %d; CPU mean | %.1f / %.1f ms; %.1f ms |\n", h.N, h.P50, h.P95, h.CPUMean)
		fmt.Fprintf(bw, "| loading the vectors into memory (once per process) | %.0f ms |\n", r.VectorLoadSeconds*1000)
	}
	if r.CLI != nil {
		cpu := "n/a"
		if r.CLI.CPUMean >= 0 {
			cpu = fmt.Sprintf("%.1f ms", r.CLI.CPUMean)
		}
		fmt.Fprintf(bw, "| CLI fixed cost: `scry search` on a one-file workspace, wall median / max of %d; CPU mean | %.1f / %.1f ms; %s |\n",
			len(r.CLI.Runs), r.CLI.Wall.Median, r.CLI.Wall.Max, cpu)
	}
	fmt.Fprintf(bw, "\nTotal time %.1f s.", r.Seconds)
	if r.LoadBefore != "" {
		fmt.Fprintf(bw, " Load average (1, 5, 15 min) before: %s; after: %s.", r.LoadBefore, r.LoadAfter)
	}
	fmt.Fprintln(bw)
	return bw.Flush()
}

// loadAverage returns the 1, 5 and 15 minute load averages, or "" where
// /proc/loadavg does not exist.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// WriteFiles writes report.json and report.md into dir.
func (r *SpeedReport) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := WriteJSON(filepath.Join(dir, "report.json"), r); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "report.md"))
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := r.WriteText(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
