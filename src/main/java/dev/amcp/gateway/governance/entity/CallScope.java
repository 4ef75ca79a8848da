package dev.amcp.gateway.governance.entity;

import java.util.Set;

/**
 * How far an entry point narrows what a caller's role already allows. The MCP endpoint of one server pins the
 * server; the shared endpoint excludes code tools; a code run narrows further to its allow-list and read-only
 * class. Scopes only ever narrow: {@link #narrow} keeps the stricter of each field.
 *
 * @param serverId       only tools of this server, or {@code null} for any server the role may use
 * @param allowedTools   only these tool names, or {@code null} for no name restriction
 * @param readOnlyOnly   only read-only tools
 * @param codeToolsAllowed whether code tools may be called at all
 */
public record CallScope(Long serverId, Set<String> allowedTools, boolean readOnlyOnly, boolean codeToolsAllowed) {

    public static final CallScope UNRESTRICTED = new CallScope(null, null, false, true);

    public CallScope {
        allowedTools = allowedTools == null ? null : Set.copyOf(allowedTools);
    }

    public static CallScope server(long serverId) {
        return new CallScope(serverId, null, false, true);
    }

    /** The shared {@code /mcp} endpoint: HTTP tools of any server the role may use, never code tools. */
    public static CallScope sharedEndpoint() {
        return new CallScope(null, null, false, false);
    }

    public CallScope narrow(CallScope other) {
        if (serverId != null && other.serverId != null && !serverId.equals(other.serverId)) {
            return new CallScope(serverId, Set.of(), true, false); // disjoint: nothing is allowed
        }
        Set<String> tools = allowedTools == null ? other.allowedTools
                : other.allowedTools == null ? allowedTools
                : allowedTools.stream().filter(other.allowedTools::contains).collect(java.util.stream.Collectors.toSet());
        return new CallScope(serverId != null ? serverId : other.serverId, tools,
                readOnlyOnly || other.readOnlyOnly, codeToolsAllowed && other.codeToolsAllowed);
    }
}
