#!/usr/bin/env bash
# Quick start: builds the gateway and runs it in the foreground on embedded H2 with the demo workspace.
# A local code runner joins when runner-image/run-local.sh is present. Ctrl-C stops everything.
#   AMCP_HTTP_PORT   HTTP port (default 9080)
#   AMCP_KEEP_DATA=1 keep the quick-start database of an earlier run (by default each run starts fresh,
#                    so the demo API key is printed again)
#   AMCP_DEMO=false  no demo: an empty database and the first operator only (docs/install.md, step 6)
# Either way the instance gets its first operator (workspaces, the license) from AMCP_BOOTSTRAP_OPERATOR (default
# "operator"), AMCP_BOOTSTRAP_OPERATOR_PASSWORD and AMCP_BOOTSTRAP_OPERATOR_API_KEY; what is not set is generated
# and printed once.
set -euo pipefail
cd "$(dirname "$0")"

export AMCP_HTTP_PORT="${AMCP_HTTP_PORT:-9080}"
export AMCP_HTTPS_PORT="${AMCP_HTTPS_PORT:-$((AMCP_HTTP_PORT + 363))}"
export AMCP_DEMO="${AMCP_DEMO:-true}"
export AMCP_BOOTSTRAP_OPERATOR="${AMCP_BOOTSTRAP_OPERATOR:-operator}"
case "$AMCP_DEMO" in
  true | false) ;;
  *) echo "quickstart: AMCP_DEMO is true (the default) or false, not '$AMCP_DEMO'" >&2; exit 1 ;;
esac
unset DB_URL DB_USER DB_PASSWORD

say() { printf '\033[1m[quickstart]\033[0m %s\n' "$*"; }

for tool in java mvn; do
  command -v "$tool" >/dev/null || { echo "quickstart: '$tool' is required (JDK 17+ and Maven)" >&2; exit 1; }
done
if (exec 3<>"/dev/tcp/127.0.0.1/$AMCP_HTTP_PORT") 2>/dev/null; then
  echo "quickstart: port $AMCP_HTTP_PORT is already in use; set AMCP_HTTP_PORT to a free port" >&2
  exit 1
fi

server_dir=target/liberty/wlp/usr/servers/amcp
if [ "${AMCP_KEEP_DATA:-0}" != 1 ] && [ -d "$server_dir/data" ]; then
  say "starting with a fresh database (set AMCP_KEEP_DATA=1 to keep the old one)"
  rm -rf "$server_dir/data"
fi

say "building (first run downloads Open Liberty and dependencies; this takes a few minutes)"
mvn -B -q -DskipTests -DskipITs package

# Workspace secrets (upstream credentials) are stored encrypted under a master key; the demo gets one of its own,
# kept beside its database so AMCP_KEEP_DATA=1 can still open what was stored.
if [ -z "${AMCP_MASTER_KEY:-}" ] && [ -z "${AMCP_MASTER_KEY_FILE:-}" ]; then
  key_file="$PWD/target/quickstart-master.key"
  if [ ! -s "$key_file" ]; then
    (umask 077 && head -c 32 /dev/urandom | base64 > "$key_file")
  fi
  export AMCP_MASTER_KEY_FILE="$key_file"
fi

pids=()
cleanup() {
  for pid in "${pids[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

if [ -x runner-image/run-local.sh ] && [ -z "${CODE_RUNNER_URL:-}" ]; then
  export CODE_RUNNER_PORT="${CODE_RUNNER_PORT:-8777}"
  export CODE_RUNNER_TOKEN="${CODE_RUNNER_TOKEN:-$(head -c 24 /dev/urandom | base64 | tr -d '/+=')}"
  say "starting the local code runner on port $CODE_RUNNER_PORT"
  runner-image/run-local.sh &
  pids+=($!)
  export CODE_RUNNER_URL="ws://127.0.0.1:$CODE_RUNNER_PORT"
fi

say "starting the gateway on http://localhost:$AMCP_HTTP_PORT (Ctrl-C stops it)"
mvn -B -DskipTests -DskipITs liberty:run &
pids+=($!)
wait "${pids[-1]}"
