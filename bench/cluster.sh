#!/usr/bin/env bash
# The multi-node test topology (docs/scaling.md, "Two nodes on one machine"): two Open Liberty servers running the
# same gateway WAR on one PostgreSQL database, each with its own code runner, behind HAProxy balancing round-robin
# with no affinity. MultiNodeIT starts and stops it; it also serves by hand:
#
#   bench/cluster.sh start    start runners, node a (it migrates the schema), node b, then HAProxy; wait until ready
#   bench/cluster.sh stop     stop everything `start` started (pid files under target/cluster)
#   bench/cluster.sh status   show what runs
#   bench/cluster.sh restart a|b
#                             a rolling restart's step: drain the node (POST /api/node/drain), wait until HAProxy
#                             sees it DOWN and nothing is in flight there, stop it, start it again, wait until UP;
#                             a node that was killed is only started again
#   bench/cluster.sh kill a|b    a crash: SIGKILL the node's JVM at once (no drain, no stop); its runner stays
#
# It builds nothing: it runs target/amcp-gateway.war (`mvn -B -q package -DskipTests`) on the Liberty runtime the
# Maven build unpacked under target/liberty/wlp, or else on the openliberty-runtime zip from ~/.m2, unpacked into
# target/cluster/wlp. The servers' own directories are target/cluster/usr/servers/amcp-node-{a,b} (WLP_USER_DIR).
# HAProxy (Debian package haproxy) is installed with apt-get when missing and running as root.
#
# Settings (environment):
#   DB_URL, DB_USER, DB_PASSWORD   the shared database; default jdbc:postgresql://127.0.0.1:5432/cluster, postgres,
#                                  postgres. It must exist; it is used as it is (MultiNodeIT hands over a fresh one)
#   CLUSTER_PORT                   HAProxy's port (default 9300); the nodes' HTTP ports are CLUSTER_PORT+1 and +2,
#                                  their HTTPS ports +11 and +12, HAProxy's statistics page +90 (/stats, ;csv for CSV),
#                                  and +3 the same HAProxy path to node a alone (bench/cluster-bench.sh's 1-node half)
#   AMCP_MASTER_KEY, AMCP_SESSION_SECRET, CODE_RUNNER_TOKEN
#                                  the same on both nodes; generated once into target/cluster/secrets.env when unset
#   AMCP_BOOTSTRAP_OPERATOR, AMCP_BOOTSTRAP_OPERATOR_PASSWORD, AMCP_BOOTSTRAP_OPERATOR_API_KEY,
#   AMCP_DEMO_API_KEY, AMCP_DEMO_ADMIN_PASSWORD
#                                  fixed values for scripted use (defaults below); the demo is seeded (AMCP_DEMO=true)
#                                  by the first node when the database holds no workspace yet
#   CLUSTER_START_TIMEOUT          seconds each node (and each runner) may take to become ready (default 300)
#   CLUSTER_NODE_XMX               heap of each node (default 768m)
#   CLUSTER_BALANCE                HAProxy's algorithm (default roundrobin); `source` (the client's address picks the
#                                  node, so one client always reaches the same node) checks that MultiNodeIT notices a
#                                  balancer that keeps to one node
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

CLUSTER_DIR="$root/target/cluster"
CLUSTER_PORT="${CLUSTER_PORT:-9300}"
STATS_PORT=$((CLUSTER_PORT + 90))
ONE_NODE_PORT=$((CLUSTER_PORT + 3))
START_TIMEOUT="${CLUSTER_START_TIMEOUT:-300}"
NODE_XMX="${CLUSTER_NODE_XMX:-768m}"
NODES=(a b)
WAR="$root/target/amcp-gateway.war"
USER_DIR="$CLUSTER_DIR/usr"
PIDS="$CLUSTER_DIR/pids"
LIBERTY_VERSION="$(sed -n 's:.*<version.liberty.runtime>\(.*\)</version.liberty.runtime>.*:\1:p' pom.xml)"
POSTGRESQL_VERSION="$(sed -n 's:.*<version.postgresql>\(.*\)</version.postgresql>.*:\1:p' pom.xml)"
M2="${M2_REPO:-$HOME/.m2/repository}"

