#!/usr/bin/env python3
"""Cores one hostile code run takes, measured as an outside observer would: through a running gateway's MCP endpoint.

  bench/cpu-attack.py API_KEY [URL]      (URL default http://localhost:9080/mcp/demo, e.g. ./quickstart.sh's)

Sends one code_execute whose code awaits 32 parallel PBKDF2 deriveBits in a loop (WebCrypto runs them on Deno's
blocking thread pool, outside the isolate's one thread), waits 2 s for it to get going, then samples for 5 s, from
/proc on this machine (run it where the runner runs):
  - the sandbox that ran the code: its cores (utime + stime of the busiest sandbox process) and the CPUs it may run on
    (Cpus_allowed_list), which the runner binds to one;
  - the runner's supervisor, the gateway (Liberty's JVM), and everything else on the machine, apart;
  - the machine's busy cores (/proc/stat: everything but idle and iowait), which other work inflates.
It ends with a verdict: the binding holds when the sandbox ran on one CPU and used at most 1.3 cores, whatever else
the machine was doing (exit 0; else exit 1). The run ends at the gateway's AMCP_CODE_TIMEOUT_MS (10 s by default); its
answer is printed last.
"""
import json, os, sys, threading, time, urllib.request

key = sys.argv[1]
url = sys.argv[2] if len(sys.argv) > 2 else "http://localhost:9080/mcp/demo"
TICK = os.sysconf("SC_CLK_TCK")
BOUND = 1.3  # cores; the containment suite's bound for one run
CODE = """const key = await crypto.subtle.importKey("raw", new Uint8Array(32), "PBKDF2", false, ["deriveBits"]);
const salt = new Uint8Array(16);
for (;;) await Promise.all(Array.from({ length: 32 }, () =>
  crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: 100000 }, key, 256)));"""


def attack(answer):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "code_execute", "arguments": {"code": CODE}}}).encode()
    request = urllib.request.Request(url, data=body, headers={"Authorization": "Bearer " + key,
                                     "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    started = time.time()
    text = urllib.request.urlopen(request, timeout=120).read().decode().strip()
    answer.append("answer after %.1f s: %s" % (time.time() - started, text[:240]))


def machine():
    v = list(map(int, open("/proc/stat").readline().split()[1:]))
    return sum(v) - v[3] - v[4], sum(v)


def kind(pid):
    """sandbox, supervisor, gateway or other, from the command line."""
    try:
        args = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    except OSError:
        return "other"
    name = os.path.basename(args[0].decode(errors="replace")) if args and args[0] else ""
    text = b" ".join(args).decode(errors="replace")
    if name == "deno" and "--deny-read" in text:
        return "sandbox"
    if name == "deno" and "runner-image/src/main.ts" in text or "/app/src/main.ts" in text:
        return "supervisor"
    if name == "java" and ("ws-launch" in text or "wlp" in text or "liberty" in text.lower()):
        return "gateway"
    return "other"


def processes():
    seen = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            st = open(f"/proc/{pid}/stat").read()
            fields = st[st.rindex(")") + 2:].split()
            seen[int(pid)] = int(fields[11]) + int(fields[12])
        except (OSError, ValueError):
            pass
    return seen


def allowed(pid):
    try:
        return next(l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith("Cpus_allowed_list"))
    except (OSError, StopIteration):
        return "?"


def cpu_count(cpus):
    """How many CPUs a Cpus_allowed_list such as 0-3,6 names."""
    n = 0
    for part in cpus.split(","):
        lo, _, hi = part.partition("-")
        n += int(hi or lo) - int(lo) + 1 if lo.isdigit() else 0
    return n


answer = []
thread = threading.Thread(target=attack, args=(answer,))
thread.start()
time.sleep(2)
busy0, total0 = machine()
before = processes()
t0 = time.time()
time.sleep(5)
busy1, total1 = machine()
after = processes()
wall = time.time() - t0
cores = {p: (after[p] - before[p]) / TICK / wall for p in after if p in before}
cpus = {p: allowed(p) for p in cores if cores[p] > 0.05}  # read now: the sandbox is gone once the run ends
machine_cores = (busy1 - busy0) / (total1 - total0) * os.cpu_count()
by_kind = {}
for pid, c in cores.items():
    by_kind.setdefault(kind(pid), []).append((c, pid))
sandboxes = sorted(by_kind.get("sandbox", []), reverse=True)
print("machine:    %.2f busy cores of %d (everything on it)" % (machine_cores, os.cpu_count()))
if sandboxes:
    c, pid = sandboxes[0]
    print("sandbox:    %.2f cores  pid %d, CPUs %s  (the run's own use)" % (c, pid, cpus.get(pid, "?")))
for name in ("supervisor", "gateway"):
    print("%-11s %.2f cores" % (name + ":", sum(c for c, _ in by_kind.get(name, []))))
own = sum(c for c, _ in by_kind.get("sandbox", [])) + sum(c for c, _ in by_kind.get("supervisor", [])) + sum(c for c, _ in by_kind.get("gateway", []))
print("other work: %.2f cores (machine minus sandboxes, supervisor and gateway)" % max(0.0, machine_cores - own))
thread.join()
print(answer[0] if answer else "no answer")
if not sandboxes or sandboxes[0][0] < 0.5:
    print("verdict: no busy sandbox found on this machine; run this where the runner runs")
    sys.exit(1)
c, pid = sandboxes[0]
holds = c <= BOUND and cpu_count(cpus.get(pid, "?")) == 1
print("verdict: the binding %s: the sandbox ran on %d CPU(s) and used %.2f cores (bound %.1f)"
      % ("holds" if holds else "does NOT hold", cpu_count(cpus.get(pid, "?")), c, BOUND))
sys.exit(0 if holds else 1)
