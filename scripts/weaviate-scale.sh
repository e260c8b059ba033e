#!/usr/bin/env bash
# The shared index's scale run: every package of an npm install (each
# scoped package on its own) becomes one repository, indexed with
# `scry index --backend weaviate` into a cluster of its own, at low CPU
# priority (the machine may be shared). Prints one line per repository and
# a summary: chunks, push throughput, and the Weaviate processes' memory
# (resident set) sampled during the run and at its end.
#
#   scripts/weaviate-scale.sh CORPUS OUT [NODES]
#     CORPUS  an npm prefix (scripts/bench-corpus.sh installs one)
#     OUT     work directory: cluster data, local indexes, logs, results
#     NODES   cluster size (default 1)
#   SCRY_SCALE_MIN_FILES=N skips packages with fewer than N .js/.ts files.
#
# Run it again with another CORPUS and the same OUT to add repositories;
# the summary counts them all.
#
# The cluster is left running (its settings in OUT/cluster/env) so that
# queries can be measured against it:
#   source OUT/cluster/env; SCRY_SCALE_REPOS=$(cat OUT/repos) \
#     go test ./internal/weaviate -run '^$' -bench Scale -benchtime 3x
# and stopped with scripts/weaviate.sh stop OUT/cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
source scripts/goflags.sh
CORPUS=${1:?npm prefix with node_modules}
OUT=${2:?work directory}
NODES=${3:-1}
mkdir -p "$OUT/idx" "$OUT/log"
OUT=$(cd "$OUT" && pwd)
go build -o "$OUT/scry" ./cmd/scry
if [ ! -f "$OUT/cluster/env" ]; then
  scripts/weaviate.sh start "$OUT/cluster" "$NODES" >/dev/null
fi
# shellcheck disable=SC1091
source "$OUT/cluster/env"
# Lower the cluster's priority too: it does most of the work.
for f in "$OUT"/cluster/node*.pid; do renice -n 10 -p "$(cat "$f")" >/dev/null; done

rss() { # total resident set of the cluster's processes, in MB
  local total=0 f kb
  for f in "$OUT"/cluster/node*.pid; do
    kb=$(ps -o rss= -p "$(cat "$f")" 2>/dev/null || echo 0)
    total=$((total + kb))
  done
  echo $((total / 1024))
}
( while sleep 10; do echo "$(date +%s) $(rss)"; done ) >>"$OUT/rss.log" &
sampler=$!
trap 'kill $sampler 2>/dev/null' EXIT

packages=()
for d in "$CORPUS"/node_modules/*; do
  case "$(basename "$d")" in
    @*) for s in "$d"/*; do [ -d "$s" ] && packages+=("$s"); done ;;
    .*) ;;
    *) [ -d "$d" ] && packages+=("$d") ;;
  esac
done
touch "$OUT/repos.list"
start=$(date +%s)
for p in "${packages[@]}"; do
  name=$(echo "${p#"$CORPUS"/node_modules/}" | tr -c 'A-Za-z0-9_\n-' '_' | sed 's/^_//' | cut -c1-64)
  if [ "${SCRY_SCALE_MIN_FILES:-0}" -gt 0 ]; then
    n=$(find "$p" -path '*/node_modules' -prune -o \( -name '*.ts' -o -name '*.js' -o -name '*.mjs' -o -name '*.cjs' \) -print | wc -l)
    [ "$n" -ge "$SCRY_SCALE_MIN_FILES" ] || continue
  fi
  grep -qx "$name" "$OUT/repos.list" && name="${name}_2"
  t0=$(date +%s.%N)
  if nice -n 10 "$OUT/scry" index --root "$p" --index "$OUT/idx/$name.db" --backend weaviate --repo "$name" --json \
      >"$OUT/log/$name.json" 2>"$OUT/log/$name.err"; then
    t1=$(date +%s.%N)
    echo "$name $(jq -r '"\(.Files) files \(.Chunks) chunks, push \(.Elapsed/1e9|floor) s"' "$OUT/log/$name.json"), total $(printf '%.1f' "$(echo "$t1 - $t0" | bc)") s, cluster $(rss) MB"
    echo "$name" >>"$OUT/repos.list"
  else
    echo "$name FAILED: $(tail -1 "$OUT/log/$name.err")"
  fi
done
paste -sd, "$OUT/repos.list" >"$OUT/repos"
chunks=$(cat "$OUT"/log/*.json | jq -s 'map(.Chunks) | add')
push=$(cat "$OUT"/log/*.json | jq -s 'map(.Elapsed) | add / 1e9')
echo "repositories: $(wc -l <"$OUT/repos.list"), chunks: $chunks, wall of this run: $(( $(date +%s) - start )) s"
echo "push: $(echo "$chunks / $push" | bc) chunks/s over $(printf '%.0f' "$push") s of pushing"
echo "cluster resident memory: now $(rss) MB, peak sampled $(sort -k2 -n "$OUT/rss.log" | tail -1 | cut -d' ' -f2) MB"
du -sh "$OUT"/cluster/data* | sed 's/^/disk: /'
