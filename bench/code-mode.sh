#!/usr/bin/env bash
# Code mode and MCP benchmark against a real gateway, as users run it. One command, about 15 minutes on 2 cores:
#   bench/code-mode.sh
# It builds the gateway once, then benchmarks it twice, one after the other, each time on a fresh demo database:
#   1. as `server run` starts it (Liberty's own launcher, as production runs it), with a local code runner it starts;
#   2. as `./quickstart.sh` starts it (Maven's liberty:run, the quick start's own local runner).
# Against each it runs CodeModeBench: the `users` section (the official MCP Java SDK client and the plain socket
# client side by side, connections kept alive; the issue's targets beside the figures) and, on the `server run`
# gateway, the `mcp` (gateway added latency, 8 clients, with an API key and with an OAuth access token in the same
# rounds), `revisions` (2025-11-25 against the stateless 2026-07-28: tools/call added latency and code_execute
# `return 1`), `upstream` (an upstream MCP server, server-everything from npm, registered on the demo server: the added
# latency of its tools/call over calling it directly, 8 socket clients, then 1, then 8 SDK clients) and `load` (200 concurrent runs) sections. For the token, the `server run` gateway trusts a real OpenID
# provider the script starts (mock-oauth2-server from the test classpath, issuer http://127.0.0.1:<port+2>/default);
# the benchmark gets its token from the provider's token endpoint. Both gateways run under a license made for this run
# alone (see bench_license): the community terms' 1,000 code runs a workspace a month are fewer than a warmed-up
# measurement needs. Tables go to stdout and target/bench/code-mode.txt; everything it started is stopped at the end.
#   BENCH_HTTP_PORT       gateway HTTP port (default 9780; HTTPS is +363; the runner gets +1000)
#   BENCH_OIDC_PORT       the OpenID provider's port (default BENCH_HTTP_PORT + 2)
#   BENCH_GATEWAYS        which gateways, in order (default "server-run quickstart")
#   BENCH_ONLY            sections on the server-run gateway (default users,mcp,revisions,upstream,load; also latency,bridge)
#   BENCH_QUICKSTART_ONLY sections on the quick-start gateway (default users)
#   BENCH_ARGS            extra CodeModeBench options, e.g. "--users-runs 500 --mcp-requests 40000 --warmup-seconds 60"
set -euo pipefail
cd "$(dirname "$0")/.."

port="${BENCH_HTTP_PORT:-9780}"
runner_port="$((port + 1000))"
oidc_port="${BENCH_OIDC_PORT:-$((port + 2))}"
everything_port="$((port + 6))"   # server-everything, the upstream MCP server of the upstream section
issuer="http://127.0.0.1:$oidc_port/default"
base="http://127.0.0.1:$port"
key="${BENCH_API_KEY:-amcp-bench-$(head -c 18 /dev/urandom | base64 | tr -d '/+=')}"
token="$(head -c 32 /dev/urandom | base64 | tr -d '/+=')"
out=target/bench
mkdir -p "$out"
: > "$out/code-mode.txt"
say() { printf '\033[1m[bench]\033[0m %s\n' "$*" >&2; }

runner_pid=""
gateway_pid=""
stop_gateway() {
  if [ -n "$gateway_pid" ]; then
    # server run stops the server on TERM; quickstart.sh runs in its own process group (setsid), and TERM to the
    # group stops Maven's liberty:run (which stops the server) and its local runner.
    kill -TERM -- "-$gateway_pid" 2>/dev/null || kill -TERM "$gateway_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$gateway_pid" 2>/dev/null || break; sleep 0.5; done
    wait "$gateway_pid" 2>/dev/null || true
    gateway_pid=""
  fi
  if [ -x target/liberty/wlp/bin/server ] && target/liberty/wlp/bin/server status amcp >/dev/null 2>&1; then
    target/liberty/wlp/bin/server stop amcp >/dev/null 2>&1 || true
  fi
  if [ -n "$runner_pid" ]; then
    kill "$runner_pid" 2>/dev/null || true
    wait "$runner_pid" 2>/dev/null || true
    runner_pid=""
  fi
}
oidc_pid=""
everything_pid=""
stop_all() {
  stop_gateway
  if [ -n "$everything_pid" ]; then
    kill -TERM -- "-$everything_pid" 2>/dev/null || kill -TERM "$everything_pid" 2>/dev/null || true
    wait "$everything_pid" 2>/dev/null || true
    everything_pid=""
  fi
  if [ -n "$oidc_pid" ]; then
    kill "$oidc_pid" 2>/dev/null || true
    wait "$oidc_pid" 2>/dev/null || true
    oidc_pid=""
  fi
}
trap stop_all EXIT INT TERM

