package dev.amcp.gateway.governance.entity;

import java.util.Set;

/**
 * Who a request runs as: the workspace, the person and key behind it, the role it holds and the scope the entry
 * point narrowed it to. Identity always comes from authentication, never from request arguments.
 * <p>
 * An {@code operator} runs the instance (workspaces, the license) and belongs to no workspace: its
 * {@code workspaceId} is {@link #NO_WORKSPACE}, which no workspace has, and its role grants nothing inside one.
 */
public record Caller(long workspaceId, Long userId, Long apiKeyId, String username, RoleGrant role, CallScope scope,
                     boolean operator) {

    /** The workspace id of an operator: identities start at 1, so every workspace lookup finds nothing. */
    public static final long NO_WORKSPACE = 0;

    /** A member of a workspace. */
    public Caller(long workspaceId, Long userId, Long apiKeyId, String username, RoleGrant role, CallScope scope) {
        this(workspaceId, userId, apiKeyId, username, role, scope, false);
    }

    /** An operator of the instance, outside every workspace. */
    public static Caller operator(Long userId, Long apiKeyId, String username) {
        return new Caller(NO_WORKSPACE, userId, apiKeyId, username, new RoleGrant(0, "operator", Set.of(), false, Set.of()),
                CallScope.UNRESTRICTED, true);
    }

    public boolean has(String capability) {
        return role.has(capability);
    }

    public Caller withScope(CallScope narrower) {
        return new Caller(workspaceId, userId, apiKeyId, username, role, scope.narrow(narrower), operator);
    }

    /** The same person and scope under another role, as a definer-mode code tool runs. */
    public Caller withRole(RoleGrant other) {
        return new Caller(workspaceId, userId, apiKeyId, username, other, scope, operator);
    }
}
