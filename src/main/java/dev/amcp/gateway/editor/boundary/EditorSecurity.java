package dev.amcp.gateway.editor.boundary;

/**
 * The editor's sign-in names. People are the rows of {@code users}; their passwords are PBKDF2 hashes written by
 * {@code WorkspaceService.createUser}; people without one (provisioned by single sign-on, or created without a
 * password) have no password sign-in. Every signed-in user has the one web role {@value #USER_ROLE}
 * ({@link EditorSignInFilter}, which lets no anonymous visitor past {@code /admin} but the login pages); what a
 * person may change is decided by their workspace role's capabilities, in the services.
 */
public final class EditorSecurity {

    public static final String USER_ROLE = "amcp-user";
    public static final String LOGIN_PAGE = "/admin/login";

    private EditorSecurity() {
    }
}
