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

    /**
     * Propose code tools with {@code propose_code_tool} on servers whose code mode is {@code inline}. Admins hold it
     * implicitly (they can save code tools outright); other roles only when an admin grants it.
     */
    public static final String PROPOSE_CODE = "proposeCode";

    public static final Set<String> ALL = Set.of(ADMIN, TOOLS_WRITE, INLINE_CODE, PROPOSE_CODE);

    /** Whether a role holding {@code held} has {@code capability}, counting what {@link #ADMIN} implies. */
    public static boolean granted(Set<String> held, String capability) {
        return held.contains(capability) || (PROPOSE_CODE.equals(capability) && held.contains(ADMIN));
    }

    private Capability() {}
}
