// Supervisor configuration, all from the environment (documented in runner-image/README.md).

export interface Limits {
  timeoutMs: number;
  memoryMb: number;
  maxBridgeCalls: number;
  maxOutputBytes: number;
}

export interface Config {
  host: string;
  port: number;
  token: string | null; // null only with CODE_RUNNER_INSECURE_DEV=1
  poolSize: number; // warm children kept ready; 0 = cold spawn per run
  maxConcurrent: number;
  maxQueue: number;
  maxLimits: Limits; // the runner's own ceilings: the lower of (start frame, these) wins
  defaultLimits: Limits; // used for a limit the start frame leaves out
  maxFrameBytes: number; // largest WebSocket frame accepted from the gateway
  maxCodeBytes: number;
  maxChildQueueBytes: number; // bytes queued toward one sandbox (not yet read by it); over it the run ends `limit`
  maxRefusals: number; // bridge calls refused in one run (budget, concurrency, size); over it the run ends `limit`
  rssOverheadMb: number; // RSS allowed on top of memoryMb before the watchdog kills for memory
  startTimeoutMs: number; // time a connection may take to send its start frame
  sandboxUid: number;
  sandboxGid: number;
  denoPath: string;
  runnerDir: string; // runner-image/
}

function int(name: string, def: number, min = 0): number {
  const raw = Deno.env.get(name);
  if (raw === undefined || raw === "") return def;
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v < min) {
    throw new Error(`${name} must be an integer >= ${min} (got ${JSON.stringify(raw)})`);
  }
  return v;
}

export function loadConfig(): Config {
  const cores = navigator.hardwareConcurrency || 1;
  const runnerDir = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const token = Deno.env.get("CODE_RUNNER_TOKEN") || null;
  const insecure = Deno.env.get("CODE_RUNNER_INSECURE_DEV") === "1";
  if (!token && !insecure) {
    throw new Error("CODE_RUNNER_TOKEN is required (set CODE_RUNNER_INSECURE_DEV=1 to run without one, for local development only)");
  }
  if (token && token.length < 16 && !insecure) {
    throw new Error("CODE_RUNNER_TOKEN must be at least 16 characters");
  }
  const poolSize = int("CODE_RUNNER_POOL_SIZE", 2 * cores, 0);
  const maxLimits: Limits = {
    timeoutMs: int("CODE_RUNNER_MAX_TIMEOUT_MS", 120_000, 1),
    memoryMb: int("CODE_RUNNER_MAX_MEMORY_MB", 256, 16),
    maxBridgeCalls: int("CODE_RUNNER_MAX_BRIDGE_CALLS", 1000, 0),
    maxOutputBytes: int("CODE_RUNNER_MAX_OUTPUT_BYTES", 4 * 1024 * 1024, 1),
  };
  const defaultLimits: Limits = {
    timeoutMs: Math.min(30_000, maxLimits.timeoutMs),
    memoryMb: Math.min(128, maxLimits.memoryMb),
    maxBridgeCalls: Math.min(100, maxLimits.maxBridgeCalls),
    maxOutputBytes: Math.min(1024 * 1024, maxLimits.maxOutputBytes),
  };
  const maxFrameBytes = int("CODE_RUNNER_MAX_FRAME_BYTES", 8 * 1024 * 1024, 1024);
  return {
    host: Deno.env.get("CODE_RUNNER_HOST") || "0.0.0.0",
    port: int("CODE_RUNNER_PORT", 8777, 0),
    token,
    poolSize,
    maxConcurrent: int("CODE_RUNNER_MAX_CONCURRENT", Math.max(poolSize, 2 * cores), 1),
    maxQueue: int("CODE_RUNNER_MAX_QUEUE", 64, 0),
    maxLimits,
    defaultLimits,
    maxFrameBytes,
    maxCodeBytes: int("CODE_RUNNER_MAX_CODE_BYTES", 512 * 1024, 16),
    maxChildQueueBytes: int("CODE_RUNNER_MAX_CHILD_QUEUE_BYTES", 2 * maxFrameBytes, maxFrameBytes + 1024),
    maxRefusals: int("CODE_RUNNER_MAX_REFUSALS", 1000, 0),
    rssOverheadMb: int("CODE_RUNNER_RSS_OVERHEAD_MB", 96, 16),
    startTimeoutMs: int("CODE_RUNNER_START_TIMEOUT_MS", 30_000, 100),
    sandboxUid: int("CODE_RUNNER_SANDBOX_UID", 65534, 1),
    sandboxGid: int("CODE_RUNNER_SANDBOX_GID", 65534, 1),
    denoPath: Deno.execPath(),
    runnerDir,
  };
}
