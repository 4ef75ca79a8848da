package dev.amcp.gateway.tools.entity;

/**
 * Registration of an upstream MCP server: the workspace server its tools join, a name, the Streamable HTTP URL (may
 * start with an {@code ${AMCP_UPSTREAM_<NAME>}} base), an optional tool-name prefix and an optional credential name.
 */
public record UpstreamServerRequest(String server, String name, String url, String prefix, String credential) {}
