// Package testkit holds the set-ups that tests of several packages share:
// a tree of files written from a map, a git repository built state by
// state. It is imported by tests only.
package testkit

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// WriteTree writes files (slash paths relative to root), making their
// folders; a name ending in "/" makes an empty folder.
func WriteTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Tree writes files (as WriteTree does) into a new temporary folder and
// returns the folder.
func Tree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	WriteTree(t, dir, files)
	return dir
}

// CopyTree copies the tree at src (folders and files) into dst, which it
// makes, so that a test may edit a copy of a fixture.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}

// EnvCorpus names the test corpus: a folder whose node_modules holds the
// npm packages that scripts/testdeps.sh installs (real code to test on).
// EnvRequireCorpus=1 (as in CI) makes a missing corpus a failure.
const (
	EnvCorpus        = "SCRY_CORPUS"
	EnvRequireCorpus = "SCRY_REQUIRE_CORPUS"
)

// Corpus returns the test corpus's folder, or the path elem names inside
// its node_modules ("rxjs", "src"). Without $SCRY_CORPUS the test is
// skipped, or fails when $SCRY_REQUIRE_CORPUS=1.
func Corpus(t testing.TB, elem ...string) string {
	t.Helper()
	dir := Need(t, EnvCorpus, EnvRequireCorpus)
	if len(elem) == 0 {
		return dir
	}
	return filepath.Join(append([]string{dir, "node_modules"}, elem...)...)
}

// GitMirror makes a repository with one commit per state (each a full set
// of files) and a bare clone of it named name in a new folder; it returns
// that folder and the commits, oldest first. The test is skipped where git
// is not installed.
func GitMirror(t testing.TB, name string, states []map[string]string) (base string, commits []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := filepath.Join(t.TempDir(), "work")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "init", "-q", "-b", "main")
	for _, files := range states {
		Git(t, dir, "rm", "-rq", "--ignore-unmatch", ".")
		WriteTree(t, dir, files)
		Git(t, dir, "add", "-A")
		Git(t, dir, "commit", "-qm", "state")
		commits = append(commits, Git(t, dir, "rev-parse", "HEAD"))
	}
	base = t.TempDir()
	Git(t, dir, "clone", "-q", "--bare", dir, filepath.Join(base, name))
	return base, commits
}

// Git runs git with args in dir, as a fixed author and without the user's
// own configuration (which may sign commits or name hooks), and returns
// its output, trimmed; a failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// GitRepo makes dir a git repository with one commit of all its files.
func GitRepo(t testing.TB, dir string) {
	t.Helper()
	Git(t, dir, "init", "-q")
	Git(t, dir, "add", ".")
	Git(t, dir, "commit", "-q", "-m", "files")
}

// Ledger is a workspace of n small documented TypeScript files (m000.ts,
// m001.ts, ...), the i-th declaring ledgerChecksum<i>: large enough that its
// index has pages to damage, with one name to look up in each file.
func Ledger(n int) map[string]string {
	files := make(map[string]string, n)
	for i := range n {
		files[fmt.Sprintf("m%03d.ts", i)] = fmt.Sprintf("/** Computes checksum number %d of a ledger. */\nexport function ledgerChecksum%d(values: number[]): number {\n  return values.reduce((a, b) => a + b * %d, 0);\n}\n", i, i, i)
	}
	return files
}

// AuthApp is a small workspace of five files (TypeScript and JavaScript):
// a token check that imports a crypto helper, a middleware class that
// calls it, two constants and a CommonJS entry point. Each call returns a new
// map, which the caller may change.
func AuthApp() map[string]string {
	return map[string]string{
		"src/auth/token.ts": `import { hmac } from '../crypto';

/** Validates a signed token. */
export function validateToken(token: string): boolean {
  return hmac(token).length > 0;
}
`,
		"src/crypto.ts": `export function hmac(data: string): string {
  return data.split('').reverse().join('');
}
`,
		"src/middleware.ts": `import { validateToken } from './auth/token';

export class AuthMiddleware {
  verify(header: string): boolean {
    return validateToken(header.slice(7));
  }
}
`,
		"src/config.ts": `export const TOKEN_EXPIRY = 3600;
export const ISSUER = 'scry';
`,
		"src/app.js": `const { AuthMiddleware } = require('./middleware');
module.exports = function start() {
  return new AuthMiddleware();
};
`,
	}
}

// TokenTS and CartTS are two small TypeScript modules of the repository that
// the benchmarks' and the fitter's tests build (acme/widgets): a class whose
// method a question names, and two functions side by side.
const TokenTS = `export class TokenService {
  constructor(private secret: string) {}

  /** Checks a token's signature and expiry. */
  validateToken(token: string): boolean {
    const [body, sig] = token.split('.');
    return sign(body, this.secret) === sig && !expired(body);
  }
}

function sign(body: string, secret: string): string {
  return body + secret;
}

function expired(body: string): boolean {
  return body.length === 0;
}
`

// CartTS: see TokenTS.
const CartTS = `export function addItem(cart: string[], item: string): string[] {
  return [...cart, item];
}

export function removeItem(cart: string[], item: string): string[] {
  return cart.filter((x) => x !== item);
}
`