# shellcheck source=bench/license.sh
source bench/license.sh
bench_license

for p in "$port" "$runner_port" "$oidc_port" "$everything_port"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
    echo "bench: port $p is in use; set BENCH_HTTP_PORT" >&2
    exit 1
  fi
done

say "building the gateway and its Liberty server (mvn package liberty:create liberty:install-feature liberty:deploy)"
mvn -B -q -DskipTests -DskipITs package liberty:create liberty:install-feature liberty:deploy > "$out/build.log" 2>&1 \
  || { tail -50 "$out/build.log"; echo "bench: the build failed" >&2; exit 1; }
# The benchmark client runs as a single source file on the test classpath (the official MCP Java SDK and its libraries).
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/classpath.txt" > "$out/classpath.log" 2>&1 \
  || { tail -50 "$out/classpath.log"; echo "bench: resolving the benchmark's classpath failed" >&2; exit 1; }
unset DB_URL DB_USER DB_PASSWORD                   # embedded H2, as the quick start uses

wait_ready() {
  local log="$1"
  for _ in $(seq 1 900); do
    if curl -fsS "$base/health/ready" >/dev/null 2>&1; then return 0; fi
    kill -0 "$gateway_pid" 2>/dev/null || { tail -50 "$log"; echo "bench: the gateway failed to start" >&2; exit 1; }
    sleep 1
  done
  curl -fsS "$base/health/ready" >/dev/null || { tail -50 "$log"; echo "bench: the gateway is not ready" >&2; exit 1; }
}

# A real OpenID provider for the OAuth rows: every client-credentials request for scope `mcp` gets an access token for
# the demo admin, meant for the gateway's /mcp/demo resource, as the gateway's OAuth checks require.
start_oidc() {
  [ -n "$oidc_pid" ] && return 0
  local config
  config=$(printf '{"tokenCallbacks":[{"issuerId":"default","tokenExpiry":7200,"requestMappings":[{"requestParam":"scope","match":"mcp","claims":{"sub":"admin","preferred_username":"admin","aud":["%s/mcp/demo"],"scope":"mcp"}}]}]}' "$base")
  say "starting an OpenID provider (mock-oauth2-server) at $issuer (log: $out/oidc.log)"
  SERVER_HOSTNAME=127.0.0.1 SERVER_PORT="$oidc_port" JSON_CONFIG="$config" \
    java -Xmx256m -cp "$(cat "$out/classpath.txt")" no.nav.security.mock.oauth2.StandaloneMockOAuth2ServerKt > "$out/oidc.log" 2>&1 &
  oidc_pid=$!
  for _ in $(seq 1 120); do
    curl -fsS "$issuer/.well-known/openid-configuration" >/dev/null 2>&1 && return 0
    kill -0 "$oidc_pid" 2>/dev/null || { cat "$out/oidc.log"; echo "bench: the OpenID provider failed to start" >&2; exit 1; }
    sleep 0.5
  done
  cat "$out/oidc.log"; echo "bench: the OpenID provider is not ready" >&2; exit 1
}

# The upstream section's MCP server: the same package and mode as the integration tests (EverythingUpstream), in a
# process group of its own (npx starts node as a child).
start_everything() {
  [ -n "$everything_pid" ] && return 0
  say "starting server-everything (npm @modelcontextprotocol/server-everything@2026.8.31) on port $everything_port (log: $out/everything.log)"
  PORT="$everything_port" setsid npx -y @modelcontextprotocol/server-everything@2026.8.31 streamableHttp > "$out/everything.log" 2>&1 < /dev/null &
  everything_pid=$!
  for _ in $(seq 1 360); do
    grep -q "listening on port $everything_port" "$out/everything.log" 2>/dev/null && return 0
    kill -0 "$everything_pid" 2>/dev/null || { cat "$out/everything.log"; echo "bench: server-everything failed to start" >&2; exit 1; }
    sleep 0.5
  done
  cat "$out/everything.log"; echo "bench: server-everything did not start" >&2; exit 1
}

