#!/usr/bin/env bash
# Runs the code-runner benchmark (bench/bench.ts) as on a machine where nothing ran before: the supervisor and the
# benchmark get a new, empty DENO_DIR (so their TypeScript is compiled from nothing; sandboxes never have a cache of
# any kind: their environment is empty and their uid's home does not exist). It starts its own supervisors (warm pool,
# then pool size 0 for the cold case) on free ports and prints the figures as JSON (also bench/out/results.json),
# with the machine facts that decide a sandbox's cost (free page reporting, free memory).
#   runner-image/bench/run.sh
#   BENCH_RUNS=500 BENCH_COLD_RUNS=500 BENCH_SUSTAIN_S=60 BENCH_CLIENTS=8 BENCH_BRIDGE_RUNS=100 BENCH_SPAWNS=40 runner-image/bench/run.sh
#   BENCH_ONLY=spawn,warm,bridge,sustained,cold (sections; default all)
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/deps.sh"
ensure_runner_deps
ulimit -c 0 2>/dev/null || true
DENO_DIR="$(mktemp -d "${TMPDIR:-/tmp}/amcp-runner-bench-deno.XXXXXX")"
export DENO_DIR
trap 'rm -rf "$DENO_DIR"' EXIT
"$DENO_BIN" run --no-prompt --no-lock --allow-all "$RUNNER_DIR/bench/bench.ts"
