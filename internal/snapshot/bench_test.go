package snapshot

import "testing"

// BenchmarkBuild measures a whole Build (parse included) of the
// single-method fixture, the common case of one result in a mid-size file.
func BenchmarkBuild(b *testing.B) {
	source, _ := readCase(b, "testdata/single-method.txtar")
	src := []byte(source.Data)
	targets := []Target{{StartLine: 28, EndLine: 35}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build("src/single-method.ts", src, targets); err != nil {
			b.Fatal(err)
		}
	}
}
