// Plain one-line logs on stderr. Never log code, inputs, values or the token.
//
// A message may carry text from a sandbox (an error's message), so line breaks and other control
// characters are escaped: one call is always exactly one log line, and a run cannot forge others.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

export function escapeLine(msg: string): string {
  return msg.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function log(msg: string) {
  console.error(`${new Date().toISOString()} [code-runner] ${escapeLine(msg)}`);
}
