// Code-runner benchmark: start->done latency of `return 1` through the WebSocket with the warm pool and
// with a cold child per run (pool size 0, measured the same way through the runner), sustained runs per
// second with concurrent clients, RSS per warm sandbox, and a run making 100 sequential bridge calls.
//
//   runner-image/bench/run.sh            (installs Deno/ws on first use, then runs this file)
// Env: BENCH_RUNS (500), BENCH_COLD_RUNS (500), BENCH_SUSTAIN_S (60), BENCH_CLIENTS (8), BENCH_BRIDGE_RUNS (100)
import WsWebSocket from "ws";
import { startSupervisor } from "../test/client.ts";
import { denoSandboxFlags } from "../src/sandbox.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 500);
const COLD_RUNS = Number(Deno.env.get("BENCH_COLD_RUNS") ?? 500);
const SUSTAIN_S = Number(Deno.env.get("BENCH_SUSTAIN_S") ?? 60);
const CLIENTS = Number(Deno.env.get("BENCH_CLIENTS") ?? 8);
const BRIDGE_RUNS = Number(Deno.env.get("BENCH_BRIDGE_RUNS") ?? 100);
const TOKEN = "bench-" + crypto.randomUUID();
const ONLY = (Deno.env.get("BENCH_ONLY") ?? "spawn,warm,bridge,sustained,cold").split(",");
const SPAWNS = Number(Deno.env.get("BENCH_SPAWNS") ?? 40);

/** CPU ms used so far by a process itself and by its reaped children (from /proc/<pid>/stat). */
function cpuSplit(pid: number) {
  const st = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const f = st.slice(st.lastIndexOf(")") + 2).split(" ");
  // utime stime | cutime cstime, in USER_HZ = 100 ticks
  return { self: (Number(f[11]) + Number(f[12])) * 10, children: (Number(f[13]) + Number(f[14])) * 10, childFaults: Number(f[8]) };
}
function cpuMs(pid: number) {
  const c = cpuSplit(pid);
  return c.self + c.children;
}

interface Timed {
  connectMs: number; // TCP connect + upgrade
  runMs: number; // start sent -> done received
  status: string;
}

/** One run on its own WebSocket; `runMs` is the start->done latency the issue asks for. */
function timedRunWs(url: string, code: string, limits: Record<string, number> = {}, answer = false): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let tStart = 0;
    let status = "none";
    let runMs = 0;
    const ws = new WsWebSocket(url, { headers: { Authorization: `Bearer ${TOKEN}` }, perMessageDeflate: false });
    ws.on("open", () => {
      // deno-lint-ignore no-explicit-any
      (ws as any)._socket?.setNoDelay?.(true);
      tStart = performance.now();
      ws.send(JSON.stringify({ type: "start", runId: "bench", code, input: null, limits: { timeoutMs: 10000, ...limits } }));
    });
    ws.on("message", (data: Buffer) => {
      const s = data.toString();
      if (answer && s.startsWith('{"type":"bridge"')) {
        const id = JSON.parse(s).id;
        ws.send(`{"type":"bridge_result","id":${id},"ok":true,"value":1}`);
        return;
      }
      const m = JSON.parse(s);
      if (m.type === "done") {
        runMs = performance.now() - tStart;
        status = m.status;
      }
    });
    ws.on("close", () => resolve({ connectMs: tStart - t0, runMs, status }));
    ws.on("error", reject);
  });
}

/** The same run with Deno's built-in WebSocket client (Rust, fastwebsockets) instead of `ws`. */
function timedRunNative(url: string, code: string, limits: Record<string, number> = {}, answer = false): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let tStart = 0;
    let status = "none";
    let runMs = 0;
    // deno-lint-ignore no-explicit-any
    const ws = new (WebSocket as any)(url, { headers: { Authorization: `Bearer ${TOKEN}` } }) as globalThis.WebSocket;
    ws.onopen = () => {
      tStart = performance.now();
      ws.send(JSON.stringify({ type: "start", runId: "bench", code, input: null, limits: { timeoutMs: 10000, ...limits } }));
    };
    ws.onmessage = (e: MessageEvent) => {
      const s = e.data as string;
      if (answer && s.startsWith('{"type":"bridge"')) {
        const id = JSON.parse(s).id;
        ws.send(`{"type":"bridge_result","id":${id},"ok":true,"value":1}`);
        return;
      }
      const m = JSON.parse(s);
      if (m.type === "done") {
        runMs = performance.now() - tStart;
        status = m.status;
      }
    };
    ws.onclose = () => resolve({ connectMs: tStart - t0, runMs, status });
    ws.onerror = (e) => reject(new Error(String((e as ErrorEvent).message ?? e)));
  });
}

