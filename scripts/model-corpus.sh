#!/usr/bin/env bash
# Fetches the pinned npm packages the built-in embedding model is trained on
# (internal/embed/builtin/train/packages.txt, one name@version a line) into
# DIR (default .cache/model-corpus, or $SCRY_MODEL_CORPUS, or the first
# argument): each package's own tarball, without its dependencies, unpacked
# under DIR/packages/<name>@<version>. Nothing is installed or run: the files
# are only read. Idempotent: packages already unpacked are skipped.
#
# Usage: scripts/model-corpus.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
LIST="$PWD/internal/embed/builtin/train/packages.txt"
DIR="${1:-${SCRY_MODEL_CORPUS:-$PWD/.cache/model-corpus}}"
command -v npm >/dev/null || { echo "model-corpus: npm is required but not installed" >&2; exit 1; }
mkdir -p "$DIR/tarballs" "$DIR/packages"

want=()
while read -r spec; do
  spec="${spec%%#*}"; spec="$(echo "$spec" | tr -d '[:space:]')"
  [ -n "$spec" ] || continue
  [ -d "$DIR/packages/$spec" ] || want+=("$spec")
done <"$LIST"
echo "model-corpus: ${#want[@]} packages to fetch into $DIR" >&2

unpack() { # spec tarball
  local dest="$DIR/packages/$1"
  mkdir -p "$dest.tmp"
  # A tarball's top directory is usually package/, but not always.
  tar -xzf "$2" -C "$dest.tmp" --strip-components=1 --no-same-owner --no-same-permissions --warning=no-unknown-keyword
  mv "$dest.tmp" "$dest"
}

failed=0
for ((i = 0; i < ${#want[@]}; i += 40)); do
  batch=("${want[@]:i:40}")
  # --json names each tarball, so that it can be matched to its spec.
  if ! (cd "$DIR/tarballs" && npm pack --silent --ignore-scripts "${batch[@]}" >/dev/null 2>&1); then
    for spec in "${batch[@]}"; do
      (cd "$DIR/tarballs" && npm pack --silent --ignore-scripts "$spec" >/dev/null 2>&1) || { echo "model-corpus: cannot fetch $spec" >&2; failed=$((failed + 1)); }
    done
  fi
  for spec in "${batch[@]}"; do
    name="${spec%@*}"; ver="${spec##*@}"
    tgz="$DIR/tarballs/$(echo "${name#@}" | tr '/' '-')-$ver.tgz"
    [ -f "$tgz" ] && unpack "$spec" "$tgz"
  done
done
echo "model-corpus: ready ($failed failed): scry-train --corpus $DIR" >&2
