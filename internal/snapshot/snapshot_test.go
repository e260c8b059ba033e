package snapshot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/golden"
	"github.com/scry-dev/scry/internal/parse"
)

// fixture is a case's targets.json.
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

// A case is testdata/NAME.txtar: the source (a file named src/...), its
// targets (targets.json), and the expected snapshot (snapshot), which
// go test -update rewrites.
func TestGolden(t *testing.T) {
	// Cases in the old three-file layout would be silently skipped.
	if old, _ := filepath.Glob("testdata/*.targets.json"); len(old) > 0 {
		t.Fatalf("%v: move each case into a testdata/NAME.txtar (src/..., targets.json, snapshot)", old)
	}
	cases, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, path := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			source, targetsFile := readCase(t, path)
			var fx fixture
			if err := json.Unmarshal([]byte(targetsFile.Data), &fx); err != nil {
				t.Fatalf("%s targets.json: %v", path, err)
			}
			relPath, src := source.Name, []byte(source.Data)
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
			golden.Check(t, path, []golden.File{source, targetsFile, {Name: "snapshot", Data: res.text}})
		})
	}
}

// readCase returns a case's source file and its targets.json.
func readCase(t testing.TB, path string) (source, targets golden.File) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, files := golden.Parse(data)
	if len(files) < 2 || !strings.HasPrefix(files[0].Name, "src/") || files[1].Name != "targets.json" {
		t.Fatalf("%s: want the files src/..., targets.json, snapshot", path)
	}
	return files[0], files[1]
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
