/**
 * MCP endpoints: Streamable HTTP at {@code /mcp/{server}} and the shared {@code /mcp}, written on Jakarta REST
 * because tool lists, scope and auth are per caller. Wire types are records. Never imports code mode.
 */
package dev.amcp.gateway.mcp;
