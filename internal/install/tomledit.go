package install

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// Codex CLI keeps its MCP servers as TOML tables ([mcp_servers.NAME]). The
// file is edited as lines: the server's table and its sub-tables
// ([mcp_servers.NAME.env]) are replaced or removed, and every other line
// (comments, order, formatting) is kept. The file is decoded before and
// after, so a malformed file is refused and a wrong edit is never written.

// tomlHeader matches a table header line ([a.b], not an array of tables).
var tomlHeader = regexp.MustCompile(`^\s*\[([^\[\]]+)\]\s*(#.*)?$`)

// tomlTableName normalises a header's dotted name: bare or quoted parts,
// spaces around dots ignored.
func tomlTableName(s string) string {
	var parts []string
	for _, p := range splitDotted(s) {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == '"' || p[0] == '\'') && p[len(p)-1] == p[0] {
			p = p[1 : len(p)-1]
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ".")
}

// splitDotted splits at dots outside quotes.
func splitDotted(s string) []string {
	var parts []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '.':
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// tomlServer is a server's table as scry writes it.
type tomlServer struct {
	Command string
	Args    []string
}

func (t tomlServer) text(table string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	args := make([]string, len(t.Args))
	for i, a := range t.Args {
		args[i] = q(a)
	}
	return fmt.Sprintf("[%s]\ncommand = %s\nargs = [%s]\n", table, q(t.Command), strings.Join(args, ", "))
}

// decodeTOML decodes src, reporting a malformed file with its position.
func decodeTOML(src []byte) (map[string]any, error) {
	var m map[string]any
	if _, err := toml.Decode(string(src), &m); err != nil {
		return nil, err
	}
	return m, nil
}

// tomlLookup is the table at container.name, or nil.
func tomlLookup(doc map[string]any, container, name string) map[string]any {
	c, _ := doc[container].(map[string]any)
	t, _ := c[name].(map[string]any)
	return t
}

// editTOMLServer returns src with the table container.name replaced by
// server (or removed, when server is nil). found says whether the table was
// there before.
func editTOMLServer(src []byte, container, name string, server *tomlServer) (out []byte, found bool, err error) {
	doc, err := decodeTOML(src)
	if err != nil {
		return nil, false, err
	}
	had := tomlLookup(doc, container, name) != nil
	table := container + "." + name
	lines := strings.SplitAfter(string(src), "\n")
	var kept []string
	inserted := -1
	inTable := false
	for _, l := range lines {
		if m := tomlHeader.FindStringSubmatch(strings.TrimRight(l, "\r\n")); m != nil {
			n := tomlTableName(m[1])
			inTable = n == table || strings.HasPrefix(n, table+".")
			if inTable && inserted < 0 {
				inserted = len(kept)
			}
		}
		if !inTable {
			kept = append(kept, l)
		}
	}
	if had && inserted < 0 {
		return nil, true, fmt.Errorf("%s is written in a form scry does not edit (dotted keys or an inline table); edit it by hand", table)
	}
	if server != nil {
		block := server.text(table)
		if inserted >= 0 {
			// Where the old table was, followed by a blank line when
			// something follows.
			if inserted < len(kept) {
				block += "\n"
			}
			kept = append(kept[:inserted], append([]string{block}, kept[inserted:]...)...)
		} else {
			text := strings.Join(kept, "")
			sep := ""
			if text != "" && !strings.HasSuffix(text, "\n") {
				sep = "\n"
			}
			if strings.TrimSpace(text) != "" {
				sep += "\n"
			}
			kept = []string{text + sep + block}
		}
	}
	out = []byte(strings.Join(kept, ""))
	check, err := decodeTOML(out)
	if err != nil {
		return nil, had, fmt.Errorf("the edited file would not decode (%v); left unchanged", err)
	}
	got := tomlLookup(check, container, name)
	if (server == nil) != (got == nil) || (server != nil && got["command"] != server.Command) {
		return nil, had, fmt.Errorf("the edited file does not hold the intended %s; left unchanged", table)
	}
	return out, had, nil
}
