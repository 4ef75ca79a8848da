#!/usr/bin/env bash
# The soak: one gateway on PostgreSQL under mixed load for SOAK_MINUTES (default 30), sampled every minute. Outside
# the test command (it takes the build plus half an hour):
#   bench/soak.sh
# It builds the gateway, creates a fresh PostgreSQL database, starts a local code runner and the gateway with Liberty's
# `server run` (the demo seeded, a license without the community code-run cap), then runs SoakBench: SOAK_CLIENTS
# (default 8) official MCP Java SDK clients, connections kept, calling customer_get, a code_execute that calls it,
# tools/list and GET /api/code-runs, and every tenth round code that throws and a tool that does not exist. Each minute
# it samples the gateway's JVM: heap after a full GC, live threads, open files, and the database's connections. The
# samples go to target/bench/soak.csv, the table and a verdict per series to stdout and target/bench/soak.txt, and the
# plot to SOAK_PNG (default target/bench/soak.png; docs/images/soak.png is the one the docs show).
#   SOAK_HTTP_PORT   gateway HTTP port (default 9880; HTTPS is +363, the runner +1000)
#   SOAK_DB          the database to create (default soak) on PostgreSQL at 127.0.0.1:5432, user postgres; it is
#                    dropped first, so two soaks side by side need two names
set -euo pipefail
cd "$(dirname "$0")/.."

port="${SOAK_HTTP_PORT:-9880}"
runner_port="$((port + 1000))"
database="${SOAK_DB:-soak}"
minutes="${SOAK_MINUTES:-30}"
clients="${SOAK_CLIENTS:-8}"
png="${SOAK_PNG:-target/bench/soak.png}"
base="http://127.0.0.1:$port"
key="amcp-soak-$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
token="$(head -c 32 /dev/urandom | base64 | tr -d '/+=')"
out=target/bench
mkdir -p "$out"
say() { printf '\033[1m[soak]\033[0m %s\n' "$*" >&2; }

runner_pid=""
gateway_pid=""
stop_all() {
  if [ -n "$gateway_pid" ]; then
    kill -TERM -- "-$gateway_pid" 2>/dev/null || kill -TERM "$gateway_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$gateway_pid" 2>/dev/null || break; sleep 0.5; done
  fi
  [ -n "$runner_pid" ] && kill "$runner_pid" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop_all EXIT INT TERM

for p in "$port" "$runner_port"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
    echo "soak: port $p is in use; set SOAK_HTTP_PORT" >&2
    exit 1
  fi
done
command -v jcmd >/dev/null || { echo "soak: jcmd (the JDK's) is needed to sample the heap after GC" >&2; exit 1; }
command -v psql >/dev/null || { echo "soak: psql is needed to create the database (apt-get install postgresql-client)" >&2; exit 1; }

# shellcheck source=bench/license.sh
source bench/license.sh
bench_license

say "building the gateway and its Liberty server"
mvn -B -q -DskipTests -DskipITs package liberty:create liberty:install-feature liberty:deploy > "$out/soak-build.log" 2>&1 \
  || { tail -50 "$out/soak-build.log"; echo "soak: the build failed" >&2; exit 1; }
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/classpath.txt" > "$out/classpath.log" 2>&1 \
  || { tail -50 "$out/classpath.log"; echo "soak: resolving the benchmark's classpath failed" >&2; exit 1; }

say "a fresh database '$database' on 127.0.0.1:5432"
psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS \"$database\" WITH (FORCE)" -c "CREATE DATABASE \"$database\""
export DB_URL="jdbc:postgresql://127.0.0.1:5432/$database" DB_USER=postgres DB_PASSWORD=postgres

say "starting a local code runner on port $runner_port (log: $out/soak-runner.log)"
CODE_RUNNER_TOKEN="$token" CODE_RUNNER_PORT="$runner_port" CODE_RUNNER_HOST=127.0.0.1 \
  runner-image/run-local.sh > "$out/soak-runner.log" 2>&1 &
runner_pid=$!
for _ in $(seq 1 600); do
  curl -fsS "http://127.0.0.1:$runner_port/healthz" >/dev/null 2>&1 && break
  kill -0 "$runner_pid" 2>/dev/null || { cat "$out/soak-runner.log"; echo "soak: the runner failed to start" >&2; exit 1; }
  sleep 0.5
done

say "starting the gateway with Liberty's server run on $base (log: $out/soak-gateway.log)"
CODE_RUNNER_URL="ws://127.0.0.1:$runner_port" CODE_RUNNER_TOKEN="$token" AMCP_HTTP_PORT="$port" AMCP_HTTPS_PORT="$((port + 363))" \
  AMCP_PUBLIC_URL="$base" AMCP_DEMO=true AMCP_DEMO_API_KEY="$key" setsid target/liberty/wlp/bin/server run amcp > "$out/soak-gateway.log" 2>&1 &
gateway_pid=$!
for _ in $(seq 1 900); do
  curl -fsS "$base/health/ready" >/dev/null 2>&1 && break
  kill -0 "$gateway_pid" 2>/dev/null || { tail -50 "$out/soak-gateway.log"; echo "soak: the gateway failed to start" >&2; exit 1; }
  sleep 1
done
# The JVM that serves the gateway: the one of Liberty's launcher (ws-server.jar) in the session this script started
# (setsid), never another Liberty server on the machine.
jvm="$(pgrep -s "$gateway_pid" -f ws-server.jar | head -1 || true)"
[ -n "$jvm" ] || { echo "soak: the gateway's JVM was not found" >&2; exit 1; }

say "soak: $minutes minutes, $clients clients, gateway JVM $jvm"
set +e
# Two SLF4J providers are on the test classpath; naming logback's makes its quiet test configuration count, or the SDK
# client logs every on-purpose error at INFO.
java -Dslf4j.provider=ch.qos.logback.classic.spi.LogbackServiceProvider -Dlogback.configurationFile=src/test/resources/logback-test.xml -cp "$(cat "$out/classpath.txt")" \
  src/test/java/dev/amcp/gateway/bench/SoakBench.java --base "$base" --key "$key" --pid "$jvm" --db "$DB_URL" \
  --minutes "$minutes" --clients "$clients" --csv "$out/soak.csv" 2> "$out/soak-client.log" | tee "$out/soak.txt"
status=${PIPESTATUS[0]}
set -e
caption="bench/soak.sh at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d), $minutes minutes, $clients SDK clients, $(nproc) cores; $(head -1 "$out/soak.txt" | sed 's/^# bench\/soak.sh: [^,]*, [^,]*, //')"
java bench/SoakPlot.java "$out/soak.csv" "$png" "$caption"
say "samples $out/soak.csv, table $out/soak.txt, plot $png"
exit "$status"