start_server_run() {
  start_oidc
  case ",${BENCH_ONLY:-users,mcp,revisions,upstream,load}," in *,upstream,*) start_everything ;; esac
  say "starting a local code runner on port $runner_port (log: $out/runner.log)"
  CODE_RUNNER_TOKEN="$token" CODE_RUNNER_PORT="$runner_port" CODE_RUNNER_HOST=127.0.0.1 \
    runner-image/run-local.sh > "$out/runner.log" 2>&1 &
  runner_pid=$!
  for _ in $(seq 1 600); do
    curl -fsS "http://127.0.0.1:$runner_port/healthz" >/dev/null 2>&1 && break
    kill -0 "$runner_pid" 2>/dev/null || { cat "$out/runner.log"; echo "bench: the runner failed to start" >&2; exit 1; }
    sleep 0.5
  done
  rm -rf target/liberty/wlp/usr/servers/amcp/data   # a fresh demo database, as the quick start makes
  say "starting the gateway with Liberty's server run on $base, OAuth for MCP clients on (issuer $issuer) (log: $out/gateway.log)"
  CODE_RUNNER_URL="ws://127.0.0.1:$runner_port" CODE_RUNNER_TOKEN="$token" AMCP_HTTP_PORT="$port" AMCP_HTTPS_PORT="$((port + 363))" \
    AMCP_UPSTREAM_EVERYTHING="http://127.0.0.1:$everything_port" AMCP_UPSTREAM_SHARED=EVERYTHING \
    AMCP_OIDC_ISSUER="$issuer" AMCP_PUBLIC_URL="$base" AMCP_DEMO=true AMCP_DEMO_API_KEY="$key" setsid target/liberty/wlp/bin/server run amcp > "$out/gateway.log" 2>&1 &
  gateway_pid=$!
  wait_ready "$out/gateway.log"
}

start_quickstart() {
  say "starting the gateway with ./quickstart.sh on $base, its runner on $runner_port (log: $out/quickstart.log)"
  AMCP_HTTP_PORT="$port" AMCP_HTTPS_PORT="$((port + 363))" CODE_RUNNER_PORT="$runner_port" AMCP_DEMO_API_KEY="$key" \
    setsid ./quickstart.sh > "$out/quickstart.log" 2>&1 < /dev/null &
  gateway_pid=$!
  wait_ready "$out/quickstart.log"
}

run_bench() {
  local label="$1" only="$2" oauth="$3" status
  say "$label: uptime before: $(uptime)"
  set +e
  # The test classpath carries logback (from mock-oauth2-server): the tests' configuration keeps it at WARN, or the SDK
  # client would log every message at DEBUG into the tables and spend the benchmark's CPU on it.
  # shellcheck disable=SC2086
  java -Dlogback.configurationFile=src/test/resources/logback-test.xml -cp "$(cat "$out/classpath.txt")" src/test/java/dev/amcp/gateway/bench/CodeModeBench.java --base "$base" --key "$key" \
    --only "$only" --label "$label" $oauth ${BENCH_ARGS:-} 2> "$out/client.log" | tee -a "$out/code-mode.txt"
  status=${PIPESTATUS[0]}
  set -e
  say "$label: uptime after: $(uptime)"
  if [ "$status" != 0 ]; then
    grep -v '^SLF4J' "$out/client.log" | tail -20 >&2
    echo "bench: the benchmark against the gateway under $label failed" >&2
    exit "$status"
  fi
}

# Free page reporting (a VM handing freed memory back to its host) makes every sandbox start dearer: say which kind this is.
reporting="absent"
[ -r /sys/module/page_reporting/parameters/page_reporting_order ] && reporting="on"
printf '# bench/code-mode.sh, commit %s, %s, %s cores (%s), free page reporting %s, uptime %s\n' \
  "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" "$(date -u +%Y-%m-%dT%H:%MZ)" "$(nproc)" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$reporting" "$(uptime | sed 's/^ *//')" | tee -a "$out/code-mode.txt"
for gateway in ${BENCH_GATEWAYS:-server-run quickstart}; do
  case "$gateway" in
    server-run) start_server_run; run_bench "server run" "${BENCH_ONLY:-users,mcp,revisions,upstream,load}" \
      "--oauth-token-url $issuer/token --upstream-url http://127.0.0.1:$everything_port" ;;
    quickstart) start_quickstart; run_bench "quickstart.sh" "${BENCH_QUICKSTART_ONLY:-users}" "" ;;
    *) echo "bench: unknown gateway '$gateway' in BENCH_GATEWAYS (server-run, quickstart)" >&2; exit 2 ;;
  esac
  stop_gateway
done
say "tables: $out/code-mode.txt"
