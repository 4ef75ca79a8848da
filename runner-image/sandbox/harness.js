// AMCP code-runner harness. Runs inside every sandbox child (one run per process).
//
// The child is started by the supervisor with every Deno permission denied, an empty environment and
// (when the supervisor is root) an unprivileged uid. This file is the *only* module in the static module
// graph. User code arrives over stdin in the `start` frame and is compiled as the body of an async
// function; it is never a module and never imported.
//
// User code shares this isolate, so nothing here is a security boundary: it can forge frames on stdout
// and patch any global. The supervisor validates every frame it receives. What this file does is make
// the honest path robust: every builtin it needs after user code starts is captured first, so patching
// JSON.stringify, TextEncoder, Promise.prototype.then etc. does not corrupt the harness's own frames.
//
// Framing (both directions): one JSON document per line, UTF-8, terminated by "\n".
//   child -> supervisor: ready | bridge {id,op,args} | console {level,text} | progress {done,total?,message?}
//                        | result {ok,value|error}
//   supervisor -> child: start {code,input,limits} | bridge_result {id,ok,value|error}
"use strict";

// ---- captured builtins (before any user code exists) ---------------------------------------------
const ReflectApply = Reflect.apply;
const JSONStringify = JSON.stringify;
const JSONParse = JSON.parse;
const ObjectCreate = Object.create;
const ObjectFreeze = Object.freeze;
const ObjectDefineProperty = Object.defineProperty;
const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ObjectKeys = Object.keys;
const ObjectHasOwn = Object.hasOwn;
const ArrayIsArray = Array.isArray;
const StringCtor = String;
const NumberIsSafeInteger = Number.isSafeInteger;
const StringSlice = String.prototype.slice;
const StringIndexOf = String.prototype.indexOf;
const MapCtor = Map;
const MapGet = Map.prototype.get;
const MapSet = Map.prototype.set;
const MapDelete = Map.prototype.delete;
const PromiseCtor = Promise;
const PromiseThen = Promise.prototype.then;
const MapSize = Object.getOwnPropertyDescriptor(Map.prototype, "size").get;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const Uint8ArrayCtor = Uint8Array;
const TypedArraySubarray = Object.getPrototypeOf(Uint8Array.prototype).subarray;
const TypedArraySet = Object.getPrototypeOf(Uint8Array.prototype).set;
const TypedArrayLength = ObjectGetOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "length").get;
const encoder = new TextEncoder();
const TextEncoderEncode = TextEncoder.prototype.encode;
const decoder = new TextDecoder("utf-8", { fatal: true });
const TextDecoderDecode = TextDecoder.prototype.decode;
const stdin = Deno.stdin;
const stdout = Deno.stdout;
const StdinRead = Object.getPrototypeOf(stdin).read;
const StdinReadSync = Object.getPrototypeOf(stdin).readSync;
const StdoutWriteSync = Object.getPrototypeOf(stdout).writeSync;
const inspect = Deno.inspect;
const denoInternal = Deno[Deno.internal];
const core = denoInternal.core;
const evalContext = core.evalContext;
const eventLoopHasMoreWork = core.eventLoopHasMoreWork;
// A macrotask without the global setImmediate: its first use loads Deno's Node timers layer, which
// costs ~16 ms of CPU in every sandbox start. deno_core's immediate queue (the one Node's setImmediate
// uses underneath) takes a plain node object; it runs after every pending promise job, like setImmediate.
const SetImmediate = (() => {
  const queueImmediate = core.queueImmediate;
  const immediateRefCount = core.immediateRefCount;
  const kRefed = core.kRefed;
  if (typeof queueImmediate !== "function" || typeof immediateRefCount !== "function" || kRefed === undefined) {
    return globalThis.setImmediate; // another Deno: the slower public one
  }
  return (fn) => {
    const imm = { _idleNext: null, _idlePrev: null, _onImmediate: fn, _argv: undefined, _destroyed: false, asyncId: 0, triggerAsyncId: 0 };
    imm[kRefed] = true;
    immediateRefCount(true);
    queueImmediate(imm);
  };
})();

