// Containment suite for the AMCP code runner. Runs against a live supervisor that test.sh started:
//   RUNNER_BASE=http://127.0.0.1:PORT RUNNER_TOKEN=... RUNNER_PID=<supervisor pid> deno run -A test/containment_test.ts
// Prints one line per assertion and ends with "N passed, M failed"; exits non-zero on any failure.

import { run, type RunResult } from "./client.ts";
import { denoSandboxFlags } from "../src/sandbox.ts";

const BASE = Deno.env.get("RUNNER_BASE")!;
const TOKEN = Deno.env.get("RUNNER_TOKEN")!;
const SUP_PID = Number(Deno.env.get("RUNNER_PID"));
const MAX_OUTPUT = Number(Deno.env.get("RUNNER_MAX_OUTPUT_BYTES") ?? 2 * 1024 * 1024);
const MAX_FRAME = Number(Deno.env.get("RUNNER_MAX_FRAME_BYTES") ?? 1024 * 1024);
const MAX_CONCURRENT = Number(Deno.env.get("RUNNER_MAX_CONCURRENT") ?? 4);
const MAX_QUEUE = Number(Deno.env.get("RUNNER_MAX_QUEUE") ?? 4);
const URL_RUN = BASE.replace(/^http/, "ws") + "/v1/run";
const PORT = Number(new URL(BASE).port);
const IS_ROOT = Deno.uid() === 0;
/** Set by test.sh under CI, which runs as root: the root-only checks must run there, not be skipped. */
const REQUIRE_ROOT = Deno.env.get("RUNNER_REQUIRE_ROOT") === "1";
/** Root-only checks that actually ran: the uid-drop facts (per child) and the supervisor without CAP_KILL. */
const rootChecksRan = { uidDrop: 0, noCapKill: 0 };
const LOG_FILE = Deno.env.get("RUNNER_LOG_FILE");
const HERE = new URL(".", import.meta.url).pathname;
const RUNNER_DIR = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const DENO_BIN = Deno.env.get("RUNNER_DENO_BIN") || Deno.execPath();
const SUP2_PID_FILE = Deno.env.get("RUNNER_SUP2_PID_FILE");

let passed = 0;
let failed = 0;
const failures: string[] = [];
function check(cond: boolean, name: string, detail: unknown = "") {
  if (cond) {
    passed++;
    console.log(`  ok   ${name}`);
  } else {
    failed++;
    const d = typeof detail === "string" ? detail : JSON.stringify(detail);
    failures.push(`${name}: ${d?.slice(0, 600)}`);
    console.log(`  FAIL ${name}\n       ${d?.slice(0, 600)}`);
  }
}

// deno-lint-ignore no-explicit-any
type Any = any;
interface Opts {
  input?: unknown;
  limits?: Record<string, number>;
  onBridge?: (b: Any) => Any;
}
// At most MAX_CONCURRENT runs of the suite in flight, so the runner's queue is never the reason a check
// fails (the busy test below goes around this on purpose).
let inFlight = 0;
const waiters: (() => void)[] = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  while (inFlight >= MAX_CONCURRENT) await new Promise<void>((r) => waiters.push(r));
  inFlight++;
  try {
    return await fn();
  } finally {
    inFlight--;
    waiters.shift()?.();
  }
}
function exec(code: string, o: Opts = {}): Promise<RunResult> {
  return slot(() => rawExec(code, o));
}
function rawExec(code: string, o: Opts = {}): Promise<RunResult> {
  return run({
    url: URL_RUN,
    token: TOKEN,
    start: { runId: crypto.randomUUID(), code, input: o.input ?? null, limits: { timeoutMs: 5000, ...o.limits } },
    onBridge: o.onBridge,
    timeoutMs: 60_000,
  });
}
const short = (r: RunResult) => JSON.stringify(r.done ?? r.frames).slice(0, 500);

/** Wraps an attempt: returns {escaped:true,...} only if the body ran to the end. */
function attempt(body: string) {
  return `try { const v = await (async () => { ${body} })(); return { escaped: true, v: String(v).slice(0, 300) } }
          catch (e) { return { denied: true, name: String(e && e.name), message: String(e && e.message).slice(0, 300) } }`;
}
/**
 * A denied operation: the run completes and reports the throw, and the throw is the denial itself: Deno's
 * permission error (`NotCapable`), the harness's lock-down (`TypeError` "... is not available in code
 * mode"), or V8's code-generation ban (`EvalError`). Any other throw (a typo, a missing API) fails.
 */
const NOT_CAPABLE = { name: "NotCapable", message: /^Requires \S+ access/ };
const LOCKED = { name: "TypeError", message: / is not available in code mode$/ };
const NO_CODEGEN = { name: "EvalError", message: /Code generation from strings disallowed/ };
async function denied(name: string, body: string, want: { name: string; message: RegExp }, extra?: (r: RunResult) => boolean) {
  const r = await exec(attempt(body));
  const v = r.done?.status === "ok" ? r.done.value : null;
  check(!!v?.denied && v.name === want.name && want.message.test(v.message) && r.doneCount === 1 && (extra ? extra(r) : true),
    `denied: ${name} (${want.name})`, short(r));
}
/** An import: refused by the supervisor's code check, with its line and column, before any sandbox runs it. */
async function importDenied(name: string, code: string, line = 1, column?: number) {
  const r = await exec(code);
  const m = /^line (\d+), column (\d+): import is not available in code mode; call tools with amcp\.run$/.exec(r.done?.error?.message ?? "");
  check(r.done?.status === "error" && r.done.error?.name === "CodeCheckError" && !!m && Number(m[1]) === line && (column === undefined || Number(m[2]) === column) &&
    r.done.stats?.wallMs === 0 && r.frames.length === 1,
    `denied: ${name} (CodeCheckError at line ${line}${column ? `, column ${column}` : ""})`, short(r));
}
async function nextRunFine(after: string) {
  const r = await exec("return 6 * 7");
  check(r.done?.status === "ok" && r.done.value === 42, `next run fine after ${after}`, short(r));
}
/** A resource abuse: ends within timeout + 1 s with one of the expected statuses, and the next run is fine. */
async function resource(name: string, code: string, statuses: string[], limits: Record<string, number>, extra?: (r: RunResult) => boolean) {
  const t0 = performance.now();
  const r = await exec(code, { limits });
  const ms = performance.now() - t0;
  const timeout = limits.timeoutMs ?? 5000;
  check(
    !!r.done && statuses.includes(r.done.status) && ms <= timeout + 1000 && r.doneCount === 1 && (extra ? extra(r) : true),
    `resource: ${name} -> ${statuses.join("|")} in ${Math.round(ms)} ms (limit ${timeout + 1000})`,
    short(r),
  );
  await nextRunFine(name);
}

