package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The JSON configuration files of agents are edited in place, as text: a
// parser that keeps every value's byte offsets finds where the server entry
// goes, and only those bytes change, so the user's other entries, their
// order, their formatting and (in JSON with comments, as VS Code and Zed
// write) their comments stay as they were.

// jsonMember is one member of an object: its key and the byte offsets of
// its key and value.
type jsonMember struct {
	key              string
	keyStart         int
	valStart, valEnd int
}

// jsonObject is an object's braces and members.
type jsonObject struct {
	open, close int // offsets of '{' and '}'
	members     []jsonMember
}

func (o jsonObject) find(key string) (jsonMember, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m, true
		}
	}
	return jsonMember{}, false
}

// syntaxError is a malformed file: where, and what was expected.
type syntaxError struct {
	line, col int
	msg       string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.line, e.col, e.msg)
}

type jsonScanner struct {
	src []byte
	pos int
}

func (s *jsonScanner) fail(format string, args ...any) error {
	line, col := 1, 1
	for _, c := range s.src[:min(s.pos, len(s.src))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &syntaxError{line: line, col: col, msg: fmt.Sprintf(format, args...)}
}

// skip passes whitespace and comments (// to the end of the line, /* */).
func (s *jsonScanner) skip() error {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.pos++
		case c == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '/':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
		case c == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '*':
			end := bytes.Index(s.src[s.pos+2:], []byte("*/"))
			if end < 0 {
				return s.fail("unterminated comment")
			}
			s.pos += end + 4
		default:
			return nil
		}
	}
	return nil
}

// maxDepth bounds nesting, so that a hostile file cannot exhaust the stack.
const maxDepth = 512

// value scans one value and returns its span.
func (s *jsonScanner) value(depth int) (start, end int, err error) {
	if depth > maxDepth {
		return 0, 0, s.fail("nested more than %d levels", maxDepth)
	}
	if err := s.skip(); err != nil {
		return 0, 0, err
	}
	if s.pos >= len(s.src) {
		return 0, 0, s.fail("unexpected end of file")
	}
	start = s.pos
	switch c := s.src[s.pos]; {
	case c == '{':
		if _, err := s.object(depth); err != nil {
			return 0, 0, err
		}
	case c == '[':
		s.pos++
		for {
			if err := s.skip(); err != nil {
				return 0, 0, err
			}
			if s.pos < len(s.src) && s.src[s.pos] == ']' {
				s.pos++
				break
			}
			if _, _, err := s.value(depth + 1); err != nil {
				return 0, 0, err
			}
			if err := s.skip(); err != nil {
				return 0, 0, err
			}
			if s.pos < len(s.src) && s.src[s.pos] == ',' {
				s.pos++
				continue
			}
			if s.pos < len(s.src) && s.src[s.pos] == ']' {
				s.pos++
				break
			}
			return 0, 0, s.fail("expected , or ] in an array")
		}
	case c == '"':
		if _, err := s.str(); err != nil {
			return 0, 0, err
		}
	default:
		for s.pos < len(s.src) && strings.IndexByte("+-.0123456789eEtruefalsn", s.src[s.pos]) >= 0 {
			s.pos++
		}
		lit := s.src[start:s.pos]
		var v any
		if len(lit) == 0 || json.Unmarshal(lit, &v) != nil {
			s.pos = start
			return 0, 0, s.fail("unexpected %q", string(s.src[start:min(start+10, len(s.src))]))
		}
	}
	return start, s.pos, nil
}

// str scans a string and returns its decoded text.
func (s *jsonScanner) str() (string, error) {
	start := s.pos
	s.pos++
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case '\\':
			s.pos += 2
			continue
		case '"':
			s.pos++
			var out string
			if err := json.Unmarshal(s.src[start:s.pos], &out); err != nil {
				s.pos = start
				return "", s.fail("malformed string")
			}
			return out, nil
		case '\n':
			return "", s.fail("newline in a string")
		}
		s.pos++
	}
	return "", s.fail("unterminated string")
}

