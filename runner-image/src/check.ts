// The code check: a real parse (acorn) of a program, on the supervisor's side, before any sandbox sees it.
//
// The code is the body of an async function, so it is parsed inside the harness's own wrapper, byte for
// byte: `await` and `return` mean what they will mean at run time, code that closes the wrapper early is
// still one parse, and what V8 compiles is exactly the text acorn checked. Problems: a syntax error, and every `import(...)`, `import` declaration
// and `import.meta`. They are the only ways left to the module loader (eval and new Function are off in the
// sandbox), and the loader would fetch `data:` and `blob:` modules, which neither Deno's flags nor an import
// map can stop. The word `import` elsewhere (strings, comments, property names) is harmless and allowed.

import { parse } from "acorn";

export interface Problem {
  line: number;
  column: number;
  message: string;
}

export const IMPORT_MESSAGE = "import is not available in code mode; call tools with amcp.run";

/** The wrapper of harness.js (runCode); keep both the same. The code starts on line 1 after PREFIX. */
const PREFIX = "(async function (amcp, input, console) {";
const SUFFIX = "\n})";

// deno-lint-ignore no-explicit-any
type Node = any;

/** Every problem of `code`, in source order (empty: fine). Positions are 1-based, in the user's code. */
export function checkCode(code: string): Problem[] {
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
    return [at(loc.line, loc.column, message)];
  }
  const problems: Problem[] = [];
  walk(program, (n) => {
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
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
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
