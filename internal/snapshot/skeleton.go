package snapshot

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// skeletonLevels lists, from the tightest to the widest, the statement lists
// whose unselected items a snapshot leaves out. Level 0 prunes every list, so
// a callback nested in a function shows only the function's header and
// closing lines around it. If the result does not parse (an unusual layout,
// such as a separator on a line of its own), the next level keeps whole any
// list it no longer prunes; the last level keeps whole root statements,
// which always parse. A file that does not parse stays at level 0, where the
// statements tree-sitter could not place (children of an ERROR node, which
// can span most of a file) are pruned like the program's.
var skeletonLevels = []func(k, parent kind) bool{
	func(k, parent kind) bool {
		switch k {
		case kProgram, kStatementBlock, kClassBody, kObject, kObjectType, kInterfaceBody,
			kEnumBody, kSwitchBody, kArray, kJSXElement, kError, kNamedImports:
			return true
		}
		return false
	},
	func(k, parent kind) bool {
		return k == kProgram || k == kClassBody ||
			k == kStatementBlock && (parent == kInternalModule || parent == kModule)
	},
	func(k, parent kind) bool { return k == kProgram },
}

// skeleton decides which lines to show: the seeds (targets and the
// declarations they reference) and, around them, whatever their ancestors
// need to stay valid source. Lines are atomic: a statement that shares a line
// with shown code is shown whole, which may in turn require more; the walk
// repeats until nothing changes.
func (d *doc) skeleton(seeds []span, level int) []bool {
	s := &skel{d: d, seeds: seeds, prune: skeletonLevels[level], inc: make([]bool, d.nLines+2)}
	for _, sp := range seeds {
		s.add(d.line(sp.start), d.line(max(sp.start, sp.end-1)))
	}
	for {
		s.changed = false
		root := d.root
		s.walk(&root, kNone)
		if !s.changed {
			return s.inc
		}
	}
}

type skel struct {
	d       *doc
	seeds   []span
	prune   func(k, parent kind) bool
	inc     []bool
	changed bool
}

func (s *skel) add(from, to int) {
	for l := from; l <= to && l <= s.d.nLines; l++ {
		if !s.inc[l] {
			s.inc[l] = true
			s.changed = true
		}
	}
}

// all reports whether every line of [from, to] is shown.
func (s *skel) all(from, to int) bool {
	for l := from; l <= to; l++ {
		if !s.inc[l] {
			return false
		}
	}
	return true
}

// touches reports whether any line of [from, to] is shown.
func (s *skel) touches(from, to int) bool {
	for l := from; l <= to; l++ {
		if s.inc[l] {
			return true
		}
	}
	return false
}

// seeded reports whether n overlaps a seed, i.e. holds selected code.
func (s *skel) seeded(n *sitter.Node) bool {
	a, b := int(n.StartByte()), int(n.EndByte())
	for _, sp := range s.seeds {
		if sp.start >= b {
			break
		}
		if a < sp.end && sp.start < b || a == b && sp.start <= a && a < sp.end {
			return true
		}
	}
	return false
}

// walk makes n's shown lines valid around the seeds inside it.
func (s *skel) walk(n *sitter.Node, parent kind) {
	d := s.d
	from, to := d.lines(n)
	if s.all(from, to) {
		return
	}
	if !s.seeded(n) {
		s.add(from, to)
		return
	}
	k := d.kind(n)
	children := n.Children(d.cursor)
	if len(children) == 0 {
		s.add(from, to)
		return
	}
	if s.prune(k, parent) {
		s.list(n, k, children)
		return
	}
	for i := range children {
		c := &children[i]
		switch {
		case s.seeded(c):
			s.walk(c, k)
		case d.kind(c) == kDecorator && !s.touches(d.lines(c)):
			// a class's or member's decorators are not part of its header
		default:
			s.add(d.lines(c))
		}
	}
}

// list handles a statement list (or member, property, element list): its
// delimiters are shown, items holding seeds are walked, items sharing a line
// with shown code are shown whole, and the rest are left out.
func (s *skel) list(n *sitter.Node, k kind, children []sitter.Node) {
	d := s.d
	from, to := d.lines(n)
	if k == kJSXElement {
		for i := range children {
			c := &children[i]
			if ck := d.kind(c); ck == kJSXOpening || ck == kJSXClosing {
				s.add(d.lines(c))
			}
		}
	} else if k != kProgram && k != kError {
		s.add(from, from) // the opening bracket
		s.add(to, to)     // the closing bracket
	}
	for i := range children {
		c := &children[i]
		if !c.IsNamed() {
			continue
		}
		if ck := d.kind(c); k == kJSXElement && (ck == kJSXOpening || ck == kJSXClosing) {
			continue
		}
		cf, ct := d.lines(c)
		switch {
		case s.seeded(c):
			s.walk(c, k)
		case s.touches(cf, ct):
			s.add(cf, ct)
		}
	}
}
