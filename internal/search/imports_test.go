package search

import (
	"slices"
	"testing"
)

func TestRelativeModule(t *testing.T) {
	for _, tc := range []struct {
		stmt, want string
		ok         bool
	}{
		{`import { verify } from '../../utils/jwt/jwt'`, "../../utils/jwt/jwt", true},
		{`import type { Env } from "./types.js"`, "./types.js", true},
		{"import {\n  a,\n  b,\n} from './ab'", "./ab", true},
		{`import './polyfill'`, "./polyfill", true},
		{`const wrapThenable = require('./wrapThenable')`, "./wrapThenable", true},
		{`const { kReply } = require("../symbols.js")`, "../symbols.js", true},
		{`export * from './router'`, "./router", true},
		{`import x from '.'`, "./index", true},
		{`import { ref } from '@vue/reactivity'`, "", false},
		{`const EventEmitter = require('node:events').EventEmitter`, "", false},
		{`import fs from 'fs'`, "", false},
	} {
		got, ok := relativeModule(tc.stmt)
		if got != tc.want || ok != tc.ok {
			t.Errorf("relativeModule(%q) = %q, %v; want %q, %v", tc.stmt, got, ok, tc.want, tc.ok)
		}
	}
}

func TestModuleKeys(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"src/utils/jwt.ts", []string{"src/utils/jwt"}},
		{"src/router/index.ts", []string{"src/router/index", "src/router"}},
		{"types/global.d.ts", []string{"types/global"}},
		{"lib/reply.js", []string{"lib/reply"}},
		{"src/foo.service.ts", []string{"src/foo.service"}},
	} {
		if got := moduleKeys(tc.file); !slices.Equal(got, tc.want) {
			t.Errorf("moduleKeys(%q) = %q, want %q", tc.file, got, tc.want)
		}
	}
	// An import written with .js names the .ts file; one without an
	// extension names it too.
	for _, spec := range []string{"src/utils/jwt.js", "src/utils/jwt", "src/utils/jwt.ts"} {
		if k := trimModuleExt(spec); k != "src/utils/jwt" {
			t.Errorf("trimModuleExt(%q) = %q, want src/utils/jwt", spec, k)
		}
	}
}
