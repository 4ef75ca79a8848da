#!/usr/bin/env bash
# Containment suite for the code runner: starts a live supervisor on a free port with its own token,
# runs test/containment_test.ts against it, and stops it again.
#   ./runner-image/test.sh               # the suite (exit code 0 only if every assertion passed)
#   ./runner-image/test.sh --print-ops   # print the ops table of the pinned Deno (to review a new list)
# Runs unattended (CI runs it as root, which exercises isolation uid-drop); about a minute.
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/deps.sh"
ensure_runner_deps

WORK="$(mktemp -d "${TMPDIR:-/tmp}/amcp-runner-test.XXXXXX")"
SUP_PID=""
cleanup() {
  local rc=$?
  if [ -n "$SUP_PID" ] && kill -0 "$SUP_PID" 2>/dev/null; then
    kill -TERM "$SUP_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SUP_PID" 2>/dev/null || break; sleep 0.1; done
    # Anything still alive: the supervisor's own children first (by parent pid), then the supervisor.
    for child in $(ps -o pid= --ppid "$SUP_PID" 2>/dev/null); do kill -KILL -- "-$child" 2>/dev/null || kill -KILL "$child" 2>/dev/null || true; done
    kill -KILL "$SUP_PID" 2>/dev/null || true
    wait "$SUP_PID" 2>/dev/null || true
  fi
  # The suite's second supervisor (without CAP_KILL), should the suite have died before stopping it.
  SUP2_PID="$(cat "$WORK/sup2.pid" 2>/dev/null || true)"
  if [ -n "$SUP2_PID" ] && kill -0 "$SUP2_PID" 2>/dev/null; then
    for child in $(ps -o pid= --ppid "$SUP2_PID" 2>/dev/null); do kill -KILL -- "-$child" 2>/dev/null || kill -KILL "$child" 2>/dev/null || true; done
    kill -KILL "$SUP2_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
  exit $rc
}
trap cleanup EXIT INT TERM

TOKEN="test-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export CODE_RUNNER_TOKEN="$TOKEN"
export CODE_RUNNER_HOST=127.0.0.1
# A free port unless RUNNER_TEST_PORT names one (several suites on one machine never share a runner).
export CODE_RUNNER_PORT="${RUNNER_TEST_PORT:-0}"
export CODE_RUNNER_PORT_FILE="$WORK/port"
export CODE_RUNNER_POOL_SIZE=4
export CODE_RUNNER_MAX_CONCURRENT=4
export CODE_RUNNER_MAX_QUEUE=4
export CODE_RUNNER_MAX_OUTPUT_BYTES=$((2 * 1024 * 1024))
export CODE_RUNNER_MAX_FRAME_BYTES=$((1024 * 1024))
ulimit -c 0 2>/dev/null || true

# shellcheck disable=SC2046
$(supervisor_cmd) 2> "$WORK/supervisor.log" &
SUP_PID=$!
for _ in $(seq 1 200); do [ -s "$WORK/port" ] && break; sleep 0.05; done
if [ ! -s "$WORK/port" ]; then
  runner_log "supervisor did not start:"; cat "$WORK/supervisor.log" >&2; exit 1
fi
PORT="$(cat "$WORK/port")"
unset CODE_RUNNER_TOKEN   # the test process gets the token as RUNNER_TOKEN only

export RUNNER_BASE="http://127.0.0.1:$PORT" RUNNER_TOKEN="$TOKEN" RUNNER_PID="$SUP_PID"
export RUNNER_MAX_OUTPUT_BYTES="$CODE_RUNNER_MAX_OUTPUT_BYTES" RUNNER_MAX_FRAME_BYTES="$CODE_RUNNER_MAX_FRAME_BYTES"
export RUNNER_MAX_CONCURRENT="$CODE_RUNNER_MAX_CONCURRENT" RUNNER_MAX_QUEUE="$CODE_RUNNER_MAX_QUEUE"
# For the phase that starts a second supervisor without CAP_KILL (as root only; it records its pid here).
export RUNNER_DENO_BIN="$DENO_BIN" RUNNER_SUP2_PID_FILE="$WORK/sup2.pid"
# The supervisor's log, for the check that a sandbox's error text cannot forge log lines.
export RUNNER_LOG_FILE="$WORK/supervisor.log"
# CI runs the suite as root: there the uid-drop and no-CAP_KILL checks must run, never be skipped.
if [ -n "${CI:-}" ]; then export RUNNER_REQUIRE_ROOT=1; fi
if [ "${1:-}" = "--print-ops" ]; then export PRINT_OPS=1; fi

set +e
"$DENO_BIN" run --no-prompt --no-lock --allow-all "$RUNNER_DIR/test/containment_test.ts"
RC=$?
set -e
if [ $RC -ne 0 ] && [ "${PRINT_OPS:-}" != "1" ]; then
  runner_log "supervisor log (last 40 lines):"; tail -40 "$WORK/supervisor.log" >&2
fi
exit $RC
