#!/usr/bin/env bash
# Sets up scry on a fresh machine and runs its main job on a real codebase:
# builds the binary, installs TypeScript 7 into scry's cache, fetches the
# rxjs sources from npm, indexes them and answers two questions.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
source scripts/goflags.sh
for tool in go gcc npm; do
  command -v "$tool" >/dev/null || { echo "demo: $tool is required" >&2; exit 1; }
done
go build -o scry ./cmd/scry
./scry setup
DEMO="$PWD/.cache/demo"
if [ ! -d "$DEMO/rxjs/src" ]; then
  mkdir -p "$DEMO"
  (cd "$DEMO" && npm pack --silent rxjs@7.8.2 >/dev/null && mkdir -p rxjs && tar xzf rxjs-7.8.2.tgz -C rxjs --strip-components=1)
fi
./scry index --root "$DEMO/rxjs"
./scry search --root "$DEMO/rxjs" "retry an observable when it errors, with a delay between attempts"
./scry search --root "$DEMO/rxjs" --budget 2000 "symbol = Subscriber > next"
