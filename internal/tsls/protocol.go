package tsls

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// The subset of LSP 3.17 types that scry uses. Positions are 0-based lines
// and UTF-16 code-unit columns, as the protocol defines them (the server is
// offered no other encoding, so that is what it answers in).

// Position is a 0-based line and a 0-based UTF-16 column.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Less orders positions in a document.
func (p Position) Less(q Position) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Character < q.Character)
}

// Range is a half-open span [Start, End).
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Contains reports whether p lies in r (start inclusive, end inclusive so a
// position right after an identifier still counts as inside it).
func (r Range) Contains(p Position) bool {
	return !p.Less(r.Start) && !r.End.Less(p)
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// Path returns the file path of the location's URI.
func (l Location) Path() string { return URIToPath(l.URI) }

// SymbolKind is the LSP symbol kind.
type SymbolKind int

// LSP symbol kinds.
const (
	KindFile          SymbolKind = 1
	KindModule        SymbolKind = 2
	KindNamespace     SymbolKind = 3
	KindPackage       SymbolKind = 4
	KindClass         SymbolKind = 5
	KindMethod        SymbolKind = 6
	KindProperty      SymbolKind = 7
	KindField         SymbolKind = 8
	KindConstructor   SymbolKind = 9
	KindEnum          SymbolKind = 10
	KindInterface     SymbolKind = 11
	KindFunction      SymbolKind = 12
	KindVariable      SymbolKind = 13
	KindConstant      SymbolKind = 14
	KindString        SymbolKind = 15
	KindNumber        SymbolKind = 16
	KindBoolean       SymbolKind = 17
	KindArray         SymbolKind = 18
	KindObject        SymbolKind = 19
	KindKey           SymbolKind = 20
	KindNull          SymbolKind = 21
	KindEnumMember    SymbolKind = 22
	KindStruct        SymbolKind = 23
	KindEvent         SymbolKind = 24
	KindOperator      SymbolKind = 25
	KindTypeParameter SymbolKind = 26
)

var kindNames = map[SymbolKind]string{
	KindFile: "file", KindModule: "module", KindNamespace: "namespace", KindPackage: "package",
	KindClass: "class", KindMethod: "method", KindProperty: "property", KindField: "field",
	KindConstructor: "constructor", KindEnum: "enum", KindInterface: "interface",
	KindFunction: "function", KindVariable: "variable", KindConstant: "const",
	KindString: "string", KindNumber: "number", KindBoolean: "boolean", KindArray: "array",
	KindObject: "object", KindKey: "key", KindNull: "null", KindEnumMember: "enum-member",
	KindStruct: "struct", KindEvent: "event", KindOperator: "operator",
	KindTypeParameter: "type-parameter",
}

// String returns a lower-case name matching scry's parser kinds where they
// overlap ("function", "method", "class", "enum-member", ...).
func (k SymbolKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("kind%d", int(k))
}

// DocumentSymbol is one node of textDocument/documentSymbol's hierarchy.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           SymbolKind       `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// SymbolInformation is one workspace/symbol answer.
type SymbolInformation struct {
	Name          string     `json:"name"`
	Kind          SymbolKind `json:"kind"`
	ContainerName string     `json:"containerName,omitempty"`
	Location      Location   `json:"location"`
}

// CallHierarchyItem identifies a callable declaration. Data must be passed
// back unchanged to incomingCalls/outgoingCalls.
type CallHierarchyItem struct {
	Name           string          `json:"name"`
	Kind           SymbolKind      `json:"kind"`
	Detail         string          `json:"detail,omitempty"`
	URI            string          `json:"uri"`
	Range          Range           `json:"range"`
	SelectionRange Range           `json:"selectionRange"`
	Data           json.RawMessage `json:"data,omitempty"`
}

// Path returns the file path of the item's URI.
func (c CallHierarchyItem) Path() string { return URIToPath(c.URI) }

// IncomingCall is a caller of an item with the call sites inside the caller.
type IncomingCall struct {
	From       CallHierarchyItem `json:"from"`
	FromRanges []Range           `json:"fromRanges"`
}

// OutgoingCall is a callee of an item with the call sites inside the item.
type OutgoingCall struct {
	To         CallHierarchyItem `json:"to"`
	FromRanges []Range           `json:"fromRanges"`
}

// Hover is a hover answer; Contents is the raw text (markdown when the server
// honours the requested format, which tsgo does).
type Hover struct {
	Contents string `json:"contents"`
	Range    *Range `json:"range,omitempty"`
}

// UnmarshalJSON accepts every shape LSP allows for hover contents:
// MarkupContent, MarkedString, or an array of MarkedString.
func (h *Hover) UnmarshalJSON(b []byte) error {
	var raw struct {
		Contents json.RawMessage `json:"contents"`
		Range    *Range          `json:"range"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	h.Range = raw.Range
	h.Contents = markedText(raw.Contents)
	return nil
}

func markedText(b json.RawMessage) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return ""
	}
	switch b[0] {
	case '"':
		var s string
		_ = json.Unmarshal(b, &s)
		return s
	case '[':
		var parts []json.RawMessage
		_ = json.Unmarshal(b, &parts)
		var out []string
		for _, p := range parts {
			if s := markedText(p); s != "" {
				out = append(out, s)
			}
		}
		return strings.Join(out, "\n")
	case '{':
		var m struct {
			Kind     string `json:"kind"`
			Language string `json:"language"`
			Value    string `json:"value"`
		}
		_ = json.Unmarshal(b, &m)
		if m.Language != "" {
			// MarkedString {language, value}: a code block.
			return "```" + m.Language + "\n" + m.Value + "\n```"
		}
		return m.Value
	}
	return ""
}

// Code returns the first fenced code block of the hover (the declaration's
// signature as the compiler prints it), or the whole text when it has none.
func (h *Hover) Code() string {
	if h == nil {
		return ""
	}
	return HoverCode(h.Contents)
}

// HoverCode extracts the first fenced code block of hover markdown.
func HoverCode(md string) string {
	start := strings.Index(md, "```")
	if start < 0 {
		return strings.TrimSpace(md)
	}
	rest := md[start+3:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return strings.TrimSpace(md)
	}
	rest = rest[nl+1:]
	end := strings.Index(rest, "```")
	if end < 0 {
		end = len(rest)
	}
	return strings.TrimSpace(rest[:end])
}

// decodeLocations accepts Location, Location[], LocationLink[] or null, the
// shapes definition and implementation may answer with.
func decodeLocations(b json.RawMessage) ([]Location, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil, nil
	}
	if b[0] == '{' {
		var l Location
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, err
		}
		return []Location{l}, nil
	}
	var items []struct {
		URI                  string `json:"uri"`
		Range                *Range `json:"range"`
		TargetURI            string `json:"targetUri"`
		TargetSelectionRange *Range `json:"targetSelectionRange"`
	}
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, err
	}
	out := make([]Location, 0, len(items))
	for _, it := range items {
		switch {
		case it.TargetURI != "" && it.TargetSelectionRange != nil:
			out = append(out, Location{URI: it.TargetURI, Range: *it.TargetSelectionRange})
		case it.URI != "" && it.Range != nil:
			out = append(out, Location{URI: it.URI, Range: *it.Range})
		}
	}
	return out, nil
}

// PathToURI converts an absolute file path to a file:// URI.
func PathToURI(path string) string {
	path = filepath.ToSlash(path)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path // Windows drive paths: file:///C:/...
	}
	u := url.URL{Scheme: "file", Path: path}
	return u.String()
}

// URIToPath converts a file:// URI back to a native path. Other schemes are
// returned unchanged so callers can recognise them as non-files.
func URIToPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // /C:/x → C:/x
	}
	return filepath.FromSlash(p)
}
