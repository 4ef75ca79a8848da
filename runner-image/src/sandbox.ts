// Sandbox children and the warm pool.
//
// A Sandbox is one `deno run sandbox/harness.js` process, started with an empty environment, every
// permission denied and (as root) an unprivileged uid. It serves exactly one run and is then killed
// (its whole process group). The Pool keeps `poolSize` of them started and waiting for their run.

import type { Config } from "./config.ts";
import { log } from "./log.ts";

export type Isolation = "uid-drop" | "same-uid";

const NL = 10;
const encoder = new TextEncoder();

export interface SandboxLaunch {
  command: string;
  args: string[];
  /** `command` + `prefix` + a program runs that program as a sandbox would (same uid, no privileges). */
  prefix: string[];
  isolation: Isolation;
  harnessPath: string;
  importMapPath: string;
  /** taskset (util-linux): each sandbox is started bound to one CPU (see `argsOnCpu`). */
  taskset: string;
}

/**
 * The launch line bound to one CPU: `env -i taskset --cpu-list N setpriv … deno …`. Every thread of the
 * sandbox (V8's, Deno's blocking pool that runs WebCrypto and friends) inherits the mask, so a run cannot
 * use more than that core, and it cannot widen the mask itself: no FFI, no subprocess, raw ops unreachable.
 */
export function argsOnCpu(launch: SandboxLaunch, cpu: number): string[] {
  const [clearEnv, ...program] = launch.args; // "-i", then the program
  return [clearEnv, launch.taskset, "--cpu-list", String(cpu), ...program];
}

/** The CPUs this process may run on (its affinity mask, e.g. a container's cpuset), in order. */
export function allowedCpus(): number[] {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? "";
    const cpus: number[] = [];
    for (const part of list.split(",")) {
      const [a, b] = part.split("-").map(Number);
      if (!Number.isSafeInteger(a)) continue;
      for (let c = a; c <= (Number.isSafeInteger(b) ? b : a); c++) cpus.push(c);
    }
    if (cpus.length) return cpus;
  } catch { /* not Linux /proc: below */ }
  return Array.from({ length: navigator.hardwareConcurrency || 1 }, (_, i) => i);
}

function which(name: string): string | null {
  for (const dir of ["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"]) {
    try {
      const p = `${dir}/${name}`;
      if (Deno.statSync(p).isFile) return p;
    } catch { /* next */ }
  }
  return null;
}

/** Deno flags for a sandbox child. Exported so the containment suite can check them. */
export function denoSandboxFlags(importMapPath: string, heapMb: number): string[] {
  return [
    "run",
    "--deny-read",
    "--deny-write",
    "--deny-net",
    "--deny-env",
    "--deny-sys",
    "--deny-run",
    "--deny-ffi",
    "--deny-import",
    "--no-remote",
    "--no-npm",
    "--cached-only",
    "--no-prompt",
    "--no-config",
    "--no-lock",
    `--import-map=${importMapPath}`,
    // eval/new Function are off; the harness compiles the user's code before that matters.
    `--v8-flags=--max-old-space-size=${heapMb},--disallow-code-generation-from-strings`,
  ];
}

function buildLaunch(cfg: Config, denoPath: string, sandboxDir: string, isolation: Isolation): SandboxLaunch {
  const env = which("env") ?? "/usr/bin/env";
  const taskset = which("taskset");
  if (!taskset) throw new Error("taskset (util-linux) is not installed: sandboxes could not be held to one CPU each");
  const harnessPath = `${sandboxDir}/harness.js`;
  const importMapPath = `${sandboxDir}/import_map.json`;
  const deno = [denoPath, ...denoSandboxFlags(importMapPath, cfg.maxLimits.memoryMb), harnessPath];
  if (isolation === "uid-drop") {
    const setpriv = which("setpriv");
    if (!setpriv) throw new Error("running as root but setpriv (util-linux) is not installed");
    const prefix = [
      "-i",
      setpriv,
      `--reuid=${cfg.sandboxUid}`,
      `--regid=${cfg.sandboxGid}`,
      "--clear-groups",
      "--no-new-privs",
      "--inh-caps=-all",
      "--",
    ];
    return { command: env, args: [...prefix, ...deno], prefix, isolation, harnessPath, importMapPath, taskset };
  }
  // Not root: no uid change is possible, but no-new-privs needs no privilege, so it is still set.
  const setpriv = which("setpriv");
  const prefix = ["-i", ...(setpriv ? [setpriv, "--no-new-privs", "--"] : [])];
  return { command: env, args: [...prefix, ...deno], prefix, isolation, harnessPath, importMapPath, taskset };
}

