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

    public boolean mayUseServer(long serverId) {
        return allServers || serverIds.contains(serverId);
    }
}
