#!/usr/bin/env python3
"""Cores one hostile code run takes, measured as an outside observer would: through a running gateway's MCP endpoint.

  bench/cpu-attack.py API_KEY [URL]      (URL default http://localhost:9080/mcp/demo, e.g. ./quickstart.sh's)

Sends one code_execute whose code awaits 32 parallel PBKDF2 deriveBits in a loop (WebCrypto runs them on Deno's
blocking thread pool, outside the isolate's one thread), waits 2 s for it to get going, then samples for 5 s:
  - the machine's busy cores (/proc/stat: everything but idle and iowait, times the CPU count),
  - the busiest processes' cores (/proc/PID/stat utime + stime) with the CPUs each may run on (Cpus_allowed_list).
The run ends at the gateway's AMCP_CODE_TIMEOUT_MS (10 s by default); its answer is printed last. Run it on an
otherwise quiet machine: every other process's CPU counts in the machine's figure.
"""
import json, os, sys, threading, time, urllib.request

key = sys.argv[1]
url = sys.argv[2] if len(sys.argv) > 2 else "http://localhost:9080/mcp/demo"
TICK = os.sysconf("SC_CLK_TCK")
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


def processes():
    seen = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            st = open(f"/proc/{pid}/stat").read()
            fields = st[st.rindex(")") + 2:].split()
            seen[int(pid)] = (int(fields[11]) + int(fields[12]), st[st.index("(") + 1:st.rindex(")")])
        except (OSError, ValueError):
            pass
    return seen


def allowed(pid):
    try:
        return next(l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith("Cpus_allowed_list"))
    except (OSError, StopIteration):
        return "?"


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
print("machine: %.2f busy cores of %d" % ((busy1 - busy0) / (total1 - total0) * os.cpu_count(), os.cpu_count()))
top = sorted(((after[p][0] - before[p][0]) / TICK / wall, p, after[p][1]) for p in after if p in before)[-4:]
for cores, pid, name in reversed(top):
    print("  %.2f cores  pid %d %s (CPUs %s)" % (cores, pid, name, allowed(pid)))
thread.join()
print(answer[0] if answer else "no answer")