// BENCH_CLIENT=ws (default: the `ws` package, as the containment suite's client) or native (Deno's own
// WebSocket). The gateway itself is Java; the client is part of what is measured, so it is reported.
const CLIENT = Deno.env.get("BENCH_CLIENT") ?? "ws";
const timedRun = CLIENT === "native" ? timedRunNative : timedRunWs;
// BENCH_BRIDGE_BOTH=1: the bridge runs alternate between the two clients.
const BRIDGE_BOTH_CLIENTS = Deno.env.get("BENCH_BRIDGE_BOTH") === "1";

function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const r2 = (x: number) => Math.round(x * 100) / 100;
function summary(xs: number[]) {
  return { n: xs.length, p50: r2(pct(xs, 50)), p90: r2(pct(xs, 90)), p99: r2(pct(xs, 99)), max: r2(Math.max(...xs)) };
}
let healthRetries = 0;
async function health(base: string) {
  // A keep-alive connection the server is closing just as it is reused fails with ECONNRESET; retry.
  for (let i = 0; ; i++) {
    try {
      return await (await fetch(`${base}/healthz`)).json();
    } catch (e) {
      if (i >= 3) throw e;
      healthRetries++;
      console.error(`healthz: ${(e as Error).message}; retrying`);
    }
  }
}
async function waitWarm(base: string, n: number, maxMs = 3000) {
  const t0 = performance.now();
  while (performance.now() - t0 < maxMs) {
    if ((await health(base)).warm >= n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}
function load() {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

async function sequential(sup: { url: string; base: string }, n: number, warmN: number) {
  const run: number[] = [];
  const conn: number[] = [];
  let errors = 0;
  for (let i = 0; i < n; i++) {
    // Measure a warm pool: let the replacement of the previous run finish starting first.
    if (warmN > 0) await waitWarm(sup.base, warmN);
    const t = await timedRun(sup.url, "return 1");
    if (t.status !== "ok") errors++;
    run.push(t.runMs);
    conn.push(t.connectMs);
  }
  return { run: summary(run), connect: summary(conn), errors };
}

const out: Record<string, unknown> = { label: Deno.env.get("BENCH_LABEL") ?? "", client: CLIENT, date: new Date().toISOString(), deno: Deno.version.deno, cores: navigator.hardwareConcurrency, loadBefore: load() };

// --- the machine: what a fresh one has and has not warmed --------------------------------------------------
function readOr(path: string, fallback = "n/a") {
  try {
    return Deno.readTextFileSync(path).trim();
  } catch {
    return fallback;
  }
}
out.machine = {
  cpu: /model name\s*:\s*(.*)/.exec(readOr("/proc/cpuinfo"))?.[1] ?? "n/a",
  memFreeMiB: Math.round(Number(/MemFree:\s+(\d+)/.exec(readOr("/proc/meminfo"))?.[1] ?? 0) / 1024),
  // Free page reporting (virtio-balloon) hands memory the guest frees back to the host; the next process to touch it
  // faults on the host as well, which is what makes a page fault several times dearer on such a virtual machine.
  freePageReporting: readOr("/sys/module/page_reporting/parameters/page_reporting_order", "absent") === "absent"
    ? "absent" : `on (order ${readOr("/sys/module/page_reporting/parameters/page_reporting_order")})`,
  // run.sh points DENO_DIR at a new empty directory, so the supervisor's and this client's TypeScript is compiled
  // from nothing. Sandboxes never have a cache at all: their environment is empty and their uid's home does not exist.
  denoDir: Deno.env.get("DENO_DIR") ?? "(default)",
};
console.error("machine", out.machine);

// --- one sandbox process, started as the supervisor starts them, on its own ---------------------------------
if (ONLY.includes("spawn")) {
  const dir = new URL("..", import.meta.url).pathname;
  const root = Deno.uid() === 0;
  const prefix = root ? ["-i", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--no-new-privs", "--inh-caps=-all", "--"] : ["-i"];
  const args = [...prefix, Deno.execPath(), ...denoSandboxFlags(`${dir}sandbox/import_map.json`, 256), `${dir}sandbox/harness.js`];
  const spawnOnce = async () => {
    // stdin at EOF: the harness starts, sends `ready`, finds no start frame and exits, as a warm sandbox would
    // have cost before its run.
    const p = new Deno.Command("env", { args, clearEnv: true, cwd: "/", stdin: "null", stdout: "piped", stderr: "null" }).spawn();
    const o = await p.output();
    return new TextDecoder().decode(o.stdout).includes('"type":"ready"');
  };
  let ready = 0;
  const c0 = cpuSplit(Deno.pid);
  const t0 = performance.now();
  for (let i = 0; i < SPAWNS; i++) if (await spawnOnce()) ready++;
  const c1 = cpuSplit(Deno.pid);
  out.spawn = {
    n: SPAWNS, ready, wallMsPerSpawn: r2((performance.now() - t0) / SPAWNS),
    cpuMsPerSandboxStart: r2((c1.children - c0.children) / SPAWNS), pageFaultsPerSandboxStart: Math.round((c1.childFaults - c0.childFaults) / SPAWNS),
    isolation: root ? "uid-drop" : "same-uid",
  };
  console.error("spawn", out.spawn);
}

// --- warm pool ---------------------------------------------------------------------------------------
const warm = await startSupervisor({ CODE_RUNNER_TOKEN: TOKEN }, { quiet: Deno.env.get("BENCH_VERBOSE") !== "1" });
const hw = await health(warm.base);
const pool = hw.poolSize;
await waitWarm(warm.base, pool, 20000);
console.error(`warm supervisor: pool ${pool}, isolation ${hw.isolation}`);
for (let i = 0; i < 20; i++) {
  await waitWarm(warm.base, pool);
  await timedRun(warm.url, "return 1"); // JIT warm-up of supervisor and client
}

// RSS per warm sandbox (idle, waiting for its run).
await waitWarm(warm.base, pool, 5000);
await new Promise((r) => setTimeout(r, 500));
const rss: number[] = [];
for (const e of Deno.readDirSync("/proc")) {
  if (!/^\d+$/.test(e.name)) continue;
  try {
    const st = Deno.readTextFileSync(`/proc/${e.name}/stat`);
    if (Number(st.slice(st.lastIndexOf(")") + 2).split(" ")[1]) !== warm.proc.pid) continue;
    const status = Deno.readTextFileSync(`/proc/${e.name}/status`);
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    rss.push(kb / 1024);
  } catch { /* gone */ }
}
out.rssPerWarmSandboxMiB = { n: rss.length, mean: r2(rss.reduce((a, b) => a + b, 0) / rss.length), max: r2(Math.max(...rss)) };
console.error("rss", out.rssPerWarmSandboxMiB);

let warmCpuPerRun = NaN;
if (ONLY.includes("warm")) {
  console.error(`warm: ${RUNS} sequential runs of return 1 ...`);
  const c0 = cpuMs(warm.proc.pid) + cpuMs(Deno.pid);
  out.warm = await sequential(warm, RUNS, pool);
  await new Promise((r) => setTimeout(r, 300)); // the last sandbox reaped
  warmCpuPerRun = (cpuMs(warm.proc.pid) + cpuMs(Deno.pid) - c0) / RUNS;
  console.error("warm", out.warm);
}

// --- 100 sequential bridge calls ----------------------------------------------------------------------
if (ONLY.includes("bridge")) {
console.error(`bridge: ${BRIDGE_RUNS} runs of 100 sequential bridge calls ...`);
const bridge: number[] = [];
const bridgeOther: number[] = [];
let bridgeErrors = 0;
const BRIDGE_CODE = "for (let i = 0; i < 100; i++) await amcp.run('t', { i }); return 1";
const bc0 = cpuMs(warm.proc.pid) + cpuMs(Deno.pid);
for (let i = 0; i < BRIDGE_RUNS; i++) {
  await waitWarm(warm.base, pool);
  const t = await timedRun(warm.url, BRIDGE_CODE, { maxBridgeCalls: 100 }, true);
  if (t.status !== "ok") bridgeErrors++;
  bridge.push(t.runMs);
  if (BRIDGE_BOTH_CLIENTS) {
    // Interleaved with the other client, so both see the same machine load.
    await waitWarm(warm.base, pool);
    const o = await (timedRun === timedRunWs ? timedRunNative : timedRunWs)(warm.url, BRIDGE_CODE, { maxBridgeCalls: 100 }, true);
    if (o.status !== "ok") bridgeErrors++;
    bridgeOther.push(o.runMs);
  }
}
await new Promise((r) => setTimeout(r, 300));
const bridgeCpuPerRun = (cpuMs(warm.proc.pid) + cpuMs(Deno.pid) - bc0) / (BRIDGE_RUNS * (BRIDGE_BOTH_CLIENTS ? 2 : 1));
out.bridge100 = {
  run: summary(bridge), errors: bridgeErrors,
  // CPU of one bridge round trip (client + supervisor + sandbox, all hops), load-independent: the CPU of
  // a 100-call run minus that of a warm `return 1` run (same sequence: wait for a full pool, connect,
  // run), over 100. On idle cores, 100 x this is the floor of the 100-call latency.
  cpuUsPerCall: r2(((bridgeCpuPerRun - warmCpuPerRun) / 100) * 1000), cpuMsPerRun: r2(bridgeCpuPerRun), warmCpuMsPerRun: r2(warmCpuPerRun),
};
if (BRIDGE_BOTH_CLIENTS) out.bridge100OtherClient = { client: CLIENT === "native" ? "ws" : "native", run: summary(bridgeOther) };
console.error("bridge100", out.bridge100, out.bridge100OtherClient ?? "");
}

// --- sustained throughput -------------------------------------------------------------------------------
if (ONLY.includes("sustained")) {
  console.error(`sustained: ${CLIENTS} clients for ${SUSTAIN_S} s ...`);
  const sup0 = cpuSplit(warm.proc.pid);
  const cli0 = cpuSplit(Deno.pid).self;
  const cpu0 = cpuMs(warm.proc.pid) + cpuMs(Deno.pid);
  let ok = 0;
  let errors = 0;
  const lat: number[] = [];
  const statuses: Record<string, number> = {};
  const end = performance.now() + SUSTAIN_S * 1000;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < end) {
      try {
        const t = await timedRun(warm.url, "return 1");
        statuses[t.status] = (statuses[t.status] ?? 0) + 1;
        if (t.status === "ok") {
          ok++;
          lat.push(t.runMs + t.connectMs);
        } else errors++;
      } catch {
        errors++;
      }
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 1000)); // let the last used sandboxes be reaped into cutime
  // CPU per run: supervisor + its sandboxes (reaped) + this client. With nothing else on the machine,
  // cores * 1000 / cpuMsPerRun is the throughput ceiling.
  const cpuPerRun = (cpuMs(warm.proc.pid) + cpuMs(Deno.pid) - cpu0) / Math.max(1, ok);
  const sup1 = cpuSplit(warm.proc.pid);
  const per = (x: number) => r2(x / Math.max(1, ok));
  const faultsPerRun = Math.round((sup1.childFaults - sup0.childFaults) / Math.max(1, ok));
  const cpuSplitMsPerRun = {
    supervisor: per(sup1.self - sup0.self),
    sandboxes: per(sup1.children - sup0.children), // reaped children: env -> setpriv -> deno, per run
    client: per(cpuSplit(Deno.pid).self - cli0),
  };
  out.sustained = {
    clients: CLIENTS, seconds: r2(secs), ok, errors, runsPerSecond: r2(ok / secs), connectPlusRunMs: summary(lat), statuses,
    cpuMsPerRun: r2(cpuPerRun), cpuSplitMsPerRun, sandboxPageFaultsPerRun: faultsPerRun,
    ceilingRunsPerSecondOnIdleCores: r2((navigator.hardwareConcurrency * 1000) / cpuPerRun),
  };
  console.error("sustained", out.sustained);
}
await warm.stop();

// --- cold: a child started for each run, through the same runner ----------------------------------------
if (ONLY.includes("cold")) {
const cold = await startSupervisor({ CODE_RUNNER_TOKEN: TOKEN, CODE_RUNNER_POOL_SIZE: "0" }, { quiet: true });
for (let i = 0; i < 5; i++) await timedRun(cold.url, "return 1");
console.error(`cold: ${COLD_RUNS} sequential runs of return 1 (pool size 0) ...`);
out.cold = await sequential(cold, COLD_RUNS, 0);
console.error("cold", out.cold);
await cold.stop();
}

// deno-lint-ignore no-explicit-any
const o = out as any;
if (o.cold && o.warm) out.coldOverWarmP50 = r2(o.cold.run.p50 / o.warm.run.p50);
out.loadAfter = load();
out.healthRetries = healthRetries;
console.log(JSON.stringify(out, null, 2));
await Deno.mkdir(new URL("./out", import.meta.url), { recursive: true });
await Deno.writeTextFile(new URL("./out/results.json", import.meta.url), JSON.stringify(out, null, 2));
// Every run is also kept, so repeated runs can be compared (medians across runs).
await Deno.writeTextFile(new URL(`./out/results-${out.date}.json`, import.meta.url), JSON.stringify(out, null, 2));
