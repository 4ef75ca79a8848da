/**
 * MCP endpoints: Streamable HTTP at {@code /mcp/{server}} and the shared {@code /mcp}, served by one servlet
 * ({@code boundary.McpServlet}) that checks its own headers and writes its own answers; tool lists, scope and auth are
 * per caller. Wire types are records. Never imports code mode.
 */
package dev.amcp.gateway.mcp;
