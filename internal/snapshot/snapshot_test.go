package snapshot

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/parse"
)

var update = flag.Bool("update", false, "rewrite testdata/*.snapshot.txt from the current output")

// fixture is a testdata/*.targets.json file.
type fixture struct {
	Targets []struct {
		// Symbol is the target chunk's breadcrumb after the file name; the
		// test checks that the line range is that chunk's.
		Symbol    string `json:"symbol"`
		StartLine int    `json:"startLine"`
		EndLine   int    `json:"endLine"`
	} `json:"targets"`
	// Shadowed lists module-level names the targets mention only through a
	// local declaration of the same name.
	Shadowed []string `json:"shadowed"`
}

func TestGolden(t *testing.T) {
	specs, err := filepath.Glob("testdata/*.targets.json")
	if err != nil || len(specs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, spec := range specs {
		name := strings.TrimSuffix(filepath.Base(spec), ".targets.json")
		t.Run(name, func(t *testing.T) {
			var fx fixture
			raw, err := os.ReadFile(spec)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &fx); err != nil {
				t.Fatal(err)
			}
			srcPath := sourceOf(t, name)
			src, err := os.ReadFile(srcPath)
			if err != nil {
				t.Fatal(err)
			}
			relPath := "src/" + filepath.Base(srcPath)
			chunks := chunksOf(t, relPath, src)
			var targets []Target
			for _, ft := range fx.Targets {
				if !hasChunk(chunks, relPath, ft.Symbol, ft.StartLine, ft.EndLine) {
					t.Fatalf("no chunk %q at lines %d-%d", ft.Symbol, ft.StartLine, ft.EndLine)
				}
				targets = append(targets, Target{StartLine: ft.StartLine, EndLine: ft.EndLine})
			}
			res := buildResult(t, relPath, src, targets)
			if res.level != 0 {
				t.Errorf("needed skeleton level %d", res.level)
			}
			fc, err := newFacts(relPath, src)
			if err != nil {
				t.Fatal(err)
			}
			v := fc.validate(targets, res)
			v.structure()
			v.referencedShown(fx.Shadowed)
			v.nothingUnreferenced()
			for _, p := range v.problems {
				t.Error(p)
			}

			golden := filepath.Join("testdata", name+".snapshot.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(res.text), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/snapshot -update)", err)
			}
			if res.text != string(want) {
				t.Errorf("snapshot differs from %s:\n--- got ---\n%s--- want ---\n%s", golden, res.text, want)
			}
		})
	}
}

func sourceOf(t *testing.T, name string) string {
	t.Helper()
	for _, ext := range []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"} {
		p := filepath.Join("testdata", name+ext)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatalf("no source file for fixture %s", name)
	return ""
}

func chunksOf(t testing.TB, relPath string, src []byte) []chunk.Chunk {
	t.Helper()
	f, err := parse.Parse(relPath, src, "")
	if err != nil {
		t.Fatal(err)
	}
	return chunk.File(f, "/repo/"+relPath, relPath)
}

func hasChunk(chunks []chunk.Chunk, relPath, symbol string, start, end int) bool {
	for _, c := range chunks {
		if c.Breadcrumb == relPath+" > "+symbol && c.StartLine == start && c.EndLine == end {
			return true
		}
	}
	return false
}

// buildResult parses src and builds one snapshot with what the checks need.
func buildResult(t testing.TB, relPath string, src []byte, targets []Target) *result {
	t.Helper()
	f, err := Parse(relPath, src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := f.build(targets)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
