package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.tools.entity.ToolDescriptor;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * TypeScript declarations of tools, generated from their input and output JSON Schemas, so a model (or the editor)
 * knows each tool's arguments and result before the first run. Every tool becomes one overload of
 * {@code amcp.run(name, args)} keyed by its literal name, which works for any tool name. Schemas are untrusted
 * input: {@code $ref}s resolve only inside the schema, cycles and depth are bounded (both become {@code unknown}),
 * and text is escaped so no description can end a comment or a string.
 */
public final class TypeDeclarations {

    /** Deeper schemas become {@code unknown}: a model gains nothing from ten nested levels, and cycles end here too. */
    static final int MAX_DEPTH = 8;
    /** A tool's or property's description is cut to this many characters in a doc comment. */
    static final int MAX_DOC_CHARS = 240;

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    /** The functions every run has, declared before the per-tool overloads. */
    static final String BRIDGE_FUNCTIONS = """
              /** Tools whose name, title or description contain every word of the query. */
              function search(query?: string, options?: { limit?: number }): Promise<{ name: string; title: string; description: string; readOnly: boolean; signature: string }[]>;
              /** A tool's schemas and its TypeScript declaration. */
              function describe(name: string): Promise<{ name: string; title: string; description: string; readOnly: boolean; signature: string; inputSchema: object; outputSchema?: object; ts: string }>;
              /** Reports progress to the client, if it asked for it; returns at once. */
              function progress(done: number, total?: number, message?: string): void;
            """;
    /** Calls a declared tool: its arguments and result are typed from its schemas. */
    static final String TYPED_RUN = "  function run<N extends keyof Tools>(name: N, args: Tools[N][\"args\"]): Promise<Tools[N][\"result\"]>;\n";
    /**
     * Any other tool (one left out for the budget, or a name computed at run time), its result untyped. A declared
     * tool's literal name never matches it, so a wrong argument to a declared tool is reported against its own type.
     */
    static final String FALLBACK_RUN = "  function run<N extends string>(name: N & (N extends keyof Tools ? never : unknown), "
            + "args?: { [key: string]: unknown }): Promise<unknown>;\n";

    private TypeDeclarations() {}

    /** One tool as a single-line overload of {@code amcp.run}, without doc comments (for search results). */
    public static String signature(ToolDescriptor tool) {
        return "run(name: " + literal(tool.name()) + ", args: " + new Writer(tool.inputSchema(), false).type(tool.inputSchema())
                + "): Promise<" + resultType(tool, false) + ">";
    }

    /** One tool on its own, as an overload of {@code amcp.run} with doc comments ({@code amcp.describe}'s {@code ts}). */
    public static String declaration(ToolDescriptor tool) {
        return docComment(toolDoc(tool), "", writes(tool)) + "function run(name: " + literal(tool.name()) + ", args: "
                + new Writer(tool.inputSchema(), true).type(tool.inputSchema()) + "): Promise<" + resultType(tool, true) + ">;\n";
    }

    /**
     * {@code declare namespace amcp} with the given tools in their order, as many as fit in {@code budgetBytes}
     * (UTF-8), as members of {@code amcp.Tools}; the rest are counted in a comment that points to {@code amcp.search}.
     */
    public static String namespace(List<ToolDescriptor> tools, int budgetBytes) {
        String head = "declare namespace amcp {\n" + BRIDGE_FUNCTIONS + "  interface Tools {\n";
        String run = "  }\n" + TYPED_RUN;
        String tail = FALLBACK_RUN + "}\n";
        int used = bytes(head) + bytes(run) + bytes(tail);
        StringBuilder members = new StringBuilder();
        int declared = 0;
        for (ToolDescriptor tool : tools) {
            String member = member(tool);
            if (used + bytes(member) + bytes(omitted(tools.size() - declared - 1)) > budgetBytes) {
                break;
            }
            members.append(member);
            used += bytes(member);
            declared++;
        }
        return head + members + run + omitted(tools.size() - declared) + tail;
    }

    /** A top-level property of an object schema, typed as in the declarations (for the editor's completion). */
    public record Member(String name, String type, boolean required, String doc) {}

    /** The top-level properties of an object schema (a top-level {@code $ref} followed), empty for anything else. */
    public static List<Member> members(JsonObject schema) {
        if (schema == null) {
            return List.of();
        }
        Writer writer = new Writer(schema, false);
        JsonObject object = writer.resolved(schema);
        if (object == null || !(object.get("properties") instanceof JsonObject properties)) {
            return List.of();
        }
        Set<String> required = requiredOf(object);
        List<Member> members = new ArrayList<>();
        properties.forEach((name, property) -> members.add(new Member(name, writer.type(property, 1), required.contains(name),
                property instanceof JsonObject p && p.get("description") instanceof JsonString d ? d.getString() : null)));
        return members;
    }