function procChildren(ppid: number): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[1]) === ppid) out.push(Number(e.name));
    } catch { /* gone */ }
  }
  return out;
}
function procStat(pid: number) {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), session: Number(f[3]) };
}
function statusField(status: string, key: string) {
  return status.split("\n").find((l) => l.startsWith(key + ":"))?.split(":")[1].trim() ?? "";
}
async function health(): Promise<Any> {
  return await (await fetch(`${BASE}/healthz`)).json();
}
async function waitWarm(n: number) {
  for (let i = 0; i < 200; i++) {
    const h = await health();
    if (h.warm >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

// A raw WebSocket client (masked frames), used to replay exact upgrade requests byte for byte.
async function rawUpgrade(request: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: PORT });
  await conn.write(new TextEncoder().encode(request));
  let buf = new Uint8Array(0);
  const read = async () => {
    const b = new Uint8Array(65536);
    const n = await conn.read(b);
    if (n === null) return false;
    const m = new Uint8Array(buf.length + n);
    m.set(buf);
    m.set(b.subarray(0, n), buf.length);
    buf = m;
    return true;
  };
  const text = () => new TextDecoder().decode(buf);
  while (!text().includes("\r\n\r\n")) if (!(await read())) break;
  const head = text().split("\r\n\r\n")[0];
  buf = buf.subarray(head.length + 4);
  return {
    head,
    sendText(s: string) {
      const payload = new TextEncoder().encode(s);
      const mask = crypto.getRandomValues(new Uint8Array(4));
      const len = payload.length;
      const hdr = len < 126 ? [0x81, 0x80 | len] : len < 65536 ? [0x81, 0x80 | 126, len >> 8, len & 255] : (() => {
        throw new Error("too long");
      })();
      const frame = new Uint8Array(hdr.length + 4 + len);
      frame.set(hdr);
      frame.set(mask, hdr.length);
      for (let i = 0; i < len; i++) frame[hdr.length + 4 + i] = payload[i] ^ mask[i & 3];
      return conn.write(frame);
    },
    /** Raw bytes, as they are (for malformed frames). */
    sendRaw(bytes: Uint8Array) {
      return conn.write(bytes);
    },
    /** Frames until the runner's close frame (or EOF); a close frame carries its `code`. */
    async readFrames(): Promise<{ op: number; text: string; code?: number }[]> {
      const frames: { op: number; text: string; code?: number }[] = [];
      for (;;) {
        while (buf.length >= 2) {
          const op = buf[0] & 15;
          let len = buf[1] & 127;
          let off = 2;
          if (len === 126) {
            if (buf.length < 4) break;
            len = (buf[2] << 8) | buf[3];
            off = 4;
          } else if (len === 127) {
            if (buf.length < 10) break;
            len = Number(new DataView(buf.buffer, buf.byteOffset + 2, 8).getBigUint64(0));
            off = 10;
          }
          if (buf.length < off + len) break;
          const payload = buf.subarray(off, off + len);
          const f: { op: number; text: string; code?: number } = { op, text: new TextDecoder().decode(op === 8 ? payload.subarray(2) : payload) };
          if (op === 8 && len >= 2) f.code = (payload[0] << 8) | payload[1];
          frames.push(f);
          buf = buf.subarray(off + len);
          if (op === 8) {
            conn.close();
            return frames;
          }
        }
        if (!(await read())) return frames;
      }
    },
    /** Ends the client's side (TCP FIN): the runner must finish reading whatever it got and close. */
    async closeWrite() {
      try {
        await conn.closeWrite();
      } catch { /* closed */ }
    },
    close() {
      try {
        conn.close();
      } catch { /* closed */ }
    },
  };
}

// ---------------------------------------------------------------------------------------------------
const sections: [string, () => Promise<void>][] = [];
const section = (name: string, fn: () => Promise<void>) => sections.push([name, fn]);

section("denied operations", async () => {
  await Promise.all([
    denied("fetch", `return (await fetch("http://127.0.0.1:${PORT}/healthz")).status`, NOT_CAPABLE),
    denied("WebSocket", `const ws = new WebSocket("ws://127.0.0.1:${PORT}/v1/run"); await new Promise((res, rej) => { ws.onopen = res; ws.onerror = () => rej(new Error("error event")); });`, NOT_CAPABLE),
    denied("Deno.connect", `return await Deno.connect({ hostname: "127.0.0.1", port: ${PORT} })`, NOT_CAPABLE),
    denied("DNS (Deno.resolveDns)", `return await Deno.resolveDns("localhost", "A")`, NOT_CAPABLE),
    denied("read /etc/passwd", `return Deno.readTextFileSync("/etc/passwd")`, NOT_CAPABLE, (r) => !JSON.stringify(r.done).includes("root:x:0")),
    denied("read /proc/self/environ", `return Deno.readTextFileSync("/proc/self/environ")`, NOT_CAPABLE),
    denied("read /proc/self/mem", `return Deno.readFileSync("/proc/self/mem").length`, NOT_CAPABLE),
    denied("read /proc/1/environ", `return Deno.readTextFileSync("/proc/1/environ")`, NOT_CAPABLE),
    denied("file write", `Deno.writeTextFileSync("/tmp/amcp-escape-" + Math.random(), "x"); return "written"`, NOT_CAPABLE),
    denied("Deno.env", `return JSON.stringify(Deno.env.toObject())`, NOT_CAPABLE),
    denied("process.env", `return JSON.stringify(Object.keys(process.env))`, NOT_CAPABLE),
    denied("Deno.Command", `return new Deno.Command("/usr/bin/id").outputSync().stdout.length`, NOT_CAPABLE),
    denied("node:child_process (process.getBuiltinModule)", `return process.getBuiltinModule("node:child_process").execSync("id").toString()`, LOCKED),
    denied("FFI (Deno.dlopen)", `return Deno.dlopen("libc.so.6", { getpid: { parameters: [], result: "i32" } }).symbols.getpid()`, NOT_CAPABLE),
    denied("node:fs via process.getBuiltinModule", `return process.getBuiltinModule("node:fs").readFileSync("/etc/passwd", "utf8")`, LOCKED),
    denied("node:vm via process.getBuiltinModule", `return process.getBuiltinModule("node:vm").runInThisContext("1")`, LOCKED),
    denied("Deno.permissions.request", `const s = await Deno.permissions.request({ name: "read" }); if (s.state !== "granted") throw new Error("state " + s.state); return s.state`, { name: "Error", message: /^state denied$/ }),
    denied("Deno.openKv (an unstable API, absent)", `const kv = await Deno.openKv(); return String(kv)`, { name: "TypeError", message: /^Deno\.openKv is not a function$/ }),
    denied("caches", `const c = await caches.open("x"); await c.put("http://x/", new Response("hi")); return "stored"`, LOCKED),
    denied("new Function", `return new Function("return 1")()`, NO_CODEGEN),
    denied("eval", `return eval("1 + 1")`, NO_CODEGEN),
    denied("Deno[Deno.internal].core.evalContext (not in the harness's view)", `return Deno[Deno.internal].core.evalContext("1")[0]`, { name: "TypeError", message: /^Deno\[Deno\.internal\]\.core\.evalContext is not a function$/ }),
    denied("raw ops (core.ops.op_node_process_kill)", `return Deno[Deno.internal].core.ops.op_node_process_kill(1, 0)`, LOCKED),
    denied("Worker escalating permissions", `const w = new Worker("data:text/javascript,postMessage(Deno.readTextFileSync('/etc/passwd'))", { type: "module", deno: { permissions: { read: true } } }); return await new Promise((res, rej) => { w.onmessage = (e) => res(e.data); w.onerror = (e) => { e.preventDefault(); rej(new Error(e.message)); }; })`, LOCKED),
    denied("blob: URL creation", `return URL.createObjectURL(new Blob(["export default 1"], { type: "text/javascript" }))`, LOCKED),
    denied("setTimeout with a string", `globalThis.__x = 0; setTimeout("globalThis.__x = 1", 0); await new Promise((r) => setTimeout(r, 20)); if (globalThis.__x !== 1) throw new Error("not evaluated"); return "evaluated"`, { name: "TypeError", message: /"callback" argument must be of type function/ }),
  ]);
  await Promise.all([
    importDenied("import of node:fs", `const fs = await import("node:fs"); return fs.readFileSync("/etc/passwd", "utf8")`, 1, 18),
    importDenied("await import of node:fs on line 3", `const a = 1;\n// import in a comment is fine\n  return await import("node:fs")`, 3, 16),
    importDenied("import.meta", `return import.meta.url`, 1, 8),
    importDenied("import declaration", `import fs from "node:fs";\nreturn fs`, 1, 1),
    importDenied("import after closing the wrapper", `}); import("data:text/javascript,export default 1"); (async function () {`, 1, 5),
    importDenied("import of file:", `return await import("file:///etc/passwd")`),
    importDenied("import of a relative path", `return await import("./harness.js")`),
    importDenied("import of data:", `return (await import("data:text/javascript,export default 1")).default`),
    importDenied("import of blob:", `return await import(URL.createObjectURL(new Blob(["export default 1"])))`),
    importDenied("import of npm:", `return await import("npm:left-pad")`),
    importDenied("import of jsr:", `return await import("jsr:@std/path")`),
    importDenied("import of https:", `return await import("https://example.com/x.js")`),
    importDenied("import with {type:'text'}", `return (await import("file:///etc/passwd", { with: { type: "text" } })).default`),
    importDenied("import with {type:'json'}", `return (await import("data:application/json,{}", { with: { type: "json" } })).default`),
  ]);
  // Built from strings, the import never compiles: eval and new Function are off in the sandbox.
  const viaFn = await exec(attempt(`return await new Function("return imp" + "ort('data:text/javascript,export default 7')")()`));
  check(viaFn.done?.status === "ok" && viaFn.done.value.denied && viaFn.done.value.name === "EvalError", "denied: import built by new Function", short(viaFn));
  const viaEval = await exec(attempt(`return await (0, eval)("imp" + "ort('data:text/javascript,export default 8')")`));
  check(viaEval.done?.status === "ok" && viaEval.done.value.denied && viaEval.done.value.name === "EvalError", "denied: import built by eval", short(viaEval));
  // localStorage: neither usable nor able to carry anything from one run to the next.
  const ls1 = await exec(attempt(`localStorage.setItem("amcp", "secret-from-run-1"); return localStorage.getItem("amcp")`));
  const ls2 = await exec(attempt(`return localStorage.getItem("amcp")`));
  check(
    !(ls1.done?.value?.escaped) && !(ls2.done?.value?.escaped && ls2.done.value.v === "secret-from-run-1"),
    "denied: localStorage, and nothing persists across runs",
    [short(ls1), short(ls2)],
  );
  const g1 = await exec(`globalThis.__leak = "run-1"; return 1`);
  const g2 = await exec(`return typeof globalThis.__leak`);
  check(g1.done?.status === "ok" && g2.done?.value === "undefined", "no global state survives from one run to the next", short(g2));
});

section("second wall: the import map and the flags without the harness", async () => {
  // Spawn Deno with the sandbox's own flags and import map on a probe module, with no harness and no code
  // check in front, to show what the module loader itself refuses, and (with a map that lists nothing) what
  // the flags alone would let through.
  const dir = await Deno.makeTempDir({ prefix: "amcp-probe-" });
  await Deno.chmod(dir, 0o755);
  const map = JSON.parse(await Deno.readTextFile(`${RUNNER_DIR}/sandbox/import_map.json`));
  map.imports = { "./probe.js": "./probe.js", ...map.imports };
  delete map.imports["./harness.js"];
  await Deno.writeTextFile(`${dir}/import_map.json`, JSON.stringify(map));
  await Deno.writeTextFile(`${dir}/bare_map.json`, JSON.stringify({ imports: { "./probe.js": "./probe.js" } }));
  await Deno.writeTextFile(`${dir}/sibling.js`, "export default 'sibling'");
  const probe = `
    const out = {};
    const blob = URL.createObjectURL(new Blob(["export default 2"], { type: "text/javascript" }));
    for (const [k, s, o] of [["file", "file:///etc/passwd", { with: { type: "text" } }], ["relative", "./sibling.js"],
        ["https", "https://example.com/x.js"], ["npm", "npm:left-pad"], ["jsr", "jsr:@std/path"], ["node:fs", "node:fs"],
        ["data", "data:text/javascript,export default 1"], ["blob", blob]]) {
      try { await import(s, o); out[k] = "LOADED"; } catch (e) { out[k] = "blocked: " + String(e.message).slice(0, 80); }
    }
    // Every Node builtin of this Deno (the list comes from process.getBuiltinModule, not from the loader).
    out.builtins = {};
    for (const b of process.getBuiltinModule("node:module").builtinModules) {
      const s = b.startsWith("node:") ? b : "node:" + b;
      try { await import(s); out.builtins[s] = "LOADED"; } catch { out.builtins[s] = "blocked"; }
    }
    try { Deno.readTextFileSync("/etc/passwd"); out.read = "READ"; } catch (e) { out.read = e.name; }
    console.log(JSON.stringify(out));`;
  await Deno.writeTextFile(`${dir}/probe.js`, probe);
  const probeWith = async (mapFile: string) => {
    const flags = denoSandboxFlags(`${dir}/${mapFile}`, 128);
    const p = await new Deno.Command(Deno.execPath(), { args: [...flags, `${dir}/probe.js`], clearEnv: true, cwd: "/", stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder().decode(p.stdout).trim();
    try {
      return { out: JSON.parse(text) as Any, text };
    } catch {
      return { out: {} as Any, text: text || new TextDecoder().decode(p.stderr) };
    }
  };
  const { out, text } = await probeWith("import_map.json");
  for (const k of ["file", "relative", "https", "npm", "jsr"]) {
    check(typeof out[k] === "string" && out[k].startsWith("blocked"), `import map/flags block ${k} imports`, text);
  }
  const builtins = Object.entries(out.builtins ?? {});
  const loaded = builtins.filter(([, v]) => v !== "blocked").map(([k]) => k);
  check(builtins.length >= 60 && loaded.length === 0, `import map blocks every node: builtin of this Deno (${builtins.length}, each an exact entry)`, loaded.length ? loaded : text);
  // What a map cannot stop: a data: or blob: URL is its own content, matched by no key. These load with
  // the map and the flags in place; the supervisor's code check (no import at all) is their only wall.
  check(out.data === "LOADED" && out.blob === "LOADED", "import map cannot stop data: or blob: imports (documented; the code check refuses every import)", text);
  check(out.read === "NotCapable", "--deny-read denies reads", text);
  // And without the map's node: entries, the flags alone would load node:fs: the map is that wall.
  const bare = await probeWith("bare_map.json");
  check(bare.out["node:fs"] === "LOADED" && bare.out.data === "LOADED", "without the map, the flags alone let node:fs load: for node: the map is the wall", bare.text);
  await Deno.remove(dir, { recursive: true });
});

section("process facts (from /proc, outside the sandbox)", async () => {
  await waitWarm(1);
  const kids = procChildren(SUP_PID);
  check(kids.length > 0, "the supervisor has warm sandbox children", kids);
  const h = await health();
  for (const pid of kids.slice(0, 2)) {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0");
    const environ = Deno.readTextFileSync(`/proc/${pid}/environ`);
    check(statusField(status, "NoNewPrivs") === "1", `child ${pid}: NoNewPrivs: 1`, statusField(status, "NoNewPrivs"));
    if (IS_ROOT) {
      rootChecksRan.uidDrop++;
      const uids = statusField(status, "Uid").split(/\s+/);
      const gids = statusField(status, "Gid").split(/\s+/);
      check(uids.every((u) => u === "65534") && gids.every((g) => g === "65534"), `child ${pid}: unprivileged uid/gid 65534 (real, effective, saved, fs)`, [uids, gids]);
      check(statusField(status, "Groups") === "", `child ${pid}: supplementary groups cleared`, statusField(status, "Groups"));
      check(statusField(status, "CapEff") === "0000000000000000" && statusField(status, "CapPrm") === "0000000000000000", `child ${pid}: no capabilities`, statusField(status, "CapEff"));
      check(h.isolation === "uid-drop", "healthz reports isolation uid-drop (supervisor is root)", h);
    } else {
      check(h.isolation === "same-uid", "healthz reports isolation same-uid (supervisor is not root)", h);
    }
    check(environ === "", `child ${pid}: empty environment (no DENO_*, no token)`, environ.split("\0").map((v) => v.split("=")[0]));
    const flagsWanted = ["--deny-read", "--deny-write", "--deny-net", "--deny-env", "--deny-sys", "--deny-run", "--deny-ffi", "--deny-import", "--no-remote", "--no-npm", "--cached-only", "--no-prompt", "--no-config", "--no-lock"];
    check(flagsWanted.every((f) => cmdline.includes(f)) && cmdline.some((a) => a.startsWith("--import-map=")) && cmdline.some((a) => a.includes("--max-old-space-size=")), `child ${pid}: every deny flag, --import-map and --max-old-space-size on the command line`, cmdline);
    check(!cmdline.join(" ").includes(TOKEN), `child ${pid}: no token in the arguments`, "");
    const st = procStat(pid);
    check(st.pgrp === pid && st.session === pid, `child ${pid}: leads its own process group (killed as a group)`, st);
  }
  // Inside: what a run can see of its own process.
  const inside = await exec(`return { args: Deno.args, envKeys: (() => { try { return Object.keys(Deno.env.toObject()) } catch (e) { return e.name } })(), pid: Deno.pid }`);
  check(inside.done?.status === "ok" && inside.done.value.args.length === 0 && inside.done.value.envKeys === "NotCapable", "inside: no arguments, environment not readable", short(inside));
  // What arrives on the child's stdin: the code reads the raw bytes of its own bridge_result.
  const stdin = await exec(
    `const p = amcp.run("echo", { x: 1 }); const buf = new Uint8Array(65536); const n = Deno.stdin.readSync(buf); return new TextDecoder().decode(buf.subarray(0, n))`,
    { onBridge: () => ({ ok: true, value: "marker-1234" }) },
  );
  check(stdin.done?.status === "ok" && String(stdin.done.value).includes("marker-1234") && !String(stdin.done.value).includes(TOKEN), "stdin carries protocol frames only, never the token", short(stdin));
});

section("resources", async () => {
  await Promise.all([
    resource("while(true){}", `while (true) {}`, ["timeout"], { timeoutMs: 1000 }),
    resource("await loop", `while (true) await null;`, ["timeout"], { timeoutMs: 1000 }),
    resource("never-settling promise", `await new Promise(() => {}); return 1`, ["timeout"], { timeoutMs: 1000 }),
    resource("memory bomb (string growth)", `const a = []; while (true) a.push("x".repeat(1e6) + Math.random());`, ["memory"], { timeoutMs: 4000, memoryMb: 64 }),
  ]);
  await Promise.all([
    resource("memory bomb (ArrayBuffers)", `const a = []; while (true) a.push(new Uint8Array(16e6).fill(1));`, ["memory"], { timeoutMs: 4000, memoryMb: 64 }),
    resource("memory bomb (one huge string doubling)", `let s = "xxxxxxxx"; const keep = []; while (true) { s = s + s; keep.push(s.slice(1)); }`, ["memory", "error"], { timeoutMs: 4000, memoryMb: 64 }),
    resource(
      "console flood (bounded, truncated with a marker; the run succeeds)",
      `for (let i = 0; i < 200000; i++) console.log("flood line " + i); return "survived"`,
      ["ok"],
      { timeoutMs: 5000, maxOutputBytes: 10000 },
      (r) => r.done.value === "survived" && r.done.truncated?.console === true && r.consoles.reduce((n, c) => n + new TextEncoder().encode(c.text).length, 0) <= 10000 &&
        r.consoles.at(-1)?.truncated === true && r.consoles.filter((c) => c.truncated).length === 1,
    ),
    resource("console flood (endless)", `while (true) console.log("x".repeat(100));`, ["timeout"], { timeoutMs: 1000, maxOutputBytes: 10000 }),
  ]);
  await Promise.all([
    resource("100 MB result", `return "x".repeat(100 * 1024 * 1024)`, ["error"], { timeoutMs: 5000, memoryMb: 256 }, (r) => r.done.error?.name === "OutputLimitError" && r.done.truncated?.result === true),
    resource("result with a cycle", `const a = { b: 1 }; a.self = a; return a`, ["error"], { timeoutMs: 2000 }, (r) => r.done.error?.name === "TypeError"),
    resource("BigInt result", `return { n: 10n }`, ["error"], { timeoutMs: 2000 }, (r) => r.done.error?.name === "TypeError"),
    resource("throwing toJSON", `return { toJSON() { throw new RangeError("no json for you") } }`, ["error"], { timeoutMs: 2000 }, (r) => r.done.error?.message === "no json for you"),
  ]);
  await Promise.all([
    resource("a million timers", `for (let i = 0; i < 1e6; i++) setTimeout(() => {}, 1e7); return "scheduled"`, ["ok", "timeout", "memory"], { timeoutMs: 1500, memoryMb: 64 }),
    resource("regex blow-up", `return /^(a+)+$/.test("a".repeat(40) + "b")`, ["timeout"], { timeoutMs: 1000 }),
    resource("deep recursion", `const f = (n) => f(n + 1) + 1; return f(0)`, ["error"], { timeoutMs: 2000 }, (r) => r.done.error?.name === "RangeError"),
    resource("Deno.exit from user code", `Deno.exit(0)`, ["error"], { timeoutMs: 2000 }, (r) => r.done.error?.name === "SandboxExit"),
  ]);
  // No zombies and no orphans: every process of the sandbox uid is a live child of the supervisor.
  await new Promise((r) => setTimeout(r, 800));
  const kids = procChildren(SUP_PID);
  const zombies = kids.filter((p) => {
    try {
      return procStat(p).state === "Z";
    } catch {
      return false;
    }
  });
  check(zombies.length === 0, "no zombie children after the resource runs", zombies);
  const h = await health();
  check(kids.length <= h.warm + h.starting + h.busy, "no stray children: only warm/starting/busy sandboxes remain", { kids: kids.length, h });
  // Orphans: sandbox processes of *this* runner (same harness path; another runner may share the
  // machine) whose parent is not the supervisor.
  {
    const harness = kids.length ? Deno.readTextFileSync(`/proc/${kids[0]}/cmdline`).split("\0").filter(Boolean).pop() ?? "" : "";
    const orphans: number[] = [];
    for (const e of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      try {
        const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).split("\0");
        if (harness && cmd.includes(harness) && procStat(Number(e.name)).ppid !== SUP_PID) orphans.push(Number(e.name));
      } catch { /* gone */ }
    }
    check(harness.endsWith("harness.js") && orphans.length === 0, "no orphaned sandbox processes outside the supervisor", { harness, orphans });
  }
});

section("protocol abuse from inside the sandbox", async () => {
  if (LOG_FILE) {
    // The run's error text goes into the supervisor's log line; a newline in it must not start a new line.
    const marker = crypto.randomUUID();
    const forged = await exec(`throw new Error("first\\n2026-01-01T00:00:00.000Z [code-runner] FORGED ${marker}\\rCR\\u2028LS")`);
    await new Promise((r) => setTimeout(r, 200));
    const lines = (await Deno.readTextFile(LOG_FILE)).split(/\r\n|\n|\r|\u2028/);
    const mine = lines.filter((l) => l.includes(marker));
    check(forged.done?.status === "error" && mine.length === 1 && mine[0].includes(`first\\n2026-01-01T00:00:00.000Z [code-runner] FORGED ${marker}\\rCR\\u2028LS`),
      "a sandbox's error text with line breaks stays on one escaped log line", mine);
  }
  const w = (s: string) => `Deno.stdout.writeSync(new TextEncoder().encode(${JSON.stringify(s)} + "\\n"));`;
  const forgedResult = await exec(`${w('{"type":"result","ok":true,"value":"forged"}')} await new Promise(() => {})`);
  check(forgedResult.done?.status === "ok" && forgedResult.done.value === "forged" && forgedResult.doneCount === 1 && forgedResult.done.stats.bridgeCalls === 0,
    "a forged result frame is only what `return` could do (supervisor computes status and stats)", short(forgedResult));
  const forgedDone = await exec(`${w('{"type":"done","status":"ok","value":"pwned","stats":{"wallMs":0,"bridgeCalls":0,"outputBytes":0}}')} return 1`);
  check(forgedDone.done?.status === "error" && forgedDone.done.error?.name === "SandboxProtocolError" && forgedDone.doneCount === 1 && !forgedDone.frames.some((f) => f.value === "pwned"),
    "a forged done frame never reaches the gateway", short(forgedDone));
  const garbage = await exec(`Deno.stdout.writeSync(new TextEncoder().encode("hello, not json\\n")); return 1`);
  check(garbage.done?.status === "error" && garbage.done.error?.name === "SandboxProtocolError", "garbage on stdout ends the run as an error", short(garbage));
  const bigLine = await exec(`Deno.stdout.writeSync(new TextEncoder().encode("x".repeat(${MAX_FRAME + MAX_OUTPUT + 70000}))); await new Promise(() => {})`, { limits: { timeoutMs: 5000 } });
  check(bigLine.done?.status === "error" && bigLine.done.error?.name === "SandboxProtocolError", "an unterminated oversize frame from the sandbox is cut off", short(bigLine));
  let seen = 0;
  const forgedBridges = await exec(
    `for (let i = 1; i <= 50; i++) Deno.stdout.writeSync(new TextEncoder().encode('{"type":"bridge","id":' + (1000 + i) + ',"op":"run","args":{"name":"t"}}\\n')); await new Promise((r) => setTimeout(r, 300)); return 1`,
    { limits: { maxBridgeCalls: 3 }, onBridge: () => {
      seen++;
      return { ok: true, value: 1 };
    } },
  );
  check(forgedBridges.done?.status === "ok" && forgedBridges.bridges.length === 3 && seen === 3 && forgedBridges.done.stats.bridgeCalls === 3,
    "50 forged bridge frames: only maxBridgeCalls (3) reach the gateway", { bridges: forgedBridges.bridges.length, d: short(forgedBridges) });
  const dupId = await exec(`${w('{"type":"bridge","id":5,"op":"run","args":{}}')}${w('{"type":"bridge","id":5,"op":"run","args":{}}')} await new Promise(() => {})`, { onBridge: () => undefined, limits: { timeoutMs: 3000 } });
  check(dupId.done?.status === "error" && dupId.done.error?.name === "SandboxProtocolError" && dupId.bridges.length === 1, "a reused bridge id is refused", short(dupId));
  const badOp = await exec(`${w('{"type":"bridge","id":1,"op":"exec","args":{"cmd":"id"}}')} await new Promise(() => {})`, { limits: { timeoutMs: 3000 } });
  check(badOp.done?.status === "error" && badOp.bridges.length === 0, "a bridge op other than search/describe/run is refused", short(badOp));
  const forgedConsole = await exec(`for (let i = 0; i < 100; i++) ${w(`{"type":"console","level":"log","text":"${"y".repeat(1000)}"}`)} return 1`, { limits: { maxOutputBytes: 5000 } });
  check(forgedConsole.done?.status === "ok" && forgedConsole.consoles.reduce((n, c) => n + c.text.length, 0) <= 5000 && forgedConsole.done.truncated?.console === true,
    "forged console frames are still capped by maxOutputBytes", short(forgedConsole));
  const patched = await exec(`JSON.stringify = () => '{"type":"result","ok":true,"value":"patched"}'; TextEncoder.prototype.encode = () => new Uint8Array([120]); Promise.prototype.then = function () { throw new Error("patched then"); }; Object.prototype.toJSON = undefined; return { a: [1, 2, 3], s: "ok" }`);
  check(patched.done?.status === "ok" && JSON.stringify(patched.done.value) === '{"a":[1,2,3],"s":"ok"}', "patched JSON.stringify, TextEncoder and Promise.prototype.then do not corrupt the result", short(patched));
  const patchedBridge = await exec(`JSON.stringify = () => "{}"; JSON.parse = () => ({}); return await amcp.run("t", { q: 1 })`, { onBridge: (b) => ({ ok: true, value: b.args }) });
  check(patchedBridge.done?.status === "ok" && patchedBridge.done.value?.name === "t" && patchedBridge.done.value?.args?.q === 1, "patched JSON does not corrupt bridge frames", short(patchedBridge));
  const budget = await exec(
    `const out = []; for (let i = 0; i < 6; i++) { try { out.push(await amcp.run("t", { i })) } catch (e) { out.push(e.name + ":" + e.code) } } return out`,
    { limits: { maxBridgeCalls: 4 }, onBridge: () => ({ ok: true, value: "v" }) },
  );
  check(budget.done?.status === "ok" && budget.bridges.length === 4 && budget.done.stats.bridgeCalls === 4 && JSON.stringify(budget.done.value) === '["v","v","v","v","AmcpError:LIMIT","AmcpError:LIMIT"]',
    "the bridge call budget holds (4 forwarded, then AmcpError LIMIT)", short(budget));
});

section("code check (the supervisor parses the code with acorn)", async () => {
  // The word import where it is not an import: a tool name, a comment, a property.
  const word = await exec(`const name = "bulk-import"; // import\nconst x = { import: 1 }; return name + x.import`);
  check(word.done?.status === "ok" && word.done.value === "bulk-import1", "the word import in a string, a comment and a property name runs fine", short(word));
  const comment = await exec(`// import\nreturn 1`);
  check(comment.done?.status === "ok" && comment.done.value === 1, "a `// import` comment runs fine", short(comment));
  const syntax = await exec(`const a = 1;\nreturn (`);
  check(syntax.done?.status === "error" && syntax.done.error?.name === "CodeCheckError" && syntax.done.error.message === "line 2, column 9: Unexpected token" && syntax.done.stats?.wallMs === 0,
    "a syntax error -> CodeCheckError with line and column, nothing run", short(syntax));

  // The check frame: one check_result, a normal close, no sandbox.
  const checkFrame = async (code: unknown) => {
    const r = await run({ url: URL_RUN, token: TOKEN, raw: (ws) => ws.send(JSON.stringify({ type: "check", code })), timeoutMs: 10_000 });
    return { r, result: r.frames.length === 1 && r.frames[0].type === "check_result" && r.closeCode === 1000 ? r.frames[0] : null };
  };
  const runsBefore = (await health()).runs;
  const fine = await checkFrame(`const name = "bulk-import";\nreturn await amcp.run(name, {})`);
  check(JSON.stringify(fine.result) === '{"type":"check_result","problems":[],"calls":[],"computed":[{"line":2,"column":23,"reason":"the tool name passed to amcp.run is computed"}]}',
    "check frame: fine code -> check_result with no problems (its computed name listed), close 1000", fine.r.frames);
  const imp = await checkFrame(`const a = 1;\nconst fs = await import("node:fs");\nreturn import.meta`);
  check(JSON.stringify(imp.result?.problems) === JSON.stringify([
    { line: 2, column: 18, message: "import is not available in code mode; call tools with amcp.run" },
    { line: 3, column: 8, message: "import is not available in code mode; call tools with amcp.run" },
  ]), "check frame: every import with its line and column", imp.r.frames);
  const bad = await checkFrame(`if (x) {\n  return 1;\n`);
  check(bad.result?.problems?.length === 1 && bad.result.problems[0].line === 3 && bad.result.problems[0].column === 1 && /Unexpected token/.test(bad.result.problems[0].message),
    "check frame: a syntax error with its line and column", bad.r.frames);
  const huge = await checkFrame("// " + "x".repeat(600 * 1024));
  check(huge.result?.problems?.length === 1 && /exceeds the runner's maximum of \d+ bytes/.test(huge.result.problems[0].message), "check frame: code over the size limit -> one problem saying so", huge.r.frames);
  const notString = await checkFrame(42);
  check(notString.result === null && notString.r.done?.status === "protocol_error" && notString.r.doneCount === 1, "check frame without string code -> protocol_error", notString.r.frames);
  check((await health()).runs === runsBefore, "check frames use no sandbox", { runsBefore, after: (await health()).runs });
  const late = await run({ url: URL_RUN, token: TOKEN, start: { code: "await new Promise((r) => setTimeout(r, 200)); return 1" }, afterStart: (ws) => ws.send(JSON.stringify({ type: "check", code: "1" })) });
  check(late.done?.status === "protocol_error" && !late.frames.some((f) => f.type === "check_result"), "a check frame after start -> protocol_error", short(late));
});

section("code analysis (tool names read from the code) and progress", async () => {
  const analyze = async (code: string) => {
    const r = await run({ url: URL_RUN, token: TOKEN, raw: (ws) => ws.send(JSON.stringify({ type: "check", code })), timeoutMs: 10_000 });
    return r.frames.length === 1 && r.frames[0].type === "check_result" ? r.frames[0] : { frames: r.frames };
  };
  const literal = await analyze(`// amcp.run("in_a_comment")\nconst c = await amcp.run("customer_get", { id: 1 });\nconst s = "amcp.run('in_a_string')";\nawait amcp.describe(\`orders_list\`);\nreturn amcp?.run('bulk-import')`);
  check(JSON.stringify(literal.calls) === JSON.stringify([
    { name: "customer_get", op: "run", line: 2, column: 26 },
    { name: "orders_list", op: "describe", line: 4, column: 21 },
    { name: "bulk-import", op: "run", line: 5, column: 18 },
  ]) && literal.computed?.length === 0 && literal.problems?.length === 0,
    "analysis: literal names of amcp.run / amcp.describe with line and column; none from comments or strings", literal);
  const computedCases: [string, number, RegExp][] = [
    ["const n = 'x';\nreturn amcp.run(n)", 2, /tool name passed to amcp.run is computed/],
    ["return amcp.run(`x${1}`)", 1, /computed/],
    ["const f = amcp.run;\nreturn f('x')", 1, /amcp.run is used other than by a direct call/],
    ["return amcp['run']('x')", 1, /amcp\[...\] is computed/],
    ["const g = (a) => a.run('x');\n\nreturn g(amcp)", 3, /amcp is used as a value/],
    ["return arguments[0].run('x')", 1, /arguments is used as a value/],
  ];
  for (const [code, line, reason] of computedCases) {
    const a = await analyze(code);
    check(a.calls?.length === 0 && a.computed?.length === 1 && a.computed[0].line === line && reason.test(a.computed[0].reason),
      `analysis: computed name at line ${line}: ${JSON.stringify(code).slice(0, 60)}`, a);
  }
  const keys = await analyze(`const o = { amcp: 1, arguments: 2 }; o.amcp; o.arguments;\nreturn amcp.search("q")`);
  check(keys.calls?.length === 0 && keys.computed?.length === 0, "analysis: amcp as a property name or key, and amcp.search, are no computed names", keys);
  const broken = await analyze(`amcp.run("x"`);
  check(broken.problems?.length === 1 && broken.calls?.length === 0, "analysis: code with a syntax error reads no names", broken);

  // amcp.progress: frames in order between the bridge frames, checked and capped by the supervisor.
  const p = await exec(`await amcp.run("a"); amcp.progress(1, 3, "one"); await amcp.run("b"); amcp.progress(2); return 1`,
    { onBridge: () => ({ ok: true, value: 1 }) });
  const order = p.frames.map((f: Any) => f.type === "progress" ? `p${f.done}/${f.total ?? ""}/${f.message ?? ""}` : f.type).join(",");
  check(p.done?.status === "ok" && order === "bridge,p1/3/one,bridge,p2//,done", "progress: amcp.progress frames arrive in order with the bridge frames", order);
  const many = await exec(`for (let i = 0; i < 500; i++) amcp.progress(i, 500, "x".repeat(1000)); return 1`);
  const progress = many.frames.filter((f: Any) => f.type === "progress");
  check(many.done?.status === "ok" && progress.length === 100 && progress.every((f: Any) => f.message.length === 200),
    "progress: at most 100 frames per run, messages cut to 200 characters", { n: progress.length, len: progress[0]?.message?.length });
  const bad = await exec(`const out = []; for (const args of [[-1], [NaN], ["1"], [1, 0], [1, Infinity]]) { try { amcp.progress(...args); out.push("sent") } catch (e) { out.push(e.name) } } return out`);
  check(bad.done?.status === "ok" && bad.done.value.every((v: string) => v === "TypeError") && !bad.frames.some((f: Any) => f.type === "progress"),
    "progress: a bad done or total throws TypeError in the code and sends nothing", short(bad));
  const flood = await exec(`const line = JSON.stringify({ type: "progress", done: 1, message: "y".repeat(5000) }) + "\\n";
    for (let i = 0; i < 300; i++) Deno.stdout.writeSync(new TextEncoder().encode(line)); await new Promise((r) => setTimeout(r, 100)); return 1`);
  const forwarded = flood.frames.filter((f: Any) => f.type === "progress");
  check(flood.done?.status === "ok" && forwarded.length === 100 && forwarded.every((f: Any) => f.message.length === 200),
    "progress: the supervisor forwards at most 100 forged frames per run, messages cut to 200 characters", { n: forwarded.length });
  const forged = await exec(`Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify({ type: "progress", done: "lots" }) + "\\n")); await new Promise((r) => setTimeout(r, 100)); return 1`);
  check(forged.done?.status === "error" && forged.done.error?.name === "SandboxProtocolError" && !forged.frames.some((f: Any) => f.type === "progress"),
    "progress: a forged progress frame with a bad done ends the run (SandboxProtocolError), nothing forwarded", short(forged));
});

section("supervisor caps: one run cannot exhaust the supervisor", async () => {
  const rssMb = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(Deno.readTextFileSync(`/proc/${SUP_PID}/status`))?.[1] ?? NaN) / 1024;
  /** Runs `code` while sampling the supervisor's RSS every 25 ms: before, peak during, and 1 s after. */
  const measured = async (code: string, o: Opts) => {
    await exec("return 1"); // a warm supervisor: the baseline is its steady state
    const before = rssMb();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 25);
    const t0 = performance.now();
    const r = await exec(code, o);
    const ms = performance.now() - t0;
    clearInterval(sampler);
    await new Promise((res) => setTimeout(res, 1000));
    return { r, ms, before, peak: Math.max(peak, rssMb()), after: rssMb() };
  };
  // The attack of issue 13: spend the bridge budget, then write forged bridge frames to stdout as fast as
  // possible, never reading the refusals. Unbounded, this grew the supervisor by a gigabyte in seconds.
  const flood = await measured(
    `await amcp.run("t", {});
     const enc = new TextEncoder();
     for (let id = 1000; ; id++) Deno.stdout.writeSync(enc.encode('{"type":"bridge","id":' + id + ',"op":"run","args":{"name":"t","args":{"pad":"' + "p".repeat(200) + '"}}}\\n'));`,
    { limits: { maxBridgeCalls: 1, timeoutMs: 8000 }, onBridge: () => ({ ok: true, value: 1 }) },
  );
  const fr = flood.r.done;
  console.log(`       forged-bridge flood: supervisor RSS ${flood.before.toFixed(1)} MB before, ${flood.peak.toFixed(1)} MB peak, ${flood.after.toFixed(1)} MB after; run ended in ${Math.round(flood.ms)} ms`);
  check(fr?.status === "limit" && fr.error?.name === "LimitError" && /CODE_RUNNER_MAX_REFUSALS/.test(fr.error.message) && flood.r.doneCount === 1 && fr.stats?.bridgeCalls === 1,
    "forged bridge frames past the budget -> status limit (LimitError, refusals cap)", short(flood.r));
  check(flood.peak - flood.before < 48 && flood.ms < 3000,
    `under that flood the supervisor's RSS stays flat (${flood.before.toFixed(0)} -> peak ${flood.peak.toFixed(0)} MB, bound +48 MB) and the run ends at once`, flood);
  await nextRunFine("the forged-bridge flood");

  // A sandbox that stops reading its stdin while the gateway's answers pile up toward it.
  const big = "b".repeat(MAX_FRAME - 4096);
  const deaf = await measured(
    `for (let i = 0; i < 8; i++) amcp.run("t", { i }).catch(() => {}); while (true) {}`,
    { limits: { timeoutMs: 8000 }, onBridge: () => ({ ok: true, value: big }) },
  );
  const dr = deaf.r.done;
  console.log(`       deaf sandbox: supervisor RSS ${deaf.before.toFixed(1)} MB before, ${deaf.peak.toFixed(1)} MB peak, ${deaf.after.toFixed(1)} MB after; run ended in ${Math.round(deaf.ms)} ms`);
  check(dr?.status === "limit" && dr.error?.name === "LimitError" && /CODE_RUNNER_MAX_CHILD_QUEUE_BYTES/.test(dr.error.message) && deaf.r.doneCount === 1 && deaf.ms < 5000,
    "answers piling up toward a sandbox that does not read them -> status limit (queued-bytes cap)", short(deaf.r));
  await nextRunFine("the deaf sandbox");
});

section("CPU: a run uses at most one core", async () => {
  const ticks = (pid: number) => {
    try {
      const f = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const x = f.slice(f.lastIndexOf(")") + 2).split(" ");
      return Number(x[11]) + Number(x[12]); // utime + stime of every thread, in clock ticks (USER_HZ 100)
    } catch {
      return null;
    }
  };
  const cpusOf = (pid: number) => statusField(Deno.readTextFileSync(`/proc/${pid}/status`), "Cpus_allowed_list");
  await waitWarm(MAX_CONCURRENT);
  const kids = procChildren(SUP_PID);
  const lists = kids.map((p) => {
    try {
      return cpusOf(p);
    } catch {
      return "gone";
    }
  }).filter((l) => l !== "gone");
  const machine = statusField(Deno.readTextFileSync(`/proc/self/status`), "Cpus_allowed_list");
  const ncpu = navigator.hardwareConcurrency || 1;
  check(lists.length > 0 && lists.every((l) => /^\d+$/.test(l)), "every sandbox is bound to a single CPU (Cpus_allowed_list)", { lists, machine });
  check(new Set(lists).size >= Math.min(2, ncpu, lists.length), `sandboxes are spread over the CPUs (${[...new Set(lists)].join(",")} of ${machine})`, lists);

  /**
   * Cores one run keeps busy: CPU seconds over wall seconds in a 2.5 s window from 1 s into the run, of the
   * sandbox that burnt the most (warm ones idle at ~0) plus the supervisor, which works for every byte the
   * sandbox writes.
   */
  const coresOf = async (code: string) => {
    const before = new Map(procChildren(SUP_PID).map((p) => [p, ticks(p)]));
    const attack = exec(code, { limits: { timeoutMs: 4500, maxOutputBytes: 4096 } });
    await new Promise((r) => setTimeout(r, 1000));
    const sup0 = ticks(SUP_PID)!;
    const a = new Map(procChildren(SUP_PID).map((p) => [p, ticks(p)]));
    const t1 = performance.now();
    await new Promise((r) => setTimeout(r, 2500));
    const b = new Map(procChildren(SUP_PID).map((p) => [p, ticks(p)]));
    const supervisorTicks = ticks(SUP_PID)! - sup0;
    const wall = (performance.now() - t1) / 1000;
    let pid = 0;
    let sandboxTicks = -1;
    for (const [p, t] of b) {
      const t0 = a.get(p);
      if (t === null || t0 === null || t0 === undefined || !before.has(p)) continue;
      if (t - t0 > sandboxTicks) {
        sandboxTicks = t - t0;
        pid = p;
      }
    }
    const sandbox = sandboxTicks / 100 / wall; // USER_HZ 100
    const supervisor = supervisorTicks / 100 / wall;
    return { r: await attack, pid, sandbox, supervisor, cores: sandbox + supervisor };
  };
  const show = (what: string, c: { sandbox: number; supervisor: number; cores: number }) =>
    console.log(`       ${what}: ${c.cores.toFixed(2)} cores (sandbox ${c.sandbox.toFixed(2)}, supervisor ${c.supervisor.toFixed(2)}; machine: ${ncpu} CPUs)`);

  // 32 parallel PBKDF2 derivations at a time: WebCrypto runs them on Deno's blocking thread pool, which
  // took every core of the machine before each sandbox was bound to one CPU.
  const pbkdf2 = await coresOf(
    `const key = await crypto.subtle.importKey("raw", new Uint8Array(32), "PBKDF2", false, ["deriveBits"]);
     const salt = new Uint8Array(16);
     for (;;) await Promise.all(Array.from({ length: 32 }, () => crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: 100000 }, key, 256)));`,
  );
  show("PBKDF2 x32", pbkdf2);
  check(pbkdf2.r.done?.status === "timeout" && pbkdf2.pid > 0 && pbkdf2.sandbox > 0.1 && pbkdf2.cores <= 1.3,
    `32 parallel PBKDF2 deriveBits: ${pbkdf2.cores.toFixed(2)} cores used (bound 1.3)`, { ...pbkdf2, r: short(pbkdf2.r) });
  await nextRunFine("the PBKDF2 attack");

  // Output the supervisor must read and then drops: forged console frames past the output cap, stderr, and
  // newlines one byte per write (each write wakes the supervisor's event loop, read or not). Unshared, the
  // supervisor spent from a third to most of a core on them beside the sandbox's own.
  const floods = {
    "newlines, one byte per write": `const nl = new Uint8Array([10]); for (;;) Deno.stdout.writeSync(nl);`,
    "forged console frames past the output cap": `const frames = new TextEncoder().encode(('{"type":"console","level":"log","text":"' + "x".repeat(200) + '"}\\n').repeat(2000));
       for (;;) Deno.stdout.writeSync(frames);`,
    "a stderr flood": `const b = new Uint8Array(65536).fill(65); for (;;) Deno.stderr.writeSync(b);`,
  };
  for (const [what, code] of Object.entries(floods)) {
    const flood = await coresOf(code);
    show(what, flood);
    check(flood.r.done?.status === "timeout" && flood.cores <= 1.3 && flood.supervisor <= 0.3,
      `${what}: ${flood.cores.toFixed(2)} cores used (bound 1.3), the supervisor's part ${flood.supervisor.toFixed(2)} (bound 0.3)`, { ...flood, r: short(flood.r) });
    await nextRunFine(what);
  }
});

section("allowed", async () => {
  const compute = await exec(`const fib = (n) => n < 2 ? n : fib(n - 1) + fib(n - 2); return { fib: fib(20), sorted: [3, 1, 2].sort(), d: new Date(0).toISOString() }`);
  check(compute.done?.status === "ok" && compute.done.value.fib === 6765 && compute.done.value.d === "1970-01-01T00:00:00.000Z", "compute", short(compute));
  const con = await exec(`console.log("hello", { a: 1 }); console.warn("careful"); console.error("bad"); return null`);
  check(con.done?.status === "ok" && con.consoles.length === 3 && con.consoles[0].text === "hello { a: 1 }" && con.consoles[1].level === "warn" && con.consoles[2].level === "error" && con.done.stats.outputBytes > 0, "console frames with level and text", con.consoles);
  const ops: Any[] = [];
  const bridge = await exec(
    `const s = await amcp.search("orders", { limit: 5 }); const d = await amcp.describe("orders_list"); const r = await amcp.run("orders_list", { customerId: input.customerId }); return { s, d, r }`,
    { input: { customerId: "c-1" }, onBridge: (b) => {
      ops.push(b);
      if (b.op === "search") return { ok: true, value: [{ name: "orders_list", title: "Orders", description: "list", readOnly: true }] };
      if (b.op === "describe") return { ok: true, value: { name: b.args.name, description: "list", inputSchema: { type: "object" }, readOnly: true } };
      return { ok: true, value: [{ id: 1, customerId: b.args.args.customerId }] };
    } },
  );
  check(ops[0]?.op === "search" && ops[0].args.query === "orders" && ops[0].args.limit === 5, "amcp.search sends op search with query and limit", ops[0]);
  check(ops[1]?.op === "describe" && ops[1].args.name === "orders_list", "amcp.describe sends op describe with name", ops[1]);
  check(ops[2]?.op === "run" && ops[2].args.name === "orders_list" && ops[2].args.args.customerId === "c-1" && bridge.done?.value?.r?.[0]?.customerId === "c-1", "amcp.run sends op run with name and args, and returns the value", short(bridge));
  const toolErr = await exec(`try { await amcp.run("orders_delete", {}) } catch (e) { return { name: e.name, code: e.code, message: e.message, isError: e instanceof amcp.AmcpError } }`, {
    onBridge: () => ({ ok: false, error: { code: "FORBIDDEN", message: "read-only run" } }),
  });
  check(toolErr.done?.status === "ok" && JSON.stringify(toolErr.done.value) === '{"name":"AmcpError","code":"FORBIDDEN","message":"read-only run","isError":true}', "a bridge error surfaces as AmcpError with code and message", short(toolErr));
  const thrown = await exec(`function inner() { throw new TypeError("bad input: " + input.x) }\ninner()`, { input: { x: 7 } });
  check(thrown.done?.status === "error" && thrown.done.error.name === "TypeError" && thrown.done.error.message === "bad input: 7" && /amcp:code:1/.test(thrown.done.error.stack) && !/harness/.test(thrown.done.error.stack), "errors propagate with name, message and stack", short(thrown));
  const input = { nested: { list: [1, "two", null, true], unicode: "żółw 🐢" }, n: 1.5 };
  const echo = await exec(`return input`, { input });
  check(echo.done?.status === "ok" && JSON.stringify(echo.done.value) === JSON.stringify(input), "input is passed through unchanged", short(echo));
  const undef = await exec(`const x = 1;`);
  check(undef.done?.status === "ok" && !("value" in undef.done) && undef.closeCode === 1000, "no return value: ok without a value, socket closed normally", short(undef));
  const concurrentBridge = await exec(`return await Promise.all([amcp.run("a", {}), amcp.run("b", {}), amcp.describe("c")])`, {
    onBridge: async (b) => {
      await new Promise((r) => setTimeout(r, b.op === "describe" ? 1 : 30));
      return { ok: true, value: b.args.name };
    },
  });
  check(concurrentBridge.done?.status === "ok" && JSON.stringify(concurrentBridge.done.value) === '["a","b","c"]', "concurrent bridge calls answered out of order", short(concurrentBridge));
  const timersOk = await exec(`let ticks = 0; const iv = setInterval(() => ticks++, 5); const v = await amcp.run("slow", {}); clearInterval(iv); return { v, ticked: ticks > 0 }`, {
    onBridge: async () => {
      await new Promise((r) => setTimeout(r, 100));
      return { ok: true, value: "slow-ok" };
    },
  });
  check(timersOk.done?.status === "ok" && timersOk.done.value.v === "slow-ok" && timersOk.done.value.ticked === true, "timers keep running while a bridge call is pending", short(timersOk));
});

section("gateway protocol (v1)", async () => {
  const done1 = (r: RunResult) => r.doneCount === 1 && r.frames[r.frames.length - 1]?.type === "done" && r.closeCode === 1000;
  const second = await run({ url: URL_RUN, token: TOKEN, start: { runId: "a", code: "await new Promise((r) => setTimeout(r, 300)); return 1" }, afterStart: (ws) => ws.send(JSON.stringify({ type: "start", runId: "b", code: "return 2" })) });
  check(second.done?.status === "protocol_error" && done1(second), "second start on the same socket -> protocol_error, one done, closed", short(second));
  const unknown = await run({ url: URL_RUN, token: TOKEN, start: { code: "await new Promise((r) => setTimeout(r, 300)); return 1" }, afterStart: (ws) => ws.send(JSON.stringify({ type: "hello" })) });
  check(unknown.done?.status === "protocol_error" && done1(unknown), "unknown frame type -> protocol_error", short(unknown));
  const malformed = await run({ url: URL_RUN, token: TOKEN, raw: (ws) => ws.send("{not json") });
  check(malformed.done?.status === "protocol_error" && done1(malformed), "malformed JSON -> protocol_error", short(malformed));
  const oversize = await run({ url: URL_RUN, token: TOKEN, raw: (ws) => ws.send(JSON.stringify({ type: "start", code: "return 1", input: "x".repeat(MAX_FRAME + 10) })) });
  check(oversize.done?.status === "protocol_error" && /exceeds/.test(oversize.done.error?.message) && done1(oversize), "oversize frame -> protocol_error", short(oversize));
  const binary = await run({ url: URL_RUN, token: TOKEN, raw: (ws) => ws.send(new Uint8Array([1, 2, 3])) });
  check(binary.done?.status === "protocol_error" && done1(binary), "binary frame -> protocol_error", short(binary));
  const badId = await run({ url: URL_RUN, token: TOKEN, start: { code: "return await amcp.run('t', {})" }, onBridge: () => undefined, afterStart: (ws) => setTimeout(() => ws.send(JSON.stringify({ type: "bridge_result", id: 999, ok: true, value: 1 })), 100) });
  check(badId.done?.status === "protocol_error" && done1(badId), "bridge_result for an id never issued -> protocol_error", short(badId));
  const badStart = await run({ url: URL_RUN, token: TOKEN, raw: (ws) => ws.send(JSON.stringify({ type: "start", code: 42 })) });
  check(badStart.done?.status === "protocol_error" && done1(badStart), "start without string code -> protocol_error", short(badStart));
  const t0 = performance.now();
  const cancel = await run({ url: URL_RUN, token: TOKEN, start: { code: "while (true) {}", limits: { timeoutMs: 10000 } }, afterStart: (ws) => setTimeout(() => ws.send(JSON.stringify({ type: "cancel" })), 200) });
  check(cancel.done?.status === "cancelled" && performance.now() - t0 < 2000 && done1(cancel), "cancel ends a busy run at once with status cancelled", short(cancel));
  const ok = await exec("return 'still serving'");
  check(ok.done?.status === "ok" && ok.done.value === "still serving" && done1(ok), "after all that the supervisor keeps serving", short(ok));
  const stats = await exec(`console.log("abc"); return "xyz"`);
  check(typeof stats.done?.stats?.wallMs === "number" && stats.done.stats.bridgeCalls === 0 && stats.done.stats.outputBytes === 3 + 5, "done carries stats {wallMs, bridgeCalls, outputBytes}", stats.done?.stats);
  const lowerWins = await exec(`return "x".repeat(${MAX_OUTPUT + 1000})`, { limits: { maxOutputBytes: 1e12, memoryMb: 256 } });
  check(lowerWins.done?.status === "error" && lowerWins.done.error?.name === "OutputLimitError" && lowerWins.done.error.message.includes(String(MAX_OUTPUT)), "limits: the runner's own maximum wins over a larger request", short(lowerWins));
  const h = await health();
  check(h.status === "ok" && h.denoVersion === "2.9.6" && ["uid-drop", "same-uid"].includes(h.isolation) && typeof h.warm === "number" && typeof h.busy === "number", "GET /healthz: status, denoVersion, isolation, warm, busy", h);
  // On the pinned Deno the sandboxes' pipes go through the resource ops; a Deno upgrade that moves the
  // private symbols silently falls back to the (slower) web streams, and this says so.
  check(h.pipes === "ops", "healthz: sandbox pipes through Deno's resource ops (pinned Deno 2.9.6)", h.pipes);
});

section("authentication", async () => {
  const status = (token: string | null, path = "/v1/run") =>
    run({ url: BASE.replace(/^http/, "ws") + path, token, start: { code: "return 1" } }).then(() => 0, (e: Error) => Number(/(\d{3})/.exec(e.message)?.[1] ?? -1));
  check((await status(null)) === 401, "missing token -> 401 on the upgrade");
  check((await status("wrong-token-wrong-token")) === 401, "wrong token -> 401 on the upgrade");
  check((await status(TOKEN + "x")) === 401, "token with a suffix -> 401");
  check((await status("wrong-token", "/elsewhere")) === 401, "the token is checked before anything else (401, not 404, on an unknown path)");
  const good = await exec("return 'authorized'");
  check(good.done?.value === "authorized", "right token -> run");
});

section("Liberty's upgrade request, replayed byte for byte", async () => {
  // Open Liberty's Jakarta WebSocket client (and the JDK's java.net.http client) send Content-Length: 0
  // on the upgrade; Deno.serve answers that with 400. This is that request.
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const req = `GET /v1/run HTTP/1.1\r\n` +
    `Host: 127.0.0.1:${PORT}\r\n` +
    `Upgrade: websocket\r\n` +
    `Connection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${key}\r\n` +
    `Sec-WebSocket-Version: 13\r\n` +
    `Authorization: Bearer ${TOKEN}\r\n` +
    `Content-Length: 0\r\n` +
    `\r\n`;
  const c = await rawUpgrade(req);
  check(c.head.startsWith("HTTP/1.1 101"), "upgrade with Content-Length: 0 -> 101 Switching Protocols", c.head);
  await c.sendText(JSON.stringify({ type: "start", runId: "liberty", code: "return { hello: input.who }", input: { who: "liberty" }, limits: { timeoutMs: 3000 } }));
  const frames = await c.readFrames();
  const done = frames.filter((f) => f.op === 1).map((f) => JSON.parse(f.text)).find((m) => m.type === "done");
  check(done?.status === "ok" && done.value?.hello === "liberty" && frames[frames.length - 1]?.op === 8, "the run completes over that socket and the runner closes it", frames);
  c.close();
  const bad = await rawUpgrade(req.replace(`Bearer ${TOKEN}`, "Bearer nope"));
  check(bad.head.startsWith("HTTP/1.1 401"), "the same request with a wrong token -> 401", bad.head);
  bad.close();
});

section("WebSocket framing and HTTP parsing (the runner's own code, untrusted input)", async () => {
  // The supervisor parses request heads and RFC 6455 frames itself (src/ws.ts). Each case below is a
  // malformed or unusual input on a socket that passed the token check (or, for HTTP, before it).
  const upgradeReq = (extra = "") => `GET /v1/run HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${btoa("0123456789abcdef")}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${TOKEN}\r\n${extra}\r\n`;
  /** A client frame: masked unless `mask` is false; `len` overrides the encoded length (header only). */
  const frame = (op: number, payload: Uint8Array | string, o: { fin?: boolean; mask?: boolean; rsv?: number; len?: bigint; headerOnly?: boolean } = {}) => {
    const p = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
    const len = o.len ?? BigInt(p.length);
    const hdr: number[] = [((o.fin ?? true) ? 0x80 : 0) | ((o.rsv ?? 0) << 4) | op];
    const m = (o.mask ?? true) ? 0x80 : 0;
    if (len < 126n) hdr.push(m | Number(len));
    else if (len < 65536n) hdr.push(m | 126, Number(len >> 8n), Number(len & 255n));
    else {
      hdr.push(m | 127);
      for (let i = 7; i >= 0; i--) hdr.push(Number((len >> BigInt(8 * i)) & 255n));
    }
    const key = [0x11, 0x22, 0x33, 0x44];
    const body = o.headerOnly ? [] : Array.from(p, (b, i) => (m ? b ^ key[i & 3] : b));
    return new Uint8Array([...hdr, ...(m ? key : []), ...body]);
  };
  const startJson = (code = "return 41 + 1") => JSON.stringify({ type: "start", runId: "framing", code, limits: { timeoutMs: 3000 } });
  async function session(send: (c: Awaited<ReturnType<typeof rawUpgrade>>) => Promise<unknown> | void) {
    const c = await rawUpgrade(upgradeReq());
    if (!c.head.startsWith("HTTP/1.1 101")) return { head: c.head, frames: [], done: null, close: null };
    await send(c);
    const frames = await c.readFrames();
    c.close();
    const done = frames.filter((f) => f.op === 1).map((f) => JSON.parse(f.text)).find((m) => m.type === "done") ?? null;
    const close = frames.find((f) => f.op === 8) ?? null;
    return { head: c.head, frames, done, close };
  }
  const pe = (r: Any, code: number) => r.done?.status === "protocol_error" && r.close?.code === code;

  const unmasked = await session((c) => c.sendRaw(frame(1, startJson(), { mask: false })));
  check(pe(unmasked, 1002) && /masked/.test(unmasked.done.error.message), "unmasked client frame -> protocol_error, close 1002", unmasked.frames);
  const rsv = await session((c) => c.sendRaw(frame(1, startJson(), { rsv: 4 })));
  check(pe(rsv, 1002), "RSV1 set without an extension -> protocol_error, close 1002", rsv.frames);
  const opcode = await session((c) => c.sendRaw(frame(3, "x")));
  check(pe(opcode, 1002), "reserved opcode 3 -> protocol_error, close 1002", opcode.frames);
  const cont = await session((c) => c.sendRaw(frame(0, startJson())));
  check(pe(cont, 1002), "continuation frame with nothing to continue -> protocol_error, close 1002", cont.frames);
  const bigPing = await session((c) => c.sendRaw(frame(9, "p".repeat(126))));
  check(pe(bigPing, 1002), "control frame over 125 bytes -> protocol_error, close 1002", bigPing.frames);
  const fragCtl = await session((c) => c.sendRaw(frame(9, "p", { fin: false })));
  check(pe(fragCtl, 1002), "fragmented control frame -> protocol_error, close 1002", fragCtl.frames);
  const top = await session((c) => c.sendRaw(frame(1, "", { len: 1n << 63n, headerOnly: true })));
  check(pe(top, 1002), "64-bit length with the top bit set -> protocol_error, close 1002", top.frames);
  const utf8 = await session((c) => c.sendRaw(frame(1, new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]))));
  check(pe(utf8, 1007), "text frame that is not UTF-8 -> protocol_error, close 1007", utf8.frames);
  const badClose = await session((c) => c.sendRaw(frame(8, new Uint8Array([0x03, 0xe7])))); // code 999
  check(badClose.close?.code === 1002, "close frame with an invalid code -> close 1002", badClose.frames);

  // A length over CODE_RUNNER_MAX_FRAME_BYTES is refused on the header alone: no payload is sent here at
  // all, and the refusal still comes at once (nothing waits for, or buffers, the announced bytes).
  const t0 = performance.now();
  const huge = await session((c) => c.sendRaw(frame(1, "", { len: BigInt(MAX_FRAME) * 1000n, headerOnly: true })));
  check(huge.done?.status === "protocol_error" && /exceeds/.test(huge.done.error?.message) && huge.close?.code === 1000 && performance.now() - t0 < 2000,
    "64-bit length far over the maximum, header only -> protocol_error at once (nothing buffered)", huge.frames);
  const fragBig = await session(async (c) => {
    await c.sendRaw(frame(1, "x".repeat(60000), { fin: false }));
    for (let i = 0; i < Math.ceil(MAX_FRAME / 60000); i++) await c.sendRaw(frame(0, "x".repeat(60000), { fin: false }));
  });
  check(fragBig.done?.status === "protocol_error" && /exceeds/.test(fragBig.done.error?.message), "fragments adding up to more than the maximum -> protocol_error", fragBig.frames.slice(-2));

  // Allowed: a start split into three fragments with a ping between them (answered with the same
  // payload), 16-bit lengths, and a frame that arrives one byte per TCP write.
  const startBytes = new TextEncoder().encode(startJson("return input === null ? 'fragmented' : 'x'"));
  const a = Math.floor(startBytes.length / 3);
  const frag = await session(async (c) => {
    await c.sendRaw(frame(1, startBytes.subarray(0, a), { fin: false }));
    await c.sendRaw(frame(9, "ping-1"));
    await c.sendRaw(frame(0, startBytes.subarray(a, 2 * a), { fin: false }));
    await c.sendRaw(frame(0, startBytes.subarray(2 * a)));
  });
  check(frag.done?.status === "ok" && frag.done.value === "fragmented" && frag.frames.some((f) => f.op === 10 && f.text === "ping-1") && frag.close?.code === 1000,
    "fragmented start with a ping interleaved -> pong with the same payload, run ok", frag.frames);
  const mid = await session((c) => c.sendRaw(frame(1, JSON.stringify({ type: "start", code: `return ${JSON.stringify("y".repeat(300))}.length` }))));
  check(mid.done?.status === "ok" && mid.done.value === 300, "16-bit payload length -> run ok", mid.done);
  const trickle = await session(async (c) => {
    for (const b of frame(1, startJson())) {
      await c.sendRaw(new Uint8Array([b]));
      await new Promise((r) => setTimeout(r, 1));
    }
  });
  check(trickle.done?.status === "ok" && trickle.done.value === 42, "a frame arriving one byte per TCP segment -> run ok", trickle.done);

  // HTTP heads, before the token check (400/431) and after it.
  const httpStatus = async (req: string) => {
    const c = await rawUpgrade(req);
    c.close();
    return c.head.split("\r\n")[0];
  };
  check((await httpStatus("GARBAGE\r\n\r\n")).startsWith("HTTP/1.1 400"), "malformed request line -> 400");
  check((await httpStatus(`GET /healthz HTTP/1.1\r\nX-Big: ${"a".repeat(20000)}\r\n\r\n`)).startsWith("HTTP/1.1 431"), "request head over 16 KiB -> 431");
  check((await httpStatus(`GET /healthz HTTP/1.1\r\n folded: x\r\n\r\n`)).startsWith("HTTP/1.1 400"), "obsolete line folding in the head -> 400");
  check((await httpStatus(upgradeReq(`Authorization: Bearer ${TOKEN}\r\n`))).startsWith("HTTP/1.1 401"), "two Authorization headers on the upgrade -> 401");
  check((await httpStatus(upgradeReq("Content-Length: 5\r\n"))).startsWith("HTTP/1.1 400"), "an upgrade with a body (Content-Length: 5) -> 400");
  check((await httpStatus(upgradeReq().replace("Version: 13", "Version: 8"))).startsWith("HTTP/1.1 426"), "Sec-WebSocket-Version other than 13 -> 426");
  check((await httpStatus(upgradeReq().replace(/Sec-WebSocket-Key: \S+/, "Sec-WebSocket-Key: short"))).startsWith("HTTP/1.1 400"), "malformed Sec-WebSocket-Key -> 400");
  const h = await health();
  check(h.status === "ok", "after all that /healthz still answers", h);
});

