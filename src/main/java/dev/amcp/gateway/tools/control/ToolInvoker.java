package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.json.JsonObject;

/**
 * Runs a stored tool once {@link ToolExecutor} has checked access and arguments. One invoker per kind of endpoint:
 * HTTP here, {@code code} in code mode. Implementations are CDI beans.
 */
public interface ToolInvoker {

    /** Whether this invoker runs tools of the given endpoint method ({@code GET} ... or {@code code}). */
    boolean handles(String method);

    /** Runs the tool. Failures come back as {@link ToolResult#error}; exceptions are reserved for bugs. */
    ToolResult invoke(Caller caller, McpTool tool, JsonObject args);
}
