/**
 * Tools and the one execution path. {@link dev.amcp.gateway.tools.control.ToolExecutor} runs every tool call, from
 * MCP, from the code-mode bridge and from the editor's test button, and is the one home of the access policy.
 * Invokers ({@code ToolInvoker}) and virtual tools ({@code ToolProvider}) plug in through interfaces owned here, so
 * this package never imports code mode. {@link dev.amcp.gateway.tools.control.UpstreamRules} is the one home of where
 * outbound calls may go (allowed upstreams, the operator's egress ceiling, special addresses, credential binding).
 * Workspace upstreams and their credentials ({@code WorkspaceUpstreams}) are workspace data: a credential is opened
 * only in {@code UpstreamCredentials}, for the header of one call, and never leaves this package in clear. A person's
 * own tokens at an upstream MCP server that acts for each person are opened only in {@code UpstreamAccounts}, for that
 * person's calls to that server.
 */
package dev.amcp.gateway.tools;
