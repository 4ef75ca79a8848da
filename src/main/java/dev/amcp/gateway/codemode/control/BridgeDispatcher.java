package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Answers the sandbox's {@code amcp.search} (each tool with its TypeScript signature), {@code amcp.describe} (its
 * schemas and declaration, {@code ts}) and {@code amcp.run} under the run's caller. It
 * only ever uses the catalog and the executor, so the bridge obeys the same policy as every other entry point.
 */
@ApplicationScoped
public class BridgeDispatcher implements BridgeAnswers {

    /** Identity is fixed by the gateway; code asking for another one is refused, not ignored silently. */
    static final Set<String> IDENTITY_KEYS = Set.of("workspaceId", "workspace", "role", "runAs", "userId", "caller", "scope");
    static final int DEFAULT_SEARCH_LIMIT = 20;
    static final int MAX_SEARCH_LIMIT = 100;

    @Inject
    ToolCatalog catalog;

    @Inject
    ToolExecutor executor;

    /**
     * The answer to one bridge call: a value, or an error code and message for an {@code AmcpError}. An answer that
     * {@code endsRun} is not sent to the code: the run ends with its message (a replay that diverged, or a run paused
     * at a write for approval).
     */
    public record Answer(boolean ok, JsonValue value, String errorCode, String message, String tool, boolean endsRun) {
        /** The error code of an answer that ends a run PAUSED at a write awaiting approval (else an ending answer diverged). */
        static final String PAUSED = "approval_required";

        Answer(boolean ok, JsonValue value, String errorCode, String message, String tool) {
            this(ok, value, errorCode, message, tool, false);
        }

        static Answer value(JsonValue value, String tool) {
            return new Answer(true, value, null, null, tool);
        }

        static Answer error(String code, String message, String tool) {
            return new Answer(false, null, code, message, tool);
        }
    }

    @Override
    public String kind() {
        return BridgeAnswers.LIVE;
    }

    @Override
    public Answer answer(Caller caller, String op, JsonObject args) {
        return handle(caller, op, args);
    }

    /** The refusal of a call that names an identity, or {@code null}. */
    static Answer identityRejected(JsonObject args) {
        for (String key : args.keySet()) {
            if (IDENTITY_KEYS.contains(key)) {
                return Answer.error("identity_rejected", "'" + key + "' is not accepted from code: a run's identity is fixed by the gateway", null);
            }
        }
        return null;
    }

    public Answer handle(Caller caller, String op, JsonObject args) {
        Answer rejected = identityRejected(args);
        if (rejected != null) {
            return rejected;
        }
        return switch (op) {
            case "search" -> search(caller, args);
            case "describe" -> describe(caller, args);
            case "run" -> run(caller, args);
            default -> Answer.error("bad_request", "Unknown bridge operation", null);
        };
    }

    private Answer search(Caller caller, JsonObject args) {
        String query = JsonSupport.string(args, "query", "").toLowerCase(Locale.ROOT).strip();
        int limit = DEFAULT_SEARCH_LIMIT;
        if (args.get("limit") instanceof jakarta.json.JsonNumber n) {
            limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, n.intValue()));
        }
        List<String> terms = query.isEmpty() ? List.of() : Arrays.asList(query.split("\\s+"));
        JsonArrayBuilder found = JsonSupport.JSON.createArrayBuilder();
        catalog.list(caller).stream()
                .filter(d -> terms.stream().allMatch(t -> haystack(d).contains(t)))
                .limit(limit)
                .forEach(d -> found.add(summary(d)));
        return Answer.value(found.build(), null);
    }

    private Answer describe(Caller caller, JsonObject args) {
        String name = JsonSupport.string(args, "name", null);
        if (name == null) {
            return Answer.error("bad_request", "amcp.describe(name) needs a tool name", null);
        }
        return catalog.list(caller).stream().filter(d -> d.name().equals(name)).findFirst()
                .map(d -> {
                    JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder(summary(d)).add("inputSchema", d.inputSchema())
                            .add("ts", TypeDeclarations.declaration(d));
                    if (d.outputSchema() != null) {
                        b.add("outputSchema", d.outputSchema());
                    }
                    return Answer.value(b.build(), name);
                })
                .orElseGet(() -> notAvailable(name));
    }

    /** The arguments of an {@code amcp.run} call, or {@code null} when they are not an object. */
    static JsonObject runArgs(JsonObject args) {
        JsonValue toolArgs = args.getOrDefault("args", JsonValue.EMPTY_JSON_OBJECT);
        if (toolArgs == JsonValue.NULL) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        return toolArgs.getValueType() == JsonValue.ValueType.OBJECT ? toolArgs.asJsonObject() : null;
    }

    private Answer run(Caller caller, JsonObject args) {
        String name = JsonSupport.string(args, "name", null);
        if (name == null) {
            return Answer.error("bad_request", "amcp.run(name, args) needs a tool name", null);
        }
        JsonObject toolArgs = runArgs(args);
        if (toolArgs == null) {
            return Answer.error("bad_request", "amcp.run args must be an object", name);
        }
        try {
            ToolResult result = executor.call(caller, name, toolArgs);
            if (result.isError()) {
                return Answer.error("tool_error", result.text(), name);
            }
            return Answer.value(valueOf(result), name);
        } catch (ToolNotAvailableException e) {
            return notAvailable(name);
        }
    }

    /** structuredContent, else the JSON text parsed, else the text. */
    static JsonValue valueOf(ToolResult result) {
        if (result.structuredContent() != null) {
            return result.structuredContent();
        }
        if (result.value() != null) {
            return result.value();
        }
        try {
            return JsonSupport.parse(result.text());
        } catch (IllegalArgumentException e) {
            return JsonSupport.JSON.createValue(result.text());
        }
    }

    static Answer notAvailable(String name) {
        return Answer.error("not_available", "Tool '" + name + "' is not available to this run", name);
    }

    private static JsonObject summary(ToolDescriptor d) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("name", d.name()).add("readOnly", d.readOnly());
        b.add("title", d.title() == null ? d.name() : d.title());
        b.add("description", d.description() == null ? "" : d.description());
        b.add("signature", TypeDeclarations.signature(d));
        return b.build();
    }

    private static String haystack(ToolDescriptor d) {
        return (d.name() + " " + (d.title() == null ? "" : d.title()) + " " + (d.description() == null ? "" : d.description()))
                .toLowerCase(Locale.ROOT);
    }
}
