// HTTP/1.1 request heads and WebSocket framing (RFC 6455, server side) over Deno's own TCP connections.
//
// Why not a library: `Deno.serve` rejects the upgrade Liberty's client sends (it carries
// `Content-Length: 0`), and `node:http` + the `ws` package under Deno's Node layer cost most of the
// supervisor's CPU per bridge round trip. This file is deliberately small and strict. It only serves what
// the runner needs: `GET /healthz` and one WebSocket per connection, text frames, no extensions.
//
// Everything read here comes from the network before or after the token check, so every length is bounded
// before anything is buffered: a request head at most MAX_HEAD_BYTES, a control frame 125 bytes, a
// message at most `maxMessageBytes` (the header of a frame that would take it over is enough to refuse it;
// its payload is skipped, never buffered).

export const MAX_HEAD_BYTES = 16 * 1024;
const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const CRLF2 = [13, 10, 13, 10];
const latin1 = new TextDecoder("latin1");
const encoder = new TextEncoder();

export interface RequestHead {
  method: string;
  path: string;
  /** Lower-cased names. A repeated header keeps every value (see `header`). */
  headers: Map<string, string[]>;
}

/** The single value of a header, null if absent; `undefined` if it was sent more than once. */
export function header(h: RequestHead, name: string): string | null | undefined {
  const v = h.headers.get(name);
  if (!v) return null;
  return v.length === 1 ? v[0] : undefined;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REQUEST_LINE = /^([A-Z]{1,16}) (\/[\x21-\x7e]*) HTTP\/1\.[01]$/;
// field-value: visible ASCII, obs-text, spaces and tabs; no CR, LF or NUL.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Parses a request head (request line and header lines, without the final CRLF CRLF). */
export function parseHead(bytes: Uint8Array): RequestHead | null {
  const text = latin1.decode(bytes);
  const lines = text.split("\r\n");
  const m = REQUEST_LINE.exec(lines[0]);
  if (!m) return null;
  const headers = new Map<string, string[]>();
  if (lines.length > 101) return null; // 100 header lines are plenty
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(":");
    if (colon <= 0) return null; // also refuses obs-fold (a line starting with a space) and empty names
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return null;
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "");
    if (!FIELD_VALUE.test(value)) return null;
    const key = name.toLowerCase();
    const list = headers.get(key);
    if (list) list.push(value);
    else headers.set(key, [value]);
  }
  return { method: m[1], path: m[2].split("?")[0], headers };
}

export type HeadResult = { head: RequestHead; rest: Uint8Array } | { error: 400 | 431 | 408 } | null;

