package terms

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// joinedSplit is what the index stored before Joiner: Split's terms
// joined by spaces. Joiner must match it byte for byte, or every stored
// full-text column (and so every ranking) would change.
func joinedSplit(s string) string { return strings.Join(Split(s), " ") }

func TestJoinerMatchesSplit(t *testing.T) {
	texts := []string{
		"", " ", "a", "validateToken", "parseHTTPResponse getURLs APIs",
		"base64Encode sha256 utf8 i18n x1 v2", "user_id USER_ID userId __proto__ $scope",
		"The token is in the header of the request",
		"404 2024 1234567 0xff 0b101 0o17 1e10 100ms",
		"café ИмяФайла 日本語 ǅǆǄ İstanbul ẞ e\u0301 A\u0301B ⅫⅩ ᾈ ῼ 𝐀𝐁𝐜",
		"\xff\xfe broken\xffutf8 \xc3", strings.Repeat("a", 65), strings.Repeat("ab_", 30),
		strings.Repeat("Ab", 40) + " " + strings.Repeat("Ab", 40),
		sampleTS, sampleTS + sampleTS,
	}
	j := NewJoiner()
	for _, s := range texts {
		for pass := 0; pass < 2; pass++ { // the second from the identifier cache
			if got, want := string(j.Append(nil, s)), joinedSplit(s); got != want {
				t.Errorf("Append(%q), pass %d\n got %q\nwant %q", s, pass, got, want)
			}
		}
	}
}

// Appending texts one after another joins them as one text would with
// line breaks between them: the index's idents column is built that way.
func TestJoinerAppendsParts(t *testing.T) {
	tests := [][]string{
		{"validateToken", "function validateToken(t: string): boolean", "Checks a token.", "body()"},
		{"", "", "", ""},
		{"a", "", "the", "x"},
		{"", "fooBar", "", "bazQux"},
		{"name", "", "", ""},
		{"", "", "", "onlyBody"},
	}
	j := NewJoiner()
	for _, parts := range tests {
		var buf []byte
		for _, p := range parts {
			buf = j.Append(buf, p)
		}
		if got, want := string(buf), joinedSplit(strings.Join(parts, "\n")); got != want {
			t.Errorf("parts %q\n got %q\nwant %q", parts, got, want)
		}
	}
}

// TestJoinerMatchesSplitOnCode compares them on real code: the fixtures,
// and the test corpus when SCRY_CORPUS names it.
func TestJoinerMatchesSplitOnCode(t *testing.T) {
	roots := []string{filepath.Join("..", "..", "testdata")}
	if c := os.Getenv("SCRY_CORPUS"); c != "" {
		roots = append(roots, c)
	}
	j := NewJoiner()
	files, bytes := 0, 0
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch filepath.Ext(p) {
			case ".ts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".md", ".txt":
			default:
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil || len(data) > 4<<20 {
				return nil
			}
			s := string(data)
			if got, want := string(j.Append(nil, s)), joinedSplit(s); got != want {
				t.Errorf("%s: Joiner and Split differ", p)
			}
			files++
			bytes += len(data)
			return nil
		})
	}
	t.Logf("%d files, %d bytes", files, bytes)
	if files == 0 {
		t.Fatal("no files compared")
	}
}

func FuzzJoiner(f *testing.F) {
	for _, s := range []string{
		"parseHTTPResponse", "base64Encode", "user_id", "getURLs", "0xff",
		"café ИмяФайла 日本語", "ǅǆǄ İstanbul ẞ", "\xff\xfe", "e\u0301", "A\u0301B",
		"class Foo<in T, out U> extends Bar {}",
	} {
		f.Add(s, "prefix")
	}
	j := NewJoiner()
	f.Fuzz(func(t *testing.T, s, prefix string) {
		if got, want := string(j.Append(nil, s)), joinedSplit(s); got != want {
			t.Fatalf("Append(%q)\n got %q\nwant %q", s, got, want)
		}
		buf := j.Append(j.Append(nil, prefix), s)
		if got, want := string(buf), joinedSplit(prefix+"\n"+s); got != want {
			t.Fatalf("Append(%q) after %q\n got %q\nwant %q", s, prefix, got, want)
		}
	})
}

func BenchmarkJoinerChunks(b *testing.B) {
	j := NewJoiner()
	var buf []byte
	benchChunksEach(b, func(c string) { buf = j.Append(buf[:0], c) })
}

func BenchmarkSplitJoinChunks(b *testing.B) {
	benchChunksEach(b, func(c string) { joinedSplit(c) })
}