const call0 = (fn, self) => ReflectApply(fn, self, []);
const call1 = (fn, self, a) => ReflectApply(fn, self, [a]);
const call2 = (fn, self, a, b) => ReflectApply(fn, self, [a, b]);

// ---- framed I/O ------------------------------------------------------------------------------------
function writeRaw(str) {
  const bytes = call1(TextEncoderEncode, encoder, str);
  let off = 0;
  const len = call0(TypedArrayLength, bytes);
  while (off < len) {
    off += call1(StdoutWriteSync, stdout, off === 0 ? bytes : call1(TypedArraySubarray, bytes, off));
  }
}
function send(frame) {
  writeRaw(JSONStringify(frame) + "\n");
}
function nullObj() {
  return ObjectCreate(null);
}

let onFrame = null;
// Reading stdin. An async read on Deno's stdin goes through a blocking-thread hand-off that costs a few
// hundred microseconds per frame; a synchronous read costs tens. So when the isolate has nothing else to
// do (no timers or immediates of the user's pending), the harness blocks in readSync until the next
// frame; otherwise it uses one async read so the user's timers keep firing.
const readBuf = new Uint8ArrayCtor(65536);
let pendingBytes = new Uint8ArrayCtor(0);
let asyncReadInFlight = false;
let readQueued = false;
let stdinClosed = false;

function onBytes(n) {
  if (n === null) {
    stdinClosed = true;
    return;
  }
  const plen = call0(TypedArrayLength, pendingBytes);
  let merged;
  if (plen === 0) merged = call2(TypedArraySubarray, readBuf, 0, n);
  else {
    merged = new Uint8ArrayCtor(plen + n);
    call1(TypedArraySet, merged, pendingBytes);
    call2(TypedArraySet, merged, call2(TypedArraySubarray, readBuf, 0, n), plen);
  }
  const mlen = plen + n;
  let start = 0;
  for (let i = 0; i < mlen; i++) {
    if (merged[i] === 10) {
      let msg = null;
      try {
        msg = JSONParse(call1(TextDecoderDecode, decoder, call2(TypedArraySubarray, merged, start, i)));
      } catch { /* not ours to fix: the supervisor only sends valid frames */ }
      start = i + 1;
      if (msg !== null && onFrame) onFrame(msg);
    }
  }
  // copy the tail out: readBuf is reused by the next read
  const rest = call1(TypedArraySubarray, merged, start);
  const copy = new Uint8ArrayCtor(call0(TypedArrayLength, rest));
  call1(TypedArraySet, copy, rest);
  pendingBytes = copy;
}

// Reads are scheduled with setImmediate, a macrotask: by then every promise job of the user's code has
// run, so a blocking read never holds back a result or a bridge call that is already due.
function requestRead() {
  if (readQueued || asyncReadInFlight || stdinClosed) return;
  readQueued = true;
  SetImmediate(doRead);
}
function doRead() {
  readQueued = false;
  if (asyncReadInFlight || stdinClosed) return;
  const waiting = call0(MapSize, pendingBridge) > 0;
  // Block in readSync only when the isolate has nothing else to do: before the start frame, or while
  // the code waits on a bridge call with no timer or immediate of its own pending. Otherwise keep one
  // async read in flight; it also keeps the event loop alive, so a never-settling promise ends in a
  // timeout rather than an early exit.
  if (started && (!waiting || eventLoopHasMoreWork())) {
    asyncReadInFlight = true;
    call2(
      PromiseThen,
      call1(StdinRead, stdin, readBuf),
      (n) => {
        asyncReadInFlight = false;
        onBytes(n);
        requestRead();
      },
      () => {
        asyncReadInFlight = false;
        stdinClosed = true;
      },
    );
    return;
  }
  let n;
  try {
    n = call1(StdinReadSync, stdin, readBuf);
  } catch {
    n = null;
  }
  onBytes(n);
  requestRead();
}

