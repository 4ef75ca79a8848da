package dev.amcp.gateway.editor.boundary;

import jakarta.annotation.security.DeclareRoles;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.identitystore.DatabaseIdentityStoreDefinition;
import jakarta.security.enterprise.identitystore.Pbkdf2PasswordHash;

/**
 * The editor's identity store (Jakarta Security), used by {@link EditorAuthenticationMechanism}. People are the rows of {@code users}; their passwords are PBKDF2
 * hashes written by {@code WorkspaceService.createUser}; people without one (provisioned by single sign-on, or created
 * without a password) have no password sign-in. Every enabled user gets the one web role
 * {@value #USER_ROLE}, which {@code web.xml} requires for {@code /admin}; what a person may change is decided by
 * their workspace role's capabilities, in the services.
 */
@ApplicationScoped
@DeclareRoles(EditorSecurity.USER_ROLE)
@DatabaseIdentityStoreDefinition(
        dataSourceLookup = "jdbc/amcp",
        callerQuery = "select password_hash from users where username = ? and enabled = true and password_hash is not null",
        groupsQuery = "select 'amcp-user' from users where username = ? and enabled = true",
        hashAlgorithm = Pbkdf2PasswordHash.class)
public class EditorSecurity {

    public static final String USER_ROLE = "amcp-user";
    public static final String LOGIN_PAGE = "/admin/login";
}
