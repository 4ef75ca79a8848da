package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.editor.entity.PendingSignIn;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.Texts;
import dev.amcp.gateway.platform.control.OAuthRequests;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.control.JwtRejected;
import dev.amcp.gateway.workspace.control.OidcIssuer;
import dev.amcp.gateway.workspace.control.OidcProvider;
import dev.amcp.gateway.workspace.entity.OidcDiscovery;
import dev.amcp.gateway.workspace.entity.SsoIdentity;
import dev.amcp.gateway.workspace.entity.VerifiedJwt;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The editor's single sign-on: the OpenID Connect authorization code flow with PKCE ({@code S256}), {@code state} and
 * {@code nonce}, against the provider of {@code AMCP_OIDC_ISSUER}, whose discovery document, keys and token checks
 * come from the shared {@link OidcProvider}. It is on when the issuer and {@value #CLIENT_ID} are set; otherwise the
 * editor has its form login only, as before.
 * <ol>
 *   <li>{@link #start} makes a fresh state, nonce and code verifier, and the provider's authorization URL.</li>
 *   <li>{@link #finish} exchanges the code the provider sent back (with the verifier, as a confidential client when
 *       {@value #CLIENT_SECRET} is set), checks the ID token (signature by the provider's keys, issuer, audience = the
 *       client id, expiry, {@code azp}, and the nonce of this sign-in) and answers who the person is.</li>
 * </ol>
 * Which workspace and role the person gets is not decided here ({@code SsoAccounts}).
 */
@ApplicationScoped
public class OidcCodeFlow {

    public static final String CLIENT_ID = "AMCP_OIDC_CLIENT_ID";
    public static final String CLIENT_SECRET = "AMCP_OIDC_CLIENT_SECRET";
    public static final String ROLE_CLAIM = "AMCP_OIDC_ROLE_CLAIM";
    public static final String LOCAL_LOGIN = "AMCP_LOCAL_LOGIN";
    public static final String PUBLIC_URL = "AMCP_PUBLIC_URL";
    public static final String DEFAULT_ROLE_CLAIM = "groups";
    /** The path the provider sends the browser back to, under the application's context root. */
    public static final String CALLBACK_PATH = "/admin/sso/callback";
    /** How long a started sign-in may take at the provider. */
    public static final Duration MAX_AGE = Duration.ofMinutes(10);
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final int MAX_RESPONSE_BYTES = 256 * 1024;
    private static final Logger LOG = Logger.getLogger(OidcCodeFlow.class.getName());

    /** Why a sign-in did not go through, as a message for the refusal page. */
    public static final class SignInFailed extends Exception {
        private final transient Message reason;

        public SignInFailed(Message reason) {
            super(reason.english());
            this.reason = reason;
        }

        public Message reason() {
            return reason;
        }
    }

    @Inject
    Settings settings;

    @Inject
    OidcIssuer issuer;

    private String clientId;
    private String clientSecret;
    private String roleClaim;
    private boolean localLogin;
    private String publicUrl;
    private Clock clock = Clock.systemUTC();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();

    @PostConstruct
    void configure() {
        clientId = settings.get(CLIENT_ID).map(String::strip).orElse(null);
        clientSecret = settings.get(CLIENT_SECRET).orElse(null);
        roleClaim = settings.get(ROLE_CLAIM, DEFAULT_ROLE_CLAIM).strip();
        localLogin = settings.getBoolean(LOCAL_LOGIN, true);
        publicUrl = settings.get(PUBLIC_URL).map(u -> u.strip().replaceAll("/+$", "")).orElse(null);
        if (issuer.provider().isPresent() != (clientId != null)) {
            LOG.log(Level.WARNING, "Single sign-on for the editor needs both AMCP_OIDC_ISSUER and " + CLIENT_ID
                    + "; with only one of them set it stays off");
        }
        if (!localLogin && !enabled()) {
            LOG.log(Level.WARNING, LOCAL_LOGIN + "=false without single sign-on: only operators can sign in to the editor");
        }
    }

    /** Whether the editor offers single sign-on. */
    public boolean enabled() {
        return clientId != null && issuer.provider().isPresent();
    }

    /** Whether people other than operators may sign in with a password ({@value #LOCAL_LOGIN}, default true). */
    public boolean localLogin() {
        return localLogin;
    }

    /** The ID-token claim whose values the workspaces' mappings name ({@value #ROLE_CLAIM}, default {@value #DEFAULT_ROLE_CLAIM}). */
    public String roleClaim() {
        return roleClaim;
    }

    /** The redirect URI for a request reaching the editor at {@code requestBase} (scheme, host, port, context root). */
    public String redirectUri(String requestBase) {
        return (publicUrl != null ? publicUrl : requestBase) + CALLBACK_PATH;
    }

    /** A new sign-in: fresh state, nonce and PKCE verifier, and the provider's URL to send the browser to. */
    public PendingSignIn start(String redirectUri) throws SignInFailed {
        OidcDiscovery discovery = discovery();
        if (discovery.authorizationEndpoint() == null) {
            throw unavailable("its discovery document names no authorization_endpoint");
        }
        String state = Hashes.random();
        String nonce = Hashes.random();
        String verifier = Hashes.random() + Hashes.random(); // 86 characters, within PKCE's 43 to 128
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", clientId);
        query.put("redirect_uri", redirectUri);
        query.put("scope", "openid profile email");
        query.put("state", state);
        query.put("nonce", nonce);
        query.put("code_challenge", Hashes.codeChallenge(verifier));
        query.put("code_challenge_method", "S256");
        String url = OAuthRequests.authorizationUrl(discovery.authorizationEndpoint().toString(), query);
        return new PendingSignIn(state, nonce, verifier, redirectUri, url, clock.instant());
    }

    /** Finishes a sign-in with the code the provider sent back: the person the verified ID token names. */
    public SsoIdentity finish(PendingSignIn pending, String code) throws SignInFailed {
        if (clock.instant().isAfter(pending.startedAt().plus(MAX_AGE))) {
            throw new SignInFailed(Message.of("sso.refused.state", "The sign-in took too long or did not start here. Please sign in again."));
        }
        if (code == null || code.isBlank() || code.length() > 4096) {
            throw new SignInFailed(Message.of("sso.refused.state", "The sign-in took too long or did not start here. Please sign in again."));
        }
        OidcProvider provider = issuer.provider().orElseThrow();
        OidcDiscovery discovery = discovery();
        if (discovery.tokenEndpoint() == null) {
            throw unavailable("its discovery document names no token_endpoint");
        }
        String idToken = exchange(discovery.tokenEndpoint(), pending, code);
        VerifiedJwt token;
        try {
            token = provider.verify(idToken, clientId);
        } catch (JwtRejected e) {
            LOG.log(Level.WARNING, "Single sign-on: the ID token was refused: {0}", e.getMessage());
            throw new SignInFailed(Message.of("sso.refused.token", "The identity provider''s answer could not be verified ({0}).", e.getMessage()));
        }
        String nonce = token.string("nonce").orElse(null);
        if (nonce == null || !MessageDigest.isEqual(nonce.getBytes(StandardCharsets.UTF_8), pending.nonce().getBytes(StandardCharsets.UTF_8))) {
            throw new SignInFailed(Message.of("sso.refused.token", "The identity provider''s answer could not be verified ({0}).",
                    "the ID token was not issued for this sign-in (nonce)"));
        }
        if (token.audiences().size() > 1 && !clientId.equals(token.string("azp").orElse(null))) {
            throw new SignInFailed(Message.of("sso.refused.token", "The identity provider''s answer could not be verified ({0}).",
                    "the ID token was issued to another party (azp)"));
        }
        String subject = token.subject();
        if (subject == null || subject.isBlank()) {
            throw new SignInFailed(Message.of("sso.refused.token", "The identity provider''s answer could not be verified ({0}).",
                    "the ID token names no subject"));
        }
        String username = token.string("preferred_username").or(() -> token.string("email")).orElse(null);
        return new SsoIdentity(provider.issuer(), subject, username, token.string("email").orElse(null),
                token.string("name").orElse(null), token.strings(roleClaim));
    }

    private OidcDiscovery discovery() throws SignInFailed {
        OidcProvider provider = issuer.provider().orElseThrow(() -> unavailable("single sign-on is not configured"));
        try {
            return provider.discovery();
        } catch (JwtRejected e) {
            throw unavailable(e.getMessage());
        }
    }

    /** The authorization code for tokens at the token endpoint; answers the ID token. */
    private String exchange(URI tokenEndpoint, PendingSignIn pending, String code) throws SignInFailed {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", pending.redirectUri());
        form.put("code_verifier", pending.codeVerifier());
        HttpRequest.Builder request = OAuthRequests.tokenPost(tokenEndpoint, clientId, clientSecret, form, TIMEOUT);
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw unavailable("its token endpoint could not be reached: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("interrupted");
        }
        JsonObject body;
        try {
            if (response.body().length > MAX_RESPONSE_BYTES) {
                throw new IllegalArgumentException("too large");
            }
            body = JsonSupport.parseObject(new String(response.body(), StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw unavailable("its token endpoint answered HTTP " + response.statusCode() + " without a JSON object");
        }
        if (response.statusCode() != 200 || !(body.get("id_token") instanceof JsonString idToken)) {
            String error = body.get("error") instanceof JsonString s ? s.getString() : "no ID token";
            LOG.log(Level.WARNING, "Single sign-on: the token endpoint answered HTTP {0}: {1}", new Object[] {response.statusCode(), body});
            throw new SignInFailed(Message.of("sso.refused.exchange", "The identity provider did not confirm the sign-in ({0}). Please sign in again.",
                    Texts.clip(error, 200)));
        }
        return idToken.getString();
    }



    private static SignInFailed unavailable(String detail) {
        LOG.log(Level.WARNING, "Single sign-on: the identity provider is not usable: {0}", detail);
        return new SignInFailed(Message.of("sso.refused.provider", "The identity provider cannot be reached right now ({0}). Try again later, or ask the operator.",
                Texts.clip(detail, 200)));
    }
}
