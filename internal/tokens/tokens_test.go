package tokens

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/pkoukk/tiktoken-go-loader/assets"
	"github.com/scry-dev/scry/internal/golden"
	"github.com/scry-dev/scry/internal/testkit"
)

func TestCount(t *testing.T) {
	tests := []struct {
		in       string
		min, max int
	}{
		{"", 0, 0},
		{"hello world", 2, 2},
		{"export async function validateToken(token: string): Promise<boolean> {}", 12, 22},
	}
	for _, tt := range tests {
		if got := Count(tt.in); got < tt.min || got > tt.max {
			t.Errorf("Count(%q) = %d, want in [%d, %d]", tt.in, got, tt.min, tt.max)
		}
	}
	if err != nil {
		t.Fatalf("tokenizer did not load: %v", err)
	}
}

// reference counts with the library's own encoder (regex pre-tokenizer).
func reference(t testing.TB) func(string) int {
	t.Helper()
	once.Do(load)
	// The library's encoder, from the same embedded tables the counter
	// reads (its default loader downloads them).
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, e := tiktoken.GetEncoding("o200k_base")
	if e != nil {
		t.Fatalf("reference encoder: %v", e)
	}
	return func(s string) int { return len(enc.EncodeOrdinary(s)) }
}

func TestCountMatchesLibrary(t *testing.T) {
	ref := reference(t)
	for _, s := range []string{
		"", " ", "  ", "\n", "\r\n", " \n ", "\t\t x", "a  b", "a   ", "   \n\n  x",
		"don't", "DON'T", "they're", "We'LL", "I'd", "it's'", "'s", "x'", "x'R", "x'rE",
		"HTTPServer", "parseJSON2XML", "XMLHttpRequest", "ÀÉÎõü", "ǅungla", "ʰʲa", "Aʰb",
		"a\u0301b", "\u0301\u0301x", "x\u0301\u0301", "日本語のテキスト", "한국어 text", "emoji 😀👍🏽 ok",
		"12345678", "١٢٣٤", "½¼", "x²³", "foo // bar /* baz */", "a/b//c\n//\n", "?!\n\n", " ???\r\n/",
		"\u00a0\u00a0x", "\u2028x", "\u3000 \u3000", "\x00\x01\x7f", "bad \xff\xfe utf8 \xc3", "tab\tsep\tvalues",
		"export async function validateToken(token: string): Promise<boolean> {\n  return true;\n}\n",
	} {
		if got, want := count(s), ref(s); got != want {
			t.Errorf("count(%q) = %d, library %d", s, got, want)
		}
	}
}

// Every rune of the basic plane and the first supplementary one (and a
// sample of the rest) in the contexts where the pattern's classes decide:
// inside and around words of either case, after a space, before a
// contraction, next to digits, punctuation and line breaks.
func TestCountMatchesLibraryOnEveryRuneClass(t *testing.T) {
	ref := reference(t)
	contexts := []string{"a%cb ", "A%cB ", "Ab%cC ", " %c1 ", "%c%c\n ", "x%c's ", "%c'RE ", "1%c2 ", "-%c- ", "\n%c \n", "%c  x"}
	check := func(runes []rune) {
		var b strings.Builder
		for _, r := range runes {
			for _, c := range contexts {
				b.WriteString(strings.ReplaceAll(c, "%c", string(r)))
			}
		}
		s := b.String()
		if count(s) == ref(s) {
			return
		}
		for _, r := range runes {
			for _, c := range contexts {
				x := strings.ReplaceAll(c, "%c", string(r))
				if got, want := count(x), ref(x); got != want {
					t.Errorf("count(%q) (rune %U) = %d, library %d", x, r, got, want)
				}
			}
		}
	}
	var batch []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0x20000 && r%97 != 0 {
			continue
		}
		if utf8.ValidRune(r) {
			batch = append(batch, r)
		}
		if len(batch) == 256 || r == unicode.MaxRune {
			check(batch)
			batch = batch[:0]
		}
	}
}

// Real code: every file of the test corpus's rxjs sources and a slice of
// the TypeScript library declarations.
func TestCountMatchesLibraryOnRealCode(t *testing.T) {
	corpus := testkit.Corpus(t)
	ref := reference(t)
	var files []string
	for _, glob := range []string{"rxjs/src/internal/*/*.ts", "typescript/lib/lib.es5.d.ts", "typescript/lib/lib.dom.d.ts", "date-fns/locale/ja/_lib/*.js"} {
		m, _ := filepath.Glob(filepath.Join(corpus, "node_modules", glob))
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d corpus files found", len(files))
	}
	total := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 2<<20 {
			b = b[:2<<20]
		}
		s := string(b)
		total += len(s)
		if got, want := count(s), ref(s); got != want {
			t.Errorf("%s: count = %d, library %d", f, got, want)
		}
	}
	t.Logf("%d files, %d bytes", len(files), total)
}

func FuzzCount(f *testing.F) {
	for _, s := range []string{"hello world", "don't STOP'LL", "a\u0301\u0301B", " \n\t x ", "😀x1234/*\n", "\xff'S"} {
		f.Add(s)
	}
	ref := reference(f)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := count(s), ref(s); got != want {
			t.Errorf("count(%q) = %d, library %d", s, got, want)
		}
	})
}

