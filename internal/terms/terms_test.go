package terms

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"validateToken", []string{"valid", "token", "validatetoken"}},
		{"parseHTTPResponse", []string{"pars", "http", "respons", "parsehttpresponse"}},
		{"HTTPSServer", []string{"https", "server", "httpsserver"}},
		{"XMLHttpRequest", []string{"xml", "http", "request", "xmlhttprequest"}},
		{"IOError", []string{"io", "error", "ioerror"}},
		// A plural "s" stays with its acronym.
		{"getURLs", []string{"get", "url", "geturls"}},
		{"APIs", []string{"api"}},
		{"base64Encode", []string{"base", "64", "encod", "base64encode"}},
		{"sha256", []string{"sha", "256", "sha256"}},
		// One-character parts go, the whole identifier stays.
		{"utf8", []string{"utf", "utf8"}},
		{"i18n", []string{"18", "i18n"}},
		{"x1 v2", []string{"x1", "v2"}},
		// snake, SCREAMING and camel spellings meet on the same terms.
		{"user_id", []string{"user", "id", "userid"}},
		{"USER_ID", []string{"user", "id", "userid"}},
		{"userId", []string{"user", "id", "userid"}},
		{"MAX_RETRY_COUNT", []string{"max", "retri", "count", "maxretrycount"}},
		{"__proto__ $scope _private", []string{"proto", "scope", "privat"}},
		{"$el", []string{"el"}},
		// kebab-case is split by the hyphen; the parts are separate words.
		{"my-component", []string{"my", "compon"}},
		{"isValid", []string{"valid", "isvalid"}},
		{"a b c", nil},
		// Stems: one stem for a word's family.
		{"validating validation validate validates validated", []string{"valid", "valid", "valid", "valid", "valid"}},
		{"running runs", []string{"run", "run"}},
		// Prose stop words go.
		{"The token is in the header of the request", []string{"token", "header", "request"}},
		// Numbers: short runs stay, long runs and radix literals go.
		{"404 2024 1234567 0xff 0b101 0o17", []string{"404", "2024"}},
		{"1e10 100ms", []string{"10", "100", "ms"}},
		// Other scripts are lowercased and split at case changes, not stemmed.
		{"café ИмяФайла 日本語", []string{"café", "имя", "файла", "имяфайла", "日本語"}},
		{"foo.bar(baz, qux)", []string{"foo", "bar", "baz", "qux"}},
		{"import { createHash } from 'node:crypto';", []string{"import", "creat", "hash", "createhash", "node", "crypto"}},
		{"/** Verifies the JWT signature. */", []string{"verifi", "jwt", "signatur"}},
		{strings.Repeat("a", 65), nil},
		{"\xff\xfe broken\xffutf8", []string{"broken", "utf", "utf8"}},
	}
	for _, tt := range tests {
		wantTerms(t, "Split", Split, tt.in, tt.want)
	}
}

func TestQuery(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"validate token", []string{"valid", "token"}},
		{"validateToken", []string{"valid", "token", "validatetoken"}},
		{"where is the token validated? validate TOKEN", []string{"token", "valid"}},
		{`"quoted" NEAR(a b) foo* -bar (baz)`, []string{"quot", "near", "foo", "bar", "baz"}},
		{"   ", nil},
	}
	for _, tt := range tests {
		wantTerms(t, "Query", Query, tt.in, tt.want)
	}
}

// wantTerms checks that f (named name) gives want for in; nil and empty
// are the same.
func wantTerms(t *testing.T, name string, f func(string) []string, in string, want []string) {
	t.Helper()
	got := f(in)
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s(%q)\n got %q\nwant %q", name, in, got, want)
	}
}

// A query word must land on the term an identifier fragment produced.
func TestQueryMeetsIdentifier(t *testing.T) {
	pairs := [][2]string{
		{"validation of tokens", "validateToken"},
		{"parsing the http responses", "parseHTTPResponse"},
		{"encoding to base 64", "base64Encode"},
		{"user ids", "getUserIDs"},
		{"retry count", "MAX_RETRY_COUNT"},
	}
	for _, p := range pairs {
		doc := Split(p[1])
		for _, q := range Query(p[0]) {
			if !slices.Contains(doc, q) {
				t.Errorf("query %q term %q not among Split(%q) = %q", p[0], q, p[1], doc)
			}
		}
	}
}

func TestStopWordsAreLowercase(t *testing.T) {
	for w := range stopWords {
		if strings.ToLower(w) != w || !IsStopWord(w) {
			t.Errorf("stop word %q", w)
		}
	}
}

// Results must not alias the input: the store keeps terms, callers reuse buffers.
func TestSplitDoesNotAliasInput(t *testing.T) {
	buf := []byte("someUniqueIdentifierXyz")
	got := Split(string(buf))
	want := slices.Clone(got)
	for i := range buf {
		buf[i] = 'q'
	}
	if !slices.Equal(got, want) {
		t.Fatalf("terms changed with the input: %q", got)
	}
}

