package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// The optional Claude Code hook: after the agent's own Grep and Glob
// calls, `scry hook claude-code` adds scry's best matches for the same
// words (PostToolUse, additionalContext). It lives in Claude Code's
// settings file (~/.claude/settings.json, or .claude/settings.json in a
// project) under hooks.PostToolUse, beside the user's other hooks.

// HookMarker is in the command of scry's hook, which is how scry finds its
// own entry among the user's.
const HookMarker = " hook claude-code"

// HookPath is Claude Code's settings file for scope.
func HookPath(scope, root string, env Env) (string, error) {
	switch scope {
	case ScopeUser:
		return filepath.Join(env.Home, ".claude", "settings.json"), nil
	case ScopeProject:
		return filepath.Join(root, ".claude", "settings.json"), nil
	}
	return "", fmt.Errorf("scope %q: user or project", scope)
}

// PlanHook computes adding (or removing) scry's hook in Claude Code's
// settings, writing nothing; Apply writes it.
func PlanHook(r Request) (Change, error) {
	path, err := HookPath(r.Scope, r.Root, r.Env)
	if err != nil {
		return Change{}, err
	}
	c := Change{Path: path}
	before, existed, err := readConfig(path)
	if err != nil {
		return c, err
	}
	c.Before, c.Existed = before, existed
	if len(bytes.TrimSpace(before)) == 0 {
		before = []byte("{}\n")
	}
	malformed := func(err error) error {
		return fmt.Errorf("%w %s: %v (left untouched)", ErrMalformed, path, err)
	}
	raw, err := jsonLookup(before, "hooks", "PostToolUse")
	if err != nil {
		return c, malformed(err)
	}
	// The user's entries stay as they were written; scry's is dropped and
	// (on install) added again at the end.
	entry := ordered{{"matcher", "Grep|Glob"}, {"hooks", []any{ordered{{"type", "command"}, {"command", shellQuote(r.Bin) + HookMarker}, {"timeout", 10}}}}}
	var kept []json.RawMessage
	found, same := false, false
	if raw != nil {
		elems, err := arrayElements(raw)
		if err != nil {
			return c, malformed(fmt.Errorf("hooks.PostToolUse: %w", err))
		}
		for _, el := range elems {
			if bytes.Contains(el, []byte(HookMarker)) {
				found, same = true, sameJSON(el, entry)
				continue
			}
			kept = append(kept, el)
		}
	}
	if !r.Remove {
		text, err := marshal(entry, "", "  ")
		if err != nil {
			return c, err
		}
		c.Entry = text
		if same {
			c.After, c.Action = c.Before, "unchanged"
			return c, nil
		}
		b, _ := json.Marshal(entry)
		kept = append(kept, b)
	}
	if r.Remove && !found {
		c.After, c.Action = c.Before, "absent"
		return c, nil
	}
	var arr bytes.Buffer
	arr.WriteString("[")
	for i, el := range kept {
		if i > 0 {
			arr.WriteString(",")
		}
		arr.Write(el)
	}
	arr.WriteString("]")
	after, err := setJSONMember(before, "hooks", "PostToolUse", json.RawMessage(arr.Bytes()))
	if err != nil {
		return c, malformed(err)
	}
	if _, err := parseTop(after); err != nil {
		return c, fmt.Errorf("%s: the edited file would not parse (%v); left untouched", path, err)
	}
	c.After = after
	c.Action = action(r.Remove, found, false)
	return c, nil
}

// arrayElements splits a JSON (with comments) array into its elements'
// text, each as written.
func arrayElements(raw []byte) ([]json.RawMessage, error) {
	s := &jsonScanner{src: raw}
	if err := s.skip(); err != nil {
		return nil, err
	}
	if s.pos >= len(raw) || raw[s.pos] != '[' {
		return nil, fmt.Errorf("not an array")
	}
	s.pos++
	var out []json.RawMessage
	for {
		if err := s.skip(); err != nil {
			return nil, err
		}
		if s.pos < len(raw) && raw[s.pos] == ']' {
			return out, nil
		}
		start, end, err := s.value(1)
		if err != nil {
			return nil, err
		}
		out = append(out, json.RawMessage(raw[start:end]))
		if err := s.skip(); err != nil {
			return nil, err
		}
		if s.pos < len(raw) && raw[s.pos] == ',' {
			s.pos++
		}
	}
}

// shellQuote quotes a path for the command line Claude Code runs through a
// shell, when it needs quoting.
func shellQuote(p string) string {
	if strings.IndexFunc(p, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
