package structure

import (
	"strings"
	"testing"
)

func TestImportedFrom(t *testing.T) {
	tests := []struct {
		src  string // | marks the offset
		want string // "" when not an imported name
	}{
		{"import { |isPlainObject, combineReducers as combine } from 'redux';\n", "redux"},
		{"import { isPlainObject, combineReducers as |combine } from 'redux';\n", "redux"},
		{"import {\n  combineReducers,\n  |isPlainObject,\n} from \"redux\"\n", "redux"},
		{"import |thunk from 'redux-thunk'\n", "redux-thunk"},
		{"import * as |R from 'ramda'\n", "ramda"},
		{"import type { |Reducer } from '@reduxjs/toolkit'\n", "@reduxjs/toolkit"},
		{"import { a } from 'x'\nexport function |f() {}\n", ""},
		{"const { |a } = require('x')\n", "x"},
		{"var |EventEmitter = require(\"node:events\").EventEmitter;\n", "node:events"},
		{"const |debug = require('debug')('mocha:runner')\n", "debug"},
		{"const { a, b: |c } = require('m')\n", "m"},
		{"const |x = require(name)\n", ""},
		{"const x = require('m')\nconst |y = x.z\n", ""},
		{"const x = 1, |y = require('m')\n", ""},
		{"export { |a } from 'x'\n", ""},
		{"const m = await import('x')\nconst |y = m.from\n", ""},
		// Declarations after an import statement are not its names, even
		// when only names stand between them and a later from clause.
		{"import { a } from 'x'\nexport { |b, c }\nimport d from 'y'\n", ""},
		{"import z from 'q'\nexport class |Foo {\n  a\n}\nimport x from 'y'\n", ""},
		{"import 'side-effect';\nexport class |Foo {\n  a\n}\nimport x from 'y'\n", ""},
	}
	for _, tt := range tests {
		off := strings.Index(tt.src, "|")
		src := strings.Replace(tt.src, "|", "", 1)
		got, ok := importedFrom([]byte(src), off)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("importedFrom(%q) = %q, %v; want %q", tt.src, got, ok, tt.want)
		}
	}
}
