package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * The gateway's OpenID provider, {@value #ISSUER_SETTING} (unset: none). One {@link OidcProvider} serves the editor's
 * sign-in and the MCP endpoints' access tokens, so both share its discovery document and its cached keys. Creating it
 * fetches nothing: the provider is first asked when the first token or sign-in needs it.
 */
@ApplicationScoped
public class OidcIssuer {

    public static final String ISSUER_SETTING = "AMCP_OIDC_ISSUER";

    @Inject
    Settings settings;

    private OidcProvider provider;

    @PostConstruct
    void configure() {
        provider = settings.get(ISSUER_SETTING).map(String::strip).map(issuer -> {
            try {
                return new OidcProvider(issuer);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(ISSUER_SETTING + ": " + e.getMessage(), e);
            }
        }).orElse(null);
    }

    /** The configured provider; empty when {@value #ISSUER_SETTING} is not set. */
    public Optional<OidcProvider> provider() {
        return Optional.ofNullable(provider);
    }
}