async function probe(launch: SandboxLaunch): Promise<boolean> {
  // Can the sandbox user execute Deno and read the harness? (A checkout under /root is not readable by
  // uid 65534.) Run the real launch line on a harness that we immediately close stdin on.
  try {
    const p = new Deno.Command(launch.command, {
      args: argsOnCpu(launch, allowedCpus()[0]),
      clearEnv: true,
      cwd: "/",
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const out = await p.output();
    const text = new TextDecoder().decode(out.stdout);
    return text.includes('"type":"ready"');
  } catch {
    return false;
  }
}

/** Decide isolation, stage files where the sandbox uid can read them if needed, and probe. */
export async function prepareLaunch(cfg: Config): Promise<SandboxLaunch> {
  const isRoot = Deno.uid() === 0;
  const isolation: Isolation = isRoot ? "uid-drop" : "same-uid";
  const sandboxDir = `${cfg.runnerDir}/sandbox`;
  let launch = buildLaunch(cfg, cfg.denoPath, sandboxDir, isolation);
  if (await probe(launch)) return launch;
  if (!isRoot) throw new Error(`sandbox probe failed: ${launch.command} ${launch.args.join(" ")}`);
  // Stage Deno and the sandbox files into a root-owned, world-readable temp dir.
  const stage = await Deno.makeTempDir({ prefix: "amcp-runner-" });
  await Deno.chmod(stage, 0o755);
  await Deno.copyFile(cfg.denoPath, `${stage}/deno`);
  await Deno.chmod(`${stage}/deno`, 0o755);
  for (const f of ["harness.js", "import_map.json"]) {
    await Deno.copyFile(`${sandboxDir}/${f}`, `${stage}/${f}`);
    await Deno.chmod(`${stage}/${f}`, 0o644);
  }
  launch = buildLaunch(cfg, `${stage}/deno`, stage, isolation);
  log(`sandbox uid ${cfg.sandboxUid} cannot reach ${cfg.runnerDir}; staged Deno and the harness in ${stage}`);
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(stage, { recursive: true });
    } catch { /* ignore */ }
  });
  if (!(await probe(launch))) throw new Error(`sandbox probe failed even after staging in ${stage}`);
  return launch;
}

/**
 * Kills sandbox process groups as the sandbox uid, for a supervisor that may not.
 *
 * The container keeps only SETUID and SETGID, so the root supervisor has no CAP_KILL, and kill(2) from
 * root without CAP_KILL to a process of another uid fails with EPERM. A process of the sandbox uid may
 * signal the sandboxes (same uid), so when a direct kill is refused the group id goes to this helper: a
 * `sh` loop started with the sandboxes' own prefix (`env -i setpriv --reuid --regid --clear-groups
 * --no-new-privs --inh-caps=-all`), reading one group id per line on a pipe only the supervisor holds.
 * The sandboxes cannot signal it back: `--deny-run` denies `Deno.kill` and the raw ops are unreachable.
 * Started on first use, restarted if it dies, and reaped on close (EOF on its stdin ends the loop).
 */