section("WebSocket framing fuzz (seeded mutations of valid traffic)", async () => {
  // Mutations of a valid client stream (a start frame, a ping, a close): flipped bits, changed lengths and
  // opcodes, cut and spliced bytes. After each, the client ends its side; the runner must answer with frames
  // it can parse and close within a few seconds, and stay healthy. Seeded, so a failure reproduces.
  let seed = 0x5eed1234;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(rand() * n);
  const masked = (op: number, payload: Uint8Array) => {
    const hdr = payload.length < 126 ? [0x80 | op, 0x80 | payload.length] : [0x80 | op, 0x80 | 126, payload.length >> 8, payload.length & 255];
    const key = [int(256), int(256), int(256), int(256)];
    return new Uint8Array([...hdr, ...key, ...Array.from(payload, (b, i) => b ^ key[i & 3])]);
  };
  const enc = new TextEncoder();
  const valid = () => new Uint8Array([
    ...masked(1, enc.encode(JSON.stringify({ type: "start", runId: "fuzz", code: "return 1", limits: { timeoutMs: 2000 } }))),
    ...masked(9, enc.encode("p")),
    ...masked(8, new Uint8Array([0x03, 0xe8])),
  ]);
  const mutate = (b: Uint8Array) => {
    const out = Array.from(b);
    const edits = 1 + int(4);
    for (let e = 0; e < edits; e++) {
      const at = int(Math.min(out.length, e === 0 ? 12 : out.length)); // headers first: where the parser decides
      switch (int(5)) {
        case 0: out[at] ^= 1 << int(8); break; // flip a bit
        case 1: out[at] = int(256); break; // replace a byte
        case 2: out.splice(at, 1 + int(8)); break; // cut bytes
        case 3: out.splice(at, 0, ...Array.from({ length: 1 + int(8) }, () => int(256))); break; // splice garbage in
        default: out.length = Math.max(1, at); // truncate
      }
    }
    return new Uint8Array(out);
  };
  const upgrade = `GET /v1/run HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${btoa("0123456789abcdef")}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`;
  const CASES = 1000;
  let answered = 0;
  let withDone = 0;
  const stuck: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < CASES; i++) {
    const bytes = mutate(valid());
    const c = await rawUpgrade(upgrade);
    if (!c.head.startsWith("HTTP/1.1 101")) {
      stuck.push(i);
      c.close();
      continue;
    }
    await c.sendRaw(bytes).catch(() => {});
    await c.closeWrite();
    const frames = await Promise.race([c.readFrames(), new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
    c.close();
    if (frames === null) stuck.push(i);
    else {
      answered++;
      if (frames.some((f) => f.op === 1 && f.text.includes('"type":"done"'))) withDone++;
    }
  }
  check(stuck.length === 0 && answered === CASES,
    `${CASES} mutated streams: each answered and closed within 5 s (${withDone} with a done frame; ${Math.round(performance.now() - t0)} ms in all)`, { stuck });
  const h = await health();
  check(h.status === "ok", "after the fuzz /healthz still answers", h);
  const after = await exec("return 'still fine'");
  check(after.done?.status === "ok" && after.done.value === "still fine", "after the fuzz a normal run works", short(after));
});

section("end to end: a client playing the gateway", async () => {
  // The orders example from DESIGN.md, with a fake tool catalogue answered by the test client.
  const orders = [{ id: 1, status: "open", amount: 10 }, { id: 2, status: "closed", amount: 5 }, { id: 3, status: "open", amount: 32.5 }];
  const r = await exec(
    `const tools = await amcp.search("orders");
     const schema = await amcp.describe(tools[0].name);
     const orders = await amcp.run(tools[0].name, { customerId: input.customerId });
     const open = orders.filter((o) => o.status === "open");
     console.log("open orders:", open.length);
     return { tool: schema.name, open: open.length, total: open.reduce((s, o) => s + o.amount, 0) };`,
    { input: { customerId: "acme" }, onBridge: (b) => {
      if (b.op === "search") return { ok: true, value: [{ name: "orders_list", title: "Orders", description: "List orders", readOnly: true }] };
      if (b.op === "describe") return { ok: true, value: { name: "orders_list", description: "List orders", inputSchema: { type: "object" }, readOnly: true } };
      if (b.op === "run" && b.args.args.customerId === "acme") return { ok: true, value: orders };
      return { ok: false, error: { code: "NOT_FOUND", message: "no such customer" } };
    } },
  );
  check(r.done?.status === "ok" && JSON.stringify(r.done.value) === '{"tool":"orders_list","open":2,"total":42.5}' && r.done.stats.bridgeCalls === 3 && r.consoles[0]?.text === "open orders: 2", "orders workflow: search, describe, run, console, result", short(r));
});

section("ops inventory (Deno 2.9.6)", async () => {
  const r = await exec(`return Object.keys(Deno[Deno.internal].core.ops).sort()`);
  const reviewed = (await Deno.readTextFile(`${HERE}ops-inventory-deno-2.9.6.txt`)).split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")).sort();
  const have: string[] = r.done?.value ?? [];
  const added = have.filter((o) => !reviewed.includes(o));
  const removed = reviewed.filter((o) => !have.includes(o));
  check(r.done?.status === "ok" && added.length === 0 && removed.length === 0, `ops table matches the reviewed list (${reviewed.length} ops)`, { added, removed });
});

section("busy: bounded queue, then a clear refusal", async () => {
  await waitWarm(MAX_CONCURRENT);
  const n = MAX_CONCURRENT + MAX_QUEUE + 2;
  const runs = await Promise.all(Array.from({ length: n }, () => rawExec(`await new Promise((r) => setTimeout(r, 1500)); return "ran"`, { limits: { timeoutMs: 20000 } })));
  const ranOk = runs.filter((r) => r.done?.status === "ok").length;
  const busy = runs.filter((r) => r.done?.status === "error" && r.done.error?.name === "BusyError" && r.done.error?.code === "busy");
  check(ranOk === MAX_CONCURRENT + MAX_QUEUE && busy.length === 2, `${n} runs at once: ${MAX_CONCURRENT} run + ${MAX_QUEUE} queued complete, 2 refused with BusyError`, { ranOk, busy: busy.length, sample: runs.map((r) => r.done?.status) });
  check(busy.every((r) => r.ms < 1000), "a busy refusal comes at once, not after a hang", busy.map((r) => Math.round(r.ms)));
  await nextRunFine("the burst");
});

section("a supervisor without CAP_KILL (the container's capabilities)", async () => {
  // The container keeps only SETUID and SETGID: root without CAP_KILL may not signal the sandboxes (another
  // uid), so every kill goes through the kill helper, which runs as the sandbox uid. A second supervisor is
  // started here with CAP_KILL out of its bounding and inheritable sets, so its permitted set lacks it too.
  if (!IS_ROOT) {
    console.log("  skip (not root: the supervisor cannot drop a capability it does not have; run test.sh as root to cover this)");
    return;
  }
  const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });
  if (!setpriv) return check(false, "setpriv (util-linux) is installed", "");
  const dir = await Deno.makeTempDir({ prefix: "amcp-nokill-" });
  const token = `nokill-${crypto.randomUUID()}`;
  const sup = new Deno.Command(setpriv, {
    args: ["--bounding-set=-kill", "--inh-caps=-kill", "--", DENO_BIN, "run", "--no-prompt", "--no-lock", "--allow-all", `${RUNNER_DIR}/src/main.ts`],
    env: {
      CODE_RUNNER_TOKEN: token,
      CODE_RUNNER_HOST: "127.0.0.1",
      CODE_RUNNER_PORT: "0",
      CODE_RUNNER_PORT_FILE: `${dir}/port`,
      CODE_RUNNER_POOL_SIZE: "1",
      CODE_RUNNER_MAX_CONCURRENT: "1",
      CODE_RUNNER_MAX_QUEUE: "2",
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const pid = sup.pid; // setpriv execs Deno: same pid
  if (SUP2_PID_FILE) await Deno.writeTextFile(SUP2_PID_FILE, String(pid));
  let stderr = "";
  const stderrDone = (async () => {
    const dec = new TextDecoder();
    for await (const chunk of sup.stderr) stderr += dec.decode(chunk, { stream: true });
  })();
  let exited = false;
  const supStatus = sup.status.then((s) => {
    exited = true;
    return s;
  });
  const startTime = (p: number) => {
    try {
      const stat = Deno.readTextFileSync(`/proc/${p}/stat`);
      return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    } catch {
      return null;
    }
  };
  // Every process of this supervisor seen in the phase (pid -> start time), to prove each one goes away.
  const seen = new Map<number, string>();
  const isSandbox = (p: number) => {
    try {
      return (Deno.readTextFileSync(`/proc/${p}/cmdline`).split("\0").filter(Boolean).pop() ?? "").endsWith("/harness.js");
    } catch {
      return false;
    }
  };
  const sandboxes = () => procChildren(pid).filter(isSandbox);
  const note = () => {
    for (const p of procChildren(pid)) {
      const st = startTime(p);
      if (st && !seen.has(p)) seen.set(p, st);
    }
  };
  const alive = (p: number) => startTime(p) === seen.get(p); // same pid and start time: not a reused pid
  const waitUntil = async (cond: () => boolean, ms: number) => {
    for (const end = performance.now() + ms; !cond() && performance.now() < end;) await new Promise((r) => setTimeout(r, 20));
    return cond();
  };
  const sampler = setInterval(note, 25);
  try {
    const portWritten = () => {
      try {
        return Deno.statSync(`${dir}/port`).size > 0;
      } catch {
        return false;
      }
    };
    await waitUntil(() => portWritten() || exited, 15000);
    const port = Number(await Deno.readTextFile(`${dir}/port`).catch(() => "0"));
    if (!port) return check(false, "the supervisor without CAP_KILL starts", stderr.slice(-2000));
    const base2 = `http://127.0.0.1:${port}`;
    const run2 = (code: string, limits: Record<string, number>) =>
      run({ url: base2.replace(/^http/, "ws") + "/v1/run", token, start: { runId: crypto.randomUUID(), code, limits }, timeoutMs: 30_000 });
    const warm2 = async () => {
      for (let i = 0; i < 200; i++) {
        const h = await (await fetch(`${base2}/healthz`)).json();
        if (h.warm >= 1 && h.starting === 0) return h;
        await new Promise((r) => setTimeout(r, 25));
      }
    };

    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    rootChecksRan.noCapKill++;
    const capEff = BigInt("0x" + statusField(status, "CapEff"));
    const capPrm = BigInt("0x" + statusField(status, "CapPrm"));
    const bit = (n: number) => 1n << BigInt(n);
    check(
      statusField(status, "Uid").split(/\s+/)[0] === "0" && (capEff & bit(5)) === 0n && (capPrm & bit(5)) === 0n && (capEff & bit(6)) !== 0n && (capEff & bit(7)) !== 0n,
      `supervisor ${pid}: root, CapEff/CapPrm without CAP_KILL (bit 5), with SETGID and SETUID`,
      { CapEff: statusField(status, "CapEff"), CapPrm: statusField(status, "CapPrm") },
    );

    // The deadline kill: the one warm sandbox takes the run; it must be gone afterwards, not spinning on.
    await warm2();
    const [busyLoop] = sandboxes();
    note();
    const t0 = performance.now();
    const spin = await run2("while (true) {}", { timeoutMs: 1000 });
    const ms = performance.now() - t0;
    check(spin.done?.status === "timeout" && ms <= 2000 && spin.doneCount === 1, `no CAP_KILL: while(true){} -> timeout in ${Math.round(ms)} ms (limit 2000)`, short(spin));
    const killed = busyLoop !== undefined && (await waitUntil(() => !alive(busyLoop), 2000));
    check(killed, `no CAP_KILL: the timed-out sandbox ${busyLoop} is killed and reaped`, killed ? "" : busyLoop === undefined ? "no warm sandbox found" : { still: Deno.readTextFileSync(`/proc/${busyLoop}/stat`) });

    // The kill after a normal run.
    await warm2();
    const [used] = sandboxes();
    note();
    const fine = await run2("return 6 * 7", { timeoutMs: 5000 });
    check(fine.done?.status === "ok" && fine.done.value === 42, "no CAP_KILL: a normal run after it succeeds", short(fine));
    check(used !== undefined && (await waitUntil(() => !alive(used), 2000)), `no CAP_KILL: the used sandbox ${used} is killed and reaped after its run`, used);

    // A sandbox over its output share is stopped (SIGSTOP) for a while, here through the helper.
    await warm2();
    const [flooder] = sandboxes();
    note();
    let seenStopped = false;
    const watchState = setInterval(() => {
      try {
        if (flooder !== undefined && procStat(flooder).state === "T") seenStopped = true;
      } catch { /* gone */ }
    }, 10);
    const flood = await run2(`const nl = new Uint8Array([10]); for (;;) Deno.stdout.writeSync(nl);`, { timeoutMs: 3000 });
    clearInterval(watchState);
    check(flood.done?.status === "timeout" && seenStopped && (await waitUntil(() => !alive(flooder), 2000)),
      `no CAP_KILL: a sandbox writing past its output share is stopped through the helper (seen stopped: ${seenStopped}), times out and is reaped`, short(flood));

    // The helper: one process of the sandbox uid, no capabilities, no new privileges.
    note();
    const helpers = procChildren(pid).filter((p) => {
      try {
        return Deno.readTextFileSync(`/proc/${p}/cmdline`).includes("kill -s");
      } catch {
        return false;
      }
    });
    const hs = helpers.length === 1 ? Deno.readTextFileSync(`/proc/${helpers[0]}/status`) : "";
    check(
      helpers.length === 1 && statusField(hs, "Uid").split(/\s+/).every((u) => u === "65534") && statusField(hs, "CapEff") === "0000000000000000" &&
        statusField(hs, "NoNewPrivs") === "1" && /no CAP_KILL/.test(stderr),
      "no CAP_KILL: kills go through one helper running as uid 65534, no capabilities, NoNewPrivs (logged)",
      { helpers, uid: statusField(hs, "Uid"), log: stderr.slice(-600) },
    );

    // No zombies, no stray or orphaned sandboxes of this supervisor.
    await new Promise((r) => setTimeout(r, 300));
    note();
    const h = await (await fetch(`${base2}/healthz`)).json();
    const kids = sandboxes();
    const zombies = procChildren(pid).filter((p) => {
      try {
        return procStat(p).state === "Z";
      } catch {
        return false;
      }
    });
    check(zombies.length === 0 && kids.length <= h.warm + h.starting + h.busy, "no CAP_KILL: no zombies, only warm/starting/busy sandboxes remain", { kids, zombies, h });
    const strays = [...seen.keys()].filter((p) => alive(p) && !procChildren(pid).includes(p));
    check(strays.length === 0, "no CAP_KILL: no sandbox of that supervisor left outside it", strays);

    // Shutdown: every sandbox and the helper killed and reaped before the supervisor exits.
    note();
    const before = [...seen.keys()].filter(alive);
    Deno.kill(pid, "SIGTERM");
    const t1 = performance.now();
    const stopped = await waitUntil(() => exited, 5000);
    const left = [...seen.keys()].filter(alive);
    check(stopped && left.length === 0 && performance.now() - t1 < 5000,
      `no CAP_KILL: SIGTERM stops it in ${Math.round(performance.now() - t1)} ms; its ${before.length} sandboxes and the helper are gone and reaped`,
      { stopped, before, left, log: stderr.slice(-600) });
  } finally {
    clearInterval(sampler);
    // After a failure, leave nothing behind: this process is root with CAP_KILL.
    for (const p of [...(exited ? [] : [pid]), ...[...seen.keys()].filter(alive)]) {
      try {
        Deno.kill(p, "SIGKILL");
      } catch { /* gone */ }
    }
    await supStatus;
    await stderrDone.catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    if (SUP2_PID_FILE) await Deno.remove(SUP2_PID_FILE).catch(() => {});
  }
});

// ---------------------------------------------------------------------------------------------------
if (Deno.env.get("PRINT_OPS") === "1") {
  const r = await exec(`return Object.keys(Deno[Deno.internal].core.ops).sort()`);
  console.log(r.done.value.join("\n"));
  Deno.exit(0);
}
const t0 = performance.now();
// RUNNER_ONLY=<regex> runs only the sections whose names match (to look at one area; the exit code then
// says nothing about the rest).
const only = Deno.env.get("RUNNER_ONLY") ? new RegExp(Deno.env.get("RUNNER_ONLY")!) : null;
for (const [name, fn] of sections) {
  if (only && !only.test(name)) continue;
  console.log(`\n# ${name}`);
  try {
    await fn();
  } catch (e) {
    check(false, `section "${name}" threw`, String((e as Error)?.stack ?? e));
  }
}
console.log("\n# root-only checks");
if (only) console.log("  skip (RUNNER_ONLY)");
else if (REQUIRE_ROOT) check(IS_ROOT, "the suite runs as root (RUNNER_REQUIRE_ROOT: CI), so uid-drop and no-CAP_KILL are covered", { uid: Deno.uid() });
if (!only && IS_ROOT) {
  check(rootChecksRan.uidDrop > 0 && rootChecksRan.noCapKill > 0, "running as root, the uid-drop and no-CAP_KILL checks ran, none skipped", rootChecksRan);
} else if (!only) console.log(`  skip (not root: the uid-drop and no-CAP_KILL checks did not run; CI, as root, fails if they do not)`);
console.log(`\ncontainment suite: ${passed + failed} assertions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
if (failures.length) console.log("failures:\n  " + failures.join("\n  "));
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 && (only !== null || passed >= 45) ? 0 : 1);
