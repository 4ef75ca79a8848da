#!/usr/bin/env bash
# Runs every test of AMCP Gateway:
#   1. a live code runner is started (runner-image/run-local.sh) for the code-mode integration tests;
#   2. unit tests (surefire) and Arquillian integration tests on a managed Open Liberty (failsafe);
#      the server uses PostgreSQL when DB_URL (plus DB_USER, DB_PASSWORD) is set, embedded H2 otherwise;
#      MultiNodeIT starts two gateway nodes behind HAProxy itself (bench/cluster.sh, on PostgreSQL; docs/scaling.md);
#   3. the runner's containment suite against its own live supervisor (runner-image/test.sh).
# First it checks every program the tests need (java, mvn, node, npm, setpriv, chromium, chromedriver, haproxy); as
# root with apt-get it installs what is missing (AMCP_TESTS_INSTALL=never stops that), otherwise it stops with one line naming
# the packages. Extra Maven arguments can be passed in MAVEN_ARGS; CHROMIUM and CHROMEDRIVER override the browser paths.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
started=$(date +%s)

# Every external program the tests need, checked before anything runs, so a fresh machine never fails half-way.
# The browser tests drive Debian's Chromium through its chromedriver (paths overridable for other layouts).
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
missing=()     # what is missing, in words
packages=()    # the Debian packages that provide it
need() { missing+=("$1"); packages+=("$2"); }
check_prerequisites() {
  missing=(); packages=()
  command -v java >/dev/null || need java default-jdk-headless
  command -v mvn >/dev/null || need mvn maven
  command -v node >/dev/null || need node nodejs
  command -v npm >/dev/null || need npm npm
  command -v setpriv >/dev/null || need setpriv util-linux
  [ -x "$CHROMIUM" ] || need "chromium ($CHROMIUM)" chromium
  [ -x "$CHROMEDRIVER" ] || need "chromedriver ($CHROMEDRIVER)" chromium-driver
  # MultiNodeIT's balancer in front of two gateway nodes (bench/cluster.sh).
  command -v haproxy >/dev/null || need haproxy haproxy
}
check_prerequisites
if [ ${#missing[@]} -gt 0 ] && [ "${AMCP_TESTS_INSTALL:-auto}" != "never" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  step "Installing what the tests need: ${packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${packages[@]}" >/dev/null || true
  check_prerequisites
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "run-tests.sh: missing ${missing[*]}; install the Debian packages: apt-get install ${packages[*]}" >&2
  exit 3
fi
mkdir -p target

runner_pid=""
cleanup() { [ -n "$runner_pid" ] && kill "$runner_pid" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

step "Starting a code runner for the integration tests (first use installs Deno from npm)"
runner_token="$(head -c 32 /dev/urandom | base64 | tr -d '/+=')"
port_file="target/it-runner.port"
rm -f "$port_file"
CODE_RUNNER_TOKEN="$runner_token" CODE_RUNNER_PORT=0 CODE_RUNNER_PORT_FILE="$port_file" \
  runner-image/run-local.sh > target/it-runner.log 2>&1 &
runner_pid=$!
for _ in $(seq 1 600); do
  [ -s "$port_file" ] && break
  kill -0 "$runner_pid" 2>/dev/null || { cat target/it-runner.log; echo "the code runner failed to start" >&2; exit 1; }
  sleep 0.5
done
[ -s "$port_file" ] || { cat target/it-runner.log; echo "the code runner did not start within 300 s" >&2; exit 1; }
runner_url="ws://127.0.0.1:$(cat "$port_file")"
echo "code runner at $runner_url (log: target/it-runner.log)"

# Liberty caches annotation scans per application name (a stale cache hides new test resources), and a killed
# earlier run can leave its test WAR in dropins; start from neither.
rm -rf target/liberty/wlp/usr/servers/*/workarea target/liberty/wlp/usr/servers/*/dropins

step "Maven: unit and integration tests (database: ${DB_URL:-embedded H2})"
# shellcheck disable=SC2086
mvn -B verify -Dit.runner.url="$runner_url" -Dit.runner.token="$runner_token" \
  -Dit.chromium="$CHROMIUM" -Dit.chromedriver="$CHROMEDRIVER" ${MAVEN_ARGS:-}

cleanup
runner_pid=""

step "Runner containment suite"
runner-image/test.sh

step "All tests passed in $(( $(date +%s) - started )) s"
