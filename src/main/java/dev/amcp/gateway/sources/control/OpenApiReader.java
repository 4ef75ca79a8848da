package dev.amcp.gateway.sources.control;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.sources.entity.ImportedOperation;
import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import io.swagger.v3.parser.util.DeserializationUtils;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an OpenAPI 3.0 or 3.1 or Swagger 2.0 document with the swagger parser (which converts Swagger 2.0 to
 * OpenAPI 3) and proposes one HTTP tool per operation. The parser resolves nothing outside the document: no remote
 * or file {@code $ref} is ever fetched, and YAML aliases are bounded (billion laughs).
 */
public final class OpenApiReader {

    /** The operations of the HTTP invoker, in the order a path item lists them. */
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    private static final Pattern ARG = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern PATH_TEMPLATE = Pattern.compile("\\{([^}/]+)}");
    private static final Set<String> SKIPPED_HEADERS = Set.of("accept", "content-type", "authorization");
    private static final int MAX_NAME = 64;
    /** The input-schema keyword of MCP 2026-07-28 for an argument that travels in a header too. */
    static final String WIRE_HEADER = "x-mcp-header";
    private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9-]{1,64}");
    /** Parser messages that mean the text is no document (or one the YAML bounds refused), not a flaw in a document. */
    private static final Pattern FATAL = Pattern.compile("attribute (openapi|swagger|info) is missing|snake-?yaml|yaml content|exceeds max|malformed or unreadable",
            Pattern.CASE_INSENSITIVE);

    static {
        // YAML aliases expand in memory: a few aliases of aliases make gigabytes (billion laughs). Real API documents
        // hardly use aliases, so a small bound refuses the attack without refusing a real document.
        DeserializationUtils.Options yaml = DeserializationUtils.getOptions();
        yaml.setMaxYamlAliasesForCollections(50);
        yaml.setMaxYamlReferences(100_000L);
        yaml.setValidateYamlInput(true);
        yaml.setYamlAllowRecursiveKeys(false);
    }

    /** A parsed document: the model as JSON (where {@code $ref}s point), its title, and its first server URL. */
    public record Parsed(JsonObject document, String title, String serverUrl, String version) {}

    private OpenApiReader() {}

    /** Parses a document; a text that is no OpenAPI or Swagger document is an {@link InvalidInputException}. */
    public static Parsed parse(String text) {
        ParseOptions options = new ParseOptions();
        options.setResolve(false); // resolving would fetch remote and file $refs: never
        options.setResolveFully(false);
        options.setValidateExternalRefs(false);
        SwaggerParseResult result;
        try {
            result = new OpenAPIParser().readContents(text, null, options);
        } catch (RuntimeException e) {
            throw problem("problem.openapi.unreadable", "The document cannot be read as OpenAPI: {0}", String.valueOf(e.getMessage()));
        }
        OpenAPI api = result == null ? null : result.getOpenAPI();
        if (api == null || api.getPaths() == null && api.getWebhooks() == null) {
            List<String> messages = result == null || result.getMessages() == null ? List.of() : result.getMessages();
            throw problem("problem.openapi.unreadable", "The document cannot be read as OpenAPI: {0}",
                    messages.isEmpty() ? "it is not an OpenAPI 3.x or Swagger 2.0 document" : String.join("; ", messages.stream().limit(5).toList()));
        }
        List<String> messages = result.getMessages() == null ? List.of() : result.getMessages();
        messages.stream().filter(m -> FATAL.matcher(m).find()).findFirst().ifPresent(m -> {
            throw problem("problem.openapi.unreadable", "The document cannot be read as OpenAPI: {0}", m);
        });
        JsonObject json;
        try {
            json = JsonSupport.parseObject((api.getSpecVersion() == SpecVersion.V31 ? Json31.mapper() : Json.mapper()).writeValueAsString(api));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw problem("problem.openapi.unreadable", "The document cannot be read as OpenAPI: {0}", e.getOriginalMessage());
        }
        String title = api.getInfo() != null && api.getInfo().getTitle() != null ? api.getInfo().getTitle().strip() : "";
        String server = null;
        if (api.getServers() != null && !api.getServers().isEmpty() && api.getServers().get(0).getUrl() != null) {
            var first = api.getServers().get(0);
            server = first.getUrl();
            if (first.getVariables() != null) {
                for (var v : first.getVariables().entrySet()) {
                    server = server.replace("{" + v.getKey() + "}", v.getValue().getDefault() == null ? "" : v.getValue().getDefault());
                }
            }
        }
        return new Parsed(json, title.isEmpty() ? "untitled" : title, server, api.getOpenapi());
    }

    /**
     * The operations of a parsed document as tools calling {@code base} (a URL, or one starting with an
     * {@code ${AMCP_UPSTREAM_<NAME>}} setting) with {@code credential} (or none).
     *
     * @param prefix      put before every tool name (may be empty)
     * @param takenElsewhere names that belong to another tool of the workspace; a proposal that meets one is renamed
     */
    public static List<ImportedOperation> operations(Parsed parsed, String base, String credential, String prefix,
                                                     Predicate<String> takenElsewhere) {
        OpenApiSchemas schemas = new OpenApiSchemas(parsed.document());
        JsonObject paths = parsed.document().containsKey("paths") && parsed.document().get("paths") instanceof JsonObject p
                ? p : JsonValue.EMPTY_JSON_OBJECT;
        List<ImportedOperation> result = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (var pathEntry : paths.entrySet()) {
            if (!(pathEntry.getValue() instanceof JsonObject rawItem)) {
                continue;
            }
            JsonObject item = schemas.deref(rawItem);
            if (item == null) {
                continue;
            }
            for (String method : METHODS) {
                if (item.get(method) instanceof JsonObject operation) {
                    result.add(operation(schemas, parsed, pathEntry.getKey(), method, item, operation, base, credential,
                            prefix == null ? "" : prefix, used, takenElsewhere));
                }
            }
        }
        return result;
    }

    private static ImportedOperation operation(OpenApiSchemas schemas, Parsed parsed, String path, String method,
                                               JsonObject item, JsonObject operation, String base, String credential,
                                               String prefix, Set<String> used, Predicate<String> takenElsewhere) {
        List<String> notes = new ArrayList<>();
        String upper = method.toUpperCase(Locale.ROOT);
        String operationId = JsonSupport.string(operation, "operationId", "").strip();
        String key = operationId.isEmpty() ? upper + " " + path : operationId;
        String name = uniqueName(prefix + baseName(operationId, method, path), used, takenElsewhere, notes);
        String unsupported = dev.amcp.gateway.tools.entity.McpTool.HTTP_METHODS.contains(upper) ? null
                : upper + " is not a method the HTTP invoker calls (GET, POST, PUT, PATCH, DELETE)";
        if (operation.get("deprecated") != null && operation.get("deprecated").getValueType() == JsonValue.ValueType.TRUE) {
            notes.add("the operation is deprecated");
        }

        // parameters: the path item's, overridden by the operation's own of the same name and place
        Map<String, JsonObject> parameters = new LinkedHashMap<>();
        for (JsonObject list : new JsonObject[] {item, operation}) {
            if (list.get("parameters") instanceof JsonArray array) {
                for (JsonValue raw : array) {
                    JsonObject p = raw instanceof JsonObject o ? schemas.deref(o) : null;
                    if (p != null && p.containsKey("name") && p.containsKey("in")) {
                        parameters.put(p.getString("in") + ":" + p.getString("name"), p);
                    }
                }
            }
        }
        Map<String, JsonObject> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        Map<String, String> pathArgs = new LinkedHashMap<>();
        JsonObjectBuilder query = JsonSupport.JSON.createObjectBuilder();
        JsonObjectBuilder headerArgs = JsonSupport.JSON.createObjectBuilder();
        boolean anyQuery = false;
        boolean anyHeader = false;
        for (String in : List.of("path", "query", "header", "cookie")) {
            for (JsonObject p : parameters.values()) {
                if (!in.equals(p.getString("in"))) {
                    continue;
                }
                String pname = p.getString("name");
                boolean isRequired = "path".equals(in) || p.get("required") != null && p.get("required").getValueType() == JsonValue.ValueType.TRUE;
                if ("cookie".equals(in) || "header".equals(in) && SKIPPED_HEADERS.contains(pname.toLowerCase(Locale.ROOT))) {
                    if (isRequired && unsupported == null) {
                        unsupported = "it needs the " + in + " parameter '" + pname + "', which the HTTP invoker does not send";
                    }
                    notes.add(in + " parameter '" + pname + "' is left out (the gateway sets it, or cannot send it)");
                    continue;
                }
                String arg = argumentName(pname, in, properties.keySet(), notes);
                JsonObject schema = withWireHeader(schemas.convert(parameterSchema(p)), p, notes);
                String description = JsonSupport.string(p, "description", null);
                String where = arg.equals(pname) ? null : "sent as " + in + " parameter '" + pname + "'";
                properties.put(arg, describe(schema, description, where));
                if (isRequired) {
                    required.add(arg);
                }
                switch (in) {
                    case "path" -> pathArgs.put(pname, arg);
                    case "query" -> {
                        query.add(pname, arg);
                        anyQuery = true;
                    }
                    default -> {
                        headerArgs.add(pname, arg);
                        anyHeader = true;
                    }
                }
            }
        }

        // the JSON body: its properties join the arguments
        List<String> bodyArgs = new ArrayList<>();
        JsonObjectBuilder bodyNames = JsonSupport.JSON.createObjectBuilder();
        boolean anyRenamedBody = false;
        JsonObject requestBody = operation.get("requestBody") instanceof JsonObject rb ? schemas.deref(rb) : null;
        if (requestBody != null && requestBody.get("content") instanceof JsonObject content && !content.isEmpty()) {
            boolean bodyRequired = requestBody.get("required") != null && requestBody.get("required").getValueType() == JsonValue.ValueType.TRUE;
            JsonObject media = jsonMedia(content);
            if (media == null) {
                if (unsupported == null) {
                    unsupported = "its request body is " + String.join(", ", content.keySet()) + "; the HTTP invoker sends JSON only";
                }
            } else {
                JsonObject body = flattenAllOf(schemas.convert(media.get("schema") instanceof JsonObject s ? s : JsonValue.EMPTY_JSON_OBJECT));
                if (!isObjectSchema(body)) {
                    if (unsupported == null) {
                        unsupported = "its request body is " + JsonSupport.string(body, "type", "not an object")
                                + "; the HTTP invoker sends the arguments as one JSON object";
                    }
                } else {
                    Set<String> bodyRequiredProps = new HashSet<>();
                    if (body.get("required") instanceof JsonArray r) {
                        r.getValuesAs(JsonString.class).forEach(s -> bodyRequiredProps.add(s.getString()));
                    }
                    JsonObject props = body.get("properties") instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
                    for (var prop : props.entrySet()) {
                        String arg = argumentName(prop.getKey(), "body", properties.keySet(), notes);
                        JsonObject schema = prop.getValue() instanceof JsonObject s ? s : JsonValue.EMPTY_JSON_OBJECT;
                        properties.put(arg, describe(schema, null, arg.equals(prop.getKey()) ? null : "sent as body property '" + prop.getKey() + "'"));
                        bodyArgs.add(arg);
                        if (!arg.equals(prop.getKey())) {
                            bodyNames.add(arg, prop.getKey());
                            anyRenamedBody = true;
                        }
                        if (bodyRequired && bodyRequiredProps.contains(prop.getKey())) {
                            required.add(arg);
                        }
                    }
                }
            }
        }

        // the mapping onto the HTTP invoker
        Matcher template = PATH_TEMPLATE.matcher(path);
        StringBuilder url = new StringBuilder(base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
        int at = 0;
        while (template.find()) {
            url.append(path, at, template.start());
            String arg = pathArgs.get(template.group(1));
            if (arg == null) {
                arg = argumentName(template.group(1), "path", properties.keySet(), notes);
                properties.put(arg, describe(JsonSupport.JSON.createObjectBuilder().add("type", "string").build(), null,
                        "undeclared path parameter '" + template.group(1) + "'"));
                required.add(arg);
            }
            url.append('{').append(arg).append('}');
            at = template.end();
        }
        url.append(path.substring(at));
        JsonObjectBuilder mapping = JsonSupport.JSON.createObjectBuilder().add("method", upper).add("url", url.toString());
        if (anyQuery) {
            mapping.add("query", query);
        }
        if (anyHeader) {
            mapping.add("headerArgs", headerArgs);
        }
        if (!"GET".equals(upper) && !"DELETE".equals(upper)) {
            JsonArrayBuilder b = JsonSupport.JSON.createArrayBuilder();
            bodyArgs.forEach(b::add);
            mapping.add("body", b);
            if (anyRenamedBody) {
                mapping.add("bodyNames", bodyNames);
            }
        } else if (!bodyArgs.isEmpty() && unsupported == null) {
            unsupported = upper + " with a request body: the HTTP invoker sends no body with " + upper;
        }
        if (credential != null) {
            mapping.add("credential", credential);
        }
        mapping.add("openapi", JsonSupport.JSON.createObjectBuilder().add("document", parsed.title()).add("operationId", key));

        JsonObjectBuilder input = JsonSupport.JSON.createObjectBuilder().add("type", "object");
        JsonObjectBuilder props = JsonSupport.JSON.createObjectBuilder();
        properties.forEach(props::add);
        input.add("properties", props);
        if (!required.isEmpty()) {
            JsonArrayBuilder r = JsonSupport.JSON.createArrayBuilder();
            required.stream().distinct().forEach(r::add);
            input.add("required", r);
        }

        String summary = JsonSupport.string(operation, "summary", "").strip();
        String detail = JsonSupport.string(operation, "description", "").strip();
        String description = String.join("\n\n", java.util.stream.Stream.of(summary, detail).filter(s -> !s.isEmpty()).distinct().toList());
        return new ImportedOperation(key, name, upper, path, "GET".equals(upper), summary.isEmpty() ? null : cut(summary, 200),
                description.isEmpty() ? null : cut(description, 4000), input.build(), outputSchema(schemas, operation, notes),
                mapping.build(), List.copyOf(notes), unsupported);
    }

    /** The schema of the first 2xx JSON response, when it describes an object (MCP output schemas do). */
    private static JsonObject outputSchema(OpenApiSchemas schemas, JsonObject operation, List<String> notes) {
        if (!(operation.get("responses") instanceof JsonObject responses)) {
            return null;
        }
        List<String> codes = responses.keySet().stream().filter(c -> c.startsWith("2")).sorted().toList();
        for (String code : codes) {
            JsonObject response = responses.get(code) instanceof JsonObject r ? schemas.deref(r) : null;
            if (response == null || !(response.get("content") instanceof JsonObject content)) {
                continue;
            }
            JsonObject media = jsonMedia(content);
            if (media == null || !(media.get("schema") instanceof JsonObject raw)) {
                continue;
            }
            JsonObject schema = flattenAllOf(schemas.convert(raw));
            if (isObjectSchema(schema)) {
                return schema.containsKey("type") ? schema : JsonSupport.JSON.createObjectBuilder(schema).add("type", "object").build();
            }
            notes.add("the " + code + " response is " + JsonSupport.string(schema, "type", "not an object")
                    + ", so the tool has no output schema (MCP output schemas describe objects)");
            return null;
        }
        return null;
    }

    /** The JSON media type of a content map: application/json, a +json type, or a wildcard. */
    private static JsonObject jsonMedia(JsonObject content) {
        for (String type : content.keySet()) {
            String t = type.toLowerCase(Locale.ROOT);
            if (t.startsWith("application/json") || t.matches("application/[^;]*\\+json.*") || t.startsWith("*/*")
                    || t.equals("application/*")) {
                return content.get(type) instanceof JsonObject m ? m : JsonValue.EMPTY_JSON_OBJECT;
            }
        }
        return null;
    }

    /** A 3.0 parameter's schema, or the schema of its one {@code content} entry. */
    private static JsonObject parameterSchema(JsonObject parameter) {
        if (parameter.get("schema") instanceof JsonObject s) {
            return s;
        }
        if (parameter.get("content") instanceof JsonObject content) {
            for (JsonValue media : content.values()) {
                if (media instanceof JsonObject m && m.get("schema") instanceof JsonObject s) {
                    return s;
                }
            }
        }
        return JsonSupport.JSON.createObjectBuilder().add("type", "string").build();
    }

    /** {@code allOf} of object schemas, merged into one object (the usual way OpenAPI documents extend a model). */
    private static JsonObject flattenAllOf(JsonObject schema) {
        if (!(schema.get("allOf") instanceof JsonArray parts) || schema.containsKey("properties")) {
            return schema;
        }
        JsonObjectBuilder properties = JsonSupport.JSON.createObjectBuilder();
        JsonArrayBuilder required = JsonSupport.JSON.createArrayBuilder();
        for (JsonValue part : parts) {
            if (!(part instanceof JsonObject p) || !isObjectSchema(flattenAllOf(p))) {
                return schema;
            }
            JsonObject flat = flattenAllOf(p);
            if (flat.get("properties") instanceof JsonObject props) {
                props.forEach(properties::add);
            }
            if (flat.get("required") instanceof JsonArray r) {
                r.forEach(required::add);
            }
        }
        JsonObjectBuilder out = JsonSupport.JSON.createObjectBuilder(schema).remove("allOf").add("type", "object")
                .add("properties", properties);
        JsonArray req = required.build();
        if (!req.isEmpty()) {
            out.add("required", req);
        }
        return out.build();
    }

    private static boolean isObjectSchema(JsonObject schema) {
        JsonValue type = schema.get("type");
        if (type == null) {
            return schema.containsKey("properties");
        }
        if (type instanceof JsonString s) {
            return "object".equals(s.getString());
        }
        return type instanceof JsonArray a && a.contains(JsonSupport.JSON.createValue("object"));
    }

    /**
     * A parameter's {@code x-mcp-header} extension goes into its argument's schema as MCP 2026-07-28 reads it
     * (SEP-2243): clients then repeat the argument in an {@code Mcp-Param-<name>} header, for proxies to route on. A
     * value that is no header name is left out, with a note.
     */
    private static JsonObject withWireHeader(JsonObject schema, JsonObject parameter, List<String> notes) {
        JsonValue header = parameter.get(WIRE_HEADER);
        if (header == null) {
            return schema;
        }
        if (header instanceof JsonString name && HEADER_NAME.matcher(name.getString()).matches()) {
            return JsonSupport.JSON.createObjectBuilder(schema).add(WIRE_HEADER, name.getString()).build();
        }
        notes.add(WIRE_HEADER + " of parameter '" + parameter.getString("name") + "' is left out: it is not a header name (letters, digits, '-')");
        return schema;
    }

    private static JsonObject describe(JsonObject schema, String description, String where) {
        String text = String.join(" ", java.util.stream.Stream.of(description != null ? description : JsonSupport.string(schema, "description", null),
                where == null ? null : "(" + where + ")").filter(s -> s != null && !s.isBlank()).toList());
        return text.isEmpty() ? schema : JsonSupport.JSON.createObjectBuilder(schema).add("description", text).build();
    }

    /** A valid argument name for a parameter, renamed (visibly, in a note) when it clashes or is not a valid name. */
    private static String argumentName(String original, String in, Set<String> taken, List<String> notes) {
        String arg = original.replaceAll("[^A-Za-z0-9_]", "_");
        if (arg.isEmpty() || !ARG.matcher(arg).matches()) {
            arg = "_" + arg;
        }
        if (taken.contains(arg)) {
            arg = in + "_" + arg;
        }
        String candidate = arg;
        for (int n = 2; taken.contains(candidate); n++) {
            candidate = arg + "_" + n;
        }
        if (!candidate.equals(original)) {
            notes.add(in + " parameter '" + original + "' is the argument '" + candidate + "'");
        }
        return candidate;
    }

    private static String baseName(String operationId, String method, String path) {
        String raw = operationId.isEmpty() ? method + "_" + path : operationId;
        String name = raw.replaceAll("[^A-Za-z0-9_.-]+", "_").replaceAll("_+", "_").replaceAll("^[_.-]+|[_.-]+$", "");
        return name.isEmpty() ? method : name;
    }

    private static String uniqueName(String wanted, Set<String> used, Predicate<String> takenElsewhere, List<String> notes) {
        String base = cut(wanted, MAX_NAME);
        String name = base;
        for (int n = 2; used.contains(name) || takenElsewhere.test(name); n++) {
            String suffix = "_" + n;
            name = cut(base, MAX_NAME - suffix.length()) + suffix;
        }
        if (!name.equals(wanted)) {
            notes.add("named '" + name + "' because '" + wanted + "' " + (wanted.length() > MAX_NAME ? "is longer than 64 characters or " : "")
                    + "is taken");
        }
        used.add(name);
        return name;
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }

    private static InvalidInputException problem(String key, String english, Object... args) {
        return new InvalidInputException(Message.of(key, english, args));
    }
}