export class GroupKiller {
  // `kill` is a builtin (env -i leaves no PATH). A line is a signal and a group id; `kill -s SIG -- -N` is
  // the form both dash and bash take. Only KILL, STOP and CONT are sent, and anything but a plain group id
  // above 1 is skipped (never `kill -1`, which means everything). stderr is /dev/null: a group that is
  // already gone (ESRCH) is not worth a line.
  static readonly SCRIPT =
    'while read -r s g; do case "$g" in ""|*[!0-9]*|0|1) ;; *) case "$s" in KILL|STOP|CONT) kill -s "$s" -- "-$g" ;; esac ;; esac; done';
  private proc: Deno.ChildProcess | null = null;
  private writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  private started = 0;
  private closing = false;

  constructor(private launch: SandboxLaunch) {}

  /** Queue `signal` for process group `pgid`. Returns at once; the write to the helper is asynchronous. */
  kill(pgid: number, signal: "KILL" | "STOP" | "CONT" = "KILL"): boolean {
    if (this.closing || !Number.isSafeInteger(pgid) || pgid <= 1) return false;
    const w = this.writer ?? this.spawn();
    if (!w) return false;
    w.write(encoder.encode(`${signal} ${pgid}\n`)).catch(() => {/* helper gone: its exit handler resets, the caller retries */});
    return true;
  }

  private spawn(): WritableStreamDefaultWriter<Uint8Array> | null {
    const sh = which("sh");
    if (!sh) {
      log("cannot kill sandboxes: kill(2) is not permitted (no CAP_KILL) and there is no sh for the kill helper");
      return null;
    }
    let proc: Deno.ChildProcess;
    try {
      proc = new Deno.Command(this.launch.command, {
        args: [...this.launch.prefix, sh, "-c", GroupKiller.SCRIPT],
        clearEnv: true,
        cwd: "/",
        stdin: "piped",
        stdout: "null",
        stderr: "null",
        detached: true, // not in the supervisor's group: a Ctrl-C there must not stop the shutdown kills
      }).spawn();
    } catch (e) {
      log(`kill helper failed to start: ${(e as Error).message}`);
      return null;
    }
    this.started++;
    if (this.started === 1) {
      log(`killing sandbox process groups is not permitted to the supervisor (no CAP_KILL); sandboxes are ` +
        `killed through a helper running as their own uid (pid ${proc.pid})`);
    } else log(`kill helper restarted (pid ${proc.pid}, start ${this.started})`);
    const writer = proc.stdin.getWriter();
    this.proc = proc;
    this.writer = writer;
    proc.status.then((s) => {
      if (this.proc === proc) {
        this.proc = null;
        this.writer = null;
      }
      if (!this.closing) log(`kill helper ${proc.pid} exited (${s.signal ?? `code ${s.code}`}); restarted on next use`);
    });
    return writer;
  }

  /** End the helper (EOF after the lines already written) and reap it; bounded by `graceMs`. */
  async close(graceMs = 1000): Promise<void> {
    this.closing = true;
    const proc = this.proc;
    if (!proc) return;
    this.writer?.close().catch(() => {});
    let t: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([proc.status, new Promise((r) => (t = setTimeout(r, graceMs)))]);
    clearTimeout(t);
  }
}

// The child's pipes through Deno's resource ops (core.read / core.write on the pipe's resource id) rather
// than web streams: less CPU per frame. Both are private to Deno (the pinned 2.9.6); if either is missing,
// the web streams are used (`Sandbox.fastPipes` says which; /healthz reports it as `pipes`).
// deno-lint-ignore no-explicit-any
const core: any = (Deno as any)[(Deno as any).internal]?.core;
// deno-lint-ignore no-explicit-any
function pipeRid(stream: any, backing: string): number | null {
  if (typeof core?.read !== "function" || typeof core?.write !== "function") return null;
  const sym = Object.getOwnPropertySymbols(stream).find((s) => s.description === backing);
  const b = sym ? stream[sym] : null;
  return b && Number.isSafeInteger(b.rid) ? b.rid : null;
}
/**
 * The supervisor's time spent on one sandbox's output (reading its pipes, parsing and forwarding its
 * frames), held to a share of wall time. The sandbox itself is bound to one CPU, but every byte it writes
 * costs the supervisor work on another: a sandbox flooding forged console or progress frames, or its
 * stderr, kept the supervisor near a core busy on top of its own. Past the share, the sandbox is stopped
 * (SIGSTOP) for a while and its pipes are not read. Stopped, not only left unread: every write to a pipe
 * the supervisor's event loop watches wakes that loop, even while nobody reads, so a sandbox writing one
 * byte at a time kept the supervisor busy (0.37 of a core) with its reads already held back. Its
 * deadline still applies (SIGKILL ends a stopped process).
 */
