package dev.amcp.gateway.governance.entity;

import java.util.Set;

/** An immutable snapshot of a role, carried by a {@link Caller} for the length of a request. */
public record RoleGrant(long roleId, String name, Set<String> capabilities, boolean allServers, Set<Long> serverIds) {

    public RoleGrant {
        capabilities = Set.copyOf(capabilities);
        serverIds = Set.copyOf(serverIds);
    }

    public boolean has(String capability) {
        return Capability.granted(capabilities, capability);
    }

    /**
     * This grant, never more than {@code ceiling}: the capabilities both hold and the servers both may use. A key
     * narrowed to a role carries it only within its user's role as it is now, so lowering the user's role narrows the
     * key too.
     */
    public RoleGrant within(RoleGrant ceiling) {
        Set<String> both = new java.util.TreeSet<>(capabilities);
        both.retainAll(ceiling.capabilities);
        if (allServers || ceiling.allServers) {
            return new RoleGrant(roleId, name, both, allServers && ceiling.allServers, allServers ? ceiling.serverIds : serverIds);
        }
        Set<Long> servers = new java.util.HashSet<>(serverIds);
        servers.retainAll(ceiling.serverIds);
        return new RoleGrant(roleId, name, both, false, servers);
    }

    public boolean mayUseServer(long serverId) {
        return allServers || serverIds.contains(serverId);
    }
}
