package dev.amcp.gateway.workspace.control;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Texts;
import dev.amcp.gateway.workspace.control.JwtRejected.Reason;
import dev.amcp.gateway.workspace.entity.OidcDiscovery;
import dev.amcp.gateway.workspace.entity.VerifiedJwt;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One OpenID provider, named by its issuer URL: its discovery document, its signing keys and the check of JWTs it
 * signed (access tokens of MCP clients, ID tokens of the editor's sign-in). Nothing is fetched until the first use.
 * <ul>
 * <li><b>Discovery</b> from {@code issuer + /.well-known/openid-configuration}. The document's {@code issuer} must be
 * the configured one, exactly, and its {@code jwks_uri} must stay on the issuer's origin unless it is https.</li>
 * <li><b>Keys</b> (JWKS) are kept for {@value #KEYS_MAX_AGE_MINUTES} minutes. A token whose {@code kid} is not among
 * them fetches the set again (a provider rotated its keys), at most once per {@value #MIN_REFETCH_SECONDS} seconds, so
 * tokens with made-up key ids cannot make the gateway hammer the provider. At most {@value #MAX_KEYS} signing keys
 * (RSA and EC) are kept; documents beyond {@value #MAX_DOCUMENT_BYTES} bytes are refused.</li>
 * <li><b>Tokens</b>: a JWS signed with RS256/384/512, PS256/384/512 or ES256/384/512 (never {@code none}, never an
 * HMAC), by a key of the set; {@code iss} the issuer; {@code aud} naming the expected audience; {@code exp} present
 * and not past, {@code nbf} (if any) reached, both within a clock skew of {@value #CLOCK_SKEW_SECONDS} seconds.</li>
 * </ul>
 * Fetches go to the operator's own setting (never to a URL a request names), without redirects, with short timeouts.
 * Thread-safe; one instance per issuer is meant to live as long as the application.
 */
public final class OidcProvider {

    public static final String DISCOVERY_PATH = "/.well-known/openid-configuration";
    public static final long CLOCK_SKEW_SECONDS = 60;
    static final long KEYS_MAX_AGE_MINUTES = 60;
    static final long MIN_REFETCH_SECONDS = 30;
    static final long FAILED_DISCOVERY_RETRY_SECONDS = 5;
    static final int MAX_KEYS = 50;
    static final int MAX_DOCUMENT_BYTES = 256 * 1024;
    static final int MAX_TOKEN_CHARS = 16 * 1024;
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    static final Set<JWSAlgorithm> ACCEPTED = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512,
            JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);
    private static final Logger LOG = Logger.getLogger(OidcProvider.class.getName());

    private record Keys(List<JWK> keys, Instant fetchedAt) {}

    private final String issuer;
    private final URI issuerUri;
    private final HttpClient http;
    private final Clock clock;

    private volatile OidcDiscovery discovery;
    private Instant discoveryFailedAt;
    private JwtRejected discoveryFailure;
    private volatile Keys keys;
    private Instant lastKeyFetch;

    /** A provider fetched with a JDK client of its own (no redirects, short timeouts). */
    public OidcProvider(String issuer) {
        this(issuer, HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build(),
                Clock.systemUTC());
    }

    /**
     * @throws IllegalArgumentException when {@code issuer} is not an absolute http(s) URL without query or fragment
     */
    public OidcProvider(String issuer, HttpClient http, Clock clock) {
        this.issuer = Objects.requireNonNull(issuer, "issuer");
        this.issuerUri = issuerUri(issuer);
        this.http = http;
        this.clock = clock;
    }

    public String issuer() {
        return issuer;
    }

    /** The discovery document, fetched at the first call and then kept; a failure is retried after a few seconds. */
    public OidcDiscovery discovery() throws JwtRejected {
        OidcDiscovery known = discovery;
        return known != null ? known : fetchDiscovery();
    }

    /**
     * Checks a compact JWS: signature by one of the provider's keys, issuer, audience and times.
     *
     * @param audience the value {@code aud} must name (the resource URL of an access token, the client id of an ID token)
     * @throws JwtRejected saying why the token is not accepted
     */
    public VerifiedJwt verify(String jwt, String audience) throws JwtRejected {
        SignedJWT signed = parse(jwt);
        JWSHeader header = signed.getHeader();
        if (!ACCEPTED.contains(header.getAlgorithm())) {
            throw new JwtRejected(Reason.MALFORMED, "Tokens signed with " + header.getAlgorithm() + " are not accepted");
        }
        List<JWK> candidates = candidates(currentKeys(), header);
        if (candidates.isEmpty()) {
            candidates = candidatesAfterRotation(header);
        }
        if (candidates.isEmpty()) {
            throw new JwtRejected(Reason.SIGNATURE, "No signing key of " + issuer + " matches the token"
                    + (header.getKeyID() == null ? "" : " (kid '" + Texts.clip(header.getKeyID(), 120) + "')"));
        }
        if (candidates.stream().noneMatch(key -> verifies(signed, key))) {
            throw new JwtRejected(Reason.SIGNATURE, "The token's signature does not verify with the keys of " + issuer);
        }
        VerifiedJwt token = new VerifiedJwt(JsonSupport.parseObject(header.toString()), claims(signed));
        checkClaims(token, audience);
        return token;
    }

    private void checkClaims(VerifiedJwt token, String audience) throws JwtRejected {
        if (!issuer.equals(token.issuer())) {
            throw new JwtRejected(Reason.ISSUER, "The token was issued by '" + Texts.clip(String.valueOf(token.issuer()), 120)
                    + "', not by " + issuer);
        }
        if (!token.audiences().contains(audience)) {
            throw new JwtRejected(Reason.AUDIENCE, "The token is not meant for " + audience + " (aud " + Texts.clip(token.audiences().toString(), 120) + ")");
        }
        Instant now = clock.instant();
        Instant expires = token.time("exp").orElseThrow(() -> new JwtRejected(Reason.EXPIRED, "The token has no expiry (exp)"));
        if (!now.isBefore(expires.plusSeconds(CLOCK_SKEW_SECONDS))) {
            throw new JwtRejected(Reason.EXPIRED, "The token expired at " + expires);
        }
        Instant notBefore = token.time("nbf").orElse(null);
        if (notBefore != null && now.isBefore(notBefore.minusSeconds(CLOCK_SKEW_SECONDS))) {
            throw new JwtRejected(Reason.NOT_YET_VALID, "The token is not valid before " + notBefore);
        }
    }

    private static SignedJWT parse(String jwt) throws JwtRejected {
        if (jwt == null || jwt.length() > MAX_TOKEN_CHARS) {
            throw new JwtRejected(Reason.MALFORMED, "The token is missing or longer than " + MAX_TOKEN_CHARS + " characters");
        }
        try {
            return SignedJWT.parse(jwt);
        } catch (ParseException | RuntimeException e) {
            throw new JwtRejected(Reason.MALFORMED, "The token is not a signed JWT");
        }
    }

    private static JsonObject claims(SignedJWT signed) throws JwtRejected {
        try {
            return JsonSupport.parseObject(signed.getPayload().toString());
        } catch (RuntimeException e) {
            throw new JwtRejected(Reason.MALFORMED, "The token's claims are not a JSON object");
        }
    }

    private static boolean verifies(SignedJWT signed, JWK key) {
        try {
            JWSVerifier verifier = key instanceof RSAKey rsa ? new RSASSAVerifier(rsa) : new ECDSAVerifier((ECKey) key);
            return signed.verify(verifier);
        } catch (JOSEException | IllegalStateException e) {
            return false; // an EC key of another curve, a key too short: not this one
        }
    }

    /** The keys that may have signed a token with this header: the one with its kid, else every key of its family. */
    private static List<JWK> candidates(List<JWK> keys, JWSHeader header) {
        JWSAlgorithm alg = header.getAlgorithm();
        String kid = header.getKeyID();
        List<JWK> out = new ArrayList<>();
        for (JWK key : keys) {
            boolean family = JWSAlgorithm.Family.RSA.contains(alg) ? key instanceof RSAKey : key instanceof ECKey;
            boolean algFits = key.getAlgorithm() == null || key.getAlgorithm().equals(alg);
            if (family && algFits && (kid == null || kid.equals(key.getKeyID()))) {
                out.add(key);
            }
        }
        return out;
    }

    /** The keys to check a token with: the kept ones while fresh, else fetched again (the kept ones if that fails). */
    private List<JWK> currentKeys() throws JwtRejected {
        Keys known = keys;
        if (fresh(known)) {
            return known.keys();
        }
        synchronized (this) {
            known = keys; // another thread may have fetched them while this one waited
            if (fresh(known)) {
                return known.keys();
            }
            if (!refetchAllowed()) {
                if (known == null) {
                    throw unavailable("The signing keys of " + issuer + " could not be fetched; the next try is at most "
                            + MIN_REFETCH_SECONDS + " s after the last");
                }
                return known.keys();
            }
            try {
                return fetchKeys();
            } catch (JwtRejected e) {
                if (known == null) {
                    throw e;
                }
                LOG.log(Level.WARNING, "Keeping the signing keys of {0} fetched at {1}: {2}",
                        new Object[] {issuer, known.fetchedAt(), e.getMessage()});
                return known.keys();
            }
        }
    }

    /**
     * No kept key fits the token: the provider may have rotated its keys, so fetch them again, unless that happened
     * less than {@value #MIN_REFETCH_SECONDS} s ago. A thread that waited here for another's fetch uses its result.
     */
    private synchronized List<JWK> candidatesAfterRotation(JWSHeader header) throws JwtRejected {
        List<JWK> candidates = candidates(keys == null ? List.of() : keys.keys(), header);
        if (candidates.isEmpty() && refetchAllowed()) {
            candidates = candidates(fetchKeys(), header);
        }
        return candidates;
    }

    private boolean fresh(Keys known) {
        return known != null && clock.instant().isBefore(known.fetchedAt().plus(Duration.ofMinutes(KEYS_MAX_AGE_MINUTES)));
    }

    private boolean refetchAllowed() {
        return lastKeyFetch == null || !clock.instant().isBefore(lastKeyFetch.plusSeconds(MIN_REFETCH_SECONDS));
    }

    private synchronized List<JWK> fetchKeys() throws JwtRejected {
        URI jwksUri = discovery().jwksUri();
        lastKeyFetch = clock.instant();
        String body = fetch(jwksUri, "signing keys");
        JWKSet set;
        try {
            set = JWKSet.parse(body);
        } catch (ParseException | RuntimeException e) {
            throw new JwtRejected(Reason.PROVIDER_UNAVAILABLE, "The signing keys at " + jwksUri + " are not a JWK set");
        }
        List<JWK> signing = new ArrayList<>();
        for (JWK key : set.getKeys()) {
            boolean forSigning = key.getKeyUse() == null || KeyUse.SIGNATURE.equals(key.getKeyUse());
            if (forSigning && (key instanceof RSAKey || key instanceof ECKey) && signing.size() < MAX_KEYS) {
                signing.add(key.toPublicJWK());
            }
        }
        keys = new Keys(List.copyOf(signing), lastKeyFetch);
        LOG.log(Level.INFO, "Fetched {0} signing key(s) of {1}", new Object[] {signing.size(), issuer});
        return keys.keys();
    }

    private synchronized OidcDiscovery fetchDiscovery() throws JwtRejected {
        if (discovery != null) {
            return discovery;
        }
        Instant now = clock.instant();
        if (discoveryFailedAt != null && now.isBefore(discoveryFailedAt.plusSeconds(FAILED_DISCOVERY_RETRY_SECONDS))) {
            throw discoveryFailure;
        }
        try {
            discovery = readDiscovery(fetch(URI.create(stripSlash(issuer) + DISCOVERY_PATH), "discovery document"));
            discoveryFailedAt = null;
            return discovery;
        } catch (JwtRejected e) {
            discoveryFailedAt = now;
            discoveryFailure = e;
            LOG.log(Level.WARNING, "OpenID provider {0}: {1}", new Object[] {issuer, e.getMessage()});
            throw e;
        }
    }

    private OidcDiscovery readDiscovery(String body) throws JwtRejected {
        JsonObject doc;
        try {
            doc = JsonSupport.parseObject(body);
        } catch (RuntimeException e) {
            throw unavailable("The discovery document of " + issuer + " is not a JSON object");
        }
        String named = text(doc, "issuer");
        if (!issuer.equals(named)) {
            throw unavailable("The discovery document of " + issuer + " names another issuer ('" + Texts.clip(String.valueOf(named), 120) + "')");
        }
        URI jwks = uri(doc, "jwks_uri");
        if (jwks == null || !("https".equals(jwks.getScheme()) || sameOrigin(jwks, issuerUri))) {
            throw unavailable("The discovery document of " + issuer + " has no usable jwks_uri: it must be an absolute URL "
                    + "on the issuer's origin, or https ('" + Texts.clip(String.valueOf(text(doc, "jwks_uri")), 120) + "')");
        }
        return new OidcDiscovery(issuer, jwks, uri(doc, "authorization_endpoint"), uri(doc, "token_endpoint"),
                uri(doc, "userinfo_endpoint"), uri(doc, "end_session_endpoint"), doc);
    }

    private String fetch(URI uri, String what) throws JwtRejected {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "application/json").GET().build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                if (response.statusCode() != 200) {
                    throw unavailable("The " + what + " at " + uri + " answered HTTP " + response.statusCode());
                }
                byte[] bytes = in.readNBytes(MAX_DOCUMENT_BYTES + 1);
                if (bytes.length > MAX_DOCUMENT_BYTES) {
                    throw unavailable("The " + what + " at " + uri + " is larger than " + MAX_DOCUMENT_BYTES + " bytes");
                }
                return new String(bytes, StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new JwtRejected(Reason.PROVIDER_UNAVAILABLE, "The " + what + " at " + uri + " could not be fetched: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JwtRejected(Reason.PROVIDER_UNAVAILABLE, "Interrupted while fetching the " + what + " at " + uri, e);
        }
    }

    private static JwtRejected unavailable(String message) {
        return new JwtRejected(Reason.PROVIDER_UNAVAILABLE, message);
    }

    private static String text(JsonObject doc, String field) {
        JsonValue value = doc.get(field);
        return value instanceof JsonString s ? s.getString() : null;
    }

    private static URI uri(JsonObject doc, String field) {
        String value = text(doc, field);
        if (value == null) {
            return null;
        }
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return uri.isAbsolute() && uri.getHost() != null && (scheme.equals("https") || scheme.equals("http")) ? uri : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    static boolean sameOrigin(URI a, URI b) {
        return a.getScheme().equalsIgnoreCase(b.getScheme()) && a.getHost().equalsIgnoreCase(b.getHost())
                && port(a) == port(b);
    }

    private static int port(URI uri) {
        return uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    private static URI issuerUri(String issuer) {
        try {
            URI uri = new URI(issuer);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!uri.isAbsolute() || uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))
                    || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new IllegalArgumentException("An OpenID issuer must be an absolute http(s) URL without query or "
                        + "fragment, got '" + issuer + "'");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("An OpenID issuer must be a URL, got '" + issuer + "'", e);
        }
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