// ---- lock the global surface down (defence in depth; the flags are the real wall) -------------------
function blocked(what) {
  return function () {
    throw new TypeErrorCtor(`${what} is not available in code mode`);
  };
}
function lockGlobal(name, what) {
  try {
    ObjectDefineProperty(globalThis, name, {
      get: blocked(what ?? name),
      set: undefined,
      configurable: false,
      enumerable: false,
    });
  } catch { /* already non-configurable: leave it, the flags still deny it */ }
}
// Workers could load a data:/blob: module that contains import(); there is no use for them here.
lockGlobal("Worker");
lockGlobal("SharedWorker");
// No storage that could outlive the run, whatever uid we run under.
lockGlobal("localStorage");
lockGlobal("sessionStorage");
lockGlobal("caches");
try {
  ObjectDefineProperty(URL, "createObjectURL", { value: blocked("URL.createObjectURL"), writable: false, configurable: false });
} catch { /* ignore */ }
// node: builtins (node:vm compiles strings, node:module has require, ...) are not part of code mode.
// `process` is a lazy global whose first access loads Deno's Node compatibility layer (~45 ms of CPU),
// so it is wrapped rather than touched: the first access, if any, patches it before handing it out.
function lockProcess(proc) {
  for (const k of ["getBuiltinModule", "binding", "_linkedBinding", "dlopen", "reallyExit", "kill", "abort"]) {
    try {
      ObjectDefineProperty(proc, k, { value: blocked(`process.${k}`), writable: false, configurable: false });
    } catch { /* ignore */ }
  }
  return proc;
}
try {
  const desc = ObjectGetOwnPropertyDescriptor(globalThis, "process");
  if (desc && desc.get) {
    const origGet = desc.get;
    let locked = null;
    ObjectDefineProperty(globalThis, "process", {
      get() {
        if (locked === null) locked = lockProcess(call0(origGet, globalThis));
        return locked;
      },
      set: undefined,
      enumerable: false,
      configurable: false,
    });
  } else if (desc && desc.value) {
    lockProcess(desc.value);
  }
} catch { /* ignore */ }
// Deno[Deno.internal].core has evalContext, which compiles strings past the V8 code-generation ban. Keep
// a read-only view with the ops table only (so the ops inventory stays observable) and drop the rest.
try {
  const view = nullObj();
  const coreView = nullObj();
  // Same op names as the real table (the inventory check reads them), none of them callable.
  // Built on first access, not at start: Deno fills `core.ops` in as its lazily loaded layers load (22
  // entries at start, 376 once the Node layer is in), and loading that layer costs ~16 ms of CPU that
  // most runs never need. The captured getter of the lazy `setImmediate` global loads it, so the view
  // lists the full table, exactly as it did when the harness loaded that layer itself at start.
  const realOps = core.ops;
  const immDesc = ObjectGetOwnPropertyDescriptor(globalThis, "setImmediate");
  const loadNodeLayer = immDesc && typeof immDesc.get === "function" ? immDesc.get : null;
  let opsView = null;
  ObjectDefineProperty(coreView, "ops", {
    get() {
      if (opsView === null) {
        if (loadNodeLayer !== null) {
          try {
            call0(loadNodeLayer, globalThis);
          } catch { /* list what is there */ }
        }
        const v = nullObj();
        const names = ObjectKeys(realOps);
        for (let i = 0; i < names.length; i++) v[names[i]] = blocked(`Deno[Deno.internal].core.ops.${names[i]}`);
        opsView = ObjectFreeze(v);
      }
      return opsView;
    },
    set: undefined,
    enumerable: true,
    configurable: false,
  });
  view.core = ObjectFreeze(coreView);
  ObjectDefineProperty(Deno, Deno.internal, { value: ObjectFreeze(view), writable: false, configurable: false, enumerable: false });
} catch { /* ignore */ }

