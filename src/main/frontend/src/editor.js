// Turns <textarea data-editor="json|javascript"> into CodeMirror 6 editors. The textarea stays the form field:
// every change is copied back, so forms post normally and work without JavaScript too.
// Loaded as an external script (the admin CSP forbids inline scripts). CodeMirror writes its styles into a style
// element, which the CSP admits only with the page's style nonce (meta name="style-nonce").
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { javascript, javascriptLanguage } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";
import { autocompletion } from "@codemirror/autocomplete";

/**
 * Completes from the gateway's typed declarations (data-completions): inside amcp.run("…") / amcp.describe("…") the
 * tool names with their signatures; inside amcp.run("name", {…}) that tool's argument names with their types; and
 * after `r.` where `const r = await amcp.run("name", …)`, the fields of that tool's result (its output schema).
 * `tools` maps each callable tool to {signature, args: [{name, type, required, doc?}], result: [...]}.
 */
function amcpCompletion(tools) {
  const names = Object.keys(tools);
  const field = (f, type, apply) => ({
    label: f.name,
    type,
    detail: f.type + (f.required ? "" : " (optional)"),
    info: f.doc || undefined,
    apply,
  });
  return (context) => {
    const name = context.matchBefore(/amcp\.(?:run|describe)\(\s*["'`][\w.-]*/);
    if (name) {
      const quote = name.text.search(/["'`]/);
      return {
        from: name.from + quote + 1,
        options: names.map((n) => ({ label: n, type: "function", detail: tools[n].signature })),
        validFor: /^[\w.-]*$/,
      };
    }
    const before = context.state.sliceDoc(Math.max(0, context.pos - 600), context.pos);
    // After `variable.` where the variable holds a tool's result.
    const member = /([A-Za-z_$][\w$]*)\.([\w$]*)$/.exec(before);
    if (member) {
      const whole = context.state.sliceDoc(0, context.pos);
      const assigned = new RegExp(
        "(?:const|let|var)\\s+" + member[1].replace(/\$/g, "\\$") + "\\s*=\\s*await\\s+amcp\\.run\\(\\s*([\"'`])([\\w.-]+)\\1",
      ).exec(whole);
      const tool = assigned && tools[assigned[2]];
      if (tool && tool.result.length) {
        return {
          from: context.pos - member[2].length,
          options: tool.result.map((f) => field(f, "property")),
          validFor: /^[\w$]*$/,
        };
      }
    }
    // Inside the argument object of a literal call, possibly spread over several lines.
    const args = /amcp\.run\(\s*(["'`])([\w.-]+)\1\s*,\s*\{([^{}]*)$/.exec(before);
    if (!args || !tools[args[2]]) return null;
    const word = context.matchBefore(/[\w$]*/);
    const prefix = args[3].slice(0, args[3].length - word.text.length);
    if (!/(^|,)\s*$/.test(prefix)) return null; // after a key: a value is being typed
    if (word.text === "" && !context.explicit) return null;
    return {
      from: word.from,
      options: tools[args[2]].args.map((f) => field(f, "property", f.name + ": ")),
      validFor: /^[\w$]*$/,
    };
  };
}

const STYLE_NONCE = (document.querySelector('meta[name="style-nonce"]') || {}).content || "";

/** Selects in the uses list (creating options when needed) each of these tool names. */
function selectUses(select, names) {
  for (const name of names) {
    let option = [...select.options].find((o) => o.value === name);
    if (!option) {
      option = new Option(name, name);
      select.add(option);
    }
    option.selected = true;
  }
}

/**
 * The tool names the code passes literally to amcp.run / amcp.describe, as the gateway's runner reads them with
 * its parser (the same reading a save checks `uses` against); none when the runner cannot be asked.
 */
async function analyzedNames(url, form, code) {
  const body = new URLSearchParams({ _csrf: form.elements._csrf.value, code });
  try {
    const response = await fetch(url, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } });
    return response.ok ? (await response.json()).names || [] : [];
  } catch (e) {
    return [];
  }
}

/**
 * Keeps the uses list filled from the code: after the editor loses focus, and before the form is sent (the submit
 * waits for the answer, then sends the form itself).
 */
function prefillUses(textarea, select) {
  const form = textarea.form;
  const url = textarea.dataset.analyze;
  if (!form || !url) return () => {};
  let analyzed = null;
  let pending = null;
  const refresh = () => {
    const code = textarea.value;
    if (code === analyzed) return pending || Promise.resolve();
    analyzed = code;
    pending = code.trim() ? analyzedNames(url, form, code).then((names) => selectUses(select, names)) : Promise.resolve();
    return pending;
  };
  form.addEventListener("submit", (event) => {
    if (textarea.value === analyzed && !pending) return;
    event.preventDefault();
    refresh().finally(() => {
      pending = null;
      form.submit();
    });
  });
  return () => {
    refresh().finally(() => (pending = null));
  };
}

function languageFor(textarea) {
  const kind = textarea.dataset.editor;
  if (kind === "javascript") {
    let tools = {};
    try {
      tools = JSON.parse(textarea.dataset.completions || "{}");
    } catch (e) {
      tools = {};
    }
    return [javascript(), javascriptLanguage.data.of({ autocomplete: amcpCompletion(tools) })];
  }
  return [json()];
}

function enhance(textarea) {
  const uses = textarea.dataset.uses ? document.getElementById(textarea.dataset.uses) : null;
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        basicSetup,
        autocompletion(),
        EditorView.cspNonce.of(STYLE_NONCE),
        ...languageFor(textarea),
        EditorState.readOnly.of(textarea.readOnly || textarea.disabled),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) textarea.value = update.state.doc.toString();
        }),
        EditorView.contentAttributes.of({ "aria-label": textarea.getAttribute("aria-label") || textarea.name }),
      ],
    }),
  });
  if (uses) {
    // Only finished code counts: the list is filled when the editor loses focus and when the form is sent.
    view.contentDOM.addEventListener("blur", prefillUses(textarea, uses));
  }
  textarea.classList.add("cm-source");
  textarea.hidden = true;
  textarea.insertAdjacentElement("afterend", view.dom);
  view.dom.classList.add("cm-field");
  view.dom.dataset.for = textarea.id;
}

document.querySelectorAll("textarea[data-editor]").forEach(enhance);
