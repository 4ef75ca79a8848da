// AMCP code-runner supervisor: HTTP + WebSocket (protocol v1) in front of a warm pool of single-use
// Deno sandboxes. Served on Deno's own TCP listener with the small HTTP/WebSocket layer in ws.ts, not
// Deno.serve: Liberty's WebSocket client sends `Content-Length: 0` on the upgrade, which Deno.serve
// rejects with 400 (and node:http + the `ws` package cost most of the CPU of a bridge round trip).

import {
  acceptKey,
  CLOSE_NORMAL,
  header,
  httpResponse,
  readHead,
  type RequestHead,
  upgradeResponse,
  writeAll,
  WsConnection,
} from "./ws.ts";
import { type Config, type Limits, loadConfig } from "./config.ts";
import { BusyError, type ChildFrame, Pool, prepareLaunch, Sandbox } from "./sandbox.ts";
import { log } from "./log.ts";
import { type Analysis, analyzeCode, checkCode, describeProblem } from "./check.ts";

const TRACE = Deno.env.get("CODE_RUNNER_TRACE") === "1";
const BRIDGE_OPS = new Set(["search", "describe", "run"]);
const CONSOLE_LEVELS = new Set(["log", "info", "warn", "error", "debug"]);
const MAX_PENDING_BRIDGE = 64;
/** Progress frames a run may forward to the gateway; later ones are dropped (progress is advisory). */
const MAX_PROGRESS = 100;
/** Characters of a progress message that are forwarded. */
const MAX_PROGRESS_MESSAGE = 200;
const MAX_ERROR_FIELD = 16 * 1024;
/** Bytes queued for the gateway above which the sandbox's output is not read until they are written. */
const WS_HIGH_WATER = 4 * 1024 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Status = "ok" | "error" | "timeout" | "memory" | "cancelled" | "protocol_error" | "limit";
interface ErrorInfo {
  name: string;
  message: string;
  stack?: string;
  code?: string;
}
interface Finish {
  valueJson?: string;
  error?: ErrorInfo;
  truncatedResult?: boolean;
}

let cfg: Config;
try {
  cfg = loadConfig();
} catch (e) {
  log(`refusing to start: ${(e as Error).message}`);
  Deno.exit(2);
}
const launch = await prepareLaunch(cfg);
const pool = new Pool(cfg, launch);
if (launch.isolation === "same-uid") {
  log("WARNING: not running as root, so sandboxes run under the supervisor's own uid (isolation: same-uid). " +
    "Deno's permission flags still apply, but there is no uid boundary. Run as root (the container does) for uid-drop.");
}
if (!cfg.token) log("WARNING: CODE_RUNNER_INSECURE_DEV=1 and no CODE_RUNNER_TOKEN: any client may run code. Development only.");

const sha256 = async (s: string) => new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(s)));
const tokenDigest = cfg.token ? await sha256(cfg.token) : null;

/** Compares two 32-byte digests without an early exit. */
function digestsEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < 32; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Constant-time bearer token check: both sides are hashed to 32 bytes first, so length leaks nothing.
 * A repeated Authorization header is refused.
 */
async function authorized(req: RequestHead): Promise<boolean> {
  if (!tokenDigest) return true;
  const h = header(req, "authorization");
  const m = typeof h === "string" ? /^\s*Bearer\s+(\S+)\s*$/i.exec(h) : null;
  const presented = await sha256(m ? m[1] : "");
  return digestsEqual(presented, tokenDigest) && m !== null;
}

function clip(s: unknown, max = MAX_ERROR_FIELD): string {
  let str: string;
  try {
    str = typeof s === "string" ? s : String(s ?? "");
  } catch {
    str = "";
  }
  return str.length > max ? str.slice(0, max) : str;
}

