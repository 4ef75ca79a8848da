#!/usr/bin/env bash
# Code mode and MCP benchmark against a real gateway: starts a local code runner and the gateway in the quick-start
# configuration (embedded H2, demo workspace, fresh database) on its own ports, runs CodeModeBench over MCP
# Streamable HTTP, prints the tables (also written to target/bench/code-mode.txt), and stops everything it started.
# The gateway runs as in production, with Liberty's own `server run`: under quickstart.sh's `mvn liberty:run`, Maven
# copies every console line of the server, and at thousands of request-log lines a second that took a quarter of
# one of the machine's cores away from the gateway.
#   BENCH_HTTP_PORT   gateway HTTP port (default 9780; HTTPS is +363)
#   BENCH_ONLY        sections: latency,bridge,load,mcp (default: all)
#   BENCH_ARGS        extra CodeModeBench options, e.g. "--latency-runs 500 --bridge-reps 20 --mcp-requests 40000 --mcp-rounds 5"
set -euo pipefail
cd "$(dirname "$0")/.."

port="${BENCH_HTTP_PORT:-9780}"
base="http://127.0.0.1:$port"
key="${BENCH_API_KEY:-amcp-bench-$(head -c 18 /dev/urandom | base64 | tr -d '/+=')}"
token="$(head -c 32 /dev/urandom | base64 | tr -d '/+=')"
out=target/bench
mkdir -p "$out"
say() { printf '\033[1m[bench]\033[0m %s\n' "$*" >&2; }

runner_pid=""
gateway_pid=""
cleanup() {
  if [ -n "$gateway_pid" ]; then
    kill "$gateway_pid" 2>/dev/null || true   # server run stops the server on TERM
    wait "$gateway_pid" 2>/dev/null || true
  fi
  if [ -x target/liberty/wlp/bin/server ] && target/liberty/wlp/bin/server status amcp >/dev/null 2>&1; then
    target/liberty/wlp/bin/server stop amcp >/dev/null 2>&1 || true
  fi
  if [ -n "$runner_pid" ]; then
    kill "$runner_pid" 2>/dev/null || true
    wait "$runner_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT INT TERM

if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "bench: port $port is in use; set BENCH_HTTP_PORT" >&2
  exit 1
fi

say "starting a local code runner (log: $out/runner.log)"
rm -f "$out/runner.port"
CODE_RUNNER_TOKEN="$token" CODE_RUNNER_PORT=0 CODE_RUNNER_PORT_FILE="$out/runner.port" \
  runner-image/run-local.sh > "$out/runner.log" 2>&1 &
runner_pid=$!
for _ in $(seq 1 600); do
  [ -s "$out/runner.port" ] && break
  kill -0 "$runner_pid" 2>/dev/null || { cat "$out/runner.log"; echo "bench: the runner failed to start" >&2; exit 1; }
  sleep 0.5
done
runner_url="ws://127.0.0.1:$(cat "$out/runner.port")"

say "building the gateway and its Liberty server (mvn package liberty:create liberty:install-feature liberty:deploy)"
mvn -B -q -DskipTests -DskipITs package liberty:create liberty:install-feature liberty:deploy > "$out/build.log" 2>&1 \
  || { tail -50 "$out/build.log"; echo "bench: the build failed" >&2; exit 1; }
unset DB_URL DB_USER DB_PASSWORD                   # embedded H2, as the quick start uses
rm -rf target/liberty/wlp/usr/servers/amcp/data   # a fresh demo database, as the quick start makes
say "starting the gateway with Liberty's server run on $base (log: $out/gateway.log)"
CODE_RUNNER_URL="$runner_url" CODE_RUNNER_TOKEN="$token" AMCP_HTTP_PORT="$port" AMCP_HTTPS_PORT="$((port + 363))" \
  AMCP_DEMO=true AMCP_DEMO_API_KEY="$key" target/liberty/wlp/bin/server run amcp > "$out/gateway.log" 2>&1 &
gateway_pid=$!
for _ in $(seq 1 900); do
  if curl -fsS "$base/health/ready" >/dev/null 2>&1; then break; fi
  kill -0 "$gateway_pid" 2>/dev/null || { tail -50 "$out/gateway.log"; echo "bench: the gateway failed to start" >&2; exit 1; }
  sleep 1
done
curl -fsS "$base/health/ready" >/dev/null || { tail -50 "$out/gateway.log"; echo "bench: the gateway is not ready" >&2; exit 1; }

say "uptime before: $(uptime)"
set +e
# shellcheck disable=SC2086
java src/test/java/dev/amcp/gateway/bench/CodeModeBench.java --base "$base" --key "$key" \
  --only "${BENCH_ONLY:-latency,bridge,mcp,load}" ${BENCH_ARGS:-} | tee "$out/code-mode.txt"
status=${PIPESTATUS[0]}
set -e
say "uptime after: $(uptime)"
exit "$status"
