/**
 * Workspaces (tenants), their users, API keys and MCP server configurations, the instance's operators (accounts outside
 * every workspace, the first one created at start by the bootstrap), the REST API that administers them, and Bearer-key
 * authentication that turns a request into a {@link dev.amcp.gateway.governance.entity.Caller}.
 */
package dev.amcp.gateway.workspace;