/** Reads a request head from `conn` (null: the peer closed before sending one). */
export async function readHead(conn: Deno.Conn, timeoutMs: number): Promise<HeadResult> {
  const buf = new Uint8Array(MAX_HEAD_BYTES + 4);
  let len = 0;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      conn.close();
    } catch { /* closed */ }
  }, timeoutMs);
  try {
    for (;;) {
      if (len === buf.length) return { error: 431 };
      let n: number | null;
      try {
        n = await conn.read(buf.subarray(len));
      } catch {
        return timedOut ? { error: 408 } : null;
      }
      if (n === null) return timedOut ? { error: 408 } : null;
      const from = Math.max(0, len - 3);
      len += n;
      const end = indexOfSeq(buf, CRLF2, from, len);
      if (end >= 0) {
        if (end > MAX_HEAD_BYTES) return { error: 431 };
        const head = parseHead(buf.subarray(0, end));
        if (!head) return { error: 400 };
        return { head, rest: buf.slice(end + 4, len) };
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

function indexOfSeq(b: Uint8Array, seq: number[], from: number, to: number): number {
  for (let i = b.indexOf(seq[0], from); i !== -1 && i + seq.length <= to; i = b.indexOf(seq[0], i + 1)) {
    let ok = true;
    for (let j = 1; j < seq.length; j++) {
      if (b[i + j] !== seq[j]) {
        ok = false;
        break;
      }
    }
    if (ok) return i;
  }
  return -1;
}

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  408: "Request Timeout",
  426: "Upgrade Required",
  431: "Request Header Fields Too Large",
};

/** A complete HTTP/1.1 response; the connection is always closed after it (no keep-alive). */
export function httpResponse(status: number, headers: Record<string, string>, body = ""): Uint8Array {
  const b = encoder.encode(body);
  let s = `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ""}\r\n`;
  for (const [k, v] of Object.entries(headers)) s += `${k}: ${v}\r\n`;
  s += `Content-Length: ${b.length}\r\nConnection: close\r\n\r\n`;
  const h = encoder.encode(s);
  const out = new Uint8Array(h.length + b.length);
  out.set(h);
  out.set(b, h.length);
  return out;
}

/** Write all of `data` (a write may be partial). */
export async function writeAll(conn: Deno.Conn, data: Uint8Array) {
  let off = 0;
  while (off < data.length) off += await conn.write(off ? data.subarray(off) : data);
}

/**
 * Checks the upgrade headers of an opening handshake (RFC 6455 §4.2.1) and returns the
 * `Sec-WebSocket-Accept` value, or an error for the response. Authorization and path are the caller's.
 */
export async function acceptKey(h: RequestHead): Promise<string | { status: 400 | 426; why: string }> {
  if (h.method !== "GET") return { status: 400, why: "the upgrade must be a GET" };
  const tokens = (name: string) => (h.headers.get(name) ?? []).join(",").toLowerCase().split(",").map((t) => t.trim());
  if (!tokens("upgrade").includes("websocket")) return { status: 400, why: "Upgrade: websocket missing" };
  if (!tokens("connection").includes("upgrade")) return { status: 400, why: "Connection: Upgrade missing" };
  if (header(h, "sec-websocket-version") !== "13") return { status: 426, why: "Sec-WebSocket-Version must be 13" };
  const key = header(h, "sec-websocket-key");
  if (typeof key !== "string" || !/^[A-Za-z0-9+/]{22}==$/.test(key)) return { status: 400, why: "bad Sec-WebSocket-Key" };
  // A body on the upgrade would be read as frames: refuse it. `Content-Length: 0` (Liberty) is fine.
  const cl = h.headers.get("content-length");
  if (h.headers.has("transfer-encoding") || (cl && (cl.length !== 1 || !/^0+$/.test(cl[0])))) {
    return { status: 400, why: "an upgrade request may not carry a body" };
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", encoder.encode(key + GUID)));
  return btoa(String.fromCharCode(...digest));
}

export function upgradeResponse(accept: string): Uint8Array {
  return encoder.encode(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
}

/** Close codes used here (RFC 6455 §7.4.1). */
export const CLOSE_NORMAL = 1000;
export const CLOSE_PROTOCOL = 1002;
export const CLOSE_INVALID_DATA = 1007;
export const CLOSE_TOO_BIG = 1009;

const READ_BUF = 64 * 1024;
/** How long to wait for the peer's close frame (or EOF) after ours before dropping the connection. */
const CLOSE_WAIT_MS = 2000;

/**
 * One server-side WebSocket over a Deno TCP connection, after the 101 response.
 *
 * - Reads: one `conn.read` loop into a reused buffer; frames are decoded incrementally, client frames must
 *   be masked, RSV bits must be 0 (no extensions), control frames must be final and at most 125 bytes,
 *   continuation frames must continue something, text must be UTF-8. Pings are answered with pongs, also
 *   in the middle of a fragmented message. A violation calls `onViolation(code, why)` and closes with that
 *   code.
 * - A message whose frames add up to more than `maxMessageBytes` calls `onTooBig` as soon as the frame
 *   header that goes over arrives; that message's payload is then skipped, not buffered.
 * - After our close frame, data frames are skipped; the TCP connection is closed when the peer's close
 *   frame (or EOF) arrives, or after CLOSE_WAIT_MS.
 * - Writes: one `conn.write` per frame, in order; frames queued while a write is in flight go out together
 *   in the next one. `bufferedAmount` is what is queued and not yet written (for back-pressure).
 */
export class WsConnection {
  onText: ((text: string, bytes: number) => void) | null = null;
  onBinary: ((bytes: number) => void) | null = null;
  onTooBig: ((bytes: number) => void) | null = null;
  onViolation: ((code: number, why: string) => void) | null = null;
  /** The connection is gone (peer close frame, EOF, error, or our close completed). Called once. */
  onClose: ((code: number | null) => void) | null = null;

  bufferedAmount = 0;
  private queue: Uint8Array[] = [];
  private writing = false;
  private drainWaiters: (() => void)[] = [];
  private closeSent = false;
  private closed = false;
  /** A protocol violation was seen: nothing more is decoded from this connection. */
  private failed = false;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;

  // decoder state
  private hdr = new Uint8Array(14);
  private hdrLen = 0;
  private hdrNeed = 2;
  private opcode = 0;
  private fin = false;
  private mask = new Uint8Array(4);
  private payloadLen = 0;
  private payloadPos = 0;
  private skipping = false; // this frame's payload is discarded
  private frame: Uint8Array | null = null; // this frame's unmasked payload, when kept
  private msgOpcode = 0; // 0: no fragmented message in progress
  private msgParts: Uint8Array[] = [];
  private msgLen = 0;
  private msgSkip = false; // the message in progress is discarded (too big, or after our close)
  private utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

  constructor(private conn: Deno.TcpConn, private maxMessageBytes: number, leftover?: Uint8Array) {
    this.readLoop(leftover);
  }

  private async readLoop(leftover?: Uint8Array) {
    try {
      if (leftover && leftover.length) this.feed(leftover);
      const buf = new Uint8Array(READ_BUF);
      while (!this.closed) {
        const n = await this.conn.read(buf);
        if (n === null) break;
        this.feed(buf.subarray(0, n));
      }
    } catch { /* reset, or closed by us */ }
    this.destroy(null);
  }

  /** Decodes as many frames as `chunk` completes. */
  private feed(chunk: Uint8Array) {
    let i = 0;
    const n = chunk.length;
    while (i < n && !this.closed && !this.failed) {
      if (this.hdrLen < this.hdrNeed) {
        // Header: 2 bytes, then the extended length and the mask key.
        while (this.hdrLen < this.hdrNeed && i < n) this.hdr[this.hdrLen++] = chunk[i++];
        if (this.hdrLen < this.hdrNeed) return;
        if (this.hdrNeed === 2) {
          const len7 = this.hdr[1] & 0x7f;
          this.hdrNeed = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + 4;
          if (!(this.hdr[1] & 0x80)) return this.violation(CLOSE_PROTOCOL, "client frames must be masked");
          continue;
        }
        if (!this.beginFrame()) return;
        if (this.payloadLen === 0) {
          this.endFrame();
          continue;
        }
      }
      // Payload.
      const take = Math.min(n - i, this.payloadLen - this.payloadPos);
      if (this.frame) {
        const dst = this.frame;
        const m = this.mask;
        let p = this.payloadPos;
        for (let k = 0; k < take; k++, p++) dst[p] = chunk[i + k] ^ m[p & 3];
      }
      i += take;
      this.payloadPos += take;
      if (this.payloadPos === this.payloadLen) this.endFrame();
    }
  }

  /** The header is complete: check it and set up the payload. False on a violation. */
  private beginFrame(): boolean {
    const h = this.hdr;
    this.fin = (h[0] & 0x80) !== 0;
    this.opcode = h[0] & 0x0f;
    if (h[0] & 0x70) return this.violation(CLOSE_PROTOCOL, "RSV bits set (no extension was negotiated)"), false;
    let len = h[1] & 0x7f;
    let off = 2;
    if (len === 126) {
      len = (h[2] << 8) | h[3];
      off = 4;
    } else if (len === 127) {
      // 64-bit length, most significant bit 0; anything at or above 2^53 is beyond every cap anyway.
      const hi = ((h[2] << 24) >>> 0) + (h[3] << 16) + (h[4] << 8) + h[5];
      if (hi & 0x80000000) return this.violation(CLOSE_PROTOCOL, "64-bit length with the top bit set"), false;
      len = hi * 0x100000000 + (((h[6] << 24) >>> 0) + (h[7] << 16) + (h[8] << 8) + h[9]);
      off = 10;
    }
    this.mask[0] = h[off];
    this.mask[1] = h[off + 1];
    this.mask[2] = h[off + 2];
    this.mask[3] = h[off + 3];
    this.payloadLen = len;
    this.payloadPos = 0;
    this.frame = null;
    this.skipping = false;
    const op = this.opcode;
    if (op >= 8) {
      if (op > 10) return this.violation(CLOSE_PROTOCOL, `reserved control opcode ${op}`), false;
      if (!this.fin) return this.violation(CLOSE_PROTOCOL, "fragmented control frame"), false;
      if (len > 125) return this.violation(CLOSE_PROTOCOL, "control frame over 125 bytes"), false;
      this.frame = new Uint8Array(len);
      return true;
    }
    if (op === 0) {
      if (this.msgOpcode === 0) return this.violation(CLOSE_PROTOCOL, "continuation frame without a message to continue"), false;
    } else if (op === 1 || op === 2) {
      if (this.msgOpcode !== 0) return this.violation(CLOSE_PROTOCOL, "new message before the previous one was finished"), false;
      this.msgOpcode = op;
      this.msgParts = [];
      this.msgLen = 0;
      this.msgSkip = this.closeSent;
    } else return this.violation(CLOSE_PROTOCOL, `reserved data opcode ${op}`), false;
    if (!this.msgSkip && this.msgLen + len > this.maxMessageBytes) {
      // Refused on the header alone; the payload (of this frame and the rest of the message) is skipped.
      this.msgSkip = true;
      this.msgParts = [];
      this.onTooBig?.(this.msgLen + len);
    }
    if (this.msgSkip) this.skipping = true;
    else this.frame = new Uint8Array(len);
    return true;
  }

  private endFrame() {
    const op = this.opcode;
    const data = this.frame ?? new Uint8Array(0);
    this.hdrLen = 0;
    this.hdrNeed = 2;
    this.frame = null;
    if (op >= 8) return this.control(op, data);
    if (!this.skipping && data.length) {
      this.msgParts.push(data);
      this.msgLen += data.length;
    }
    if (!this.fin) return;
    const msgOp = this.msgOpcode;
    const skip = this.msgSkip;
    const parts = this.msgParts;
    const len = this.msgLen;
    this.msgOpcode = 0;
    this.msgParts = [];
    this.msgLen = 0;
    this.msgSkip = false;
    if (skip) return;
    if (msgOp === 2) return this.onBinary?.(len);
    let bytes: Uint8Array;
    if (parts.length === 1) bytes = parts[0];
    else {
      bytes = new Uint8Array(len);
      let o = 0;
      for (const p of parts) {
        bytes.set(p, o);
        o += p.length;
      }
    }
    let text: string;
    try {
      text = this.utf8.decode(bytes);
    } catch {
      return this.violation(CLOSE_INVALID_DATA, "text frame is not valid UTF-8");
    }
    this.onText?.(text, len);
  }

  private control(op: number, data: Uint8Array) {
    if (op === 9) { // ping
      if (!this.closeSent) this.sendFrame(0xa, data);
      return;
    }
    if (op === 10) return; // pong
    // close
    let code: number = CLOSE_NORMAL;
    if (data.length === 1) return this.violation(CLOSE_PROTOCOL, "close frame with a 1-byte payload");
    if (data.length >= 2) {
      code = (data[0] << 8) | data[1];
      const valid = (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1011) || (code >= 3000 && code <= 4999);
      if (!valid) return this.violation(CLOSE_PROTOCOL, `invalid close code ${code}`);
      try {
        this.utf8.decode(data.subarray(2));
      } catch {
        return this.violation(CLOSE_INVALID_DATA, "close reason is not valid UTF-8");
      }
    }
    if (!this.closeSent) this.sendClose(code);
    this.destroy(code);
  }

  private violation(code: number, why: string) {
    if (this.closed || this.failed) return;
    this.failed = true;
    this.onViolation?.(code, why);
    this.close(code);
  }

  // ---- writing ----------------------------------------------------------------------------------------

  sendText(text: string) {
    if (this.closeSent || this.closed) return;
    this.sendFrame(0x1, encoder.encode(text));
  }

  private sendFrame(opcode: number, payload: Uint8Array) {
    const len = payload.length;
    const hl = len < 126 ? 2 : len < 65536 ? 4 : 10;
    const f = new Uint8Array(hl + len);
    f[0] = 0x80 | opcode;
    if (hl === 2) f[1] = len;
    else if (hl === 4) {
      f[1] = 126;
      f[2] = len >>> 8;
      f[3] = len & 0xff;
    } else {
      f[1] = 127; // 64-bit length; payloads here are far below 2^32, so bytes 2..5 stay 0
      f[6] = len >>> 24;
      f[7] = (len >>> 16) & 0xff;
      f[8] = (len >>> 8) & 0xff;
      f[9] = len & 0xff;
    }
    f.set(payload, hl);
    this.enqueue(f);
  }

  private enqueue(bytes: Uint8Array) {
    this.bufferedAmount += bytes.length;
    this.queue.push(bytes);
    if (!this.writing) this.writeLoop();
  }

  private async writeLoop() {
    this.writing = true;
    try {
      while (this.queue.length) {
        let data: Uint8Array;
        if (this.queue.length === 1) data = this.queue[0];
        else {
          let total = 0;
          for (const q of this.queue) total += q.length;
          data = new Uint8Array(total);
          let o = 0;
          for (const q of this.queue) {
            data.set(q, o);
            o += q.length;
          }
        }
        this.queue = [];
        await writeAll(this.conn, data);
        this.bufferedAmount -= data.length;
      }
    } catch {
      this.queue = [];
      this.bufferedAmount = 0;
      this.writing = false;
      this.destroy(null);
      return;
    }
    this.writing = false;
    const w = this.drainWaiters;
    this.drainWaiters = [];
    for (const r of w) r();
    if (this.closed) this.closeTcp();
  }

  /** Resolves when everything queued so far is written (or the connection is gone). */
  drained(): Promise<void> {
    if (!this.writing || this.closed) return Promise.resolve();
    return new Promise((r) => this.drainWaiters.push(r));
  }

  private sendClose(code: number, reason = "") {
    this.closeSent = true;
    const r = encoder.encode(reason).subarray(0, 123);
    const p = new Uint8Array(2 + r.length);
    p[0] = code >>> 8;
    p[1] = code & 0xff;
    p.set(r, 2);
    this.sendFrame(0x8, p);
  }

  /** Start the closing handshake: send a close frame (after everything queued) and wait for the peer's. */
  close(code = CLOSE_NORMAL, reason = "") {
    if (this.closeSent || this.closed) return;
    this.sendClose(code, reason);
    this.closeTimer = setTimeout(() => this.destroy(null), CLOSE_WAIT_MS);
  }

  /** The connection is over: flush what is queued, then close the TCP connection. Idempotent. */
  private destroy(code: number | null) {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.closeTimer);
    if (!this.writing) this.closeTcp();
    const cb = this.onClose;
    this.onClose = null;
    cb?.(code);
    const w = this.drainWaiters;
    this.drainWaiters = [];
    for (const r of w) r();
  }

  private closeTcp() {
    try {
      this.conn.close();
    } catch { /* closed already */ }
  }
}
