#!/usr/bin/env bash
# One gateway node against two behind HAProxy, in one run (docs/scaling.md, "One node and two"). About 10 minutes on
# 2 cores:
#   bench/cluster-bench.sh
# It builds the WAR, starts the test topology (bench/cluster.sh) on a fresh PostgreSQL database under a license made
# for this run (bench/license.sh: the community terms' 1,000 code runs a month are fewer than the benchmark makes),
# then runs ClusterBench: 8 official MCP Java SDK clients call `tools/call` and `code_execute` back to back, in rounds
# that alternate HAProxy's path to node a alone (CLUSTER_PORT+3) and its round-robin over both nodes (CLUSTER_PORT),
# and it prints the median of the rounds, the ratio and the cores each part used. Everything it started is stopped at
# the end; the table goes to stdout and target/bench/cluster.txt.
#   CLUSTER_PORT            HAProxy's port (default 9300; see bench/cluster.sh for the ports it takes)
#   BENCH_DB                the database it drops and creates (default cluster_bench) on 127.0.0.1:5432 as postgres
#   BENCH_ARGS              extra ClusterBench options, e.g. "--clients 16 --seconds 30 --rounds 5"
set -euo pipefail
cd "$(dirname "$0")/.."

port="${CLUSTER_PORT:-9300}"
db="${BENCH_DB:-cluster_bench}"
key="amcp_cluster-bench-demo-key-0123456789abcdef"
out=target/bench
mkdir -p "$out"
say() { printf '\033[1m[bench]\033[0m %s\n' "$*" >&2; }
command -v psql >/dev/null || { echo "bench: psql is needed to create the benchmark's database (Debian package postgresql-client)" >&2; exit 1; }

# shellcheck source=bench/license.sh
source bench/license.sh
bench_license

stop_all() { bench/cluster.sh stop >&2 || true; }
trap stop_all EXIT INT TERM

say "building the WAR and the benchmark's classpath"
mvn -B -q -DskipTests -DskipITs package > "$out/cluster-build.log" 2>&1 \
  || { tail -50 "$out/cluster-build.log"; echo "bench: the build failed" >&2; exit 1; }
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/classpath.txt" > "$out/classpath.log" 2>&1 \
  || { tail -50 "$out/classpath.log"; echo "bench: resolving the benchmark's classpath failed" >&2; exit 1; }

say "a fresh database $db"
psql -q -h 127.0.0.1 -U postgres -d postgres -c "drop database if exists \"$db\" with (force)" -c "create database \"$db\"" >&2
export DB_URL="jdbc:postgresql://127.0.0.1:5432/$db" DB_USER=postgres DB_PASSWORD=postgres
export CLUSTER_PORT="$port" AMCP_DEMO_API_KEY="$key"
bench/cluster.sh start >&2

pids="node-a=$(cat target/cluster/pids/node-a.pid),node-b=$(cat target/cluster/pids/node-b.pid)"
pids="$pids,runner-a=$(cat target/cluster/pids/runner-a.pid),runner-b=$(cat target/cluster/pids/runner-b.pid)"
pids="$pids,haproxy=$(cat target/cluster/pids/haproxy.pid)"
say "benchmark: $(uptime)"
# The test classpath carries logback: the tests' configuration keeps it at WARN (the SDK client logs every message).
# shellcheck disable=SC2086
java -Dlogback.configurationFile=src/test/resources/logback-test.xml -cp "$(cat "$out/classpath.txt")" \
  src/test/java/dev/amcp/gateway/bench/ClusterBench.java --one "http://127.0.0.1:$((port + 3))" --two "http://127.0.0.1:$port" \
  --key "$key" --pids "$pids" ${BENCH_ARGS:-} 2> "$out/cluster-client.log" | tee "$out/cluster.txt"
status=${PIPESTATUS[0]}
say "done: $(uptime)"
if [ "$status" != 0 ]; then
  grep -v '^SLF4J' "$out/cluster-client.log" | tail -20 >&2
  echo "bench: the cluster benchmark failed" >&2
  exit "$status"
fi
