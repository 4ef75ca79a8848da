// The code check: a real parse (acorn) of a program, on the supervisor's side, before any sandbox sees it.
//
// The code is the body of an async function, so it is parsed inside the harness's own wrapper, byte for
// byte: `await` and `return` mean what they will mean at run time, code that closes the wrapper early is
// still one parse, and what V8 compiles is exactly the text acorn checked. Problems: a syntax error, and every `import(...)`, `import` declaration
// and `import.meta`. They are the only ways left to the module loader (eval and new Function are off in the
// sandbox), and the loader would fetch `data:` and `blob:` modules, which neither Deno's flags nor an import
// map can stop. The word `import` elsewhere (strings, comments, property names) is harmless and allowed.
//
// The same walk reads the tool names the code passes literally to amcp.run / amcp.describe (the gateway checks
// them against a code tool's `uses` at save time and pre-fills `uses` in the editor), and marks every place where
// the name cannot be read from the code ("computed"): a name that is not a plain string, amcp.run or amcp.describe
// used other than by a direct call, `amcp` handed on as a value, `amcp[...]`, and `arguments` (which holds amcp).
// This is no scope analysis: a local variable named `amcp` counts as the real one, which errs on the strict side.
// It is an early answer for authors; the gateway's bridge still enforces `uses` on every call at run time.

import { parse } from "acorn";

export interface Problem {
  line: number;
  column: number;
  message: string;
}

/** A tool name read from the code: `amcp.<op>("<name>")` at a 1-based line and column of the user's code. */
export interface ToolCall {
  name: string;
  op: "run" | "describe";
  line: number;
  column: number;
}

/** A place where the code calls or may call a tool whose name cannot be read from the code. */
export interface ComputedCall {
  line: number;
  column: number;
  reason: string;
}

export interface Analysis {
  problems: Problem[];
  calls: ToolCall[];
  computed: ComputedCall[];
}

const NAMED_OPS = new Set(["run", "describe"]);

export const IMPORT_MESSAGE = "import is not available in code mode; call tools with amcp.run";

/** The wrapper of harness.js (runCode); keep both the same. The code starts on line 1 after PREFIX. */
const PREFIX = "(async function (amcp, input, console) {";
const SUFFIX = "\n})";

// deno-lint-ignore no-explicit-any
type Node = any;

/** Every problem of `code`, in source order (empty: fine). Positions are 1-based, in the user's code. */
export function checkCode(code: string): Problem[] {
  return analyzeCode(code).problems;
}

/**
 * The problems of `code`, and the tool names it uses: literal ones and computed places, in source order. Code with
 * a syntax error has no calls (nothing could be read).
 */