export class OutputShare {
  /** Of wall time, what the supervisor may spend on one sandbox's output over any stretch past the burst. */
  static readonly SHARE = 0.15;
  /** Work allowed at once before the share applies (a 4 MiB result is parsed in tens of ms). */
  static readonly BURST_MS = 250;
  /**
   * Charged per chunk on top of the processing timed here: the read op and its event loop turn, which are
   * not (measured on 2 cores: about 0.025 ms per read through the pipe's resource op, 0.06 ms through a
   * web stream, the way stderr is read).
   */
  static readonly PER_READ_MS = 0.06;
  private credit = OutputShare.BURST_MS;
  private last = performance.now();

  /** Charges the work begun at `startedAt`; returns how long to wait before reading again (0: within the share). */
  charge(startedAt: number): number {
    const now = performance.now();
    const elapsed = now - this.last;
    this.last = now;
    this.credit = Math.min(OutputShare.BURST_MS, this.credit + elapsed * OutputShare.SHARE) - (now - startedAt) - OutputShare.PER_READ_MS;
    return this.credit < 0 ? -this.credit / OutputShare.SHARE : 0;
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ChildFrame {
  // deno-lint-ignore no-explicit-any
  msg: any;
  bytes: number;
}

export class Sandbox {
  /** The last sandbox started uses the resource ops for its pipes (see `pipeRid`). */
  static fastPipes = false;
  readonly proc: Deno.ChildProcess;
  readonly pid: number;
  readonly spawnedAt = performance.now();
  state: "starting" | "ready" | "busy" | "dead" = "starting";
  stderrTail = "";
  exitStatus: Deno.CommandStatus | null = null;
  readonly exited: Promise<Deno.CommandStatus>;
  /** Set by the run that owns this sandbox. */
  onFrame: ((f: ChildFrame) => void) | null = null;
  onBadFrame: ((why: string) => void) | null = null;
  onExit: ((s: Deno.CommandStatus) => void) | null = null;
  onReady: (() => void) | null = null;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private stdinRid: number | null = null;
  private stdoutRid: number | null = null;
  private outQueue: Uint8Array[] = [];
  private outWriting = false;
  /** Bytes given to `send` that the child has not taken off its stdin pipe yet. */
  private queuedBytes = 0;
  private killed = false;
  /** The exit status has been collected: the pid may be reused, so it is never signalled again. */
  private reaped = false;
  private killRetry: ReturnType<typeof setTimeout> | undefined;
  /** Both pipes from the child draw on one share. */
  private outputShare = new OutputShare();
  /** While the child is stopped for exceeding its share: when it is continued. */
  private held: Promise<void> | null = null;

  constructor(
    launch: SandboxLaunch,
    /** The one CPU this sandbox may run on. */
    readonly cpu: number,
    private maxLineBytes: number,
    private maxQueueBytes: number,
    private killer: GroupKiller | null = null,
  ) {
    this.proc = new Deno.Command(launch.command, {
      args: argsOnCpu(launch, cpu),
      clearEnv: true, // and `env -i` in front: nothing of ours, the token included, reaches the child
      cwd: "/",
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true, // own session and process group, so the deadline kill takes everything with it
    }).spawn();
    this.pid = this.proc.pid;
    const inRid = pipeRid(this.proc.stdin, "[[resourceBacking]]");
    const outRid = pipeRid(this.proc.stdout, "[[resourceBackingUnrefable]]");
    if (inRid !== null && outRid !== null) {
      this.stdinRid = inRid;
      this.stdoutRid = outRid;
      Sandbox.fastPipes = true;
    }
    this.writer = this.proc.stdin.getWriter();
    const drained = Promise.all([this.readStdout(), this.readStderr()]);
    this.exited = this.proc.status.then(async (s) => {
      this.reaped = true;
      clearTimeout(this.killRetry);
      // Let the pipes drain (a result or an OOM message may still be in flight), but never wait long.
      let t: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([drained, new Promise((r) => (t = setTimeout(r, 250)))]);
      clearTimeout(t);
      this.exitStatus = s;
      this.state = "dead";
      this.onExit?.(s);
      return s;
    });
  }

  /** Frames from a chunk stream: `pending` holds the bytes of an unterminated line, as chunks. */
  private pending: Uint8Array[] = [];
  private pendingLen = 0;
  private decoder = new TextDecoder("utf-8", { fatal: true });

  /** Handles one chunk read from the child's stdout. Returns false once the child is done for. */
  private onChunk(chunk: Uint8Array): boolean {
    let start = 0;
    let idx: number;
    while ((idx = chunk.indexOf(NL, start)) !== -1) {
      let lineBytes = chunk.subarray(start, idx);
      start = idx + 1;
      if (this.pendingLen) {
        // Joined once, when the line ends (not on every read: a 4 MiB result comes in many chunks).
        const merged = new Uint8Array(this.pendingLen + lineBytes.length);
        let off = 0;
        for (const p of this.pending) {
          merged.set(p, off);
          off += p.length;
        }
        merged.set(lineBytes, off);
        lineBytes = merged;
        this.pending = [];
        this.pendingLen = 0;
      }
      if (lineBytes.length === 0) continue;
      if (lineBytes.length > this.maxLineBytes) {
        this.badFrame(`frame of ${lineBytes.length} bytes exceeds ${this.maxLineBytes}`);
        return false;
      }
      let msg;
      try {
        msg = JSON.parse(this.decoder.decode(lineBytes));
      } catch {
        this.badFrame("malformed frame (not UTF-8 JSON)");
        return false;
      }
      this.dispatch(msg, lineBytes.length);
      if (this.killed) return false;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.slice(start)); // a copy: the read buffer is reused
      this.pendingLen += chunk.length - start;
      if (this.pendingLen > this.maxLineBytes) {
        this.badFrame(`unterminated frame over ${this.maxLineBytes} bytes`);
        return false;
      }
    }
    return true;
  }

  /** Back-pressure: while set, the child's stdout is not read (its writes block once the pipe is full). */
  private paused: Promise<void> | null = null;
  pauseUntil(p: Promise<void>) {
    this.paused = p;
  }

  private async readStdout() {
    if (this.stdoutRid !== null) return this.readStdoutRid(this.stdoutRid);
    const reader = this.proc.stdout.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const t0 = performance.now();
        if (!this.onChunk(value)) return;
        const held = this.holdIfOverShare(t0);
        if (held) await held;
        if (this.paused) {
          await this.paused;
          this.paused = null;
        }
      }
    } catch {
      // stream error: the exit handler reports it
    } finally {
      reader.releaseLock();
    }
  }

  private async readStdoutRid(rid: number) {
    const buf = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n: number = await core.read(rid, buf);
        if (n === 0) break;
        const t0 = performance.now();
        if (!this.onChunk(buf.subarray(0, n))) return;
        const held = this.holdIfOverShare(t0);
        if (held) await held;
        if (this.paused) {
          await this.paused;
          this.paused = null;
        }
      }
    } catch {
      // stream error: the exit handler reports it
    } finally {
      this.proc.stdout.cancel().catch(() => {}); // closes the pipe's resource
    }
  }

  // deno-lint-ignore no-explicit-any
  private dispatch(msg: any, bytes: number) {
    if (this.state === "starting") {
      if (msg && msg.type === "ready") {
        this.state = "ready";
        this.onReady?.();
      } else this.badFrame("expected ready frame");
      return;
    }
    if (this.onFrame) this.onFrame({ msg, bytes });
  }

  private badFrame(why: string) {
    if (this.onBadFrame) this.onBadFrame(why);
    this.kill();
  }

  private async readStderr() {
    // Drained concurrently with stdout so a chatty child can never block on a full pipe. Only a tail is
    // kept, to recognise V8 out-of-memory and for the log.
    const reader = this.proc.stderr.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const t0 = performance.now();
        this.stderrTail = (this.stderrTail + decoder.decode(value, { stream: true })).slice(-8192);
        const held = this.holdIfOverShare(t0);
        if (held) await held;
      }
    } catch { /* ignore */ } finally {
      reader.releaseLock();
    }
  }

  /**
   * Queues a frame toward the child. Returns false, and queues nothing, when the bytes already queued and
   * not yet taken by the child plus this frame would exceed `maxQueueBytes`: a child that does not read its
   * stdin must not make the supervisor hold its answers without bound.
   */
  // deno-lint-ignore no-explicit-any
  send(frame: any): boolean {
    if (this.killed) return true;
    const bytes = encoder.encode(JSON.stringify(frame) + "\n");
    if (this.queuedBytes + bytes.length > this.maxQueueBytes) return false;
    this.queuedBytes += bytes.length;
    if (this.stdinRid === null) {
      this.writer.write(bytes).then(() => this.queuedBytes -= bytes.length, () => {});
      return true;
    }
    this.outQueue.push(bytes);
    if (!this.outWriting) this.writeStdin(this.stdinRid);
    return true;
  }

  /** Writes queued frames in order (a write may be partial); stops at the first error (child gone). */
  private async writeStdin(rid: number) {
    this.outWriting = true;
    try {
      while (this.outQueue.length && !this.killed) {
        const b = this.outQueue.shift()!;
        let off = 0;
        while (off < b.length) off += await core.write(rid, off ? b.subarray(off) : b);
        this.queuedBytes -= b.length;
      }
    } catch {
      this.outQueue = [];
    }
    this.outWriting = false;
  }

  /** Resident set size in MiB, from /proc (null once the process is gone). */
  rssMb(): number | null {
    try {
      const statm = Deno.readTextFileSync(`/proc/${this.pid}/statm`);
      const pages = Number(statm.split(" ")[1]);
      return (pages * 4096) / (1024 * 1024);
    } catch {
      return null;
    }
  }

  /** SIGKILL the whole process group. Idempotent. The exit status is reaped by `exited`. */
  kill() {
    if (this.killed) return;
    this.killed = true;
    this.onFrame = null;
    this.outQueue = []; // what the child never took is dropped with it
    this.signalGroup();
    this.writer.close().catch(() => {});
  }

  /**
   * Charges the output work begun at `startedAt`; over the share, stops the child until it is back within.
   * Returns what to wait for before reading on, or null (no extra await on the usual path).
   */
  private holdIfOverShare(startedAt: number): Promise<void> | null {
    const wait = this.outputShare.charge(startedAt);
    if (!wait || this.held) return this.held;
    this.stopOrContinue("SIGSTOP");
    this.held = pause(wait).then(() => {
      this.held = null;
      if (!this.killed) this.stopOrContinue("SIGCONT");
    });
    return this.held;
  }

  private stopOrContinue(signal: "SIGSTOP" | "SIGCONT") {
    if (this.reaped) return;
    try {
      Deno.kill(-this.pid, signal);
    } catch (e) {
      // Root without CAP_KILL: through the helper. Should that fail too, the pipes are still not read.
      if (e instanceof Deno.errors.PermissionDenied) this.killer?.kill(this.pid, signal === "SIGSTOP" ? "STOP" : "CONT");
    }
  }

  private signalGroup() {
    if (this.reaped) return;
    try {
      Deno.kill(-this.pid, "SIGKILL");
      return;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return; // the whole group is gone already
      if (e instanceof Deno.errors.PermissionDenied && this.killer?.kill(this.pid)) {
        // Root without CAP_KILL: the helper kills as the sandbox uid. Should it die before it reads the
        // line, ask again until the exit is reaped.
        const retry = setTimeout(() => this.signalGroup(), 1000);
        Deno.unrefTimer(retry);
        this.killRetry = retry;
        return;
      }
    }
    try {
      this.proc.kill("SIGKILL");
    } catch { /* already gone */ }
  }

  get wasKilled() {
    return this.killed;
  }

  /** Did V8 run out of memory (heap limit) rather than exit for another reason? */
  looksOutOfMemory(): boolean {
    return /out of memory|Reached heap limit|allocation failed/i.test(this.stderrTail);
  }
}

