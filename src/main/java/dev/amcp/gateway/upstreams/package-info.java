/**
 * Where outbound calls may go, and every secret opened for a call. {@link dev.amcp.gateway.upstreams.control.UpstreamRules}
 * is the one rule each outbound call passes (the operator's bases and allowed hosts, the egress ceiling, special
 * addresses, credential binding, the operator's grants), and {@link dev.amcp.gateway.upstreams.control.OutboundHttp}
 * sends to the address the rule checked. Workspace upstreams ({@code WorkspaceUpstreams}) are workspace data: their
 * credentials are opened only in {@code UpstreamCredentials}, for the header of one call, and never leave this package
 * in clear. A person's own tokens at an upstream MCP server that acts for each person are opened only in
 * {@code UpstreamAccounts}, for that person's calls to that server; {@code UpstreamAuthorization} is the OAuth client
 * that gets them. This package imports no feature above it: what calls an upstream is answered through
 * {@code UpstreamUsers}, which {@code tools} implements.
 */
package dev.amcp.gateway.upstreams;