export function analyzeCode(code: string): Analysis {
  const lines = code.split(/\r\n|[\n\r\u2028\u2029]/);
  // A position in the wrapped text, mapped back to the user's code; one inside the closing `})` (an
  // unterminated construct) is reported at the end of the code.
  const at = (line: number, column0: number, message: string): Problem => {
    if (line > lines.length) return { line: lines.length, column: lines[lines.length - 1].length + 1, message };
    if (line === 1) return { line: 1, column: Math.max(1, column0 - PREFIX.length + 1), message };
    return { line, column: column0 + 1, message };
  };
  let program: Node;
  try {
    program = parse(PREFIX + code + SUFFIX, {
      ecmaVersion: "latest",
      sourceType: "script",
      locations: true,
      // So that import declarations and import.meta parse as nodes (reported below with the import
      // message) rather than as acorn's "only in a module" errors; exports are reported as errors below.
      allowImportExportEverywhere: true,
    });
  } catch (e) {
    // deno-lint-ignore no-explicit-any
    const err = e as any;
    const message = String(err?.message ?? e).replace(/ \(\d+:\d+\)$/, "");
    const loc = err?.loc ?? { line: 1, column: 0 };
    return { problems: [at(loc.line, loc.column, message)], calls: [], computed: [] };
  }
  const problems: Problem[] = [];
  const calls: ToolCall[] = [];
  const computed: ComputedCall[] = [];
  // Identifiers and members that are no loose use of `amcp`: read calls, the `amcp` of `amcp.x`, property names
  // and keys (`x.amcp`, `{ amcp: 1 }`), labels. The walk visits parents first, so they are marked before their turn.
  const accounted = new Set<Node>();
  const position = (n: Node) => at(n.loc.start.line, n.loc.start.column, "");
  const unreadable = (n: Node, reason: string) => {
    const p = position(n);
    computed.push({ line: p.line, column: p.column, reason });
  };
  walk(program, (n) => {
    if ((n.type === "MemberExpression" || n.type === "MetaProperty") && !n.computed) accounted.add(n.property);
    if ((n.type === "Property" || n.type === "MethodDefinition" || n.type === "PropertyDefinition") && !n.computed && n.key !== n.value) accounted.add(n.key);
    if (n.type === "LabeledStatement" || n.type === "BreakStatement" || n.type === "ContinueStatement") accounted.add(n.label);
    if (n.type === "CallExpression" && isAmcpMember(n.callee) && NAMED_OPS.has(n.callee.property.name)) {
      const op = n.callee.property.name;
      accounted.add(n.callee);
      const name = literalName(n.arguments[0]);
      if (name === null) unreadable(n.arguments[0] ?? n, `the tool name passed to amcp.${op} is computed`);
      else calls.push({ name, op, ...lineColumn(position(n.arguments[0])) });
    } else if (n.type === "MemberExpression" && n.object.type === "Identifier" && n.object.name === "amcp") {
      accounted.add(n.object);
      if (n.computed) unreadable(n, "amcp[...] is computed");
      else if (NAMED_OPS.has(n.property.name) && !accounted.has(n)) unreadable(n, `amcp.${n.property.name} is used other than by a direct call`);
    } else if (n.type === "Identifier" && (n.name === "amcp" || n.name === "arguments") && !accounted.has(n) && n.start >= PREFIX.length) {
      unreadable(n, `${n.name} is used as a value, so the tools it calls cannot be read`);
    }
    if (n.type === "ImportExpression" || n.type === "ImportDeclaration" || (n.type === "MetaProperty" && n.meta?.name === "import")) {
      problems.push(at(n.loc.start.line, n.loc.start.column, IMPORT_MESSAGE));
    } else if (n.type === "ExportNamedDeclaration" || n.type === "ExportDefaultDeclaration" || n.type === "ExportAllDeclaration") {
      problems.push(at(n.loc.start.line, n.loc.start.column, "'export' may only appear in a module; return a value instead"));
    }
  });
  const body = program.body;
  const whole = body.length === 1 && body[0].type === "ExpressionStatement" && body[0].start === 0 && body[0].end === program.end;
  if (!whole && problems.length === 0) {
    // `}); other(); (function () {` parses, but it is not a function body.
    const stray = body.length > 1 ? body[1] : body[0];
    problems.push(at(stray.loc.start.line, stray.loc.start.column, "the code closes the function it runs in (unbalanced braces)"));
  }
  const bySource = (a: { line: number; column: number }, b: { line: number; column: number }) => a.line - b.line || a.column - b.column;
  if (problems.length) return { problems: problems.sort(bySource), calls: [], computed: [] };
  return { problems, calls: calls.sort(bySource), computed: computed.sort(bySource) };
}

const lineColumn = (p: Problem) => ({ line: p.line, column: p.column });

/** `amcp.x` with a plain property name. */
function isAmcpMember(n: Node): boolean {
  return n?.type === "MemberExpression" && !n.computed && n.object.type === "Identifier" && n.object.name === "amcp" &&
    n.property.type === "Identifier";
}

/** The value of a string literal or of a template without substitutions; null for anything else. */
function literalName(n: Node): string | null {
  if (n?.type === "Literal" && typeof n.value === "string") return n.value;
  if (n?.type === "TemplateLiteral" && n.expressions.length === 0) return n.quasis[0].value.cooked ?? null;
  return null;
}

/** Visits every node of an ESTree (acorn's plain objects), depth first, in source order. */
function walk(node: Node, visit: (n: Node) => void) {
  const stack: Node[] = [node];
  while (stack.length) {
    const n = stack.pop();
    visit(n);
    const kids: Node[] = [];
    for (const key in n) {
      if (key === "loc") continue;
      const v = n[key];
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof c.type === "string") kids.push(c);
      } else if (v && typeof v === "object" && typeof v.type === "string") kids.push(v);
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}

/** The first problem in the words of a CodeCheckError (`line L, column C: message`). */
export function describeProblem(p: Problem): string {
  return `line ${p.line}, column ${p.column}: ${p.message}`;
}