// Uncaught errors from stray callbacks or floating promises must not kill the run before its result.
globalThis.addEventListener("error", (e) => e.preventDefault());
globalThis.addEventListener("unhandledrejection", (e) => e.preventDefault());

// ---- the run ----------------------------------------------------------------------------------------
const BRIDGE_OPS = ObjectFreeze({ search: true, describe: true, run: true });
const pendingBridge = new MapCtor();
let nextBridgeId = 1;
let started = false;
let finished = false;
let limits = { maxOutputBytes: 1048576, maxBridgeCalls: 100 };
let consoleBytes = 0;
let consoleTruncated = false;
// The supervisor forwards at most this many progress frames per run (main.ts MAX_PROGRESS); later calls send nothing.
const MAX_PROGRESS = 100;
let progressFrames = 0;
const NumberIsFinite = Number.isFinite;

class AmcpError extends ErrorCtor {
  constructor(code, message) {
    super(message);
    this.name = "AmcpError";
    this.code = code;
  }
}

function bridge(op, args) {
  return new PromiseCtor((resolve, reject) => {
    if (finished) return reject(new AmcpError("FINISHED", "the run has finished"));
    const id = nextBridgeId++;
    const frame = nullObj();
    frame.type = "bridge";
    frame.id = id;
    frame.op = op;
    frame.args = args;
    let line;
    try {
      line = JSONStringify(frame);
    } catch (e) {
      return reject(new TypeErrorCtor(`amcp.${op}: arguments are not JSON-serializable (${safeMessage(e)})`));
    }
    const entry = nullObj();
    entry.resolve = resolve;
    entry.reject = reject;
    call2(MapSet, pendingBridge, id, entry);
    writeRaw(line + "\n");
    requestRead();
  });
}

function onBridgeResult(msg) {
  const entry = call1(MapGet, pendingBridge, msg.id);
  if (!entry) return;
  call1(MapDelete, pendingBridge, msg.id);
  if (msg.ok === true) entry.resolve(msg.value);
  else {
    const err = msg.error ?? {};
    entry.reject(new AmcpError(StringCtor(err.code ?? "ERROR"), StringCtor(err.message ?? "bridge call failed")));
  }
}

const amcp = ObjectFreeze({
  search(query, opts) {
    const args = nullObj();
    if (query !== undefined) args.query = query;
    if (opts && opts.limit !== undefined) args.limit = opts.limit;
    return bridge("search", args);
  },
  describe(name) {
    const args = nullObj();
    args.name = name;
    return bridge("describe", args);
  },
  run(name, args) {
    const a = nullObj();
    a.name = name;
    a.args = args === undefined ? {} : args;
    return bridge("run", a);
  },
  // Reports progress to the MCP client when it asked for it; returns at once, never waits for an answer.
  progress(done, total, message) {
    if (typeof done !== "number" || !NumberIsFinite(done) || done < 0) {
      throw new TypeErrorCtor("amcp.progress: done must be a finite number >= 0");
    }
    if (total !== undefined && total !== null && (typeof total !== "number" || !NumberIsFinite(total) || total <= 0)) {
      throw new TypeErrorCtor("amcp.progress: total must be a finite number > 0, or left out");
    }
    if (finished || progressFrames >= MAX_PROGRESS) return;
    progressFrames++;
    const frame = nullObj();
    frame.type = "progress";
    frame.done = done;
    if (total !== undefined && total !== null) frame.total = total;
    if (message !== undefined && message !== null) frame.message = call2(StringSlice, safeString(message), 0, 200);
    send(frame);
  },
  AmcpError,
});

