package structure_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/scry-dev/scry/internal/structure"
	"github.com/scry-dev/scry/internal/tsls"
	"github.com/scry-dev/scry/internal/tsls/tslstest"
)

// The rxjs benchmarks run on rxjs's own TypeScript sources. Prepare them:
//
//	cd /tmp && npm pack rxjs@7.8.2 && tar xzf rxjs-7.8.2.tgz
//	mkdir -p /tmp/rxbench && cp -r package/src /tmp/rxbench/
//	rm /tmp/rxbench/src/tsconfig*.json /tmp/rxbench/src/Rx.global.js
//	# plus a tsconfig.json including src/**/*.ts (see rxjsTsconfig)
//	SCRY_BENCH_RXJS=/tmp/rxbench SCRY_TSGO=… go test ./internal/structure -run XXX -bench Rxjs
//
// If SCRY_BENCH_RXJS has no tsconfig.json, rxjsTsconfig is written there.
const envRxjs = "SCRY_BENCH_RXJS"

const rxjsTsconfig = `{
  "compilerOptions": {
    "target": "es2018",
    "module": "esnext",
    "moduleResolution": "bundler",
    "lib": ["es2018", "dom"],
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true,
    "paths": { "rxjs": ["./src/index.ts"], "rxjs/*": ["./src/*"] }
  },
  "include": ["src/**/*.ts"],
  "exclude": ["src/internal/umd.ts"]
}
`

func rxjsRoot(b *testing.B) string {
	b.Helper()
	root := os.Getenv(envRxjs)
	if root == "" {
		b.Skipf("set %s to a directory holding rxjs 7.8.2's src/ (see bench_test.go)", envRxjs)
	}
	if _, err := os.Stat(filepath.Join(root, "tsconfig.json")); os.IsNotExist(err) {
		if err := os.WriteFile(filepath.Join(root, "tsconfig.json"), []byte(rxjsTsconfig), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// rxjsTargets are hub symbols of different kinds: overloaded functions,
// operators, classes, a method.
var rxjsTargets = []query{
	{File: "src/internal/operators/map.ts", Decl: "export function map<T, R>(project: (value: T, index: number) => R, thisArg?: any)", Symbol: "map"},
	{File: "src/internal/operators/mergeMap.ts", Decl: "export function mergeMap<T, R, O extends ObservableInput<any>>(\n  project: (value: T, index: number) => O,\n  resultSelector?", Symbol: "mergeMap"},
	{File: "src/internal/util/lift.ts", Decl: "export function operate", Symbol: "operate"},
	{File: "src/internal/operators/OperatorSubscriber.ts", Decl: "export function createOperatorSubscriber", Symbol: "createOperatorSubscriber"},
	{File: "src/internal/observable/from.ts", Decl: "export function from<T>", Symbol: "from"},
	{File: "src/internal/Subscriber.ts", Decl: "export class Subscriber", Symbol: "Subscriber"},
	{File: "src/internal/Observable.ts", Decl: "export class Observable", Symbol: "Observable"},
	{File: "src/internal/operators/filter.ts", Decl: "export function filter<T>(predicate: (value: T, index: number) => boolean, thisArg?: any)", Symbol: "filter"},
}

// BenchmarkRxjsReady: spawn to loaded project (one op = one cold start).
func BenchmarkRxjsReady(b *testing.B) {
	root := rxjsRoot(b)
	bin := tslstest.Binary(b)
	var total time.Duration
	for i := 0; i < b.N; i++ {
		began := time.Now()
		srv, err := tsls.Start(context.Background(), root, bin)
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(began)
		b.StopTimer()
		_ = srv.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ready-ms")
}

func benchInfo(b *testing.B, sections structure.Section) {
	root := rxjsRoot(b)
	bin := tslstest.Binary(b)
	srv, err := tsls.Start(context.Background(), root, bin)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	res := structure.NewCompiler(srv)
	targets := make([]structure.Target, len(rxjsTargets))
	ctx := context.Background()
	for i, q := range rxjsTargets {
		targets[i] = targetOf(b, root, q)
		// Warm: the first question about a file pays for its checker work.
		if _, err := res.Metadata(ctx, targets[i], structure.Options{Sections: sections}); err != nil {
			b.Fatalf("%s: %v", q.Symbol, err)
		}
	}
	durs := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		began := time.Now()
		if _, err := res.Metadata(ctx, targets[i%len(targets)], structure.Options{Sections: sections}); err != nil {
			b.Fatal(err)
		}
		durs = append(durs, time.Since(began))
	}
	b.StopTimer()
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(durs[len(durs)*9/10].Microseconds())/1000, "p90-ms")
}

// BenchmarkRxjsInfo: warm `info` as the issue defines it — signature
// (hover), references, one hop of calls each way.
func BenchmarkRxjsInfo(b *testing.B) {
	benchInfo(b, structure.SecSignature|structure.SecReferences|structure.SecOutgoing|structure.SecIncoming)
}

// BenchmarkRxjsInfoAll: every section (adds hierarchy, type flows, members).
func BenchmarkRxjsInfoAll(b *testing.B) {
	benchInfo(b, structure.SecAll)
}
