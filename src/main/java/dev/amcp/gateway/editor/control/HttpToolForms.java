package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.editor.entity.HttpToolForm;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDraft;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Turns the HTTP tool form into a {@link ToolDraft} and back. Problems the form itself can see (JSON that does not
 * parse, a malformed mapping line) are reported per field in the person's language; everything else is
 * {@code ToolService}'s to check.
 */
public final class HttpToolForms {

    private static final Pattern ARG = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern HEADER = Pattern.compile("[A-Za-z0-9-]{1,100}");

    private HttpToolForms() {}

    /** Reads the form fields through a parameter lookup (e.g. {@code request::getParameter}). */
    public static HttpToolForm read(Function<String, String> param) {
        HttpToolForm form = new HttpToolForm();
        form.setServer(trim(param.apply("server")));
        form.setName(trim(param.apply("name")));
        form.setTitle(trim(param.apply("title")));
        form.setDescription(text(param.apply("description")));
        form.setMethod(trim(param.apply("method")).toUpperCase(Locale.ROOT));
        form.setUpstream(trim(param.apply("upstream")));
        form.setUrl(trim(param.apply("url")));
        form.setQuery(text(param.apply("query")));
        form.setBody(trim(param.apply("body")));
        form.setHeaders(text(param.apply("headers")));
        form.setCredential(trim(param.apply("credential")));
        form.setTimeoutMs(trim(param.apply("timeoutMs")));
        form.setInputSchema(text(param.apply("inputSchema")));
        form.setOutputSchema(text(param.apply("outputSchema")));
        return form;
    }

    /** The form of a stored HTTP tool; without its mapping (URL, query, headers, body, credential, timeout) unless asked. */
    public static HttpToolForm of(McpTool tool, String serverSlug, boolean withMapping) {
        HttpToolForm form = new HttpToolForm();
        JsonObject m = withMapping ? tool.getEndpointMapping() : JsonValue.EMPTY_JSON_OBJECT;
        form.setId(tool.getId());
        form.setServer(serverSlug);
        form.setName(tool.getName());
        form.setTitle(nullToEmpty(tool.getTitle()));
        form.setDescription(nullToEmpty(tool.getDescription()));
        form.setMethod(tool.getMethod());
        form.setUpstream(JsonSupport.string(m, "upstream", ""));
        form.setUrl(JsonSupport.string(m, "url", ""));
        form.setQuery(lines(m, "query", "="));
        form.setHeaders(lines(m, "headers", ": "));
        if (m.containsKey("body") && m.get("body").getValueType() == JsonValue.ValueType.ARRAY) {
            form.setBody(String.join(", ", m.getJsonArray("body").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList()));
        }
        form.setCredential(JsonSupport.string(m, "credential", ""));
        form.setTimeoutMs(m.containsKey("timeoutMs") ? m.get("timeoutMs").toString() : "");
        form.setInputSchema(tool.getInputSchema() == null ? "" : pretty(tool.getInputSchema()));
        form.setOutputSchema(tool.getOutputSchema() == null ? "" : pretty(tool.getOutputSchema()));
        return form;
    }

