package chunkcheck

import (
	"strings"

	"github.com/scry-dev/scry/internal/chunk"
)

// spec describes one chunk of a hand-built chunk set; build derives the rest
// (source, depth, children, breadcrumb, embedding text) the way a correct
// chunker would.
type spec struct {
	id, parent, kind, name string
	start, end             int
	imports                []string
}

func build(path, src string, specs ...spec) []chunk.Chunk {
	lines := fileLines([]byte(src))
	out := make([]chunk.Chunk, len(specs))
	index := map[string]int{}
	for i, s := range specs {
		index[s.id] = i
		out[i] = chunk.Chunk{
			ID:              s.id,
			FilePath:        "/repo/" + path,
			RelativePath:    path,
			NodeKind:        s.kind,
			Name:            s.name,
			ParentChunkID:   s.parent,
			StartLine:       s.start,
			EndLine:         s.end,
			FullSource:      sliceSource(src, s.start, s.end),
			RelevantImports: s.imports,
		}
	}
	for i := range out {
		if p := out[i].ParentChunkID; p != "" {
			out[index[p]].ChildChunkIDs = append(out[index[p]].ChildChunkIDs, out[i].ID)
			out[i].ParentName = out[index[p]].Name
		}
	}
	for i := range out {
		names := []string{out[i].Name}
		for p := out[i].ParentChunkID; p != ""; p = out[index[p]].ParentChunkID {
			names = append([]string{out[index[p]].Name}, names...)
			out[i].Depth++
		}
		out[i].Breadcrumb = path + BreadcrumbSep + strings.Join(names, BreadcrumbSep)
	}
	for i := range out {
		out[i].EmbeddingText = collapse(lines, out, index, i)
	}
	return out
}

// collapse renders chunk i with each multi-line body-bearing child replaced by
// the child's leading comments plus its first code line turned into a stub.
func collapse(lines []string, all []chunk.Chunk, index map[string]int, i int) string {
	c := all[i]
	leaf := true
	for _, id := range c.ChildChunkIDs {
		if k := all[index[id]]; k.EndLine > k.StartLine && IsBodyBearing(k) {
			leaf = false
		}
	}
	if leaf {
		return c.FullSource // nothing to collapse: the text as it is, terminators included
	}
	var out []string
	for l := c.StartLine; l <= c.EndLine; l++ {
		var kid *chunk.Chunk
		for _, id := range c.ChildChunkIDs {
			k := &all[index[id]]
			if k.StartLine == l && k.EndLine > k.StartLine && IsBodyBearing(*k) {
				kid = k
			}
		}
		if kid == nil {
			out = append(out, lines[l-1])
			continue
		}
		info := scanLines(kid.FullSource)
		for j, kl := range strings.Split(kid.FullSource, "\n") {
			if info[j].commentOnly {
				out = append(out, kl)
				continue
			}
			out = append(out, strings.TrimRight(strings.TrimSuffix(strings.TrimRight(kl, " \r"), "{"), " ")+";")
			break
		}
		l = kid.EndLine
	}
	return strings.TrimSuffix(strings.Join(out, "\n"), "\r")
}

func find(chunks []chunk.Chunk, id string) *chunk.Chunk {
	for i := range chunks {
		if chunks[i].ID == id {
			return &chunks[i]
		}
	}
	panic("no chunk " + id)
}

func without(chunks []chunk.Chunk, id string) []chunk.Chunk {
	var out []chunk.Chunk
	for _, c := range chunks {
		if c.ID != id {
			out = append(out, c)
		}
	}
	return out
}

func rules(vs []Violation) map[int]int {
	m := map[int]int{}
	for _, v := range vs {
		m[v.Rule]++
	}
	return m
}
