// CPU per bridge round trip, split by process: one run making 1000 sequential bridge calls, answered at
// once by a `ws` client, three times; supervisor and client CPU from /proc/<pid>/stat while the run
// lasts, the sandbox's (reaped into the supervisor's cutime, with its replacement's start) after it.
//   .deno/node_modules/@deno/linux-x64-glibc/deno run -A --no-lock runner-image/bench/bridge_cpu.ts
//   PERF=1 SUP_V8=--perf-basic-prof ...   also records the supervisor with perf (PERF_OUT, default /tmp/runner-sup.perf)
import WsWebSocket from "ws";
import { startSupervisor } from "../test/client.ts";
const TOKEN = "bench-" + crypto.randomUUID();
const sup = await startSupervisor({ CODE_RUNNER_TOKEN: TOKEN }, { quiet: true });
function cpu(pid: number) { const st = Deno.readTextFileSync(`/proc/${pid}/stat`); const f = st.slice(st.lastIndexOf(")") + 2).split(" "); return { self: (Number(f[11]) + Number(f[12])) * 10, ch: (Number(f[13]) + Number(f[14])) * 10 }; }
function run(calls: number): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WsWebSocket(sup.url, { headers: { Authorization: `Bearer ${TOKEN}` }, perMessageDeflate: false });
    let t = 0;
    ws.on("open", () => { ws._socket.setNoDelay(true); t = performance.now(); ws.send(JSON.stringify({ type: "start", code: `for (let i = 0; i < ${calls}; i++) await amcp.run('t', { i }); return 1`, limits: { maxBridgeCalls: calls, timeoutMs: 60000 } })); });
    ws.on("message", (d: Buffer) => { const s = d.toString(); if (s.startsWith('{"type":"bridge"')) ws.send(`{"type":"bridge_result","id":${JSON.parse(s).id},"ok":true,"value":1}`); else if (s.includes('"done"')) t = performance.now() - t; });
    ws.on("close", () => resolve(t));
  });
}
await run(10);
await new Promise((r) => setTimeout(r, 1500));
if (Deno.env.get("PERF")) {
  const perf = new Deno.Command("perf", { args: ["record", "-q", "-F", "4000", "-g", "-o", Deno.env.get("PERF_OUT") ?? "/tmp/runner-sup.perf", "-p", String(sup.proc.pid)], stdout: "null", stderr: "null" }).spawn();
  await new Promise((r) => setTimeout(r, 500));
  await run(2000);
  perf.kill("SIGINT"); await perf.status;
}
for (const calls of [1000, 1000, 1000]) {
  const s0 = cpu(sup.proc.pid), c0 = cpu(Deno.pid).self;
  const ms = await run(calls);
  const s1 = cpu(sup.proc.pid), c1 = cpu(Deno.pid).self;
  await new Promise((r) => setTimeout(r, 1500));
  const s2 = cpu(sup.proc.pid);
  console.log(`${calls} calls: ${ms.toFixed(0)} ms wall, ${(ms/calls*1000).toFixed(0)} µs/call | CPU µs/call: supervisor ${((s1.self-s0.self)/calls*1000).toFixed(0)}, client ${((c1-c0)/calls*1000).toFixed(0)}, sandbox+refill(reaped) ${((s2.ch-s0.ch)/calls*1000).toFixed(0)}`);
}
await sup.stop();