    /**
     * The draft of a form. Field problems go into {@code errors} (keyed by form field); a field that cannot be read
     * is left out of the draft, so the draft must not be saved while {@code errors} is not empty.
     */
    public static ToolDraft toDraft(HttpToolForm form, Locale locale, Map<String, String> errors) {
        JsonObjectBuilder mapping = JsonSupport.JSON.createObjectBuilder().add("method", form.getMethod());
        if (form.getName().isEmpty()) {
            errors.put("name", EditorMessages.get(locale, "error.required"));
        }
        if (!form.getUpstream().isEmpty()) {
            mapping.add("upstream", form.getUpstream()); // the URL is then a path under its base, and may be empty
        }
        if (form.getUrl().isEmpty() && form.getUpstream().isEmpty()) {
            errors.put("url", EditorMessages.get(locale, "error.required"));
        } else {
            mapping.add("url", form.getUrl());
        }
        Map<String, String> query = pairs(form.getQuery(), "=", ARG, locale, "query", errors);
        if (!query.isEmpty()) {
            JsonObjectBuilder q = JsonSupport.JSON.createObjectBuilder();
            query.forEach(q::add);
            mapping.add("query", q);
        }
        Map<String, String> headers = pairs(form.getHeaders(), ":", HEADER, locale, "headers", errors);
        if (!headers.isEmpty()) {
            JsonObjectBuilder h = JsonSupport.JSON.createObjectBuilder();
            headers.forEach(h::add);
            mapping.add("headers", h);
        }
        if (!form.getBody().isEmpty()) {
            List<String> args = Arrays.stream(form.getBody().split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
            if (args.stream().allMatch(a -> ARG.matcher(a).matches())) {
                var array = JsonSupport.JSON.createArrayBuilder();
                args.forEach(array::add);
                mapping.add("body", array);
            } else {
                errors.put("body", EditorMessages.get(locale, "error.argumentNames"));
            }
        }
        if (!form.getCredential().isEmpty()) {
            mapping.add("credential", form.getCredential());
        }
        if (!form.getTimeoutMs().isEmpty()) {
            try {
                mapping.add("timeoutMs", Integer.parseInt(form.getTimeoutMs()));
            } catch (NumberFormatException e) {
                errors.put("timeoutMs", EditorMessages.get(locale, "error.wholeNumber"));
            }
        }
        JsonObject inputSchema = object(form.getInputSchema(), "inputSchema", locale, errors);
        JsonObject outputSchema = object(form.getOutputSchema(), "outputSchema", locale, errors);
        return new ToolDraft(emptyToNull(form.getServer()), emptyToNull(form.getName()), emptyToNull(form.getTitle()),
                emptyToNull(form.getDescription()), inputSchema, outputSchema, mapping.build());
    }

    /** Moves {@code ToolService}'s problems onto form fields: the mapping's problems show at the URL. */
    public static <V> Map<String, V> fieldsOf(Map<String, V> serviceProblems) {
        Map<String, V> fields = new LinkedHashMap<>();
        serviceProblems.forEach((key, message) -> fields.put("endpointMapping".equals(key) ? "url" : key, message));
        return fields;
    }

    /** Parses the test form's arguments: a JSON object, or empty for none. */
    public static JsonObject arguments(String text, Locale locale, Map<String, String> errors) {
        JsonObject args = object(text, "args", locale, errors);
        return args == null ? JsonValue.EMPTY_JSON_OBJECT : args;
    }

    /** A JSON object typed into a field, {@code null} when blank; a parse problem goes into {@code errors}. */
    public static JsonObject object(String text, String field, Locale locale, Map<String, String> errors) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return JsonSupport.parseObject(text);
        } catch (IllegalArgumentException e) {
            errors.put(field, EditorMessages.get(locale, "error.json", e.getMessage()));
            return null;
        }
    }

    private static Map<String, String> pairs(String text, String separator, Pattern keyPattern, Locale locale,
                                             String field, Map<String, String> errors) {
        Map<String, String> result = new LinkedHashMap<>();
        int lineNo = 0;
        for (String raw : text.split("\\R")) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            int at = line.indexOf(separator);
            String key = at < 0 ? "" : line.substring(0, at).strip();
            String value = at < 0 ? "" : line.substring(at + separator.length()).strip();
            if (!keyPattern.matcher(key).matches() || value.isEmpty()) {
                errors.put(field, EditorMessages.get(locale, "error.mappingLine." + field, lineNo));
                return result;
            }
            result.put(key, value);
        }
        return result;
    }

    private static String lines(JsonObject mapping, String key, String separator) {
        if (!mapping.containsKey(key) || mapping.get(key).getValueType() != JsonValue.ValueType.OBJECT) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        mapping.getJsonObject(key).forEach((k, v) -> b.append(k).append(separator)
                .append(v instanceof JsonString s ? s.getString() : v.toString()).append('\n'));
        return b.toString();
    }

    /** JSON text indented for a form field. */
    public static String pretty(JsonValue value) {
        java.io.StringWriter out = new java.io.StringWriter();
        try (var writer = JsonSupport.JSON.createWriterFactory(Map.of(jakarta.json.stream.JsonGenerator.PRETTY_PRINTING, true)).createWriter(out)) {
            writer.write(value);
        }
        return out.toString().strip();
    }

    static String trim(String s) {
        return s == null ? "" : s.strip();
    }

    static String text(String s) {
        return s == null ? "" : s.replace("\r\n", "\n");
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    static String emptyToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
