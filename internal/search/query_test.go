package search

import (
	"slices"
	"testing"
)

func TestSubject(t *testing.T) {
	tests := []struct {
		q, want string
	}{
		{"Fix race condition in useReactiveVar", "race condition in useReactiveVar"},
		{"fixed: bugs with nested routes not handled correctly", "with nested routes not handled"},
		{"Fix issue where `fetchMore` rerenders", "where `fetchMore` rerenders"},
		// written as code, a task word is an identifier
		{"fixIssue is called twice", "fixIssue is called twice"},
		{"call fix_bug once", "call fix_bug once"},
		// nothing else left: the query stays whole
		{"fix", "fix"},
		{"fix the bug", "fix the bug"},
		// inside a word a task word is part of it
		{"prefix handling in fixture loader", "prefix handling in fixture loader"},
		{"where are JWT tokens validated", "where are JWT tokens validated"},
	}
	for _, tt := range tests {
		if got := subject(tt.q); got != tt.want {
			t.Errorf("subject(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
	if got := queryTerms("Fix crash in parser"); slices.Contains(got, "fix") || !slices.Contains(got, "parser") {
		t.Errorf("queryTerms kept the task word or lost the subject: %v", got)
	}
}

func TestAsksQuestion(t *testing.T) {
	tests := []struct {
		q    string
		want bool
	}{
		{"how route paths are compiled into one regular expression", true},
		{"How does createSlice build reducers?", true},
		{"  where are hooks registered", true},
		{"what happens when a migration fails", true},
		{"Why is the cache invalidated twice", true},
		{"retry a failing test a configured number of times", false},
		{"Add the specified number of days to the given date.", false},
		{"StateManager", false},
		{"Router.navigate", false},
		// a question word inside an identifier or later in the query
		{"howler plays sounds", false},
		{"whatwg URL parsing", false},
		{"render fallback content when a child throws", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := AsksQuestion(tt.q); got != tt.want {
			t.Errorf("AsksQuestion(%q) = %v, want %v", tt.q, got, tt.want)
		}
	}
}
