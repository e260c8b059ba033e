#!/usr/bin/env bash
# Builds and runs the Weaviate server the team-scale backend is tested and
# measured against, on loopback only.
#
#   scripts/weaviate.sh build             build weaviate-server once per version (cached)
#   scripts/weaviate.sh start DIR [N]     start an N-node cluster (default 1) with data under DIR;
#                                         prints shell exports (SCRY_WEAVIATE_URL: node 1;
#                                         SCRY_WEAVIATE_URLS: every node, for failover; ..._KEY, ...)
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
#
# The ports lie below the kernel's ephemeral range: a node restarted after
# a kill must get its old ports back, and a port inside that range can be
# taken meanwhile as the local end of any outgoing connection (this once
# failed a failover test: "bind: address already in use").
TAKEN=" "
EPHEMERAL_LOW=$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
PORT_LOW=10000
PORT_SPAN=$(( (EPHEMERAL_LOW - PORT_LOW) / 2 - 1 ))
[ "$PORT_SPAN" -ge 500 ] || { PORT_LOW=20000; PORT_SPAN=6000; }
free_pair() {
  local used port
  used=" $(ss -Htan 2>/dev/null | awk '{n=split($4,a,":"); print a[n]}' | tr '\n' ' ') "
  port=$((PORT_LOW + (RANDOM % PORT_SPAN) * 2))
  while [[ "$used" == *" $port "* || "$used" == *" $((port + 1)) "* || "$TAKEN" == *" $port "* ]]; do
    port=$((port + 2))
    [ "$port" -lt $((PORT_LOW + PORT_SPAN * 2)) ] || port=$PORT_LOW
  done
  TAKEN="$TAKEN$port $((port + 1)) "
  echo "$port"
}

# run_node DIR I [JOIN]: starts node I with the settings saved in
# DIR/nodeI.env, joining the gossip addresses JOIN when given.
run_node() {
  local dir=$1 i=$2 join=${3:-}
  # shellcheck disable=SC1090
  (set -a; source "$dir/node$i.env"; [ -z "$join" ] || CLUSTER_JOIN=$join; set +a
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

wait_listening() { # DIR I PORT
  for _ in $(seq 1 240); do
    if (: </dev/tcp/127.0.0.1/"$3") 2>/dev/null; then return 0; fi
    kill -0 "$(cat "$1/node$2.pid")" 2>/dev/null || { echo "weaviate: node $2 died; see $1/node$2.log" >&2; tail -5 "$1/node$2.log" >&2; return 1; }
    sleep 0.25
  done
  echo "weaviate: node $2 not listening on $3 after 60 s; see $1/node$2.log" >&2
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
# Asynchronous replication (on for collections with replicas): compare
# replicas every 5 s rather than 30 s, and pass on writes older than 2 s
# rather than 30 s, so a restarted node catches up in seconds (loopback,
# small tenants; the defaults suit large production shards).
ASYNC_REPLICATION_FREQUENCY=5s
ASYNC_REPLICATION_PROPAGATION_DELAY=2s
ASYNC_REPLICATION_ALIVE_NODES_CHECKING_FREQUENCY=1s
ENV
    run_node "$dir" "$i"
    # The others join node 1's gossip; one that finds nobody listening
    # there gives up and exits, so wait for it.
    [ "$i" = 1 ] && [ "$n" -gt 1 ] && wait_listening "$dir" 1 "${gossip[1]}"
  done
  for i in $(seq 1 "$n"); do wait_ready "$dir" "$i"; done
  local http1 grpc1 urls=""
  http1=$(sed -n 's/^HTTP_PORT=//p' "$dir/node1.env")
  grpc1=$(sed -n 's/^GRPC_PORT=//p' "$dir/node1.env")
  for i in $(seq 1 "$n"); do urls="${urls:+$urls,}http://127.0.0.1:${http[i]}"; done
  {
    echo "export SCRY_WEAVIATE_URL=http://127.0.0.1:$http1"
    echo "export SCRY_WEAVIATE_URLS=$urls"
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

# restart DIR I: starts node I again with its ports and data. It joins
# the gossip of every other node: node 1 has no one to join at first
# start, and a node that joins no one after a restart stays alone in the
# membership (Raft reconnects, but data requests never reach it).
restart() {
  local dir=$1 i=$2 f join=""
  for f in "$dir"/node*.env; do
    [ "$f" = "$dir/node$i.env" ] && continue
    join="${join:+$join,}127.0.0.1:$(sed -n 's/^CLUSTER_GOSSIP_BIND_PORT=//p' "$f")"
  done
  # A killed node's ports can stay taken for a moment (a socket still
  # closing, or an outgoing connection that happened to get one); try
  # again rather than fail on that alone.
  local attempt
  for attempt in 1 2 3 4 5; do
    run_node "$dir" "$i" "$join"
    wait_ready "$dir" "$i" && return 0
    grep -q "address already in use" <(tail -5 "$dir/node$i.log") || return 1
    echo "weaviate: node $i found a port taken (attempt $attempt); trying again in 3 s" >&2
    sleep 3
  done
  return 1
}

case "${1:-}" in
  build) build ;;
  bin) build; echo "$BIN" ;;
  start) start "${2:?data directory}" "${3:-1}" ;;
  stop) stop "${2:?data directory}" ;;
  kill) kill -9 "$(cat "${2:?data directory}/node${3:?node}.pid")" ;;
  restart) build; restart "${2:?data directory}" "${3:?node}" ;;
  *) echo "usage: $0 build|bin|start DIR [N]|stop DIR|kill DIR I|restart DIR I" >&2; exit 2 ;;
esac
