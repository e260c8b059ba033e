#!/usr/bin/env bash
# Installs the pinned npm packages that `scry bench quality` and `scry bench
# speed` read, into an npm prefix (default .cache/bench-corpus, or
# $SCRY_BENCH_CORPUS, or the first argument). The versions must match
# internal/bench/corpus.go (a test checks it): figures are only comparable
# across runs on the same versions. Idempotent.
#
# Usage: scripts/bench-corpus.sh [DIR]
#        scry bench quality --corpus DIR
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${1:-${SCRY_BENCH_CORPUS:-$PWD/.cache/bench-corpus}}"

PACKAGES=(
  typescript@5.9.3
  date-fns@4.1.0
  lodash-es@4.17.21
  rxjs@7.8.2
  ramda@0.30.1
  effect@3.10.0
  immer@10.1.1
  # the tune set of JSDoc questions (bench quality --set tune)
  luxon@3.7.2
  mathjs@15.2.0
  fp-ts@2.16.11
  graphql@17.1.0
  three@0.187.0
  commander@15.1.0
)

command -v npm >/dev/null || { echo "bench-corpus: npm is required but not installed" >&2; exit 1; }
mkdir -p "$DIR"
stamp="$DIR/.installed-$(echo "${PACKAGES[*]}" | tr ' /@' '___')"
if [ ! -f "$stamp" ]; then
  echo "bench-corpus: npm install ${PACKAGES[*]} -> $DIR" >&2
  # --ignore-scripts: the corpus is read, never run.
  npm install --prefix "$DIR" --no-audit --no-fund --ignore-scripts --loglevel=error "${PACKAGES[@]}" >&2
  touch "$stamp"
fi
echo "bench-corpus: ready: scry bench quality --corpus $DIR" >&2
