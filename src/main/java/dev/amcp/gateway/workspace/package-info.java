/**
 * Workspaces (tenants), their users, API keys and MCP server configurations, the instance's operators (accounts outside
 * every workspace, the first one created at start by the bootstrap), the REST API that administers them, and Bearer
 * authentication that turns a request into a {@link dev.amcp.gateway.governance.entity.Caller}: API keys, and on the MCP
 * endpoints OAuth access tokens of the OpenID provider (its discovery, keys and JWT checks, shared with the editor's
 * sign-in, are {@code control.OidcProvider}).
 */
package dev.amcp.gateway.workspace;
