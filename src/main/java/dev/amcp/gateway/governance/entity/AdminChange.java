package dev.amcp.gateway.governance.entity;

import jakarta.json.JsonObject;
import java.util.List;

/**
 * One change an admin or operator made, fired as a CDI event by the service that made it, inside its transaction, and
 * written to the admin audit log by {@code AdminAudit}. {@code before} and {@code after} are what the thing looked
 * like ({@code null}: it did not exist); whoever fires the event leaves secrets out of them: password hashes, key hashes
 * and plaintext keys, credential and header values.
 */
public record AdminChange(Long actorUserId, String actorUsername, boolean actorOperator, Long workspaceId, String kind,
                          String subject, String action, JsonObject before, JsonObject after) {

    public static final String WORKSPACE = "workspace";
    public static final String USER = "user";
    public static final String ROLE = "role";
    public static final String KEY = "key";
    public static final String SERVER = "server";
    public static final String TOOL = "tool";
    public static final String CODE_TOOL = "codeTool";
    public static final String PROPOSAL = "proposal";
    public static final String LICENSE = "license";
    /** A row of a workspace's single sign-on role mapping. */
    public static final String SSO_MAPPING = "ssoMapping";
    /** A workspace upstream (base URL), its credential, and the operator's egress rules. */
    public static final String UPSTREAM = "upstream";
    public static final String CREDENTIAL = "credential";
    public static final String EGRESS_RULE = "egressRule";
    /** The operator's grant of an AMCP_UPSTREAM_<NAME> base to a workspace. */
    public static final String UPSTREAM_GRANT = "upstreamGrant";
    /** Every kind, as {@code ?kind=} accepts them. */
    public static final List<String> KINDS = List.of(WORKSPACE, USER, ROLE, KEY, SERVER, TOOL, CODE_TOOL, PROPOSAL, LICENSE, SSO_MAPPING,
            UPSTREAM, CREDENTIAL, EGRESS_RULE, UPSTREAM_GRANT);

    public static final String CREATE = "create";
    public static final String UPDATE = "update";
    public static final String DELETE = "delete";
    public static final String ENABLE = "enable";
    public static final String DISABLE = "disable";
    public static final String REVOKE = "revoke";
    public static final String REJECT = "reject";
    public static final String INSTALL = "install";
    public static final String REMOVE = "remove";
    /** A credential sent upstream (noted at most hourly per credential). */
    public static final String USE = "use";

    /** A change by this caller to something of a workspace ({@code workspaceId}), or of the instance ({@code null}). */
    public static AdminChange by(Caller caller, Long workspaceId, String kind, String subject, String action,
                                 JsonObject before, JsonObject after) {
        return new AdminChange(caller.userId(), caller.username(), caller.operator(), workspaceId, kind, subject, action, before, after);
    }

    /** A change inside the caller's own workspace. */
    public static AdminChange inWorkspace(Caller caller, String kind, String subject, String action, JsonObject before, JsonObject after) {
        return by(caller, caller.workspaceId(), kind, subject, action, before, after);
    }

    /** {@code update}, or {@code enable}/{@code disable} when that is what changed. */
    public static String enabledAction(boolean wasEnabled, boolean isEnabled) {
        return wasEnabled == isEnabled ? UPDATE : isEnabled ? ENABLE : DISABLE;
    }
}
