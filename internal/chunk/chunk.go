// Package chunk turns a parsed symbol tree into chunks (docs/architecture.md, rule 1):
// one chunk per symbol at every level down to parse.MaxDepth, body-bearing children collapsed to
// signature stubs in the embedding text, and every root statement its own chunk.
package chunk

import (
	"encoding/json"
	"strings"
)

// Chunk is one chunk as docs/architecture.md, rule 1, describes it (minus the vector and the per-file
// change-detection fields, which live with the file record in the store).
type Chunk struct {
	ID              string   `json:"id"`
	FilePath        string   `json:"filePath"`
	RelativePath    string   `json:"relativePath"`
	NodeKind        string   `json:"nodeKind"`
	Name            string   `json:"name"`
	ParentName      string   `json:"parentName,omitempty"`
	ParentChunkID   string   `json:"parentChunkId"`
	ChildChunkIDs   []string `json:"childChunkIds"`
	Depth           int      `json:"depth"`
	Signature       string   `json:"signature"`
	FullSource      string   `json:"fullSource"`
	StartLine       int      `json:"startLine"`
	EndLine         int      `json:"endLine"`
	JSDoc           string   `json:"jsdoc,omitempty"`
	RelevantImports []string `json:"relevantImports"`
	EmbeddingText   string   `json:"embeddingText"`
	Breadcrumb      string   `json:"breadcrumb"`
	Exported        bool     `json:"exported"`
	Modifiers       []string `json:"modifiers"`
}

// DisplayName is the name answers show: Parent.name for a member, the
// name alone for a top-level declaration. A callback's name is a phrase
// (`items.forEach() callback`), which a dot would run into its parent's:
// those are joined as breadcrumbs are.
func (c Chunk) DisplayName() string {
	if c.ParentName == "" || c.Depth == 0 {
		return c.Name
	}
	if strings.ContainsAny(c.ParentName, " (") || strings.ContainsAny(c.Name, " (") {
		return c.ParentName + " > " + c.Name
	}
	return c.ParentName + "." + c.Name
}

// MarshalJSON writes parentChunkId as null for root chunks, as rule 1 of
// docs/architecture.md says, and never writes null arrays.
func (c Chunk) MarshalJSON() ([]byte, error) {
	type plain Chunk
	out := struct {
		plain
		ParentChunkID *string `json:"parentChunkId"`
	}{plain: plain(c)}
	if c.ParentChunkID != "" {
		out.ParentChunkID = &c.ParentChunkID
	}
	for _, list := range []*[]string{&out.ChildChunkIDs, &out.RelevantImports, &out.Modifiers} {
		if *list == nil {
			*list = []string{} // JSON has an array, never null
		}
	}
	return json.Marshal(out)
}
