// Turns <textarea data-editor="json|javascript"> into CodeMirror 6 editors. The textarea stays the form field:
// every change is copied back, so forms post normally and work without JavaScript too.
// Loaded as an external script (the admin CSP forbids inline scripts); CodeMirror injects its styles through
// constructable style sheets, which CSP allows.
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { javascript, javascriptLanguage } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";
import { autocompletion } from "@codemirror/autocomplete";

/** Completes tool names inside amcp.run("…") from the comma-separated data-tool-names attribute. */
function toolNameCompletion(names) {
  return (context) => {
    const match = context.matchBefore(/amcp\.run\(\s*["'][\w.-]*/);
    if (!match) return null;
    const quote = match.text.search(/["']/);
    return {
      from: match.from + quote + 1,
      options: names.map((name) => ({ label: name, type: "function" })),
      validFor: /^[\w.-]*$/,
    };
  };
}

function languageFor(textarea) {
  const kind = textarea.dataset.editor;
  if (kind === "javascript") {
    const names = (textarea.dataset.toolNames || "").split(",").map((s) => s.trim()).filter(Boolean);
    return [javascript(), javascriptLanguage.data.of({ autocomplete: toolNameCompletion(names) })];
  }
  return [json()];
}

function enhance(textarea) {
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        basicSetup,
        autocompletion(),
        ...languageFor(textarea),
        EditorState.readOnly.of(textarea.readOnly || textarea.disabled),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) textarea.value = update.state.doc.toString();
        }),
        EditorView.contentAttributes.of({ "aria-label": textarea.getAttribute("aria-label") || textarea.name }),
      ],
    }),
  });
  textarea.classList.add("cm-source");
  textarea.hidden = true;
  textarea.insertAdjacentElement("afterend", view.dom);
  view.dom.classList.add("cm-field");
  view.dom.dataset.for = textarea.id;
}

document.querySelectorAll("textarea[data-editor]").forEach(enhance);
