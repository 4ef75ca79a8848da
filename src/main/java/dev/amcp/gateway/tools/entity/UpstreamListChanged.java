package dev.amcp.gateway.tools.entity;

/** An upstream MCP server announced {@code notifications/tools/list_changed}; its tools should be refreshed. */
public record UpstreamListChanged(long upstreamId) {}
