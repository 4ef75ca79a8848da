package dev.amcp.gateway.governance.entity;

/**
 * Who a request runs as: the workspace, the person and key behind it, the role it holds and the scope the entry
 * point narrowed it to. Identity always comes from authentication, never from request arguments.
 */
public record Caller(long workspaceId, Long userId, Long apiKeyId, String username, RoleGrant role, CallScope scope) {

    public boolean has(String capability) {
        return role.has(capability);
    }

    public Caller withScope(CallScope narrower) {
        return new Caller(workspaceId, userId, apiKeyId, username, role, scope.narrow(narrower));
    }

    /** The same person and scope under another role, as a definer-mode code tool runs. */
    public Caller withRole(RoleGrant other) {
        return new Caller(workspaceId, userId, apiKeyId, username, other, scope);
    }
}