interface Waiter {
  resolve: (s: Sandbox) => void;
  cancelled: boolean;
}

export class BusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BusyError";
  }
}

export class Pool {
  private warm: Sandbox[] = [];
  private starting = new Set<Sandbox>();
  private queue: Waiter[] = [];
  private refillScheduled = false;
  private spawnFailures = 0;
  private shuttingDown = false;
  active = 0;
  runsStarted = 0;
  readonly all = new Set<Sandbox>();
  readonly killer: GroupKiller;
  /** The CPUs sandboxes are spread over, and how many runs each one is serving now. */
  readonly cpus = allowedCpus();
  private busyOn = new Map<number, number>();

  constructor(private cfg: Config, private launch: SandboxLaunch) {
    this.killer = new GroupKiller(launch);
  }

  /** For a new sandbox: the CPU with the fewest sandboxes (warm, starting or busy) bound to it. */
  private cpuForSpawn(): number {
    const count = new Map(this.cpus.map((c) => [c, 0]));
    for (const sb of this.all) if (sb.state !== "dead") count.set(sb.cpu, (count.get(sb.cpu) ?? 0) + 1);
    let best = this.cpus[0];
    for (const c of this.cpus) if (count.get(c)! < count.get(best)!) best = c;
    return best;
  }

  get stats() {
    return {
      warm: this.warm.length,
      starting: this.starting.size,
      busy: this.active,
      queued: this.queue.length,
    };
  }

