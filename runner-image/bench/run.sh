#!/usr/bin/env bash
# Runs the code-runner benchmark (bench/bench.ts). It starts its own supervisors (warm pool, then pool
# size 0 for the cold case) on free ports and prints the figures as JSON (also bench/out/results.json).
#   runner-image/bench/run.sh
#   BENCH_RUNS=500 BENCH_COLD_RUNS=500 BENCH_SUSTAIN_S=60 BENCH_CLIENTS=8 BENCH_BRIDGE_RUNS=100 runner-image/bench/run.sh
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib/deps.sh"
ensure_runner_deps
ulimit -c 0 2>/dev/null || true
exec "$DENO_BIN" run --no-prompt --no-lock --allow-all "$RUNNER_DIR/bench/bench.ts"