function effectiveLimits(requested: unknown): Limits | string {
  const out = { ...cfg.defaultLimits };
  if (requested === undefined || requested === null) return out;
  if (typeof requested !== "object" || Array.isArray(requested)) return "limits must be an object";
  const r = requested as Record<string, unknown>;
  for (const k of ["timeoutMs", "memoryMb", "maxBridgeCalls", "maxOutputBytes"] as const) {
    const v = r[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return `limits.${k} must be a non-negative number`;
    out[k] = Math.floor(v);
  }
  for (const k of ["timeoutMs", "memoryMb", "maxBridgeCalls", "maxOutputBytes"] as const) {
    out[k] = Math.min(out[k], cfg.maxLimits[k]); // the lower of the two wins
  }
  out.timeoutMs = Math.max(out.timeoutMs, 1);
  out.memoryMb = Math.max(out.memoryMb, 16);
  return out;
}

class RunSession {
  private state: "await_start" | "queued" | "running" | "done" = "await_start";
  private runId: string | number | null = null;
  private t0 = 0;
  private limits: Limits = cfg.defaultLimits;
  private sb: Sandbox | null = null;
  private cancelWait: (() => void) | null = null;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private watchdog: ReturnType<typeof setInterval> | null = null;
  private bridgeCalls = 0;
  private refusals = 0;
  private lastChildBridgeId = 0;
  private pendingBridge = new Set<number>();
  private outputBytes = 0;
  private progressFrames = 0;
  private consoleBytes = 0;
  private consoleTruncated = false;
  // deno-lint-ignore no-explicit-any
  private start: any = null;
  private trace: string[] = [];
  private tFwd = 0;
  private tBridge = 0;
  private childWait = 0;
  private gwWait = 0;
  private closeCode = CLOSE_NORMAL;
  private mark(what: string) {
    if (TRACE) this.trace.push(`${what}+${(performance.now() - this.t0).toFixed(2)}`);
  }

  constructor(private ws: WsConnection) {
    ws.onText = (text) => this.onMessage(text);
    ws.onBinary = () => this.protocolError("binary frames are not part of protocol v1");
    ws.onTooBig = (bytes) => this.protocolError(`frame of ${bytes} bytes exceeds the maximum of ${cfg.maxFrameBytes}`);
    ws.onViolation = (code, why) => {
      this.closeCode = code;
      this.protocolError(`WebSocket protocol violation: ${why}`);
    };
    ws.onClose = () => this.onClose();
    this.timers.push(setTimeout(() => {
      if (this.state === "await_start") this.protocolError("no start frame within " + cfg.startTimeoutMs + " ms");
    }, cfg.startTimeoutMs));
  }

  private protocolError(message: string) {
    this.finish("protocol_error", { error: { name: "ProtocolError", message } });
  }

  /** A complete text message (the WebSocket layer has checked its size and UTF-8). */
  private onMessage(text: string) {
    if (this.state === "done") return;
    // deno-lint-ignore no-explicit-any
    let msg: any;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.protocolError("malformed JSON");
    }
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) return this.protocolError("a frame must be a JSON object");
    switch (msg.type) {
      case "start":
        if (this.state !== "await_start") return this.protocolError("second start frame on the same socket");
        return this.onStart(msg);
      case "check":
        if (this.state !== "await_start") return this.protocolError("a check frame must be the first frame");
        return this.onCheck(msg);
      case "bridge_result":
        return this.onBridgeResult(msg);
      case "cancel":
        return this.finish("cancelled", {});
      default:
        return this.protocolError(`unknown frame type ${JSON.stringify(String(msg.type)).slice(0, 80)}`);
    }
  }

  /** The save-time check: one check_result, then a normal close; no sandbox is involved. */
  // deno-lint-ignore no-explicit-any
  private onCheck(msg: any) {
    if (typeof msg.code !== "string") return this.protocolError("code must be a string");
    const analysis: Analysis = encoder.encode(msg.code).length > cfg.maxCodeBytes
      ? { problems: [{ line: 1, column: 1, message: `code exceeds the runner's maximum of ${cfg.maxCodeBytes} bytes` }], calls: [], computed: [] }
      : analyzeCode(msg.code);
    this.state = "done";
    for (const t of this.timers) clearTimeout(t);
    try {
      this.ws.sendText(JSON.stringify({ type: "check_result", ...analysis }));
      this.ws.close(CLOSE_NORMAL, "done");
    } catch { /* socket already gone */ }
  }

  // deno-lint-ignore no-explicit-any
  private onStart(msg: any) {
    this.t0 = performance.now();
    if (typeof msg.runId === "string" || typeof msg.runId === "number") this.runId = msg.runId;
    else if (msg.runId !== undefined) return this.protocolError("runId must be a string or a number");
    if (typeof msg.code !== "string") return this.protocolError("code must be a string");
    if (encoder.encode(msg.code).length > cfg.maxCodeBytes) {
      return this.protocolError(`code exceeds the maximum of ${cfg.maxCodeBytes} bytes`);
    }
    // The code never reaches a sandbox unless it parses and has no import (see check.ts).
    const problems = checkCode(msg.code);
    if (problems.length) {
      this.t0 = 0; // stats zero: nothing ran
      return this.finish("error", { error: { name: "CodeCheckError", message: describeProblem(problems[0]) } });
    }
    const limits = effectiveLimits(msg.limits);
    if (typeof limits === "string") return this.protocolError(limits);
    this.limits = limits;
    this.start = {
      type: "start",
      code: msg.code,
      input: msg.input === undefined ? null : msg.input,
      limits: { maxOutputBytes: limits.maxOutputBytes, maxBridgeCalls: limits.maxBridgeCalls },
    };
    // The wall clock starts at the start frame: time spent queued counts.
    this.timers.push(setTimeout(() => {
      this.finish("timeout", {
        error: { name: "TimeoutError", message: `run exceeded timeoutMs (${limits.timeoutMs} ms)` },
      });
    }, limits.timeoutMs));
    let got;
    try {
      got = pool.acquire();
    } catch (e) {
      if (e instanceof BusyError) {
        this.state = "queued"; // so finish() does not expect a sandbox
        return this.finish("error", { error: { name: "BusyError", code: "busy", message: e.message } });
      }
      throw e;
    }
    if ("sandbox" in got) return this.begin(got.sandbox);
    this.state = "queued";
    this.cancelWait = got.cancel;
    got.wait.then((sb) => {
      this.cancelWait = null;
      if (this.state !== "queued") return pool.release(sb);
      this.begin(sb);
    });
  }

  private begin(sb: Sandbox) {
    this.state = "running";
    this.sb = sb;
    sb.onFrame = (f) => this.onChildFrame(f);
    sb.onBadFrame = (why) => this.childProtocolError(why);
    sb.onExit = () => this.onChildExit();
    if (sb.state === "dead") return this.onChildExit();
    this.mark("child");
    this.toChild(this.start);
    this.mark("sent");
    this.start = null;
    const rssLimit = this.limits.memoryMb + cfg.rssOverheadMb;
    this.watchdog = setInterval(() => {
      const rss = sb.rssMb();
      if (rss !== null && rss > rssLimit) {
        this.finish("memory", {
          error: { name: "MemoryLimitError", message: `sandbox exceeded memoryMb (${this.limits.memoryMb} MiB): RSS ${Math.round(rss)} MiB` },
        });
      }
    }, 20);
  }

  private childProtocolError(why: string) {
    this.finish("error", { error: { name: "SandboxProtocolError", message: `the sandbox sent an invalid frame: ${why}` } });
  }

  private onChildFrame(f: ChildFrame) {
    this.onChildFrame1(f);
    if (this.ws.bufferedAmount > WS_HIGH_WATER && this.sb) this.sb.pauseUntil(this.ws.drained());
  }

  private onChildFrame1({ msg, bytes }: ChildFrame) {
    if (this.state !== "running" || !this.sb) return;
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) return this.childProtocolError("not an object");
    switch (msg.type) {
      case "bridge":
        return this.onChildBridge(msg, bytes);
      case "console":
        return this.onChildConsole(msg);
      case "progress":
        return this.onChildProgress(msg);
      case "result":
        return this.onChildResult(msg);
      default:
        return this.childProtocolError(`unexpected frame type ${JSON.stringify(String(msg.type)).slice(0, 80)}`);
    }
  }

  // deno-lint-ignore no-explicit-any
  private onChildBridge(msg: any, bytes: number) {
    const id = msg.id;
    if (!Number.isSafeInteger(id) || id <= this.lastChildBridgeId) {
      return this.childProtocolError("bridge id must be an integer greater than every earlier id");
    }
    if (!BRIDGE_OPS.has(msg.op)) return this.childProtocolError("bridge op must be search, describe or run");
    const args = msg.args === undefined ? {} : msg.args;
    if (args === null || typeof args !== "object" || Array.isArray(args)) return this.childProtocolError("bridge args must be an object");
    this.lastChildBridgeId = id;
    const refuse = (code: string, message: string) => {
      // Each refusal costs the supervisor a frame toward a child that may never read it; a child that
      // keeps asking past its budget is ended rather than answered forever.
      if (++this.refusals > cfg.maxRefusals) {
        return this.limit(`more than ${cfg.maxRefusals} bridge calls refused in one run (CODE_RUNNER_MAX_REFUSALS)`);
      }
      this.toChild({ type: "bridge_result", id, ok: false, error: { code, message } });
    };
    if (this.bridgeCalls >= this.limits.maxBridgeCalls) {
      return refuse("LIMIT", `bridge call budget exhausted (maxBridgeCalls ${this.limits.maxBridgeCalls})`);
    }
    if (this.pendingBridge.size >= MAX_PENDING_BRIDGE) {
      return refuse("LIMIT", `too many concurrent bridge calls (max ${MAX_PENDING_BRIDGE})`);
    }
    if (bytes > cfg.maxFrameBytes) return refuse("LIMIT", `bridge call of ${bytes} bytes exceeds ${cfg.maxFrameBytes}`);
    this.bridgeCalls++;
    this.pendingBridge.add(id);
    if (TRACE) {
      const now = performance.now();
      if (this.tFwd) this.childWait += now - this.tFwd;
      this.tBridge = now;
    }
    this.ws.sendText(JSON.stringify({ type: "bridge", id, op: msg.op, args }));
  }

  // deno-lint-ignore no-explicit-any
  private onBridgeResult(msg: any) {
    if (this.state !== "running" || !this.sb) return this.protocolError("bridge_result outside a running run");
    const id = msg.id;
    if (!this.pendingBridge.has(id)) return this.protocolError(`bridge_result for an id that is not pending: ${JSON.stringify(id)?.slice(0, 40)}`);
    if (typeof msg.ok !== "boolean") return this.protocolError("bridge_result.ok must be a boolean");
    this.pendingBridge.delete(id);
    if (TRACE) {
      this.tFwd = performance.now();
      this.gwWait += this.tFwd - this.tBridge;
    }
    if (msg.ok) this.toChild({ type: "bridge_result", id, ok: true, value: msg.value === undefined ? null : msg.value });
    else {
      const err = msg.error && typeof msg.error === "object" ? msg.error : {};
      this.toChild({ type: "bridge_result", id, ok: false, error: { code: clip(err.code ?? "ERROR", 200), message: clip(err.message ?? "bridge call failed") } });
    }
  }

  /** A frame toward the sandbox; past the queue cap (a child that does not read its input) the run ends. */
  // deno-lint-ignore no-explicit-any
  private toChild(frame: any) {
    if (this.sb && !this.sb.send(frame)) {
      this.limit(`more than ${cfg.maxChildQueueBytes} bytes queued toward the sandbox, which is not reading them (CODE_RUNNER_MAX_CHILD_QUEUE_BYTES)`);
    }
  }

  /** A supervisor-side cap was exceeded: the sandbox is killed and the run ends with status `limit`. */
  private limit(message: string) {
    this.finish("limit", { error: { name: "LimitError", message } });
  }

  // deno-lint-ignore no-explicit-any
  private onChildConsole(msg: any) {
    if (typeof msg.text !== "string") return this.childProtocolError("console text must be a string");
    if (msg.truncated === true) this.consoleTruncated = true;
    const remaining = this.limits.maxOutputBytes - this.consoleBytes;
    if (remaining <= 0) {
      this.consoleTruncated = true;
      return;
    }
    const level = CONSOLE_LEVELS.has(msg.level) ? msg.level : "log";
    let text: string = msg.text;
    let bytes = encoder.encode(text);
    let cut = false;
    if (bytes.length > remaining) {
      bytes = bytes.subarray(0, remaining);
      text = decoder.decode(bytes).replace(/\uFFFD$/, "");
      bytes = encoder.encode(text);
      cut = true;
      this.consoleTruncated = true;
    }
    this.consoleBytes += bytes.length;
    this.outputBytes += bytes.length;
    this.ws.sendText(JSON.stringify(cut || msg.truncated === true ? { type: "console", level, text, truncated: true } : { type: "console", level, text }));
  }

  /** amcp.progress(done, total, message): checked and forwarded, at most MAX_PROGRESS per run, the rest dropped. */
  // deno-lint-ignore no-explicit-any
  private onChildProgress(msg: any) {
    const finite = (v: unknown) => typeof v === "number" && Number.isFinite(v);
    if (!finite(msg.done) || msg.done < 0) return this.childProtocolError("progress done must be a finite number >= 0");
    if (msg.total !== undefined && (!finite(msg.total) || msg.total <= 0)) return this.childProtocolError("progress total must be a finite number > 0");
    if (msg.message !== undefined && typeof msg.message !== "string") return this.childProtocolError("progress message must be a string");
    if (++this.progressFrames > MAX_PROGRESS) return;
    const frame: Record<string, unknown> = { type: "progress", done: msg.done };
    if (msg.total !== undefined) frame.total = msg.total;
    if (msg.message !== undefined) frame.message = msg.message.slice(0, MAX_PROGRESS_MESSAGE);
    this.ws.sendText(JSON.stringify(frame));
  }

  // deno-lint-ignore no-explicit-any
  private onChildResult(msg: any) {
    this.mark("result");
    if (msg.ok === true) {
      const json = msg.value === undefined ? undefined : JSON.stringify(msg.value);
      const size = json === undefined ? 0 : encoder.encode(json).length;
      if (size > this.limits.maxOutputBytes) {
        return this.finish("error", {
          error: { name: "OutputLimitError", message: `result exceeds maxOutputBytes (${this.limits.maxOutputBytes} bytes)` },
          truncatedResult: true,
        });
      }
      this.outputBytes += size;
      return this.finish("ok", { valueJson: json });
    }
    if (msg.ok === false) {
      const e = msg.error && typeof msg.error === "object" ? msg.error : {};
      const error: ErrorInfo = { name: clip(e.name ?? "Error", 200), message: clip(e.message) };
      if (e.stack !== undefined) error.stack = clip(e.stack);
      return this.finish("error", { error, truncatedResult: msg.truncated === true });
    }
    this.childProtocolError("result.ok must be a boolean");
  }

  private onChildExit() {
    if (this.state !== "running" || !this.sb) return;
    const sb = this.sb;
    const s = sb.exitStatus;
    if (sb.looksOutOfMemory()) {
      return this.finish("memory", { error: { name: "MemoryLimitError", message: "sandbox ran out of memory (V8 heap limit)" } });
    }
    const how = s?.signal ? `signal ${s.signal}` : `code ${s?.code}`;
    this.finish("error", { error: { name: "SandboxExit", message: `sandbox exited (${how}) before returning a result` } });
  }

  private finish(status: Status, f: Finish) {
    if (this.state === "done") return;
    const hadSandbox = this.state === "running" ? this.sb : null;
    this.state = "done";
    for (const t of this.timers) clearTimeout(t);
    if (this.watchdog !== null) clearInterval(this.watchdog);
    this.cancelWait?.();
    this.cancelWait = null;
    const stats = {
      wallMs: this.t0 ? Math.round((performance.now() - this.t0) * 100) / 100 : 0,
      bridgeCalls: this.bridgeCalls,
      outputBytes: this.outputBytes,
    };
    let frame = `{"type":"done","status":"${status}"`;
    if (f.valueJson !== undefined) frame += `,"value":${f.valueJson}`;
    if (f.error) frame += `,"error":${JSON.stringify(f.error)}`;
    if (this.consoleTruncated || f.truncatedResult) {
      frame += `,"truncated":${JSON.stringify({ console: this.consoleTruncated, result: !!f.truncatedResult })}`;
    }
    frame += `,"stats":${JSON.stringify(stats)}}`;
    try {
      this.ws.sendText(frame);
      this.ws.close(this.closeCode, "done");
    } catch { /* socket already gone */ }
    // Kill the used child and free the slot only after `done` is on its way.
    if (hadSandbox) pool.release(hadSandbox);
    if (TRACE) {
      log(`trace ${JSON.stringify(this.runId)} ${this.trace.join(" ")} done+${stats.wallMs} gatewayWait=${this.gwWait.toFixed(1)} childWait=${this.childWait.toFixed(1)}`);
    }
    if (status !== "ok") {
      log(`run ${JSON.stringify(this.runId)} ${status}${f.error ? ` (${f.error.name}: ${f.error.message.slice(0, 200)})` : ""} in ${stats.wallMs} ms`);
    }
  }

  private onClose() {
    if (this.state === "done") return;
    // The gateway went away mid-run: stop everything, there is nobody to send `done` to.
    const hadSandbox = this.state === "running" ? this.sb : null;
    this.state = "done";
    for (const t of this.timers) clearTimeout(t);
    if (this.watchdog !== null) clearInterval(this.watchdog);
    this.cancelWait?.();
    if (hadSandbox) pool.release(hadSandbox);
  }
}

