// A small protocol-v1 client that plays the gateway: used by the containment suite and the benchmark.
import WebSocket from "ws";

export interface RunResult {
  // deno-lint-ignore no-explicit-any
  done: any | null;
  // deno-lint-ignore no-explicit-any
  frames: any[];
  consoles: { level: string; text: string; truncated?: boolean }[];
  // deno-lint-ignore no-explicit-any
  bridges: any[];
  closeCode: number | null;
  ms: number;
  doneCount: number;
}

export interface RunOptions {
  url: string;
  token: string | null;
  // deno-lint-ignore no-explicit-any
  start?: any; // the start frame (type added)
  // deno-lint-ignore no-explicit-any
  onBridge?: (b: any) => any | Promise<any>; // returns the bridge_result fields (ok, value|error)
  // deno-lint-ignore no-explicit-any
  raw?: (ws: WebSocket) => void; // send something else instead of / after start
  afterStart?: (ws: WebSocket) => void;
  timeoutMs?: number; // client-side safety net
}

export function run(opts: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const headers: Record<string, string> = {};
    if (opts.token !== null) headers["Authorization"] = `Bearer ${opts.token}`;
    const ws = new WebSocket(opts.url, { headers, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    const res: RunResult = { done: null, frames: [], consoles: [], bridges: [], closeCode: null, ms: 0, doneCount: 0 };
    const safety = setTimeout(() => {
      ws.terminate();
      reject(new Error("client safety timeout: no close from the runner"));
    }, opts.timeoutMs ?? 30_000);
    ws.on("open", () => {
      // deno-lint-ignore no-explicit-any
      (ws as any)._socket?.setNoDelay?.(true);
      if (opts.raw) opts.raw(ws);
      if (opts.start) ws.send(JSON.stringify({ type: "start", ...opts.start }));
      opts.afterStart?.(ws);
    });
    ws.on("message", async (data: Buffer) => {
      const msg = JSON.parse(data.toString());
      res.frames.push(msg);
      if (msg.type === "done") {
        res.doneCount++;
        if (!res.done) {
          res.done = msg;
          res.ms = performance.now() - t0;
        }
      } else if (msg.type === "console") res.consoles.push(msg);
      else if (msg.type === "bridge") {
        res.bridges.push(msg);
        if (opts.onBridge) {
          const r = await opts.onBridge(msg);
          if (r !== undefined && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "bridge_result", id: msg.id, ...r }));
        }
      }
    });
    ws.on("close", (code: number) => {
      clearTimeout(safety);
      res.closeCode = code;
      if (!res.ms) res.ms = performance.now() - t0;
      resolve(res);
    });
    ws.on("error", (e: Error) => {
      clearTimeout(safety);
      reject(e);
    });
  });
}

/** Start a supervisor on a free port with its own token; resolves once /healthz answers with a warm pool. */
export async function startSupervisor(env: Record<string, string>, opts: { quiet?: boolean } = {}) {
  const dir = new URL("..", import.meta.url).pathname;
  const portFile = await Deno.makeTempFile({ prefix: "amcp-runner-port-" });
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-lock", "--allow-all", ...(Deno.env.get("SUP_V8") ? [`--v8-flags=${Deno.env.get("SUP_V8")}`] : []), `${dir}src/main.ts`],
    env: { CODE_RUNNER_PORT: "0", CODE_RUNNER_HOST: "127.0.0.1", CODE_RUNNER_PORT_FILE: portFile, ...env },
    stdout: opts.quiet ? "null" : "inherit",
    stderr: opts.quiet ? "null" : "inherit",
  }).spawn();
  let port = 0;
  for (let i = 0; i < 300 && !port; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const t = await Deno.readTextFile(portFile).catch(() => "");
    if (t) port = Number(t);
  }
  if (!port) throw new Error("supervisor did not start");
  const base = `http://127.0.0.1:${port}`;
  const want = Number(env.CODE_RUNNER_POOL_SIZE ?? 1);
  for (let i = 0; i < 200; i++) {
    const h = await fetch(`${base}/healthz`).then((r) => r.json()).catch(() => null);
    if (h && h.warm >= want) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await Deno.remove(portFile).catch(() => {});
  return {
    proc,
    port,
    base,
    url: `ws://127.0.0.1:${port}/v1/run`,
    async stop() {
      try {
        proc.kill("SIGTERM");
      } catch { /* gone */ }
      await proc.status;
    },
  };
}