function safeString(v) {
  try {
    return typeof v === "string" ? v : StringCtor(v);
  } catch {
    return "[unprintable]";
  }
}
function safeMessage(e) {
  try {
    return safeString(e && typeof e === "object" ? e.message : e);
  } catch {
    return "[unprintable]";
  }
}
function formatArg(a) {
  if (typeof a === "string") return a;
  try {
    return inspect(a, { depth: 4, colors: false, strAbbreviateSize: 10000, iterableLimit: 200 });
  } catch {
    return safeString(a);
  }
}
function makeConsoleMethod(level) {
  return function (...args) {
    if (finished || consoleTruncated) return;
    let text = "";
    for (let i = 0; i < args.length; i++) text += (i ? " " : "") + formatArg(args[i]);
    const size = call0(TypedArrayLength, call1(TextEncoderEncode, encoder, text));
    const frame = nullObj();
    frame.type = "console";
    frame.level = level;
    if (consoleBytes + size > limits.maxOutputBytes) {
      const room = limits.maxOutputBytes - consoleBytes;
      frame.text = call2(StringSlice, text, 0, room > 0 ? room : 0);
      frame.truncated = true;
      consoleTruncated = true;
      consoleBytes = limits.maxOutputBytes;
    } else {
      frame.text = text;
      consoleBytes += size;
    }
    send(frame);
  };
}
// Its methods are fixed (non-writable, non-configurable), but the object stays extensible: the first use of
// `process` boots Deno's Node layer, which adds its stream fields to the global console, and on a frozen
// console that boot throws before the `process` lock-down (lockProcess) is ever reached.
const sandboxConsole = {}; // an ordinary object, as a console is (String(console) works)
for (const [name, level] of [["log", "log"], ["info", "info"], ["warn", "warn"], ["error", "error"], ["debug", "debug"], ["trace", "debug"], ["dir", "log"], ["table", "log"]]) {
  ObjectDefineProperty(sandboxConsole, name, { value: makeConsoleMethod(level), writable: false, configurable: false, enumerable: true });
}
// console.* inside the sandbox goes through the bridge, not to the process's stdout.
try {
  ObjectDefineProperty(globalThis, "console", { value: sandboxConsole, writable: false, configurable: false });
} catch { /* ignore */ }

// Stack frames of the harness say nothing useful to the caller; keep the error line and user frames.
const StringSplit = String.prototype.split;
const ArrayJoin = Array.prototype.join;
const ArrayPush = Array.prototype.push;
function trimStack(stack) {
  const lines = call1(StringSplit, stack, "\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (call1(StringIndexOf, l, "harness.js") !== -1) continue;
    call1(ArrayPush, out, l);
  }
  return call1(ArrayJoin, out, "\n");
}
function describeError(e) {
  const out = nullObj();
  try {
    if (e !== null && (typeof e === "object" || typeof e === "function")) {
      out.name = safeString(e.name ?? "Error");
      out.message = safeString(e.message ?? "");
      const stack = e.stack;
      if (stack !== undefined) out.stack = trimStack(call2(StringSlice, safeString(stack), 0, 16384));
    } else {
      out.name = "Error";
      out.message = safeString(e);
    }
  } catch {
    out.name = "Error";
    out.message = "[error could not be read]";
  }
  return out;
}

function sendResult(ok, payload) {
  if (finished) return;
  finished = true;
  if (ok) {
    // `payload` is already a JSON text (or undefined for `undefined`).
    writeRaw(payload === undefined ? '{"type":"result","ok":true}\n' : '{"type":"result","ok":true,"value":' + payload + "}\n");
  } else {
    const frame = nullObj();
    frame.type = "result";
    frame.ok = false;
    frame.error = payload.error;
    if (payload.truncated) frame.truncated = true;
    send(frame);
  }
}

