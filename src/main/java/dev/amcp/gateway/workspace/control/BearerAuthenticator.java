package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.ShortCache;
import dev.amcp.gateway.platform.control.Texts;
import dev.amcp.gateway.workspace.entity.ProtectedResourceMetadata;
import dev.amcp.gateway.workspace.entity.VerifiedJwt;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The one bearer check of the MCP endpoints: {@code Authorization: Bearer} carries an API key or an OAuth access token,
 * and either way the answer is a {@link Caller}; nothing after this knows how the caller signed in.
 * <p>
 * <b>OAuth</b> is on when {@value OidcIssuer#ISSUER_SETTING} and {@value #PUBLIC_URL_SETTING} are set. The gateway is
 * then a resource server (MCP authorization, 2025-11-25): each endpoint is a resource whose canonical URL is the public
 * URL plus its path, described at {@code /.well-known/oauth-protected-resource} plus that path (RFC 9728). A token in
 * JWT form (anything else is taken for an API key) must be signed by the issuer, name the endpoint's resource URL (or
 * {@value #AUDIENCE_SETTING}) in {@code aud}, be unexpired and grant the scope {@value #SCOPE_SETTING} (default
 * {@value #DEFAULT_SCOPE}). Its claim {@value #USER_CLAIM_SETTING} (default {@value #DEFAULT_USER_CLAIM}) names the
 * gateway user it acts for, with exactly that user's role as it is now; an unknown or disabled user, or one of a
 * disabled workspace, gets 403. A checked token is kept until it expires (at most {@value #MAX_KEPT_MINUTES} minutes,
 * {@value #MAX_KEPT} tokens), its user for {@code AMCP_ACCESS_CACHE_SECONDS} like a key's. Tokens are never sent on to
 * upstreams: a tool's outbound call carries only its own credential.
 */
@ApplicationScoped
public class BearerAuthenticator {

    public static final String PUBLIC_URL_SETTING = "AMCP_PUBLIC_URL";
    public static final String AUDIENCE_SETTING = "AMCP_OAUTH_AUDIENCE";
    public static final String USER_CLAIM_SETTING = "AMCP_OAUTH_USER_CLAIM";
    public static final String SCOPE_SETTING = "AMCP_OAUTH_SCOPE";
    public static final String DEFAULT_USER_CLAIM = "preferred_username";
    public static final String DEFAULT_SCOPE = "mcp";
    public static final String METADATA_PATH = "/.well-known/oauth-protected-resource";
    static final String REALM = "Bearer realm=\"amcp\"";
    /** An MCP endpoint's path: {@code /mcp} or {@code /mcp/<server>} with a server name of the form servers have. */
    static final Pattern ENDPOINT = Pattern.compile("/mcp(/[a-z0-9][a-z0-9_-]{0,62})?");
    static final int MAX_KEPT = 10_000;
    static final long MAX_KEPT_MINUTES = 10;
    private static final Logger LOG = Logger.getLogger(BearerAuthenticator.class.getName());

    /** The answer of {@link #authenticate}. */
    public sealed interface Outcome permits Accepted, Refused {}

    /**
     * A caller. {@code sessionCredential} is what its MCP sessions are bound to: the API key, or for a token the user
     * it maps to (a client that refreshes its token keeps its session).
     */
    public record Accepted(Caller caller, String sessionCredential) implements Outcome {}

    /**
     * A refusal: 401 (no or bad credential), 403 (a valid token but not enough: scope, user) or 503 (the identity
     * provider cannot be reached). {@code challenge} is the {@code WWW-Authenticate} value, or null.
     */
    public record Refused(int status, String challenge, String message) implements Outcome {}

    private record Kept(VerifiedJwt token, long untilEpochSecond) {}

    @Inject
    ApiKeyAuthenticator apiKeys;

    @Inject
    WorkspaceService workspaces;

    @Inject
    OidcIssuer issuer;

    @Inject
    Settings settings;

    private OidcProvider provider;
    private String publicUrl;
    private String audience;
    private String userClaim;
    private String scope;
    private final Map<String, Kept> verified = new ConcurrentHashMap<>();
    private ShortCache<String, Caller> users;

    @PostConstruct
    void configure() {
        publicUrl = settings.get(PUBLIC_URL_SETTING).map(BearerAuthenticator::publicUrl).orElse(null);
        provider = issuer.provider().orElse(null);
        if (provider != null && publicUrl == null) {
            LOG.warning(OidcIssuer.ISSUER_SETTING + " is set but " + PUBLIC_URL_SETTING + " is not: the MCP endpoints take "
                    + "API keys only (OAuth access tokens need the gateway's public URL, their audience)");
            provider = null;
        }
        audience = settings.get(AUDIENCE_SETTING).map(String::strip).orElse(null);
        userClaim = settings.get(USER_CLAIM_SETTING, DEFAULT_USER_CLAIM).strip();
        scope = settings.get(SCOPE_SETTING, DEFAULT_SCOPE).strip();
        users = new ShortCache<>(settings, AccessChanges::generation);
    }

    /**
     * Reads the settings at start, so a malformed {@value OidcIssuer#ISSUER_SETTING} or {@value #PUBLIC_URL_SETTING}
     * stops the application's start with the setting's name instead of failing every MCP request.
     */
    void checkOnStart(@Observes Startup startup) {
        if (oauthEnabled()) {
            LOG.info("OAuth for MCP clients is on: tokens of " + provider.issuer() + " for resources under " + publicUrl
                    + (audience == null ? "" : " (audience " + audience + ")") + ", scope " + scope + ", user claim " + userClaim);
        }
    }

    /** Whether MCP clients may sign in with OAuth access tokens. */
    public boolean oauthEnabled() {
        return provider != null;
    }

    /**
     * Checks the {@code Authorization} header of a request to an MCP endpoint.
     *
     * @param endpoint the endpoint's path, {@code /mcp} or {@code /mcp/<server>}
     */
    public Outcome authenticate(String authorizationHeader, String endpoint) {
        Optional<String> bearer = ApiKeyService.bearerToken(authorizationHeader);
        if (bearer.isEmpty()) {
            return new Refused(401, challenge(endpoint, null, null),
                    oauthEnabled() ? "Send an OAuth access token or an API key as 'Authorization: Bearer <token>'"
                            : "Send an API key as 'Authorization: Bearer <key>'");
        }
        String token = bearer.get();
        if (oauthEnabled() && looksLikeJwt(token)) {
            return oauth(token, endpoint);
        }
        return apiKeys.authenticate(authorizationHeader).<Outcome>map(caller -> new Accepted(caller, token))
                .orElseGet(() -> new Refused(401, challenge(endpoint, "invalid_token", null),
                        "The API key is unknown, revoked or expired"));
    }

    private Outcome oauth(String token, String endpoint) {
        String expected = audience != null ? audience : resourceUrl(endpoint);
        VerifiedJwt verified;
        try {
            verified = verified(token, expected);
        } catch (JwtRejected e) {
            if (e.reason() == JwtRejected.Reason.PROVIDER_UNAVAILABLE) {
                return new Refused(503, null, "The access token cannot be checked now: " + e.getMessage());
            }
            return new Refused(401, challenge(endpoint, "invalid_token", e.getMessage()), e.getMessage());
        }
        if (!verified.scopes().contains(scope)) {
            String message = "The access token lacks the scope '" + scope + "'";
            return new Refused(403, challenge(endpoint, "insufficient_scope", message), message);
        }
        Optional<String> username = verified.string(userClaim).map(String::strip).filter(u -> !u.isEmpty());
        if (username.isEmpty()) {
            return new Refused(403, null, "The access token has no '" + userClaim + "' claim naming a gateway user");
        }
        Optional<Caller> caller = users.get(username.get(), workspaces::callerForUser);
        if (caller.isEmpty()) {
            return new Refused(403, null, "No enabled user '" + Texts.clip(username.get(), 200) + "' of an enabled workspace");
        }
        return new Accepted(caller.get(), "oauth:" + caller.get().userId());
    }

    private VerifiedJwt verified(String token, String expectedAudience) throws JwtRejected {
        String key = expectedAudience + '\n' + Hashes.sha256(token);
        long now = Instant.now().getEpochSecond();
        Kept hit = verified.get(key);
        if (hit != null && now < hit.untilEpochSecond()) {
            return hit.token();
        }
        VerifiedJwt token1 = provider.verify(token, expectedAudience);
        long until = Math.min(token1.expiresAt().getEpochSecond() + OidcProvider.CLOCK_SKEW_SECONDS, now + MAX_KEPT_MINUTES * 60);
        if (verified.size() >= MAX_KEPT) {
            verified.clear();
        }
        verified.put(key, new Kept(token1, until));
        return token1;
    }

    /** The {@code WWW-Authenticate} value: the realm, and with OAuth on, where the metadata is and the scope to ask for. */
    String challenge(String endpoint, String error, String description) {
        StringBuilder out = new StringBuilder(REALM);
        if (oauthEnabled() && ENDPOINT.matcher(endpoint).matches()) {
            out.append(", resource_metadata=\"").append(metadataUrl(endpoint)).append("\", scope=\"").append(scope).append('"');
        }
        if (error != null) {
            out.append(", error=\"").append(error).append('"');
        }
        if (description != null && oauthEnabled()) {
            out.append(", error_description=\"").append(quotable(description)).append('"');
        }
        return out.toString();
    }

    /** The endpoint's canonical resource URL: the public URL and the path. */
    public String resourceUrl(String endpoint) {
        return publicUrl + endpoint;
    }

    public String metadataUrl(String endpoint) {
        return publicUrl + METADATA_PATH + endpoint;
    }

    /** RFC 9728 metadata of an endpoint; empty while OAuth is off, or for a path no server can have. */
    public Optional<ProtectedResourceMetadata> metadata(String endpoint) {
        if (!oauthEnabled() || !ENDPOINT.matcher(endpoint).matches()) {
            return Optional.empty();
        }
        return Optional.of(new ProtectedResourceMetadata(resourceUrl(endpoint), List.of(provider.issuer()), List.of(scope),
                List.of("header"), "AMCP Gateway " + endpoint));
    }

    /** Three base64url parts separated by dots, the first a JSON object ({@code eyJ}): a JWT, not an API key. */
    static boolean looksLikeJwt(String token) {
        if (!token.startsWith("eyJ")) {
            return false;
        }
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        return second > 0 && token.indexOf('.', second + 1) < 0;
    }

    static String publicUrl(String value) {
        String url = value.strip();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!uri.isAbsolute() || uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))
                    || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new IllegalStateException(PUBLIC_URL_SETTING + " must be the absolute http(s) URL clients reach the "
                        + "gateway at, without query or fragment, got '" + value + "'");
            }
            return url;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(PUBLIC_URL_SETTING + " must be a URL, got '" + value + "'", e);
        }
    }

    private static String quotable(String text) {
        // a quoted-string of printable ASCII: the message may quote the token's own claims
        return Texts.clip(text, 200).replace('"', '\'').replace('\\', '/').replaceAll("[^\\x20-\\x7e]", "?");
    }
}