    /** The names an object schema's {@code required} lists. */
    private static Set<String> requiredOf(JsonObject object) {
        Set<String> required = new HashSet<>();
        if (object.get("required") instanceof JsonArray names) {
            names.stream().filter(n -> n instanceof JsonString).forEach(n -> required.add(((JsonString) n).getString()));
        }
        return required;
    }

    private static String member(ToolDescriptor tool) {
        return docComment(toolDoc(tool), "    ", writes(tool)) + "    " + literal(tool.name()) + ": { args: "
                + new Writer(tool.inputSchema(), true).type(tool.inputSchema()) + "; result: " + resultType(tool, true) + " };\n";
    }

    private static String toolDoc(ToolDescriptor tool) {
        return tool.description() == null || tool.description().isBlank() ? tool.title() : tool.description();
    }

    private static String writes(ToolDescriptor tool) {
        return tool.readOnly() ? null : "Writes: changes data upstream.";
    }

    private static String omitted(int count) {
        return count <= 0 ? "" : "  // " + count + " more tool" + (count == 1 ? "" : "s")
                + ": find them with amcp.search(query) and amcp.describe(name)\n";
    }

    private static String resultType(ToolDescriptor tool, boolean docs) {
        return tool.outputSchema() == null ? "unknown" : new Writer(tool.outputSchema(), docs).type(tool.outputSchema());
    }

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** A JSON string literal is a valid TypeScript string literal, with every quote and control character escaped. */
    static String literal(String s) {
        String json = Json.createValue(s).toString();
        // U+2028/U+2029 end a line in older JavaScript parsers; escape them too.
        return json.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }

    static String docComment(String text, String indent, String extra) {
        List<String> lines = new ArrayList<>();
        if (text != null && !text.isBlank()) {
            String cut = text.strip();
            if (cut.length() > MAX_DOC_CHARS) {
                cut = cut.substring(0, MAX_DOC_CHARS - 1) + "…";
            }
            for (String line : cut.split("\\R")) {
                if (!line.isBlank()) {
                    lines.add(line.strip().replace("*/", "*\\/"));
                }
            }
        }
        if (extra != null) {
            lines.add(extra);
        }
        if (lines.isEmpty()) {
            return "";
        }
        if (lines.size() == 1) {
            return indent + "/** " + lines.get(0) + " */\n";
        }
        StringBuilder b = new StringBuilder(indent).append("/**\n");
        lines.forEach(l -> b.append(indent).append(" * ").append(l).append('\n'));
        return b.append(indent).append(" */\n").toString();
    }

    /** Writes the TypeScript type of one schema; {@code $ref}s resolve against its root. */
    private static final class Writer {
        private final JsonObject root;
        private final boolean docs;
        private final Set<String> refsInProgress = new HashSet<>();

        Writer(JsonObject root, boolean docs) {
            this.root = root;
            this.docs = docs;
        }

        String type(JsonValue schema) {
            return type(schema, 0);
        }

        /** The schema itself, or what its {@code $ref}s lead to inside the root; null where they lead nowhere. */
        JsonObject resolved(JsonObject schema) {
            JsonObject current = schema;
            for (int hops = 0; hops <= MAX_DEPTH && current.get("$ref") instanceof JsonString ref; hops++) {
                if (!(target(ref.getString()) instanceof JsonObject next)) {
                    return null;
                }
                current = next;
            }
            return current.containsKey("$ref") ? null : current;
        }

        String type(JsonValue schema, int depth) {
            if (schema == null || schema == JsonValue.TRUE) {
                return "unknown";
            }
            if (schema == JsonValue.FALSE) {
                return "never";
            }
            if (!(schema instanceof JsonObject s) || depth > MAX_DEPTH) {
                return "unknown";
            }
            if (s.get("$ref") instanceof JsonString ref) {
                return reference(ref.getString(), depth);
            }
            String base = baseType(s, depth);
            if (s.getBoolean("nullable", false) && !base.equals("unknown") && !base.endsWith("| null")) {
                base = base + " | null";
            }
            return base;
        }

        /** What a {@code $ref} points to inside the root; null for one outside the schema or pointing nowhere. */
        private JsonValue target(String ref) {
            if (!ref.startsWith("#")) {
                return null;
            }
            try {
                return Json.createPointer(ref.substring(1)).getValue(root);
            } catch (RuntimeException e) {
                return null;
            }
        }

        private String reference(String ref, int depth) {
            if (!ref.startsWith("#") || refsInProgress.contains(ref)) {
                return "unknown"; // outside the schema, or a cycle
            }
            JsonValue target = target(ref);
            if (target == null) {
                return "unknown";
            }
            refsInProgress.add(ref);
            try {
                return type(target, depth + 1);
            } finally {
                refsInProgress.remove(ref);
            }
        }