function healthz() {
  const s = pool.stats;
  return {
    status: "ok",
    protocol: "v1",
    denoVersion: Deno.version.deno,
    isolation: launch.isolation,
    warm: s.warm,
    busy: s.busy,
    starting: s.starting,
    queued: s.queued,
    poolSize: cfg.poolSize,
    maxConcurrent: cfg.maxConcurrent,
    maxQueue: cfg.maxQueue,
    runs: pool.runsStarted,
    pipes: Sandbox.fastPipes ? "ops" : "streams",
    cpus: pool.cpus,
    maxLimits: cfg.maxLimits,
  };
}

let stopping = false;
const HEAD_TIMEOUT_MS = 10_000;
const TEXT = { "Content-Type": "text/plain" };

/** One TCP connection: one request head, then either one HTTP response or one WebSocket run. */
async function serveConn(conn: Deno.TcpConn) {
  try {
    conn.setNoDelay(true);
    const r = await readHead(conn, HEAD_TIMEOUT_MS);
    if (r === null) return conn.close();
    if ("error" in r) return await respond(conn, httpResponse(r.error, TEXT, r.error === 408 ? "" : "bad request\n"));
    const req = r.head;
    if (!req.headers.has("upgrade")) {
      if (req.path === "/healthz" && (req.method === "GET" || req.method === "HEAD")) {
        const body = JSON.stringify(healthz());
        const res = httpResponse(200, { "Content-Type": "application/json", "Cache-Control": "no-store" }, body);
        return await respond(conn, req.method === "HEAD" ? res.subarray(0, res.length - new TextEncoder().encode(body).length) : res);
      }
      if (req.path === "/v1/run") {
        return await respond(conn, httpResponse(426, { ...TEXT, Upgrade: "websocket" }, "WebSocket upgrade required\n"));
      }
      return await respond(conn, httpResponse(404, TEXT, "not found\n"));
    }
    // The token is checked before anything else about an upgrade request.
    if (!(await authorized(req))) return await respond(conn, httpResponse(401, { "WWW-Authenticate": "Bearer" }));
    if (req.path !== "/v1/run") return await respond(conn, httpResponse(404, TEXT, "not found\n"));
    const accept = await acceptKey(req);
    if (typeof accept !== "string") {
      return await respond(conn, httpResponse(accept.status, accept.status === 426 ? { ...TEXT, "Sec-WebSocket-Version": "13" } : TEXT, accept.why + "\n"));
    }
    await writeAll(conn, upgradeResponse(accept));
    new RunSession(new WsConnection(conn, cfg.maxFrameBytes, r.rest));
  } catch {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

async function respond(conn: Deno.Conn, bytes: Uint8Array) {
  try {
    await writeAll(conn, bytes);
  } catch { /* gone */ }
  try {
    conn.close();
  } catch { /* closed */ }
}

const listener = Deno.listen({ hostname: cfg.host, port: cfg.port, transport: "tcp" });
{
  const port = listener.addr.port;
  log(`listening on ws://${cfg.host}:${port}/v1/run (deno ${Deno.version.deno}, isolation ${launch.isolation}, pool ${cfg.poolSize}, max concurrent ${cfg.maxConcurrent}, queue ${cfg.maxQueue})`);
  // For test harnesses that start us on port 0.
  if (Deno.env.get("CODE_RUNNER_PORT_FILE")) Deno.writeTextFileSync(Deno.env.get("CODE_RUNNER_PORT_FILE")!, String(port));
  pool.start();
  // The first parse compiles acorn (~9 ms here); do it now, not on the first run's critical path (~0.3 ms after).
  checkCode("return 1");
}
(async () => {
  for (;;) {
    let conn: Deno.TcpConn;
    try {
      conn = await listener.accept();
    } catch (e) {
      if (stopping || e instanceof Deno.errors.BadResource) return;
      log(`accept failed: ${(e as Error).message}`);
      await new Promise((r) => setTimeout(r, 50)); // e.g. EMFILE: do not spin
      continue;
    }
    serveConn(conn);
  }
})();

function shutdown(sig: string) {
  if (stopping) return;
  stopping = true;
  log(`${sig}: shutting down`);
  try {
    listener.close();
  } catch { /* closed */ }
  // Sandboxes killed and reaped (through the kill helper if need be), then the helper itself; bounded.
  pool.shutdown().finally(() => Deno.exit(0));
  setTimeout(() => Deno.exit(0), 5000);
}
Deno.addSignalListener("SIGTERM", () => shutdown("SIGTERM"));
Deno.addSignalListener("SIGINT", () => shutdown("SIGINT"));
