package dev.amcp.gateway.tools.entity;

import dev.amcp.gateway.governance.entity.Caller;

/**
 * A tool's input or output schema changed (or the tool was renamed, created or deleted), fired by {@code ToolService}
 * inside the saving transaction, whatever wrote the tool: the editor, REST, an OpenAPI re-import or an upstream refresh.
 * Code mode observes it to flag the code tools that use the tool ({@code toolName}) for review.
 */
public record ToolSchemaChanged(Caller caller, long workspaceId, String toolName) {}