        private String baseType(JsonObject s, int depth) {
            if (s.containsKey("const")) {
                return valueLiteral(s.get("const"));
            }
            if (s.get("enum") instanceof JsonArray values && !values.isEmpty()) {
                return union(values.stream().map(Writer::valueLiteral).toList());
            }
            if (s.get("oneOf") instanceof JsonArray one) {
                return union(one.stream().map(v -> type(v, depth + 1)).toList());
            }
            if (s.get("anyOf") instanceof JsonArray any) {
                return union(any.stream().map(v -> type(v, depth + 1)).toList());
            }
            if (s.get("allOf") instanceof JsonArray all) {
                List<String> parts = all.stream().map(v -> type(v, depth + 1)).filter(t -> !t.equals("unknown")).toList();
                return parts.isEmpty() ? "unknown" : String.join(" & ", parts.stream().map(Writer::grouped).toList());
            }
            JsonValue typeValue = s.get("type");
            if (typeValue instanceof JsonArray types) {
                return union(types.stream().filter(t -> t instanceof JsonString)
                        .map(t -> ofType(((JsonString) t).getString(), s, depth)).toList());
            }
            if (typeValue instanceof JsonString type) {
                return ofType(type.getString(), s, depth);
            }
            if (s.containsKey("properties") || s.containsKey("additionalProperties")) {
                return objectType(s, depth);
            }
            if (s.containsKey("items") || s.containsKey("prefixItems")) {
                return arrayType(s, depth);
            }
            return "unknown";
        }

        private String ofType(String type, JsonObject s, int depth) {
            return switch (type) {
                case "string" -> "string";
                case "number", "integer" -> "number";
                case "boolean" -> "boolean";
                case "null" -> "null";
                case "array" -> arrayType(s, depth);
                case "object" -> objectType(s, depth);
                default -> "unknown";
            };
        }

        private String arrayType(JsonObject s, int depth) {
            if (s.get("prefixItems") instanceof JsonArray tuple) {
                List<String> items = tuple.stream().map(v -> type(v, depth + 1)).toList();
                return "[" + String.join(", ", items) + "]";
            }
            JsonValue items = s.get("items");
            if (items instanceof JsonArray tuple) { // draft-04 tuples
                return "[" + String.join(", ", tuple.stream().map(v -> type(v, depth + 1)).toList()) + "]";
            }
            return grouped(type(items, depth + 1)) + "[]";
        }

        private String objectType(JsonObject s, int depth) {
            Set<String> required = requiredOf(s);
            List<String> members = new ArrayList<>();
            if (s.get("properties") instanceof JsonObject properties) {
                properties.forEach((name, property) -> {
                    String doc = docs && property instanceof JsonObject p && p.get("description") instanceof JsonString d
                            ? docComment(d.getString().replaceAll("\\s+", " "), "", null).strip() + " " : "";
                    members.add(doc + propertyName(name) + (required.contains(name) ? "" : "?") + ": " + type(property, depth + 1));
                });
            }
            JsonValue extra = s.get("additionalProperties");
            if (extra instanceof JsonObject) {
                members.add("[key: string]: " + type(extra, depth + 1));
            } else if (members.isEmpty() && extra != JsonValue.FALSE) {
                members.add("[key: string]: unknown");
            }
            return members.isEmpty() ? "{}" : "{ " + String.join("; ", members) + " }";
        }

        private static String propertyName(String name) {
            return IDENTIFIER.matcher(name).matches() ? name : literal(name);
        }

        private static String valueLiteral(JsonValue value) {
            return switch (value.getValueType()) {
                case STRING -> literal(((JsonString) value).getString());
                case NUMBER, TRUE, FALSE, NULL -> value.toString();
                default -> "unknown";
            };
        }

        private static String union(List<String> types) {
            List<String> distinct = new ArrayList<>(new LinkedHashSet<>(types));
            if (distinct.isEmpty()) {
                return "never";
            }
            if (distinct.contains("unknown")) {
                return "unknown";
            }
            return String.join(" | ", distinct.stream().map(Writer::grouped).toList());
        }

        /** Parentheses around unions and intersections where a suffix such as {@code []} follows. */
        private static String grouped(String type) {
            boolean compound = false;
            int nesting = 0;
            boolean inString = false;
            for (int i = 0; i < type.length(); i++) {
                char c = type.charAt(i);
                if (inString) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[' || c == '(' || c == '<') {
                    nesting++;
                } else if (c == '}' || c == ']' || c == ')' || c == '>') {
                    nesting--;
                } else if (nesting == 0 && (c == '|' || c == '&')) {
                    compound = true;
                }
            }
            return compound ? "(" + type + ")" : type;
        }
    }
}
