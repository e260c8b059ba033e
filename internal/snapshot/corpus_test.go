package snapshot

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/parse"
	"github.com/scry-dev/scry/internal/testkit"
)

// corpusKinds are the chunk kinds the corpus test snapshots one at a time.
var corpusKinds = map[string]bool{
	parse.KindFunction: true, parse.KindMethod: true, parse.KindConstructor: true,
	parse.KindGetter: true, parse.KindSetter: true, parse.KindClass: true,
	parse.KindComponent: true, parse.KindCallback: true,
}

// TestCorpus snapshots every function, method and class chunk of real npm
// packages, one target at a time, and requires each snapshot to keep the
// contract: the file's own lines in order, the target whole, nothing
// unreferenced, and no syntax error the file did not already have.
//
// SCRY_CORPUS is a directory holding node_modules (npm install --ignore-scripts
// rxjs@7.8.2 effect@3.10.0); SCRY_CORPUS_PACKAGES lists the package source
// trees to read (default node_modules/rxjs/src); SCRY_REQUIRE_CORPUS=1 turns
// the skip into a failure.
func TestCorpus(t *testing.T) {
	root := testkit.Corpus(t)
	dirs := []string{"node_modules/rxjs/src"}
	if env := os.Getenv("SCRY_CORPUS_PACKAGES"); env != "" {
		dirs = strings.Split(env, ",")
	}
	var st corpusStats
	start := time.Now()
	for _, dir := range dirs {
		dir = filepath.Join(root, dir)
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("corpus: %v", err)
		}
		err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() || !strings.HasSuffix(path, ".ts") || strings.HasSuffix(path, ".d.ts") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			began := time.Now()
			st.file(t, filepath.ToSlash(rel), src)
			if d := time.Since(began); d > 5*time.Second {
				t.Logf("corpus: %s took %v", rel, d.Round(time.Millisecond))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	if st.snapshots == 0 {
		t.Fatal("corpus: no snapshots built")
	}
	t.Logf("corpus: %d files, %d snapshots in %v (%.2f ms each); %d new syntax errors; %d needed a wider skeleton; %d contract violations",
		st.files, st.snapshots, elapsed.Round(time.Millisecond), float64(elapsed.Microseconds())/1000/float64(st.snapshots),
		st.newErrors, st.widened, st.violations)
	t.Logf("corpus: %d files (%d snapshots) do not parse cleanly to begin with; %d of those snapshots break the contract (not counted above)",
		st.brokenFiles, st.brokenSnapshots, st.brokenViolations)
	t.Logf("corpus: snapshot lines %d vs target lines %d vs whole-file lines %d (%.1f%% of the files' lines per snapshot)",
		st.shownLines, st.targetLines, st.fileLines, 100*float64(st.shownLines)/float64(st.fileLines))
	if st.newErrors > 0 || st.violations > 0 {
		t.Errorf("corpus: %d snapshots with new syntax errors, %d contract violations", st.newErrors, st.violations)
	}
}

type corpusStats struct {
	files, snapshots, newErrors, widened, violations int
	brokenFiles, brokenSnapshots, brokenViolations   int
	shownLines, targetLines, fileLines               int
}

func (st *corpusStats) file(t *testing.T, relPath string, src []byte) {
	st.files++
	nLines := strings.Count(string(src), "\n")
	f, err := Parse(relPath, src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.d.root.HasError() {
		st.brokenFiles++
	}
	fc, err := newFacts(relPath, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunk.File(fc.file, "/corpus/"+relPath, relPath) {
		if !corpusKinds[c.NodeKind] {
			continue
		}
		// With the chunk's text: the staleness check must accept every chunk
		// of an unchanged file.
		targets := []Target{{StartLine: c.StartLine, EndLine: c.EndLine, Source: c.FullSource}}
		res, err := f.build(targets)
		if err != nil {
			t.Errorf("%s:%d: %v", relPath, c.StartLine, err)
			continue
		}
		st.snapshots++
		if res.fileErrors {
			st.brokenSnapshots++
		}
		st.shownLines += len(res.lines)
		st.targetLines += c.EndLine - c.StartLine + 1
		st.fileLines += nLines
		if res.level > 0 {
			st.widened++
		}
		if res.snapshotErrors && !res.fileErrors {
			st.newErrors++
			if st.newErrors <= 5 {
				t.Logf("%s %s: new syntax error:\n%s", relPath, c.Breadcrumb, res.text)
			}
		}
		v := fc.validate(targets, res)
		v.structure()
		v.nothingUnreferenced()
		if len(v.problems) == 0 {
			continue
		}
		// In a file tree-sitter cannot parse, chunk ranges and the recovered
		// tree need not agree; those snapshots are best effort and counted
		// apart.
		if res.fileErrors {
			st.brokenViolations++
			continue
		}
		st.violations++
		if st.violations <= 10 || os.Getenv("SCRY_CORPUS_VERBOSE") != "" {
			t.Logf("%s %s: %s", relPath, c.Breadcrumb, strings.Join(v.problems, "; "))
		}
	}
}
