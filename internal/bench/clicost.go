package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// CLICost is the fixed cost of one `scry search` on a one-file workspace:
// process start, opening the index, a no-change sync, the tokenizer and one
// answer. TypeScript 7 is kept out (SCRY_TSGO names no program), since
// starting the compiler is its own cost, not scry's.
type CLICost struct {
	Runs []float64 `json:"runs_ms"`
	Wall Durations `json:"wall"`
	// CPUMean is the mean CPU time (user + system) per run; -1 where not
	// measured.
	CPUMean float64 `json:"cpu_mean_ms"`
}

// measureCLICost runs exe's `search` runs times (after one untimed run that
// builds the index) in a new one-file workspace under work.
func measureCLICost(ctx context.Context, exe, work string, runs int) (*CLICost, error) {
	dir := filepath.Join(work, "one-file")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	src := "export function validateToken(token: string): boolean {\n  return token.length > 3;\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "auth.ts"), []byte(src), 0o644); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	run := func() error {
		cmd := exec.CommandContext(ctx, exe, "search", "--root", dir, "--index", filepath.Join(work, "one-file.db"), "validate token")
		cmd.Env = append(os.Environ(), "SCRY_TSGO="+filepath.Join(work, "no-such-tsgo"))
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("bench: %s search: %w\n%s", exe, err, out)
		}
		return nil
	}
	if err := run(); err != nil {
		return nil, err
	}
	c := &CLICost{CPUMean: -1}
	cpu0 := childCPU()
	for range runs {
		t0 := time.Now()
		if err := run(); err != nil {
			return nil, err
		}
		c.Runs = append(c.Runs, float64(time.Since(t0).Microseconds())/1000)
	}
	if cpu1 := childCPU(); cpu0 >= 0 && cpu1 >= 0 && runs > 0 {
		c.CPUMean = float64((cpu1 - cpu0).Microseconds()) / 1000 / float64(runs)
	}
	c.Wall = durationsOf(c.Runs)
	return c, nil
}
