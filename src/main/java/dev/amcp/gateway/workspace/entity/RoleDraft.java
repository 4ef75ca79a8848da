package dev.amcp.gateway.workspace.entity;

import java.util.Set;

/**
 * What an admin submits to create or change a role of their workspace.
 *
 * @param name         the role's name (creation only)
 * @param capabilities capability strings such as {@code admin}, {@code tools.write}, {@code inlineCode}; {@code null}
 *                     leaves a role's capabilities as they are
 * @param allServers   whether the role may use every server of the workspace, now and later
 * @param serverSlugs  the servers it may use when not all; {@code null} with {@code allServers == false} leaves the
 *                     scope as it is
 * @param approveWrites whether the writes of code tools that follow their caller's role need a human's approval;
 *                      {@code null} leaves it as it is (off for a new role)
 */
public record RoleDraft(String name, Set<String> capabilities, boolean allServers, Set<String> serverSlugs, Boolean approveWrites) {

    public RoleDraft(String name, Set<String> capabilities, boolean allServers, Set<String> serverSlugs) {
        this(name, capabilities, allServers, serverSlugs, null);
    }
}
