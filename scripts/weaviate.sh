#!/usr/bin/env bash
# Builds and runs the Weaviate server the team-scale backend is tested and
# measured against, on loopback only.
#
#   scripts/weaviate.sh build             build weaviate-server once per version (cached)
#   scripts/weaviate.sh start DIR [N]     start an N-node cluster (default 1) with data under DIR;
#                                         prints shell exports (SCRY_WEAVIATE_URL, ..._KEY, ...)
#   scripts/weaviate.sh stop DIR          stop the nodes started under DIR
#   scripts/weaviate.sh kill DIR I        SIGKILL node I (1-based) of the cluster under DIR
#   scripts/weaviate.sh restart DIR I     start node I again with its earlier ports and data
#
# The binary is cached outside the checkout, keyed by version, so a machine
# builds it once (about 6 minutes of CPU).
set -euo pipefail
VERSION=v1.35.2
CACHE="${SCRY_WEAVIATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/scry/weaviate/$VERSION}"
BIN="$CACHE/weaviate-server"

build() {
  [ -x "$BIN" ] && return 0
  mkdir -p "$CACHE"
  echo "weaviate: building weaviate-server@$VERSION -> $CACHE (once per machine)" >&2
  # A private GOBIN so a half-written binary never looks like a finished one.
  local tmp="$CACHE/.build.$$"
  mkdir -p "$tmp"
  GOBIN="$tmp" GOFLAGS=-buildvcs=false go install "github.com/weaviate/weaviate/cmd/weaviate-server@$VERSION"
  mv "$tmp/weaviate-server" "$BIN"
  rmdir "$tmp"
}

# free_pair prints a TCP port P such that nobody listens on P or P+1 and
# neither was handed out before in this run (Weaviate derives a peer's
# data port from its gossip port + 1 and its Raft RPC port from its Raft
# port + 1, so those come in pairs).
TAKEN=" "
free_pair() {
  local used port
  used=" $(ss -Htan 2>/dev/null | awk '{n=split($4,a,":"); print a[n]}' | tr '\n' ' ') "
  port=$((20000 + (RANDOM % 15000) * 2))
  while [[ "$used" == *" $port "* || "$used" == *" $((port + 1)) "* || "$TAKEN" == *" $port "* ]]; do port=$((port + 2)); done
  TAKEN="$TAKEN$port $((port + 1)) "
  echo "$port"
}

# run_node DIR I: starts node I with the settings saved in DIR/nodeI.env.
run_node() {
  local dir=$1 i=$2
  # shellcheck disable=SC1090
  (set -a; source "$dir/node$i.env"; set +a
   exec "$BIN" --host 127.0.0.1 --port "$HTTP_PORT" --scheme http) >>"$dir/node$i.log" 2>&1 &
  echo $! >"$dir/node$i.pid"
}

wait_ready() { # DIR I
  local port
  port=$(sed -n 's/^HTTP_PORT=//p' "$1/node$2.env")
  for _ in $(seq 1 240); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/v1/.well-known/ready" 2>/dev/null; then return 0; fi
    kill -0 "$(cat "$1/node$2.pid")" 2>/dev/null || { echo "weaviate: node $2 died; see $1/node$2.log" >&2; tail -5 "$1/node$2.log" >&2; return 1; }
    sleep 0.5
  done
  echo "weaviate: node $2 not ready after 120 s; see $1/node$2.log" >&2
  return 1
}

start() { # DIR N
  local dir=$1 n=${2:-1} i key join=""
  build
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  key=${SCRY_WEAVIATE_KEY:-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')}
  local gossip=() raft=() http=() grpc=()
  for i in $(seq 1 "$n"); do
    gossip[i]=$(free_pair); raft[i]=$(free_pair); http[i]=$(free_pair); grpc[i]=$(free_pair)
    # Raft peers on one host are told apart by port: name:port pairs.
    join="${join:+$join,}node$i:${raft[i]}"
  done
  for i in $(seq 1 "$n"); do
    cat >"$dir/node$i.env" <<ENV
HTTP_PORT=${http[i]}
PERSISTENCE_DATA_PATH=$dir/data$i
AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=false
AUTHENTICATION_APIKEY_ENABLED=true
AUTHENTICATION_APIKEY_ALLOWED_KEYS=$key
AUTHENTICATION_APIKEY_USERS=scry
AUTHORIZATION_ADMINLIST_ENABLED=true
AUTHORIZATION_ADMINLIST_USERS=scry
DEFAULT_VECTORIZER_MODULE=none
ENABLE_MODULES=
DISABLE_TELEMETRY=true
LIMIT_RESOURCES=true
GOMAXPROCS=2
CLUSTER_HOSTNAME=node$i
CLUSTER_ADVERTISE_ADDR=127.0.0.1
CLUSTER_IN_LOCALHOST=true
CLUSTER_GOSSIP_BIND_PORT=${gossip[i]}
CLUSTER_DATA_BIND_PORT=$((gossip[i] + 1))
CLUSTER_JOIN=$([ "$i" = 1 ] || echo "127.0.0.1:${gossip[1]}")
RAFT_PORT=${raft[i]}
RAFT_INTERNAL_RPC_PORT=$((raft[i] + 1))
RAFT_JOIN=$join
RAFT_BOOTSTRAP_EXPECT=$n
GRPC_PORT=${grpc[i]}
ENV
    run_node "$dir" "$i"
  done
  for i in $(seq 1 "$n"); do wait_ready "$dir" "$i"; done
  local http1 grpc1
  http1=$(sed -n 's/^HTTP_PORT=//p' "$dir/node1.env")
  grpc1=$(sed -n 's/^GRPC_PORT=//p' "$dir/node1.env")
  {
    echo "export SCRY_WEAVIATE_URL=http://127.0.0.1:$http1"
    echo "export SCRY_WEAVIATE_GRPC=127.0.0.1:$grpc1"
    echo "export SCRY_WEAVIATE_KEY=$key"
    echo "export SCRY_WEAVIATE_NODES=$n"
    echo "export SCRY_WEAVIATE_DIR=$dir"
    echo "export SCRY_WEAVIATE_BIN=$BIN"
  } >"$dir/env"
  cat "$dir/env"
}

stop() { # DIR
  local f
  for f in "$1"/node*.pid; do
    [ -f "$f" ] || continue
    kill "$(cat "$f")" 2>/dev/null || true
  done
  for f in "$1"/node*.pid; do
    [ -f "$f" ] || continue
    for _ in $(seq 1 40); do kill -0 "$(cat "$f")" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$(cat "$f")" 2>/dev/null || true
    rm -f "$f"
  done
}

case "${1:-}" in
  build) build ;;
  bin) build; echo "$BIN" ;;
  start) start "${2:?data directory}" "${3:-1}" ;;
  stop) stop "${2:?data directory}" ;;
  kill) kill -9 "$(cat "${2:?data directory}/node${3:?node}.pid")" ;;
  restart) build; run_node "${2:?data directory}" "${3:?node}"; wait_ready "$2" "$3" ;;
  *) echo "usage: $0 build|bin|start DIR [N]|stop DIR|kill DIR I|restart DIR I" >&2; exit 2 ;;
esac
