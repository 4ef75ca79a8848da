/**
 * Tools and the one execution path. {@link dev.amcp.gateway.tools.control.ToolExecutor} runs every tool call, from
 * MCP, from the code-mode bridge and from the editor's test button, and is the one home of the access policy.
 * Invokers ({@code ToolInvoker}: HTTP tools, tools of upstream MCP servers) and virtual tools ({@code ToolProvider})
 * plug in through interfaces owned here, so this package never imports code mode. Tool rows are saved through
 * {@code ToolService}, which schema checks, and where a call may go and which secret it carries is not judged here:
 * every invoker asks {@link dev.amcp.gateway.upstreams}.
 */
package dev.amcp.gateway.tools;