  start() {
    this.scheduleRefill();
  }

  /**
   * Take a warm sandbox for a run (and a concurrency slot). Synchronous fast path when one is ready;
   * otherwise the run waits in the bounded queue; beyond it, BusyError.
   */
  acquire(): { sandbox: Sandbox } | { wait: Promise<Sandbox>; cancel: () => void } {
    if (this.active < this.cfg.maxConcurrent && this.queue.length === 0) {
      const sb = this.takeWarm();
      if (sb) {
        this.active++;
        this.runsStarted++;
        // No replacement yet: a starting Deno burns a core for tens of milliseconds, which would sit on
        // this run's critical path. It is spawned when this run ends, after its `done` is sent.
        if (this.warm.length === 0) this.scheduleRefill();
        return { sandbox: sb };
      }
    }
    if (this.queue.length >= this.cfg.maxQueue) {
      throw new BusyError(
        `runner busy: ${this.active} runs active (max ${this.cfg.maxConcurrent}) and ${this.queue.length} queued (max ${this.cfg.maxQueue})`,
      );
    }
    let waiter!: Waiter;
    const wait = new Promise<Sandbox>((resolve) => {
      waiter = { resolve, cancelled: false };
    });
    this.queue.push(waiter);
    this.scheduleRefill();
    return {
      wait,
      cancel: () => {
        if (waiter.cancelled) return;
        waiter.cancelled = true;
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
      },
    };
  }

