/**
 * Workspaces (tenants), their users, API keys and MCP server configurations, and Bearer-key authentication that
 * turns a request into a {@link dev.amcp.gateway.governance.entity.Caller}.
 */
package dev.amcp.gateway.workspace;
