package dev.amcp.gateway.governance.entity;

import java.util.Set;

/** The capability strings a role can hold. Stored as strings so admins can read them in the database. */
public final class Capability {

    /** Manage the workspace: servers, tools, roles, keys, code tools. */
    public static final String ADMIN = "admin";
    /** Call tools that write (anything not a GET). */
    public static final String TOOLS_WRITE = "tools.write";
    /** Use inline {@code code_execute} on servers whose code mode is {@code inline}. Off until an admin grants it. */
    public static final String INLINE_CODE = "inlineCode";

    public static final Set<String> ALL = Set.of(ADMIN, TOOLS_WRITE, INLINE_CODE);

    private Capability() {}
}
