package dev.amcp.gateway.workspace.entity;

import java.util.List;

/**
 * A person as an OpenID provider vouched for them in a verified ID token: the issuer and subject that identify the
 * account for good, the user name, e-mail and display name it suggests, and the values of the role claim.
 */
public record SsoIdentity(String issuer, String subject, String username, String email, String displayName, List<String> roleClaimValues) {

    public SsoIdentity {
        roleClaimValues = roleClaimValues == null ? List.of() : List.copyOf(roleClaimValues);
    }
}
