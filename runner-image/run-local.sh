#!/usr/bin/env bash
# Starts the AMCP code runner in the foreground, without Docker.
#   CODE_RUNNER_TOKEN=... ./runner-image/run-local.sh
# First use installs Deno 2.9.6 (and ws 8.23.0, used by the tests and the benchmark) from the npm registry
# into runner-image/ (ignored by git).
# As root, sandboxes drop to uid/gid 65534 (isolation: uid-drop); as a normal user they run under the
# same uid (isolation: same-uid, logged as a warning). See runner-image/README.md for all settings.
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/deps.sh"

if [ -z "${CODE_RUNNER_TOKEN:-}" ] && [ "${CODE_RUNNER_INSECURE_DEV:-}" != "1" ]; then
  runner_log "CODE_RUNNER_TOKEN is not set. Set it to a long random secret (the gateway sends it as a Bearer token),"
  runner_log "or set CODE_RUNNER_INSECURE_DEV=1 to run without one (local development only)."
  exit 2
fi

ensure_runner_deps
export CODE_RUNNER_PORT="${CODE_RUNNER_PORT:-8777}"
export CODE_RUNNER_HOST="${CODE_RUNNER_HOST:-127.0.0.1}"
ulimit -c 0 2>/dev/null || true   # no core files from a sandbox that V8 aborts on out-of-memory
# shellcheck disable=SC2046
exec $(supervisor_cmd)
