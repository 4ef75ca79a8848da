package dev.amcp.gateway.tools.entity;

import dev.amcp.gateway.governance.entity.Caller;

/** Fired by {@code ToolExecutor} after every call, whatever its outcome; audit and metrics observe it. */
public record ToolCallCompleted(Caller caller, long workspaceId, String toolName, String method, Outcome outcome,
                                long durationNanos) {

    public enum Outcome { OK, TOOL_ERROR, INVALID_ARGS, DENIED }
}