func BenchmarkCount(b *testing.B) {
	src, err := os.ReadFile(testkit.Corpus(b, "typescript", "lib", "lib.dom.d.ts"))
	if err != nil {
		b.Fatal(err)
	}
	s := string(src[:1<<20])
	ref := reference(b)
	b.Run("scry", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for i := 0; i < b.N; i++ {
			count(s)
		}
	})
	b.Run("library", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for i := 0; i < b.N; i++ {
			ref(s)
		}
	})
}

// longWords are single pieces far longer than smallPiece, so that they take
// the heap merge: one letter repeated, letters in a random order (what a
// base64 or hex blob in a string literal is), real words run together, a
// run of one symbol, a run of spaces and a run of CJK text.
func longWords(n int) map[string]string {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, n)
	for i := range random {
		random[i] = "abcdefghijklmnopqrstuvwxyz"[rng.IntN(26)]
	}
	words := strings.Repeat("validatetokenandrefreshthesessionwhenexpired", n/44+1)[:n]
	return map[string]string{
		"repeated": strings.Repeat("a", n),
		"random":   string(random),
		"words":    words,
		"symbols":  strings.Repeat("=", n),
		"spaces":   strings.Repeat(" ", n) + "x",
		"cjk":      strings.Repeat("日本語のテキスト", n/24+1),
	}
}

func TestLongPiecesMatchLibrary(t *testing.T) {
	ref := reference(t)
	for _, n := range []int{smallPiece + 1, 200, 3000} {
		for name, s := range longWords(n) {
			if got, want := count(s), ref(s); got != want {
				t.Errorf("%s/%d: count = %d, library %d", name, n, got, want)
			}
		}
	}
}

// TestLongWordCountsInLinearTime counts words of a megabyte, the size of a
// file within the default limits that is one string literal. Merging by
// scanning every pair after every merge took minutes for one such word;
// the deadline is generous for the heap merge even under the race
// detector, and unreachable for the quadratic loop.
func TestLongWordCountsInLinearTime(t *testing.T) {
	ref := reference(t)
	_ = ref // loads the ranks
	words := longWords(1 << 20)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, name := range []string{"repeated", "random", "words"} {
			if n := count(words[name]); n <= 0 {
				t.Errorf("%s: count = %d", name, n)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("counting three 1 MB words did not finish in two minutes: merging is not linear")
	}
}

// FuzzMerge holds the heap merge equal to the scanning merge on any bytes.
func FuzzMerge(f *testing.F) {
	once.Do(load)
	for _, s := range longWords(300) {
		f.Add(s)
	}
	f.Add("ab")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) < 2 {
			return
		}
		if got, want := mergeLarge(s, ranks), mergeSmall(s, ranks); got != want {
			t.Errorf("mergeLarge(%q) = %d, mergeSmall %d", s, got, want)
		}
	})
}

// TestCacheBoundedInBytes: the count cache keys are whole answers; it used
// to keep 512 of them whatever their size.
func TestCacheBoundedInBytes(t *testing.T) {
	for i := range 40 {
		Count(strings.Repeat("word ", 200_000) + strconv.Itoa(i))
	}
	cacheMu.Lock()
	held := 0
	for s := range cache {
		held += len(s)
	}
	cacheMu.Unlock()
	if held > maxCachedBytes {
		t.Fatalf("the count cache holds %d bytes of text, more than %d", held, maxCachedBytes)
	}
}

// TestTableIsCurrent holds the embedded table equal to one encoded from
// the tiktoken loader module's o200k rank file (go.mod pins its version);
// with -update (the golden files' flag) it rewrites the table.
func TestTableIsCurrent(t *testing.T) {
	raw, err := assets.Assets.ReadFile("o200k_base.tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	toks, err := parseRankFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := encodeTable(toks)
	if golden.Updating() {
		if err := os.WriteFile("o200k.table", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if o200kTable != string(want) {
		t.Fatal("o200k.table differs from the loader's rank file: go test ./internal/tokens -run TestTableIsCurrent -update")
	}
	tab, err := newTable(o200kTable)
	if err != nil {
		t.Fatal(err)
	}
	for r, tok := range toks {
		if got, ok := tab.rank(tok); !ok || got != r {
			t.Fatalf("rank(%q) = %d, %v; want %d", tok, got, ok, r)
		}
	}
	for _, s := range []string{"", "\x00\x01\x02\x03", "notatokenatallsurely", strings.Repeat("z", 300)} {
		if _, ok := tab.rank(s); ok {
			t.Errorf("rank(%q) found a token", s)
		}
	}
}

// TestTableRejectsDamage: a table whose header or sizes are wrong is
// refused (counting then falls back to the byte estimate).
func TestTableRejectsDamage(t *testing.T) {
	good := encodeTable([]string{"a", "b", "ab"})
	if _, err := newTable(string(good)); err != nil {
		t.Fatalf("a good table: %v", err)
	}
	for name, bad := range map[string]string{
		"empty":     "",
		"magic":     "x" + string(good[1:]),
		"truncated": string(good[:len(good)-1]),
		"longer":    string(good) + "x",
	} {
		if _, err := newTable(bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
