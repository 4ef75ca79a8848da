// Plain one-line logs on stderr. Never log code, inputs, values or the token.
export function log(msg: string) {
  console.error(`${new Date().toISOString()} [code-runner] ${msg}`);
}
