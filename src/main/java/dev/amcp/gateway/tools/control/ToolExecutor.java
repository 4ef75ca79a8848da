package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.DatabaseOutage;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Tracing;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolCallCompleted;
import dev.amcp.gateway.tools.entity.ToolCallCompleted.Outcome;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one way any tool runs: MCP {@code tools/call}, the code-mode bridge and the editor's test button all come
 * here. It checks the caller's scope and the tool's read/write class, validates the arguments against the tool's
 * input schema, picks the invoker, checks a stored tool's result against its output schema, times the call and
 * announces it with {@link ToolCallCompleted}.
 */
@ApplicationScoped
public class ToolExecutor {

    private static final Logger LOG = Logger.getLogger(ToolExecutor.class.getName());

    @Inject
    ToolCatalog catalog;

    @Inject
    Instance<ToolInvoker> invokers;

    @Inject
    SchemaValidator schemaValidator;

    @Inject
    Event<ToolCallCompleted> completed;

    /** Resolved once: walking the {@code Instance} on every call cost more than the lookup it served. */
    private List<ToolInvoker> invokerList;

    @PostConstruct
    void resolveInvokers() {
        invokerList = invokers.stream().toList();
    }

    /**
     * Calls a tool by name, stored or virtual.
     *
     * @throws ToolNotAvailableException when the tool is missing or outside the caller's scope (the two look alike)
     */
    public ToolResult call(Caller caller, String toolName, JsonObject args) {
        var stored = catalog.findStored(caller, toolName);
        if (stored.isPresent()) {
            return execute(caller, stored.get(), args);
        }
        var virtual = catalog.findVirtual(caller, toolName);
        if (virtual.isEmpty()) {
            completed.fire(new ToolCallCompleted(caller, caller.workspaceId(), toolName, null, Outcome.DENIED, 0));
            throw new ToolNotAvailableException(toolName);
        }
        return traced(caller, toolName, "virtual", virtual.get().inputSchema(), args, a -> virtual.get().call(caller, a));
    }

    /** Runs a stored tool for this caller, after the access check. */
    public ToolResult execute(Caller caller, McpTool tool, JsonObject args) {
        if (!ToolAccessPolicy.permits(caller, tool)) {
            completed.fire(new ToolCallCompleted(caller, caller.workspaceId(), tool.getName(), tool.getMethod(), Outcome.DENIED, 0));
            throw new ToolNotAvailableException(tool.getName());
        }
        if (CallContext.current().dryRun() && !tool.isReadOnly() && !tool.isCodeTool()) {
            return plannedWrite(tool, args); // a dry run never makes a write; code tools plan their own
        }
        ToolInvoker invoker = invokerFor(tool.getMethod());
        return traced(caller, tool.getName(), tool.getMethod(), tool.getInputSchema(), args,
                a -> invoker == null ? ToolResult.error(unavailableMessage(tool)) : followingOutputSchema(tool, invoker.invoke(caller, tool, a)));
    }

    /**
     * MCP requires the structured result of a tool with an output schema to follow it, so one that does not is a tool
     * error that says what differs, never a result a client's SDK would reject.
     */
    private ToolResult followingOutputSchema(McpTool tool, ToolResult result) {
        JsonObject schema = tool.getOutputSchema();
        if (schema == null || result.isError() || result.pendingApproval() != null) {
            return result; // a paused write's answer has no value yet
        }
        List<String> problems = result.structuredContent() == null ? List.of("the result is not a JSON object")
                : schemaValidator.validate(schema, result.structuredContent());
        if (problems.isEmpty()) {
            return result;
        }
        return ToolResult.error("Tool '" + tool.getName() + "' answered a result that does not follow its outputSchema: "
                + String.join("; ", problems) + ". The upstream may have changed; an admin must update the tool's output schema.");
    }

    /** The tool call's span (OpenTelemetry's {@code execute_tool} convention), failed unless the call went well. */
    private ToolResult traced(Caller caller, String toolName, String method, JsonObject inputSchema, JsonObject rawArgs,
                              java.util.function.Function<JsonObject, ToolResult> body) {
        try (Tracing.Span span = Tracing.internal("execute_tool " + toolName).attribute("gen_ai.operation.name", "execute_tool")
                .attribute("gen_ai.tool.name", toolName).attribute("amcp.tool.method", method)) {
            return timed(caller, toolName, method, inputSchema, rawArgs, body, span);
        }
    }

    private ToolResult timed(Caller caller, String toolName, String method, JsonObject inputSchema, JsonObject rawArgs,
                             java.util.function.Function<JsonObject, ToolResult> body, Tracing.Span span) {
        long start = System.nanoTime();
        JsonObject args = rawArgs == null ? JsonValue.EMPTY_JSON_OBJECT : rawArgs;
        ToolResult result;
        Outcome outcome;
        List<String> problems = JsonSupport.saneNumbers(args) ? schemaValidator.validate(inputSchema, args)
                : List.of("numbers must be within ±1e308 with at most 400 digits");
        if (!problems.isEmpty()) {
            result = ToolResult.error("Invalid arguments for tool '" + toolName + "': " + String.join("; ", problems)
                    + ". Fix the arguments to match the tool's inputSchema and call again.");
            outcome = Outcome.INVALID_ARGS;
        } else {
            result = guarded(toolName, () -> body.apply(args));
            outcome = result.isError() ? Outcome.TOOL_ERROR : Outcome.OK;
        }
        if (outcome != Outcome.OK) {
            span.fail(outcome.name());
        }
        completed.fire(new ToolCallCompleted(caller, caller.workspaceId(), toolName, method, outcome, System.nanoTime() - start));
        return result;
    }

    private ToolResult plannedWrite(McpTool tool, JsonObject rawArgs) {
        JsonObject args = rawArgs == null ? JsonValue.EMPTY_JSON_OBJECT : rawArgs;
        List<String> problems = schemaValidator.validate(tool.getInputSchema(), args);
        return problems.isEmpty() ? ToolResult.plannedWrite(tool.getName(), args)
                : ToolResult.error("Invalid arguments for tool '" + tool.getName() + "': " + String.join("; ", problems));
    }

    /** An invoker bug becomes a tool error with a reference the operator can find in the log, never a stack trace. */
    private static ToolResult guarded(String toolName, Supplier<ToolResult> body) {
        try {
            return body.get();
        } catch (ToolNotAvailableException | dev.amcp.gateway.tools.entity.ToolCallRejectedException e) {
            throw e;
        } catch (RuntimeException e) {
            if (DatabaseOutage.noted(e)) {
                LOG.log(Level.FINE, "Tool " + toolName + " failed on the unreachable database", e);
                return ToolResult.error("Tool '" + toolName + "' could not finish: " + DatabaseOutage.MESSAGE);
            }
            String reference = UUID.randomUUID().toString().substring(0, 8);
            LOG.log(Level.SEVERE, "Tool " + toolName + " failed unexpectedly, reference " + reference, e);
            return ToolResult.error("Tool '" + toolName + "' failed inside the gateway (reference " + reference + ")");
        }
    }

    private ToolInvoker invokerFor(String method) {
        for (ToolInvoker invoker : invokerList) {
            if (invoker.handles(method)) {
                return invoker;
            }
        }
        return null;
    }

    private static String unavailableMessage(McpTool tool) {
        return tool.isCodeTool()
                ? "Code tools are unavailable: code mode is not configured on this gateway"
                : "No invoker for tool method '" + tool.getMethod() + "'";
    }
}
