package jsdoc

import "testing"

func TestSummary(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"first sentence", "Creates an array of elements split into groups.\nIf `array` can't be split evenly, the rest.\n\n@param {Array} array", "Creates an array of elements split into groups."},
		{"sentence across lines", "Applies a function to the value at the given\nindex of an array. More text.", "Applies a function to the value at the given index of an array."},
		{"only tags", "@since 2.0.0\n@category models", ""},
		{"deprecated only", "@deprecated Use `other` instead.", ""},
		{"date-fns description tag", "@name addDays\n@category Day Helpers\n@summary Add the specified number of days.\n\n@description\nAdd the specified number of days to the given date.\n\n@param date - x", "Add the specified number of days to the given date."},
		{"date-fns summary tag only", "@name x\n@summary Get the year quarter.\n@param date", "Get the year quarter."},
		{"abbreviation", "Compares values, e.g. numbers or strings. Then more.", "Compares values, e.g. numbers or strings."},
		{"dotted identifier", "Calls Array.prototype.map on each value. Next.", "Calls Array.prototype.map on each value."},
		{"inline link", "Returns the {@link Observable} of {@link foo | the foo values}.", "Returns the Observable of the foo values."},
		{"markdown link and html", "Uses the [SameValueZero](http://x) <b>comparison</b>.", "Uses the SameValueZero comparison."},
		{"paragraph without stop", "Converts values as follows:\n\n- one\n- two", "Converts values as follows:"},
		{"question", "Are the given dates in the same hour? Yes.", "Are the given dates in the same hour?"},
	}
	for _, tt := range tests {
		if got := Summary(tt.doc); got != tt.want {
			t.Errorf("%s: Summary = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestNormalizeSummary(t *testing.T) {
	if Normalize("Creates  a\tthing.") != Normalize("creates a thing") {
		t.Error("case, spacing and the final stop should not distinguish summaries")
	}
}
