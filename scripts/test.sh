#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs the test dependencies, then
# vet, and the race-enabled tests with every real-part test required (none
# may skip for a missing corpus, compiler or MCP client).
set -euo pipefail
cd "$(dirname "$0")/.."
cat >&2 <<'EOM'
make test: the whole suite, as CI runs it. It will
  1. install the npm test dependencies into .cache/testdeps (TypeScript 7, corpora, MCP client,
     ONNX Runtime; the first time only),
  2. build weaviate-server from source (about 6-8 minutes, the first time on this machine only;
     cached under ~/.cache/scry/weaviate) and start two Weaviate servers on loopback (1 node and
     a 3-node cluster; stopped when the run ends),
  3. run gofmt, go vet, the race-enabled tests (about 20 minutes on 2 cores), the pure-Go SQLite
     build's tests and 15 s of fuzzing per target.
EOM
# shellcheck disable=SC1091
source scripts/goflags.sh
scripts/testdeps.sh
# shellcheck disable=SC1091
source .cache/testdeps/env
export SCRY_REQUIRE_CORPUS=1 SCRY_REQUIRE_TSGO=1 SCRY_REQUIRE_MCP=1 SCRY_REQUIRE_ONNX=1 SCRY_REQUIRE_WEAVIATE=1 SCRY_CRASH_RUNS=50
# A real Weaviate on loopback for the shared-index tests (built once per
# machine, about 6 minutes; cached by version outside the checkout).
# A 3-node cluster too, for the test that kills a node under load
# (internal/weaviate TestReplicaFailover; the test finds it by directory).
weaviate_dir=$(mktemp -d)
weaviate3_dir=$(mktemp -d)
trap 'scripts/weaviate.sh stop "$weaviate_dir"; scripts/weaviate.sh stop "$weaviate3_dir"; rm -rf "$weaviate_dir" "$weaviate3_dir"' EXIT
scripts/weaviate.sh start "$weaviate_dir" 1 >/dev/null
scripts/weaviate.sh start "$weaviate3_dir" 3 >/dev/null
export SCRY_WEAVIATE_CLUSTER=$weaviate3_dir
# shellcheck disable=SC1091
source "$weaviate_dir/env"
unformatted=$(gofmt -l cmd internal)
if [ -n "$unformatted" ]; then echo "gofmt needed: $unformatted" >&2; exit 1; fi
go vet ./...
# The test that kills a cluster node runs alone, after the rest: its quorum
# writes while a node is down must not queue behind every other package's
# tests on a small machine (20 s was exceeded once under that load).
go test -race -timeout 25m -skip '^TestReplicaFailover$' ./...
go test -race -timeout 5m -run '^TestReplicaFailover$' ./internal/weaviate
# The build without the C SQLite (plain `go build`) keeps working: its
# driver and the store on it.
GOFLAGS= go test ./internal/sqlitedb ./internal/store
# Fuzz targets, each for a bounded number of inputs: about what 10 s
# explores on a 2-core machine. A budget in seconds races Go 1.26's
# fuzzing coordinator at its deadline (golang/go#75804, fixed in 1.27):
# under load a target fails with a bare "context deadline exceeded" and no
# failing input, as FuzzCount did once. A count has no deadline to race.
for target in "FuzzParseChunk ./internal/chunkcheck 10000" "FuzzCount ./internal/tokens 13000" "FuzzSymbolQuery ./internal/search 140000" "FuzzSplit ./internal/terms 300000" "FuzzLoad ./internal/config 25000" "FuzzPathMatch ./internal/chunkindex 420000"; do
  set -- $target
  # (no grep -q in a pipe: under pipefail its early exit fails the pipeline)
  listed=$(go test -list "^$1\$" "$2" 2>/dev/null || true)
  if printf '%s\n' "$listed" | grep -qx "$1"; then
    go test -run '^$' -fuzz "^$1\$" -fuzztime "${3}x" "$2"
  fi
done
