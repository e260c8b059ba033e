#!/usr/bin/env bash
# Installs everything the test suite needs that Go modules do not bring:
# real npm packages used as test corpora, TypeScript 7 (the tsgo language
# server) and the MCP client used by the end-to-end tests. Idempotent: a
# second run with everything present does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
DEPS="${SCRY_TESTDEPS:-$PWD/.cache/testdeps}"
mkdir -p "$DEPS"

for tool in go gcc node npm; do
  command -v "$tool" >/dev/null || { echo "testdeps: $tool is required but not installed" >&2; exit 1; }
done
# tree-sitter needs cgo.
[ "$(go env CGO_ENABLED)" = "1" ] || { echo "testdeps: cgo must be enabled (CGO_ENABLED=1) for tree-sitter" >&2; exit 1; }

install() { # dir, packages...
  local dir=$1; shift
  local stamp="$dir/.installed-$(echo "$*" | tr ' /@' '___')"
  [ -f "$stamp" ] && return 0
  mkdir -p "$dir"
  echo "testdeps: npm install $* -> $dir" >&2
  npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --loglevel=error "$@" >&2
  touch "$stamp"
}

# Real code corpora (pinned).
install "$DEPS/corpus" typescript@5.9.3 rxjs@7.8.2 immer@10.1.1 effect@3.10.0 date-fns@4.1.0
# TypeScript 7: the native compiler and language server.
install "$DEPS/tsgo" typescript@7.0.2
# A real MCP client for the end-to-end tests.
install "$DEPS/mcp" @modelcontextprotocol/sdk@1.32.2

# ONNX Runtime for the local-model tests: only the shared library, unpacked
# from npm's onnxruntime-node (its install script is never run).
ort="$DEPS/onnxruntime"
if [ ! -f "$ort/libonnxruntime.so.1" ]; then
  echo "testdeps: unpacking onnxruntime-node@1.30.0 -> $ort" >&2
  mkdir -p "$ort"
  (cd "$ort" && npm pack onnxruntime-node@1.30.0 --ignore-scripts --loglevel=error >/dev/null \
    && tar xzf onnxruntime-node-1.30.0.tgz package/bin/napi-v6/linux/x64/libonnxruntime.so.1 \
    && mv package/bin/napi-v6/linux/x64/libonnxruntime.so.1 . && rm -rf package ./*.tgz)
fi

tsgo=$(find "$DEPS/tsgo/node_modules/@typescript" -path '*/lib/tsc' -type f 2>/dev/null | head -1)
[ -n "$tsgo" ] || { echo "testdeps: TypeScript 7 binary not found under $DEPS/tsgo" >&2; exit 1; }
cat > "$DEPS/env" <<ENV
export SCRY_CORPUS="$DEPS/corpus"
export SCRY_TSGO="$tsgo"
export SCRY_MCP_CLIENT="$DEPS/mcp/node_modules"
export SCRY_ONNXRUNTIME_LIB="$ort/libonnxruntime.so.1"
ENV
echo "testdeps: ready ($DEPS)" >&2
