#!/usr/bin/env bash
# Runs every test of AMCP Gateway:
#   1. unit tests (surefire) and Arquillian integration tests on a managed Open Liberty (failsafe);
#      the server uses PostgreSQL when DB_URL (plus DB_USER, DB_PASSWORD) is set, embedded H2 otherwise;
#   2. the runner's containment suite against a live supervisor (runner-image/test.sh), when present.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
started=$(date +%s)

step "Maven: unit and integration tests (database: ${DB_URL:-embedded H2})"
mvn -B verify ${MAVEN_ARGS:-}

if [ -x runner-image/test.sh ]; then
  step "Runner containment suite"
  runner-image/test.sh
fi

step "All tests passed in $(( $(date +%s) - started )) s"