// object scans an object at '{' (trailing commas allowed, as in JSON with
// comments).
func (s *jsonScanner) object(depth int) (jsonObject, error) {
	o := jsonObject{open: s.pos}
	s.pos++
	for {
		if err := s.skip(); err != nil {
			return o, err
		}
		if s.pos >= len(s.src) {
			return o, s.fail("unterminated object")
		}
		if s.src[s.pos] == '}' {
			o.close = s.pos
			s.pos++
			return o, nil
		}
		if s.src[s.pos] != '"' {
			return o, s.fail("expected a quoted key")
		}
		m := jsonMember{keyStart: s.pos}
		key, err := s.str()
		if err != nil {
			return o, err
		}
		m.key = key
		if err := s.skip(); err != nil {
			return o, err
		}
		if s.pos >= len(s.src) || s.src[s.pos] != ':' {
			return o, s.fail("expected : after a key")
		}
		s.pos++
		if m.valStart, m.valEnd, err = s.value(depth + 1); err != nil {
			return o, err
		}
		o.members = append(o.members, m)
		if err := s.skip(); err != nil {
			return o, err
		}
		if s.pos < len(s.src) && s.src[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos < len(s.src) && s.src[s.pos] == '}' {
			continue
		}
		return o, s.fail("expected , or } in an object")
	}
}

// parseTop parses a whole file whose top level must be an object.
func parseTop(src []byte) (jsonObject, error) {
	s := &jsonScanner{src: src}
	if err := s.skip(); err != nil {
		return jsonObject{}, err
	}
	if s.pos >= len(s.src) || s.src[s.pos] != '{' {
		return jsonObject{}, s.fail("the top level is not an object")
	}
	o, err := s.object(0)
	if err != nil {
		return o, err
	}
	if err := s.skip(); err != nil {
		return o, err
	}
	if s.pos != len(s.src) {
		return o, s.fail("text after the top-level object")
	}
	return o, nil
}

// objectAt parses the object value starting at offset start.
func objectAt(src []byte, start int) (jsonObject, bool) {
	if start >= len(src) || src[start] != '{' {
		return jsonObject{}, false
	}
	s := &jsonScanner{src: src, pos: start}
	o, err := s.object(0)
	return o, err == nil
}

// lineIndent is the whitespace that starts the line holding offset off.
func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// indentUnit is one level of the file's indentation, from its first
// member (two spaces when that cannot tell).
func indentUnit(src []byte, top jsonObject) string {
	if len(top.members) > 0 {
		k := top.members[0].keyStart
		if ind := lineIndent(src, k); ind != "" && bytes.LastIndexByte(src[:k], '\n') > top.open {
			return ind
		}
	}
	return "  "
}

// memberText renders `"name": value` with value indented under indent.
func memberText(name string, value any, indent, unit string) (string, error) {
	k, err := marshal(name, "", "")
	if err != nil {
		return "", err
	}
	v, err := marshal(value, indent, unit)
	if err != nil {
		return "", err
	}
	return k + ": " + v, nil
}

func marshal(v any, prefix, indent string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// setJSONMember returns src with container[name] = value, where container
// is the top-level member key (created when missing).
func setJSONMember(src []byte, key, name string, value any) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	top, err := parseTop(src)
	if err != nil {
		return nil, err
	}
	unit := indentUnit(src, top)
	if m, ok := top.find(key); ok {
		obj, ok := objectAt(src, m.valStart)
		if !ok {
			return nil, fmt.Errorf("%q is not an object", key)
		}
		pind := lineIndent(src, m.keyStart)
		ind := pind + unit
		if e, ok := obj.find(name); ok {
			v, err := marshal(value, lineIndent(src, e.keyStart), unit)
			if err != nil {
				return nil, err
			}
			return splice(src, e.valStart, e.valEnd, v), nil
		}
		mt, err := memberText(name, value, ind, unit)
		if err != nil {
			return nil, err
		}
		if len(obj.members) == 0 {
			return splice(src, obj.open, obj.close+1, "{\n"+ind+mt+"\n"+pind+"}"), nil
		}
		return splice(src, obj.open+1, obj.open+1, "\n"+ind+mt+","), nil
	}
	inner, err := memberText(name, value, unit+unit, unit)
	if err != nil {
		return nil, err
	}
	k, _ := marshal(key, "", "")
	mt := k + ": {\n" + unit + unit + inner + "\n" + unit + "}"
	if len(top.members) == 0 {
		return splice(src, top.open, top.close+1, "{\n"+unit+mt+"\n}"), nil
	}
	return splice(src, top.open+1, top.open+1, "\n"+unit+mt+","), nil
}

// removeJSONMember returns src without container[name]; ok is false when
// there was no such member.
func removeJSONMember(src []byte, key, name string) (out []byte, ok bool, err error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return src, false, nil
	}
	top, err := parseTop(src)
	if err != nil {
		return nil, false, err
	}
	m, found := top.find(key)
	if !found {
		return src, false, nil
	}
	obj, isObj := objectAt(src, m.valStart)
	if !isObj {
		return nil, false, fmt.Errorf("%q is not an object", key)
	}
	for i, e := range obj.members {
		if e.key != name {
			continue
		}
		s := &jsonScanner{src: src, pos: e.valEnd}
		_ = s.skip()
		if s.pos < len(src) && src[s.pos] == ',' {
			// Followed by a comma: the member, the comma and the rest of
			// its line go (from the start of its line when only
			// indentation precedes it).
			start := e.keyStart
			if ls := bytes.LastIndexByte(src[:start], '\n') + 1; strings.TrimSpace(string(src[ls:start])) == "" && ls > obj.open {
				start = ls
			}
			end := s.pos + 1
			for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
				end++
			}
			if end < len(src) && src[end] == '\n' && start != e.keyStart {
				end++
			}
			return splice(src, start, end, ""), true, nil
		}
		if i > 0 {
			// The last member: the comma before it goes with it.
			p := &jsonScanner{src: src, pos: obj.members[i-1].valEnd}
			_ = p.skip()
			return splice(src, p.pos, e.valEnd, ""), true, nil
		}
		return splice(src, obj.open+1, e.valEnd, ""), true, nil
	}
	return src, false, nil
}

func splice(src []byte, start, end int, with string) []byte {
	out := make([]byte, 0, len(src)-(end-start)+len(with))
	out = append(out, src[:start]...)
	out = append(out, with...)
	return append(out, src[end:]...)
}

// jsonLookup decodes container[name] from src (comments allowed), or nil.
func jsonLookup(src []byte, key, name string) (json.RawMessage, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil
	}
	top, err := parseTop(src)
	if err != nil {
		return nil, err
	}
	m, ok := top.find(key)
	if !ok {
		return nil, nil
	}
	obj, ok := objectAt(src, m.valStart)
	if !ok {
		return nil, fmt.Errorf("%q is not an object", key)
	}
	e, ok := obj.find(name)
	if !ok {
		return nil, nil
	}
	return json.RawMessage(src[e.valStart:e.valEnd]), nil
}
