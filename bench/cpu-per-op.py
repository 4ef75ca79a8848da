#!/usr/bin/env python3
"""CPU per operation of running gateways, side by side: on a shared machine latency is noise, CPU per operation is not.

  bench/cpu-per-op.py API_KEY ROUNDS NAME=HTTP_PORT:GATEWAY_PID:RUNNER_PID [NAME=...]

Each round runs, for each operation, one block against each gateway in turn (the order alternates per round), over
one MCP session per gateway on /mcp/demo (a plain kept-alive HTTP/1.1 connection). Per block: the gateway JVM's
user + system CPU (/proc/PID/stat, exited threads included) less what its JIT compiler threads spent meanwhile
(/proc/PID/task/TID/stat), and the runner supervisor's CPU with its reaped children (the sandboxes). Prints medians.
  OPS=return1,bridge100,get100  which operations (default all three)
  JIT=1                         count the JIT compiler threads too
Start the gateways as they are compared: two packaged wars under `server run`, not a war against a loose application.
"""
import http.client, json, os, statistics, sys, time

key, rounds = sys.argv[1], int(sys.argv[2])
targets = []
for a in sys.argv[3:]:
    name, rest = a.split("=")
    port, gw, rn = rest.split(":")
    targets.append((name, int(port), int(gw), int(rn)))
TICK = 1000.0 / os.sysconf("SC_CLK_TCK")
COUNT_JIT = os.environ.get("JIT") == "1"


def stat(path):
    st = open(path).read()
    return st[st.index("(") + 1:st.rindex(")")], st[st.rindex(")") + 2:].split()


def cpu(pid, children=False):
    f = stat(f"/proc/{pid}/stat")[1]
    return (int(f[11]) + int(f[12]) + (int(f[13]) + int(f[14]) if children else 0)) * TICK


def jit(pid):
    d = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            name, f = stat(f"/proc/{pid}/task/{t}/stat")
        except FileNotFoundError:
            continue
        if "CompilerThre" in name:
            d[t] = (int(f[11]) + int(f[12])) * TICK
    return d


class Meter:
    def __init__(self, pid):
        self.pid, self.t, self.j = pid, cpu(pid), ({} if COUNT_JIT else jit(pid))

    def since(self):
        t = cpu(self.pid) - self.t
        if not COUNT_JIT:
            j = jit(self.pid)
            t -= sum(j[k] - self.j[k] for k in j if k in self.j)
        return t


class Mcp:
    def __init__(self, port):
        self.c, self.sid, self.n = http.client.HTTPConnection("127.0.0.1", port), None, 0
        self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "cpu-per-op", "version": "1"}}})
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, body):
        h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
             "Authorization": "Bearer " + key, "MCP-Protocol-Version": "2025-06-18"}
        if self.sid:
            h["Mcp-Session-Id"] = self.sid
        self.c.request("POST", "/mcp/demo", json.dumps(body), h)
        r = self.c.getresponse()
        data = r.read().decode()
        self.sid = r.getheader("Mcp-Session-Id") or self.sid
        if r.status >= 300:
            raise Exception(f"{r.status} {data[:300]}")
        return data

    def call(self, name, args):
        self.n += 1
        t = self.post({"jsonrpc": "2.0", "id": self.n, "method": "tools/call", "params": {"name": name, "arguments": args}})
        if '"isError":true' in t:
            raise Exception(t[:400])


BRIDGE = "for (let i = 1; i <= 100; i++) { await amcp.run('customer_get', {customerId: i}); } return 100;"
OPS = {  # name: (one operation, operations per block, pause after each in seconds)
    "return1": (lambda m: m.call("code_execute", {"code": "return 1"}), 10, 0.15),
    "bridge100": (lambda m: m.call("code_execute", {"code": BRIDGE}), 2, 0.3),
    "get100": (lambda m: [m.call("customer_get", {"customerId": i}) for i in range(1, 101)], 2, 0.3),
}
only = os.environ.get("OPS", ",".join(OPS)).split(",")
clients = {t[0]: Mcp(t[1]) for t in targets}
res = {(t[0], op): {"gw": [], "rn": [], "wall": []} for t in targets for op in only}
for rnd in range(rounds):
    for op in only:
        fn, n, pause = OPS[op]
        for name, port, gw, rn in (targets if rnd % 2 == 0 else targets[::-1]):
            time.sleep(pause)
            g, r0, wall = Meter(gw), cpu(rn, True), 0.0
            for _ in range(n):
                t0 = time.perf_counter()
                fn(clients[name])
                wall += time.perf_counter() - t0
                time.sleep(pause)
            time.sleep(0.3)  # the sandbox's replacement starts after the run: counted in the runner's figure
            d = res[(name, op)]
            d["gw"].append(g.since() / n)
            d["rn"].append((cpu(rn, True) - r0) / n)
            d["wall"].append(wall * 1000 / n)
    print(f"round {rnd + 1}/{rounds}", file=sys.stderr, flush=True)
for op in only:
    for name, *_ in targets:
        d = res[(name, op)]
        print(f"{op:10s} {name:8s} gateway CPU/op {statistics.median(d['gw']):8.2f} ms   runner CPU/op "
              f"{statistics.median(d['rn']):7.2f} ms   wall {statistics.median(d['wall']):8.2f} ms   (medians of {len(d['gw'])} blocks)")
