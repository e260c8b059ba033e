package lines

import (
	"reflect"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		starts []int
		split  []string
		after  []string
	}{
		{"empty", "", []int{0}, []string{""}, nil},
		{"one line", "a", []int{0}, []string{"a"}, []string{"a"}},
		{"LF", "a\nbc\n", []int{0, 2, 5}, []string{"a", "bc", ""}, []string{"a\n", "bc\n"}},
		{"CRLF", "a\r\nbc\r\n", []int{0, 3, 7}, []string{"a", "bc", ""}, []string{"a\r\n", "bc\r\n"}},
		{"lone CR", "a\rbc\rd", []int{0, 2, 5}, []string{"a", "bc", "d"}, []string{"a\r", "bc\r", "d"}},
		{"mixed", "a\r\rb\n\r\nc", []int{0, 2, 3, 5, 7}, []string{"a", "", "b", "", "c"}, []string{"a\r", "\r", "b\n", "\r\n", "c"}},
		{"blank lines", "\n\n", []int{0, 1, 2}, []string{"", "", ""}, []string{"\n", "\n"}},
		{"no final LF", "ab\ncd", []int{0, 3}, []string{"ab", "cd"}, []string{"ab\n", "cd"}},
		{"CR last", "a\nb\r", []int{0, 2, 4}, []string{"a", "b", ""}, []string{"a\n", "b\r"}},
		// ECMAScript's other line terminators end no line, as in the
		// language server protocol (TestLineSeparatorsAsTheCompilerCounts).
		{"LS and PS", "a\u2028b\u2029c\nd", []int{0, 10}, []string{"a\u2028b\u2029c", "d"}, []string{"a\u2028b\u2029c\n", "d"}},
		{"NEL", "a\u0085b", []int{0}, []string{"a\u0085b"}, []string{"a\u0085b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			starts := Starts([]byte(tt.src))
			if !reflect.DeepEqual(starts, tt.starts) {
				t.Errorf("Starts = %v, want %v", starts, tt.starts)
			}
			if got := Split(tt.src); !reflect.DeepEqual(got, tt.split) {
				t.Errorf("Split = %q, want %q", got, tt.split)
			}
			if got := SplitAfter(tt.src); !reflect.DeepEqual(got, tt.after) {
				t.Errorf("SplitAfter = %q, want %q", got, tt.after)
			}
			if got := strings.Join(SplitAfter(tt.src), ""); got != tt.src {
				t.Errorf("SplitAfter does not join back: %q", got)
			}
			for l := 1; l <= len(starts); l++ {
				s, e := starts[l-1], End([]byte(tt.src), starts, l)
				if got := tt.src[s:e]; got != tt.split[l-1] {
					t.Errorf("line %d = %q, want %q", l, got, tt.split[l-1])
				}
				if Of(starts, s) != l {
					t.Errorf("Of(%d) = %d, want %d", s, Of(starts, s), l)
				}
			}
			if got, want := Total(starts, len(tt.src)), len(tt.after); got != want && !(tt.src == "" && got == 1) {
				t.Errorf("Total = %d, want %d", got, want)
			}
			if Count([]byte(tt.src)) != len(tt.starts)-1 {
				t.Errorf("Count = %d", Count([]byte(tt.src)))
			}
			if got, want := TotalOf([]byte(tt.src)), Total(starts, len(tt.src)); got != want {
				t.Errorf("TotalOf = %d, want %d", got, want)
			}
		})
	}
}

func TestTrim(t *testing.T) {
	for in, want := range map[string]string{"a\n": "a", "a\r\n": "a", "a\r": "a", "a": "a", "": ""} {
		if got := Trim(in); got != want {
			t.Errorf("Trim(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzStarts(f *testing.F) {
	for _, s := range []string{"", "a", "a\n", "\n\n", "a\r\nb", "a\rb\n", "\r", "\r\n\r", strings.Repeat("line\n", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		starts := Starts(src)
		// The byte-at-a-time scan, which Starts skips where only "\n" ends
		// lines, is the reference.
		if want := startsByByte(src, []int{0}); !reflect.DeepEqual(starts, want) {
			t.Fatalf("Starts(%q) = %v, want %v", s, starts, want)
		}
		if got, want := Count(src), len(starts)-1; got != want {
			t.Fatalf("Count(%q) = %d, want %d", s, got, want)
		}
		if got, want := TotalOf(src), Total(starts, len(src)); got != want {
			t.Fatalf("TotalOf(%q) = %d, want %d", s, got, want)
		}
	})
}
