package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.codemode.control.CodeCheck;
import dev.amcp.gateway.codemode.control.TypeDeclarations;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.editor.entity.CodeToolForm;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolDraft;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns the code tool form into a {@link CodeToolDraft} and back, writes the runner's reading of a program for the
 * editor, and builds what the editor's completion needs. Everything beyond what the form itself can see (JSON that does not
 * parse) is {@code CodeToolService}'s to check.
 */
public final class CodeToolForms {

    private CodeToolForms() {}

    /** Reads the form through parameter lookups ({@code request::getParameter}, {@code request::getParameterValues}). */
    public static CodeToolForm read(Function<String, String> param, Function<String, String[]> values) {
        CodeToolForm form = new CodeToolForm();
        form.setServer(HttpToolForms.trim(param.apply("server")));
        form.setName(HttpToolForms.trim(param.apply("name")));
        form.setTitle(HttpToolForms.trim(param.apply("title")));
        form.setDescription(HttpToolForms.text(param.apply("description")));
        form.setInputSchema(HttpToolForms.text(param.apply("inputSchema")));
        form.setCode(HttpToolForms.text(param.apply("code")));
        String[] uses = values.apply("uses");
        form.setUses(uses == null ? List.of() : Arrays.stream(uses).map(String::strip).filter(s -> !s.isEmpty()).distinct().toList());
        form.setRunAs(CodeToolSpec.DEFINER.equals(param.apply("runAs")) ? CodeToolSpec.DEFINER : CodeToolSpec.INVOKER);
        form.setAllowWrites("true".equals(param.apply("allowWrites")));
        form.setRequireReplay("true".equals(param.apply("requireReplay")));
        String approval = param.apply("approval");
        form.setApproval(approval == null || approval.isBlank() ? CodeToolSpec.APPROVAL_ROLE : approval.strip());
        return form;
    }

    /** The form of a stored code tool; without its code and the tools it uses unless asked. */
    public static CodeToolForm of(McpTool tool, String serverSlug, boolean withMapping) {
        CodeToolSpec stored = CodeToolSpec.from(tool.getEndpointMapping());
        CodeToolSpec spec = withMapping ? stored : new CodeToolSpec("", java.util.List.of(), stored.runAs(), stored.allowWrites());
        CodeToolForm form = new CodeToolForm();
        form.setId(tool.getId());
        form.setServer(serverSlug);
        form.setName(tool.getName());
        form.setTitle(tool.getTitle() == null ? "" : tool.getTitle());
        form.setDescription(tool.getDescription() == null ? "" : tool.getDescription());
        form.setInputSchema(tool.getInputSchema() == null ? "" : HttpToolForms.pretty(tool.getInputSchema()));
        form.setCode(spec.code());
        form.setUses(spec.uses());
        form.setRunAs(spec.runAs());
        form.setAllowWrites(spec.allowWrites());
        form.setRequireReplay(stored.requireReplay());
        form.setApproval(stored.approval());
        return form;
    }

    /**
     * The draft of a form. A schema that does not parse goes into {@code errors} and is left out of the draft, so the
     * draft must not be saved while {@code errors} is not empty.
     */
    public static CodeToolDraft toDraft(CodeToolForm form, Locale locale, Map<String, String> errors) {
        if (form.getName().isEmpty()) {
            errors.put("name", EditorMessages.get(locale, "error.required"));
        }
        JsonObject inputSchema = HttpToolForms.object(form.getInputSchema(), "inputSchema", locale, errors);
        ToolDraft tool = new ToolDraft(HttpToolForms.emptyToNull(form.getServer()), HttpToolForms.emptyToNull(form.getName()),
                HttpToolForms.emptyToNull(form.getTitle()), HttpToolForms.emptyToNull(form.getDescription()), inputSchema, null, null);
        return new CodeToolDraft(tool, new CodeToolSpec(form.getCode(), List.copyOf(form.getUses()), form.getRunAs(), form.isAllowWrites(),
                form.isRequireReplay(), form.getApproval()));
    }

    /** The runner's reading of some code, as the editor's {@code analyze} answer (see {@code CodeToolsServlet}). */
    public static String analysis(CodeCheck.Verdict verdict) {
        JsonArrayBuilder names = JsonSupport.JSON.createArrayBuilder();
        verdict.toolNames().forEach(names::add);
        JsonArrayBuilder problems = JsonSupport.JSON.createArrayBuilder();
        verdict.problems().forEach(p -> problems.add(JsonSupport.JSON.createObjectBuilder().add("line", p.line())
                .add("column", p.column()).add("message", p.message())));
        JsonArrayBuilder computed = JsonSupport.JSON.createArrayBuilder();
        verdict.result().computed().forEach(c -> computed.add(JsonSupport.JSON.createObjectBuilder().add("line", c.line())
                .add("column", c.column()).add("reason", c.reason())));
        return JsonSupport.JSON.createObjectBuilder().add("checked", verdict.checked()).add("names", names)
                .add("problems", problems).add("computed", computed).build().toString();
    }

    /**
     * What the code editor completes, as JSON, from the same typed declarations a model is given: each callable
     * tool's argument and result fields with their TypeScript types, and its signature,
     * {@code {"orders_list": {"signature": "run(…)", "args": [{"name", "type", "required", "doc"?}], "result": […]}}}.
     */
    public static String completions(List<McpTool> tools) {
        JsonObjectBuilder all = JsonSupport.JSON.createObjectBuilder();
        for (McpTool tool : tools) {
            all.add(tool.getName(), JsonSupport.JSON.createObjectBuilder()
                    .add("signature", TypeDeclarations.signature(ToolDescriptor.of(tool)))
                    .add("args", fields(tool.getInputSchema()))
                    .add("result", fields(tool.getOutputSchema())));
        }
        return all.build().toString();
    }

    private static JsonArrayBuilder fields(JsonObject schema) {
        JsonArrayBuilder fields = JsonSupport.JSON.createArrayBuilder();
        for (TypeDeclarations.Member member : TypeDeclarations.members(schema)) {
            JsonObjectBuilder field = JsonSupport.JSON.createObjectBuilder().add("name", member.name())
                    .add("type", member.type()).add("required", member.required());
            if (member.doc() != null) {
                field.add("doc", member.doc());
            }
            fields.add(field);
        }
        return fields;
    }

    /** The test run's input: a JSON object, or empty for none. */
    public static JsonObject input(String text, Locale locale, Map<String, String> errors) {
        JsonObject input = HttpToolForms.object(text, "input", locale, errors);
        return input == null ? JsonValue.EMPTY_JSON_OBJECT : input;
    }
}