// Serialize with the captured JSON.stringify, bailing out early (before building a huge string) once
// the result is certainly over maxOutputBytes: a UTF-16 length never exceeds the UTF-8 byte length.
const TOO_BIG = { tooBig: true };
function serializeResult(value) {
  const cap = limits.maxOutputBytes;
  let approx = 0;
  const replacer = function (key, v) {
    approx += key.length + 4;
    if (typeof v === "string") approx += v.length;
    else if (typeof v !== "object" || v === null) approx += 8;
    if (approx > cap) throw TOO_BIG;
    return v;
  };
  let json;
  try {
    json = JSONStringify(value, replacer);
  } catch (e) {
    if (e === TOO_BIG) return { tooBig: true };
    return { error: describeError(e) };
  }
  if (json === undefined) return { json: undefined };
  const bytes = call0(TypedArrayLength, call1(TextEncoderEncode, encoder, json));
  if (bytes > cap) return { tooBig: true };
  return { json };
}

async function runCode(msg) {
  const code = msg.code;
  const lim = msg.limits ?? {};
  limits = {
    maxOutputBytes: NumberIsSafeInteger(lim.maxOutputBytes) ? lim.maxOutputBytes : 1048576,
    maxBridgeCalls: NumberIsSafeInteger(lim.maxBridgeCalls) ? lim.maxBridgeCalls : 100,
  };
  if (typeof code !== "string") {
    return sendResult(false, { error: { name: "TypeError", message: "code must be a string" } });
  }
  // The supervisor has parsed exactly this text (src/check.ts, same wrapper) and refused it if it has an
  // import: with eval/new Function off (V8 flag) and Worker/evalContext/node:vm out of reach, import is the
  // only way left to the module loader. The harness cannot check: user code shares this isolate.
  const wrapped = "(async function (amcp, input, console) {" + code + "\n})";
  let fn;
  const [value, err] = evalContext(wrapped, "amcp:code");
  if (err) {
    const e = err.thrown ?? err;
    return sendResult(false, { error: describeError(e) });
  }
  fn = value;
  if (typeof fn !== "function") {
    return sendResult(false, { error: { name: "SyntaxError", message: "code is not a function body" } });
  }
  let result;
  try {
    result = await fn(amcp, msg.input, sandboxConsole);
  } catch (e) {
    return sendResult(false, { error: describeError(e) });
  }
  const s = serializeResult(result);
  if (ObjectHasOwn(s, "tooBig")) {
    return sendResult(false, {
      error: { name: "OutputLimitError", message: `result exceeds maxOutputBytes (${limits.maxOutputBytes} bytes)` },
      truncated: true,
    });
  }
  if (ObjectHasOwn(s, "error")) return sendResult(false, { error: s.error });
  sendResult(true, s.json);
}

onFrame = (msg) => {
  if (msg === null || typeof msg !== "object") return;
  if (msg.type === "start") {
    if (started) return;
    started = true;
    call2(PromiseThen, runCode(msg), undefined, (e) => sendResult(false, { error: describeError(e) }));
  } else if (msg.type === "bridge_result") {
    onBridgeResult(msg);
  }
};

// Warm-up: run the whole honest path once on a dummy program (compile, call, bridge-frame encoding,
// result serialization, frame decoding) so that V8's lazy compilation of the harness and of Deno's
// internals happens now, while the child waits in the pool, not on the run's critical path.
function warmUp() {
  const [fn] = evalContext("(async function (amcp, input, console) {return {a: [1, 'x', null], input}\n})", "amcp:warmup");
  const p = fn(amcp, { warm: true }, sandboxConsole);
  call2(PromiseThen, p, (v) => {
    serializeResult(v);
    describeError(new ErrorCtor("warm"));
    formatArg({ a: 1 });
  }, () => {});
  JSONStringify({ type: "bridge", id: 0, op: "run", args: { name: "x", args: {} } });
  call1(TextEncoderEncode, encoder, "{}");
  JSONParse(call1(TextDecoderDecode, decoder, call1(TextEncoderEncode, encoder, '{"type":"bridge_result","id":0,"ok":true,"value":1}')));
}
try {
  warmUp();
} catch { /* best effort */ }

// The ready frame goes out from a macrotask so the warm-up's promise jobs have all run first.
SetImmediate(() => {
  send({ type: "ready" });
  requestRead();
});