  /** The run is over: its sandbox is killed and its slot given back. */
  release(sb: Sandbox) {
    sb.kill();
    this.busyOn.set(sb.cpu, (this.busyOn.get(sb.cpu) ?? 1) - 1);
    this.active--;
    this.pump();
    this.scheduleRefill();
  }

  /** A ready sandbox for a run, preferring one bound to the CPU that serves the fewest runs now. */
  private takeWarm(): Sandbox | null {
    this.warm = this.warm.filter((sb) => sb.state === "ready");
    if (!this.warm.length) return null;
    let at = 0;
    const busy = (sb: Sandbox) => this.busyOn.get(sb.cpu) ?? 0;
    for (let i = 1; i < this.warm.length; i++) if (busy(this.warm[i]) < busy(this.warm[at])) at = i;
    const [sb] = this.warm.splice(at, 1);
    sb.state = "busy";
    this.busyOn.set(sb.cpu, busy(sb) + 1);
    return sb;
  }

  private pump() {
    while (this.queue.length && this.active < this.cfg.maxConcurrent) {
      const sb = this.takeWarm();
      if (!sb) break;
      const w = this.queue.shift()!;
      this.active++;
      this.runsStarted++;
      w.resolve(sb);
    }
  }

  private scheduleRefill() {
    if (this.refillScheduled) return;
    this.refillScheduled = true;
    // setTimeout, not a microtask: the current run's frames go out first.
    setTimeout(() => {
      this.refillScheduled = false;
      this.refill();
    }, 0);
  }

