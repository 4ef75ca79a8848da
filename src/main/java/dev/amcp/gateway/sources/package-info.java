/**
 * Tool sources: importers that turn something outside into ordinary tool rows, saved through the same
 * {@code ToolService} the editor uses. An OpenAPI document becomes HTTP tools ({@code OpenApiImports}); an upstream MCP
 * server's tool list becomes tools the MCP upstream invoker of {@code tools} runs ({@code McpUpstreams}, refreshed by
 * {@code UpstreamRefreshes}). Fetching a document or a tool list passes the one upstream rule of
 * {@link dev.amcp.gateway.upstreams}. Nothing here runs a tool.
 */
package dev.amcp.gateway.sources;