func checkTerms(t *testing.T, in string, got []string) {
	t.Helper()
	for _, term := range got {
		if term == "" {
			t.Fatalf("Split(%q): empty term in %q", in, got)
		}
		if strings.ToLower(term) != term {
			t.Fatalf("Split(%q): term %q not lowercase", in, term)
		}
		if !utf8.ValidString(term) {
			t.Fatalf("Split(%q): term %q not UTF-8", in, term)
		}
		if len(term) > maxTermBytes {
			t.Fatalf("Split(%q): term %q too long", in, term)
		}
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"parseHTTPResponse", "base64Encode", "user_id", "getURLs", "0xff",
		"café ИмяФайла 日本語", "ǅǆǄ İstanbul ẞ", "\xff\xfe", "e\u0301", "A\u0301B",
		"ⅫⅩ ᾈ ῼ", "𝐀𝐁𝐜", "class Foo<in T, out U> extends Bar {}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkTerms(t, s, Split(s))
		all := Split(s)
		var want []string
		for i, term := range all {
			if i%2 == 0 {
				want = append(want, term)
			}
		}
		checkWanted(t, s, want)
		q := Query(s)
		checkTerms(t, s, q)
		seen := map[string]bool{}
		for _, term := range q {
			if seen[term] {
				t.Fatalf("Query(%q): duplicate %q", s, term)
			}
			seen[term] = true
		}
	})
}

// benchCode returns about n bytes of TypeScript: the repository's fixtures
// repeated, or a built-in sample when they are not there.
func benchCode(b *testing.B, n int) string {
	b.Helper()
	var src strings.Builder
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "fixtures", "*.ts"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err == nil {
			src.Write(data)
		}
	}
	if src.Len() == 0 {
		src.WriteString(sampleTS)
	}
	unit := src.String()
	var out strings.Builder
	for out.Len() < n {
		out.WriteString(unit)
	}
	return out.String()[:n]
}

const sampleTS = `import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Verifies a bearer token and returns its decoded claims.
 * @throws TokenExpiredError when the token is past its expiry.
 */
export async function validateToken(token: string, opts: ValidateOptions = {}): Promise<Claims> {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) throw new MalformedTokenError('expected 3 parts');
  const expected = createHash('sha256').update(header + '.' + payload).digest('base64url');
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    throw new InvalidSignatureError();
  }
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
  if (claims.exp * 1000 < (opts.now ?? Date.now())) throw new TokenExpiredError(claims.exp);
  return claims;
}

export class HTTPRequestParser<TBody = unknown> {
  private readonly maxHeaderSize = 8192;
  constructor(private readonly headers: IncomingHttpHeaders) {}
  parseContentType(): string | undefined {
    return this.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  }
}
`

func BenchmarkSplit(b *testing.B) {
	code := benchCode(b, 1<<20)
	b.SetBytes(int64(len(code)))
	b.ReportAllocs()
	for b.Loop() {
		Split(code)
	}
}

// benchChunks cuts a megabyte of benchCode into chunk-sized pieces of 600
// bytes.
func benchChunks(b *testing.B) []string {
	b.Helper()
	code := benchCode(b, 1<<20)
	var chunks []string
	for len(code) > 0 {
		n := min(len(code), 600)
		chunks = append(chunks, code[:n])
		code = code[n:]
	}
	return chunks
}

// Chunks are split one at a time, so the per-call cost on small inputs
// matters as much as throughput.
func BenchmarkSplitChunks(b *testing.B) {
	benchChunksEach(b, func(c string) { Split(c) })
}

// benchChunksEach times f on each of benchChunks' chunks, in MiB/s.
func benchChunksEach(b *testing.B, f func(chunk string)) {
	chunks := benchChunks(b)
	b.SetBytes(1 << 20)
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range chunks {
			f(c)
		}
	}
}

// checkWanted: SplitWanted finds exactly the wanted terms that Split finds.
func checkWanted(t *testing.T, text string, want []string) {
	t.Helper()
	isWanted := map[string]bool{}
	for _, w := range want {
		isWanted[w] = true
	}
	found := func(ts []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range ts {
			if isWanted[x] {
				m[x] = true
			}
		}
		return m
	}
	full, fast := found(Split(text)), found(SplitWanted(text, InitialsOf(want)))
	for w := range full {
		if !fast[w] {
			t.Errorf("SplitWanted(%q) misses %q, which Split finds", text, w)
		}
	}
	for w := range fast {
		if !full[w] {
			t.Errorf("SplitWanted(%q) finds %q, which Split does not", text, w)
		}
	}
}

func TestSplitWanted(t *testing.T) {
	tests := []struct{ text, query string }{
		// The stemmer's irregular words keep their first letter.
		{"Dying, lying and tying skies; early, only, gently, ugly, singly, idly.", "die lie tie sky early only gently ugly singly idly"},
		{"function validateToken(HTTPResponse) { return getURLs(user_id) }", "validateToken http responses urls user_id get"},
		{"café ИмяФайла 日本語 İstanbul Ürün", "café имяфайла istanbul ürün"},
		{"const x = 404; base64Encode(0xff)", "404 base 64 encode"},
		{"nothing here matches", "zebra quokka"},
	}
	for _, tc := range tests {
		checkWanted(t, tc.text, Query(tc.query))
		if got := len(SplitWanted(tc.text, InitialsOf(nil))); got > 0 && !strings.ContainsAny(tc.text, "éИ日İÜ") {
			t.Errorf("SplitWanted(%q) with nothing wanted returns %d terms", tc.text, got)
		}
	}
}
