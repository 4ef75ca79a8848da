# Shared by run-local.sh and test.sh: installs the pinned Deno (from the npm registry) and the runner's
# pinned npm packages (package-lock.json: `acorn`, the supervisor's code check; `ws`, the test client's and
# the benchmark's) on first use. Sourced, not executed. Neither install runs package scripts: none of these
# packages needs one (the Deno package is the binary itself).
RUNNER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DENO_VERSION="2.9.6"
DENO_HOME="$RUNNER_DIR/.deno"
DENO_BIN="$DENO_HOME/node_modules/@deno/linux-x64-glibc/deno"

runner_log() { echo "[code-runner] $*" >&2; }

# "path version integrity" of every package a lockfile lists (empty when the file is missing).
lock_packages() {
  node -e 'try { const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).packages; for (const k of Object.keys(p).sort()) if (k) console.log(k, p[k].version, p[k].integrity) } catch {}' "$1"
}

ensure_runner_deps() {
  if ! command -v npm >/dev/null 2>&1; then
    runner_log "npm is required to install Deno $DENO_VERSION and the runner's npm packages on first use"
    return 1
  fi
  case "$(uname -m)" in
    x86_64) ;;
    *) runner_log "only linux x86_64 is supported by the pinned Deno package (@deno/linux-x64-glibc)"; return 1 ;;
  esac
  if [ ! -x "$DENO_BIN" ] || ! cmp -s "$RUNNER_DIR/deno-npm/package-lock.json" "$DENO_HOME/package-lock.json"; then
    runner_log "first use: installing Deno $DENO_VERSION from the npm registry (@deno/linux-x64-glibc@$DENO_VERSION) into runner-image/.deno/ ..."
    mkdir -p "$DENO_HOME"
    cp "$RUNNER_DIR/deno-npm/package.json" "$RUNNER_DIR/deno-npm/package-lock.json" "$DENO_HOME/"
    (cd "$DENO_HOME" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) || { runner_log "Deno install failed"; return 1; }
    runner_log "installed: $("$DENO_BIN" --version | head -1)"
  fi
  local have
  have="$("$DENO_BIN" --version | head -1 | awk '{print $2}')"
  if [ "$have" != "$DENO_VERSION" ]; then
    runner_log "expected Deno $DENO_VERSION in $DENO_HOME, found $have"
    return 1
  fi
  # npm keeps a copy of the lockfile it installed in node_modules/.package-lock.json; reinstall when the
  # packages it lists differ from package-lock.json's.
  # Command substitutions, not <(…): run-local.sh execs the supervisor, which would inherit an unreaped
  # process-substitution child as a zombie.
  if [ "$(lock_packages "$RUNNER_DIR/package-lock.json")" != "$(lock_packages "$RUNNER_DIR/node_modules/.package-lock.json")" ]; then
    runner_log "first use: installing the runner's npm packages (npm ci in runner-image/) ..."
    (cd "$RUNNER_DIR" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) || { runner_log "npm install failed"; return 1; }
  fi
}

# The supervisor runs with --allow-all. It is the trusted side: it already needs --allow-run (which Deno
# itself documents as equivalent to full access), and Deno only lets --allow-all read /proc/<pid>/statm,
# which the memory watchdog reads for every busy sandbox. The walls are around the children.
supervisor_cmd() {
  echo "$DENO_BIN" run --no-prompt --no-lock --allow-all "$RUNNER_DIR/src/main.ts"
}