  private refill() {
    if (this.shuttingDown) return;
    const wantForQueue = Math.min(this.queue.length, Math.max(0, this.cfg.maxConcurrent - this.active));
    const want = this.cfg.poolSize + wantForQueue;
    let have = this.warm.length + this.starting.size;
    while (have < want) {
      this.spawnOne();
      have++;
    }
  }

  private spawnOne() {
    let sb: Sandbox;
    try {
      sb = new Sandbox(this.launch, this.cpuForSpawn(), this.cfg.maxFrameBytes + this.cfg.maxLimits.maxOutputBytes + 65536, this.cfg.maxChildQueueBytes, this.killer);
    } catch (e) {
      log(`sandbox spawn failed: ${(e as Error).message}`);
      this.retryLater();
      return;
    }
    this.starting.add(sb);
    this.all.add(sb);
    sb.onReady = () => {
      this.starting.delete(sb);
      this.spawnFailures = 0;
      this.warm.push(sb);
      this.pump();
    };
    sb.exited.then((s) => {
      this.all.delete(sb);
      if (this.starting.delete(sb) && !this.shuttingDown) {
        log(`sandbox ${sb.pid} exited before ready (${s.signal ?? s.code}): ${sb.stderrTail.slice(-500)}`);
        this.retryLater();
      }
      const i = this.warm.indexOf(sb);
      if (i >= 0) {
        this.warm.splice(i, 1);
        this.scheduleRefill();
      }
    });
  }

  private retryLater() {
    this.spawnFailures++;
    const delay = Math.min(5000, 50 * 2 ** Math.min(this.spawnFailures, 7));
    setTimeout(() => this.scheduleRefill(), delay);
  }

  /**
   * Kill every sandbox, wait (at most `graceMs`) until their exit statuses are reaped, then end and reap
   * the kill helper if it was started.
   */
  async shutdown(graceMs = 2000): Promise<void> {
    this.shuttingDown = true;
    const exits = [...this.all].map((sb) => sb.exited);
    for (const sb of this.all) sb.kill();
    let t: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(exits), new Promise((r) => (t = setTimeout(r, graceMs)))]);
    clearTimeout(t);
    await this.killer.close();
  }
}