say() { printf '[cluster] %s\n' "$*"; }
die() { printf '[cluster] ERROR: %s\n' "$*" >&2; exit 1; }

node_index() { [ "$1" = a ] && echo 1 || echo 2; }
http_port() { echo $((CLUSTER_PORT + $(node_index "$1"))); }
https_port() { echo $((CLUSTER_PORT + 10 + $(node_index "$1"))); }
server_name() { echo "amcp-node-$1"; }
server_dir() { echo "$USER_DIR/servers/$(server_name "$1")"; }
node_log() { echo "$(server_dir "$1")/logs/messages.log"; }
liberty_pid_file() { echo "$USER_DIR/servers/.pid/$(server_name "$1").pid"; }

# A pid file names a live process of this topology: its command line names this checkout (runner, Liberty, HAProxy
# all do), so a stale pid file whose number a foreign process took over is never acted on.
# A process in the middle of an exec (setsid -> run-local.sh -> deno) reads as an empty command line for a moment, so
# a miss is read again before it counts: once, that moment made `start` take a starting runner for one that had exited.
alive() {
  local pid tries
  [ -s "$1" ] && pid="$(cat "$1")" || return 1
  for tries in 1 2 3 4 5; do
    kill -0 "$pid" 2>/dev/null || return 1
    # grep reads the file itself: in a pipeline under pipefail, grep -q quitting early could fail the writer (SIGPIPE).
    grep -qaF "$root/" "/proc/$pid/cmdline" 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
http_status() { curl -s -o /dev/null -m 5 -w '%{http_code}' "$1" 2>/dev/null || true; }

# The Liberty runtime: Maven's (target/liberty/wlp, made by the it profile's `liberty:create`), else the zip from ~/.m2.
find_wlp() {
  if [ -x "$root/target/liberty/wlp/bin/server" ]; then
    WLP="$root/target/liberty/wlp"
  elif [ -x "$CLUSTER_DIR/wlp/bin/server" ]; then
    WLP="$CLUSTER_DIR/wlp"
  else
    local zip="$M2/io/openliberty/openliberty-runtime/$LIBERTY_VERSION/openliberty-runtime-$LIBERTY_VERSION.zip"
    [ -f "$zip" ] || die "no Liberty runtime: neither target/liberty/wlp nor $zip (run mvn -B package once)"
    command -v unzip >/dev/null || die "unzip is needed to unpack $zip (Debian package unzip)"
    say "unpacking $zip into target/cluster/wlp"
    mkdir -p "$CLUSTER_DIR"
    unzip -q -o "$zip" -d "$CLUSTER_DIR"
    WLP="$CLUSTER_DIR/wlp"
  fi
}

ensure_haproxy() {
  command -v haproxy >/dev/null && return
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing haproxy (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq haproxy >/dev/null || true
    # The package enables a system service on port 80 that this topology does not use: leave the system as it was.
    command -v systemctl >/dev/null && systemctl disable --now haproxy >/dev/null 2>&1 || true
  fi
  command -v haproxy >/dev/null || die "haproxy is missing: install the Debian package haproxy (apt-get install haproxy)"
}

secrets() {
  local file="$CLUSTER_DIR/secrets.env"
  if [ ! -s "$file" ]; then
    mkdir -p "$CLUSTER_DIR"
    (umask 077 && {
      echo "GEN_MASTER_KEY=$(head -c 32 /dev/urandom | base64)"
      echo "GEN_SESSION_SECRET=$(head -c 32 /dev/urandom | base64 | tr -d '/+=')"
      echo "GEN_RUNNER_TOKEN=$(head -c 32 /dev/urandom | base64 | tr -d '/+=')"
      echo "GEN_KEYSTORE_PASSWORD=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
    } > "$file")
  fi
  # shellcheck disable=SC1090
  source "$file"
  export AMCP_MASTER_KEY="${AMCP_MASTER_KEY:-$GEN_MASTER_KEY}"
  export AMCP_SESSION_SECRET="${AMCP_SESSION_SECRET:-$GEN_SESSION_SECRET}"
  export CODE_RUNNER_TOKEN="${CODE_RUNNER_TOKEN:-$GEN_RUNNER_TOKEN}"
}

start_runner() {
  local node=$1 port_file="$CLUSTER_DIR/runner-$1.port" log="$CLUSTER_DIR/runner-$1.log"
  rm -f "$port_file"
  say "runner $node: starting (log $log; first use installs Deno from npm)"
  # setsid: the runner (and its sandboxes) get a process group of their own, which `stop` ends by its id.
  CODE_RUNNER_PORT=0 CODE_RUNNER_PORT_FILE="$port_file" setsid "$root/runner-image/run-local.sh" > "$log" 2>&1 < /dev/null &
  echo $! > "$PIDS/runner-$node.pid"
  local waited=0
  until [ -s "$port_file" ]; do
    alive "$PIDS/runner-$node.pid" || { tail -n 20 "$log" >&2; die "runner $node exited; log: $log"; }
    [ "$waited" -ge "$START_TIMEOUT" ] && { tail -n 20 "$log" >&2; die "runner $node did not start within $START_TIMEOUT s; log: $log"; }
    sleep 1; waited=$((waited + 1))
    [ $((waited % 15)) = 0 ] && say "runner $node: still starting ($waited s)"
  done
  say "runner $node: ws://127.0.0.1:$(cat "$port_file")"
}

# A server directory from the production server.xml and jvm.options; everything node-specific comes from the
# environment at start (see start_node), as an operator would run it.
create_server() {
  local node=$1 dir
  dir="$(server_dir "$node")"
  rm -rf "$dir"
  mkdir -p "$dir/apps" "$dir/lib/global/jdbc"
  cp src/main/liberty/config/server.xml "$dir/server.xml"
  { cat src/main/liberty/config/jvm.options; echo "-Xmx$NODE_XMX"; } > "$dir/jvm.options"
  cp "$WAR" "$dir/apps/amcp-gateway.war"
  # A WAR in apps/ needs its application element: the one docs/install.md gives, as a drop-in beside server.xml.
  mkdir -p "$dir/configDropins/overrides"
  cat > "$dir/configDropins/overrides/amcp-app.xml" <<'XML'
<server>
    <webApplication id="amcp-gateway" name="amcp-gateway" location="amcp-gateway.war" contextRoot="/"/>
</server>
XML
  # What `server create` writes: the password of the generated keystore and LTPA keys. One value for both nodes,
  # and node b gets node a's LTPA keys (copied after node a's start), as servers of one cluster share them.
  (umask 077 && echo "keystore_password=$GEN_KEYSTORE_PASSWORD" > "$dir/server.env")
  if [ "$node" != a ] && [ -f "$(server_dir a)/resources/security/ltpa.keys" ]; then
    mkdir -p "$dir/resources/security"
    cp "$(server_dir a)/resources/security/ltpa.keys" "$dir/resources/security/ltpa.keys"
  fi
  local driver="$M2/org/postgresql/postgresql/$POSTGRESQL_VERSION/postgresql-$POSTGRESQL_VERSION.jar"
  [ -f "$driver" ] || die "no PostgreSQL driver at $driver (run mvn -B package once)"
  cp "$driver" "$dir/lib/global/jdbc/postgresql.jar"
}

# start_node <node> [again]: `again` (a restart) keeps the server directory, its logs and its keys.
start_node() {
  local node=$1 name port log started_at
  name="$(server_name "$node")"; port="$(http_port "$node")"; log="$(node_log "$node")"
  [ "${2:-}" = again ] || create_server "$node"
  say "node $node: starting $name on http://127.0.0.1:$port (log $log)"
  started_at=$(date +%s)
  local out="$CLUSTER_DIR/server-start-$node.out"
  (
    unset WLP_OUTPUT_DIR SERVER_NAME
    export WLP_USER_DIR="$USER_DIR"
    export AMCP_HOST=127.0.0.1 AMCP_HTTP_PORT="$port" AMCP_HTTPS_PORT="$(https_port "$node")"
    export DB_URL DB_USER DB_PASSWORD
    export AMCP_DEMO=true AMCP_DEMO_API_KEY AMCP_DEMO_ADMIN_PASSWORD
    export AMCP_BOOTSTRAP_OPERATOR AMCP_BOOTSTRAP_OPERATOR_PASSWORD AMCP_BOOTSTRAP_OPERATOR_API_KEY
    # Each node calls its own demo API (not through HAProxy), so the balancer sees only what clients send.
    export AMCP_UPSTREAM_DEMO="http://127.0.0.1:$port/demo-api"
    export CODE_RUNNER_URL="ws://127.0.0.1:$(cat "$CLUSTER_DIR/runner-$node.port")"
    # One summary line per request in each node's messages.log: which node served what (MultiNodeIT reads them).
    export AMCP_REQUEST_LOG=all
    exec "$WLP/bin/server" start "$name"
  ) > "$out" 2>&1 < /dev/null &
  # `server start` returns once Liberty reports started, or gives up waiting on a loaded machine while the server
  # goes on starting; readiness decides either way.
  local starter=$! starter_rc="" url="http://127.0.0.1:$port/health/ready" status="" waited last_said=0
  while :; do
    # Ready means UP with the gateway's own database check: before the WAR has started, Liberty answers UP with no
    # checks at all.
    status="$(curl -s -m 5 -w ' %{http_code}' "$url" 2>/dev/null || true)"
    case "$status" in
      *'"database"'*' 200') break ;;
    esac
    status="${status##* }"
    waited=$(( $(date +%s) - started_at ))
    [ -s "$(liberty_pid_file "$node")" ] && cp "$(liberty_pid_file "$node")" "$PIDS/node-$node.pid"
    if [ -z "$starter_rc" ] && ! kill -0 "$starter" 2>/dev/null; then
      starter_rc=0; wait "$starter" || starter_rc=$?
      if [ "$starter_rc" != 0 ] && ! alive "$PIDS/node-$node.pid"; then
        cat "$out" >&2
        die "node $node: server start failed (exit $starter_rc); see $out and $log"
      fi
    fi
    if [ -n "$starter_rc" ] && ! alive "$PIDS/node-$node.pid"; then
      tail -n 30 "$log" >&2 2>/dev/null || true
      die "node $node: the server process ended; log: $log"
    fi
    if [ "$waited" -ge "$START_TIMEOUT" ]; then
      tail -n 30 "$log" >&2 2>/dev/null || true
      die "node $node: /health/ready not UP within $START_TIMEOUT s (last status ${status:-none}); log: $log"
    fi
    if [ $((waited - last_said)) -ge 15 ]; then
      say "node $node: waiting for /health/ready ($waited s of $START_TIMEOUT, last status ${status:-no answer})"
      last_said=$waited
    fi
    sleep 2
  done
  [ -s "$(liberty_pid_file "$node")" ] && cp "$(liberty_pid_file "$node")" "$PIDS/node-$node.pid"
  if grep -q 'CWWKZ0002E\|CWWKZ0004E\|SRVE0271E' "$log" 2>/dev/null; then
    die "node $node: the application failed to start; log: $log"
  fi
  say "node $node: ready in $(( $(date +%s) - started_at )) s"
}

write_haproxy_config() {
  cat > "$CLUSTER_DIR/haproxy.cfg" <<EOF
# Written by bench/cluster.sh: round-robin over both gateway nodes, no cookie, no stickiness, no affinity of any kind.
global
    maxconn 2000
    log stdout format raw local0
defaults
    mode http
    log global
    option httplog
    timeout connect 5s
    timeout client 120s
    timeout server 120s
    timeout http-keep-alive 10s
    # A node that cannot be connected to (killed, before the health checks mark it DOWN): the request never reached
    # it, so it goes to the other node. Nothing sent to a node is sent again.
    retries 2
    option redispatch 1
    retry-on conn-failure
frontend amcp
    bind 127.0.0.1:$CLUSTER_PORT
    default_backend gateways
backend gateways
    balance ${CLUSTER_BALANCE:-roundrobin}
    option httpchk GET /health/ready
    # Ready is 200 with the gateway's own checks: before the WAR has started, Liberty answers 200 with no checks.
    http-check expect status 200
    http-check expect string "database"
    default-server inter 2s fall 2 rise 1
    server node-a 127.0.0.1:$(http_port a) check
    server node-b 127.0.0.1:$(http_port b) check
# The same path to node a alone, for the 1-node half of bench/cluster-bench.sh (measured beside the 2 nodes above).
frontend amcp-one-node
    bind 127.0.0.1:$ONE_NODE_PORT
    default_backend node-a-alone
backend node-a-alone
    option httpchk GET /health/ready
    http-check expect status 200
    http-check expect string "database"
    default-server inter 2s fall 2 rise 1
    server node-a 127.0.0.1:$(http_port a) check
listen stats
    bind 127.0.0.1:$STATS_PORT
    stats enable
    stats uri /stats
    stats refresh 5s
EOF
}

# "node-a UP" lines from HAProxy's statistics CSV (pxname,svname,...,status is the 18th field).
backend_status() {
  curl -s -m 5 "http://127.0.0.1:$STATS_PORT/stats;csv" 2>/dev/null | awk -F, '$1 == "gateways" && $2 ~ /^node-/ { print $2, $18 }'
}

start_haproxy() {
  write_haproxy_config
  haproxy -c -q -f "$CLUSTER_DIR/haproxy.cfg" || die "haproxy rejects $CLUSTER_DIR/haproxy.cfg"
  say "haproxy: starting on http://127.0.0.1:$CLUSTER_PORT (log $CLUSTER_DIR/haproxy.log)"
  setsid haproxy -db -f "$CLUSTER_DIR/haproxy.cfg" > "$CLUSTER_DIR/haproxy.log" 2>&1 < /dev/null &
  echo $! > "$PIDS/haproxy.pid"
  local waited=0 up
  while :; do
    up="$(backend_status | grep -c ' UP$' || true)"
    [ "$up" = 2 ] && break
    alive "$PIDS/haproxy.pid" || { cat "$CLUSTER_DIR/haproxy.log" >&2; die "haproxy exited; log: $CLUSTER_DIR/haproxy.log"; }
    [ "$waited" -ge 60 ] && { backend_status >&2; die "haproxy does not see both nodes UP within 60 s"; }
    sleep 1; waited=$((waited + 1))
    [ $((waited % 5)) = 0 ] && say "haproxy: waiting for both nodes UP ($(backend_status | tr '\n' ' '))"
  done
  say "haproxy: $(backend_status | tr '\n' ' ')"
}

start() {
  ensure_haproxy
  [ -f "$WAR" ] || die "no $WAR: build it first (mvn -B -q package -DskipTests)"
  mkdir -p "$PIDS"
  for f in "$PIDS"/*.pid; do
    [ -e "$f" ] && alive "$f" && die "the cluster is already running ($f); run bench/cluster.sh stop first"
  done
  rm -f "$PIDS"/*.pid
  for port in "$CLUSTER_PORT" "$ONE_NODE_PORT" "$(http_port a)" "$(http_port b)" "$(https_port a)" "$(https_port b)" "$STATS_PORT"; do
    port_open "$port" && die "port $port is already in use; set CLUSTER_PORT to move the whole topology"
  done
  find_wlp
  export DB_URL="${DB_URL:-jdbc:postgresql://127.0.0.1:5432/cluster}"
  export DB_USER="${DB_USER:-postgres}"
  export DB_PASSWORD="${DB_PASSWORD:-postgres}"
  case "$DB_URL" in
    jdbc:postgresql:*) ;;
    *) die "DB_URL must be a PostgreSQL URL (two nodes share one database), not $DB_URL" ;;
  esac
  export AMCP_BOOTSTRAP_OPERATOR="${AMCP_BOOTSTRAP_OPERATOR:-cluster-operator}"
  export AMCP_BOOTSTRAP_OPERATOR_PASSWORD="${AMCP_BOOTSTRAP_OPERATOR_PASSWORD:-cluster-operator-password}"
  export AMCP_BOOTSTRAP_OPERATOR_API_KEY="${AMCP_BOOTSTRAP_OPERATOR_API_KEY:-amcp_cluster-operator-key-0123456789abcdef}"
  export AMCP_DEMO_API_KEY="${AMCP_DEMO_API_KEY:-amcp_cluster-demo-key-0123456789abcdef}"
  export AMCP_DEMO_ADMIN_PASSWORD="${AMCP_DEMO_ADMIN_PASSWORD:-cluster-demo-admin-password}"
  secrets
  # What a restart needs to start a node as this start did (secrets included: umask 077).
  (umask 077 && export -p | grep -E '^declare -x (AMCP_|DB_|CODE_RUNNER_TOKEN|GEN_|CLUSTER_)' > "$CLUSTER_DIR/start.env")
  local began; began=$(date +%s)
  # A start that fails half-way stops what it started (the logs stay for reading).
  trap 'rc=$?; if [ "$rc" != 0 ]; then say "start failed; stopping what it started"; stop; fi; exit "$rc"' EXIT
  say "runtime $WLP, database $DB_URL"
  # One after the other: the first node migrates the schema and seeds the demo; two cold starts at once on two
  # cores only make both slow.
  for node in "${NODES[@]}"; do
    start_runner "$node"
    start_node "$node"
  done
  start_haproxy
  trap - EXIT
  say "started in $(( $(date +%s) - began )) s"
  cat <<EOF
[cluster] gateway (HAProxy, round-robin): http://127.0.0.1:$CLUSTER_PORT   MCP: http://127.0.0.1:$CLUSTER_PORT/mcp/demo
[cluster] node a: http://127.0.0.1:$(http_port a)   node b: http://127.0.0.1:$(http_port b)
[cluster] HAProxy statistics: http://127.0.0.1:$STATS_PORT/stats   (CSV: /stats;csv)
[cluster] demo API key: $AMCP_DEMO_API_KEY   operator: $AMCP_BOOTSTRAP_OPERATOR / API key $AMCP_BOOTSTRAP_OPERATOR_API_KEY
[cluster] logs: $(node_log a), $(node_log b), $CLUSTER_DIR/runner-{a,b}.log, $CLUSTER_DIR/haproxy.log
EOF
}

# Ends the process group a pid file names (setsid made each its own group), waiting up to $2 seconds.
stop_group() {
  local file=$1 grace=${2:-10} pid
  alive "$file" || { rm -f "$file"; return 0; }
  pid="$(cat "$file")"
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 "$grace"); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$file"
}

stop() {
  mkdir -p "$PIDS"
  if alive "$PIDS/haproxy.pid"; then say "haproxy: stopping"; fi
  stop_group "$PIDS/haproxy.pid" 5
  for node in "${NODES[@]}"; do
    local file="$PIDS/node-$node.pid"
    # A start stopped half-way may not have copied Liberty's own pid file yet.
    alive "$file" || file="$(liberty_pid_file "$node")"
    if alive "$file"; then
      say "node $node: stopping $(server_name "$node")"
      find_wlp
      WLP_USER_DIR="$USER_DIR" timeout 120 "$WLP/bin/server" stop "$(server_name "$node")" > /dev/null 2>&1 || true
      if alive "$file"; then
        say "node $node: server stop did not end it; killing pid $(cat "$file")"
        kill -KILL "$(cat "$file")" 2>/dev/null || true
      fi
    fi
    rm -f "$file" "$PIDS/node-$node.pid"
    if alive "$PIDS/runner-$node.pid"; then say "runner $node: stopping"; fi
    stop_group "$PIDS/runner-$node.pid" 10
  done
  say "stopped"
}

status() {
  local running=0
  for node in "${NODES[@]}"; do
    if alive "$PIDS/runner-$node.pid"; then
      say "runner $node: running (pid $(cat "$PIDS/runner-$node.pid"), ws://127.0.0.1:$(cat "$CLUSTER_DIR/runner-$node.port" 2>/dev/null))"
      running=1
    else
      say "runner $node: stopped"
    fi
    if alive "$PIDS/node-$node.pid"; then
      say "node $node: running (pid $(cat "$PIDS/node-$node.pid"), http://127.0.0.1:$(http_port "$node"), /health/ready $(http_status "http://127.0.0.1:$(http_port "$node")/health/ready"))"
      running=1
    else
      say "node $node: stopped"
    fi
  done
  if alive "$PIDS/haproxy.pid"; then
    say "haproxy: running (pid $(cat "$PIDS/haproxy.pid"), http://127.0.0.1:$CLUSTER_PORT): $(backend_status | tr '\n' ' ')"
    running=1
  else
    say "haproxy: stopped"
  fi
  [ "$running" = 1 ] || exit 3   # LSB: 3 = not running
}

# HAProxy's view of one node: UP, DOWN, or another state of its statistics.
backend_state() { backend_status | awk -v n="node-$1" '$1 == n { print $2 }'; }

# Waits up to $3 seconds until HAProxy sees node $1 in state $2.
await_backend() {
  local node=$1 want=$2 limit=$3 waited=0
  until [ "$(backend_state "$node")" = "$want" ]; do
    [ "$waited" -ge $((limit * 2)) ] && die "haproxy does not see node $node $want within $limit s ($(backend_status | tr '\n' ' '))"
    sleep 0.5; waited=$((waited + 1))
    [ $((waited % 20)) = 0 ] && say "node $node: waiting for haproxy to see it $want"
  done
  true
}

# A rolling restart's step: drain the node (readiness DOWN), wait until HAProxy sends it nothing and nothing is in
# flight there, stop it, start it again with the environment `start` had, and wait until HAProxy sends it requests.
restart() {
  local node=$1 url key inflight waited=0 began
  case "$node" in a|b) ;; *) die "usage: bench/cluster.sh restart a|b" ;; esac
  [ -s "$CLUSTER_DIR/start.env" ] || die "no target/cluster/start.env: run bench/cluster.sh start first"
  # shellcheck disable=SC1091
  source "$CLUSTER_DIR/start.env"
  # the ports derived from CLUSTER_PORT, as `start` had them (this call's environment may not name it)
  STATS_PORT=$((CLUSTER_PORT + 90)); ONE_NODE_PORT=$((CLUSTER_PORT + 3))
  alive "$PIDS/haproxy.pid" || die "haproxy is not running"
  find_wlp
  url="http://127.0.0.1:$(http_port "$node")"; key="$AMCP_BOOTSTRAP_OPERATOR_API_KEY"
  began=$(date +%s)
  if ! alive "$PIDS/node-$node.pid"; then # killed: nothing to drain or stop
    rm -f "$PIDS/node-$node.pid"
    start_node "$node" again
    await_backend "$node" UP 60
    say "node $node: started again in $(( $(date +%s) - began )) s; haproxy sends it requests again"
    return
  fi
  say "node $node: draining"
  curl -sf -m 10 -X POST -H "Authorization: Bearer $key" "$url/api/node/drain" > /dev/null \
    || die "node $node: POST /api/node/drain failed"
  await_backend "$node" DOWN 60
  # What was sent before HAProxy saw it DOWN runs to its end (a code run at most AMCP_CODE_TIMEOUT_MS).
  while :; do
    inflight="$(curl -sf -m 10 -H "Authorization: Bearer $key" "$url/api/node/drain" | sed -n 's/.*"inFlight":\([0-9]*\).*/\1/p')"
    [ "$inflight" = 0 ] && break
    [ "$waited" -ge 120 ] && die "node $node: still ${inflight:-?} requests in flight after 60 s"
    sleep 0.5; waited=$((waited + 1))
  done
  say "node $node: drained in $(( $(date +%s) - began )) s; stopping"
  WLP_USER_DIR="$USER_DIR" timeout 120 "$WLP/bin/server" stop "$(server_name "$node")" > /dev/null 2>&1 \
    || die "node $node: server stop failed"
  rm -f "$PIDS/node-$node.pid"
  start_node "$node" again
  await_backend "$node" UP 60
  say "node $node: restarted in $(( $(date +%s) - began )) s; haproxy sends it requests again"
}

# A crash of one node: SIGKILL to its JVM, so nothing it holds in flight ends and nothing is drained.
kill_node() {
  local node=$1 pid
  case "$node" in a|b) ;; *) die "usage: bench/cluster.sh kill a|b" ;; esac
  alive "$PIDS/node-$node.pid" || die "node $node is not running"
  pid="$(cat "$PIDS/node-$node.pid")"
  kill -KILL "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "$(liberty_pid_file "$node")"
  say "node $node: killed (pid $pid)"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  restart) restart "${2:-}" ;;
  kill) kill_node "${2:-}" ;;
  *) echo "usage: bench/cluster.sh start|stop|status|restart a|b|kill a|b" >&2; exit 2 ;;
esac
