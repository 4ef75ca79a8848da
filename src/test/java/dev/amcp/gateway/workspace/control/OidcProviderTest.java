package dev.amcp.gateway.workspace.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.amcp.gateway.workspace.control.JwtRejected.Reason;
import dev.amcp.gateway.workspace.entity.OidcDiscovery;
import dev.amcp.gateway.workspace.entity.VerifiedJwt;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link OidcProvider} against a provider served by the JDK's HTTP server, with keys made here. */
class OidcProviderTest {

    static final String AUDIENCE = "https://gw.example/mcp/orders";

    HttpServer server;
    String issuer;
    final AtomicReference<String> discoveryJson = new AtomicReference<>();
    final AtomicReference<JWKSet> published = new AtomicReference<>();
    final AtomicInteger discoveryFetches = new AtomicInteger();
    final AtomicInteger keyFetches = new AtomicInteger();
    final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T12:00:00Z"));
    RSAKey rsa;
    OidcProvider provider;
    volatile long keyDelayMs;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/test";
        server.createContext("/realms/test/.well-known/openid-configuration", exchange -> {
            discoveryFetches.incrementAndGet();
            respond(exchange, discoveryJson.get());
        });
        server.createContext("/realms/test/keys", exchange -> {
            keyFetches.incrementAndGet();
            try {
                Thread.sleep(keyDelayMs); // a slow provider widens the window in which other threads arrive
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(exchange, published.get().toString(true));
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        rsa = new RSAKeyGenerator(2048).keyID("k1").generate();
        published.set(new JWKSet(rsa));
        discoveryJson.set(discovery(issuer, issuer + "/keys"));
        provider = new OidcProvider(issuer, HttpClient.newHttpClient(), clock);
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    static void respond(com.sun.net.httpserver.HttpExchange exchange, String body) throws java.io.IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    static String discovery(String issuer, String jwksUri) {
        return "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + jwksUri + "\",\"authorization_endpoint\":\"" + issuer
                + "/auth\",\"token_endpoint\":\"" + issuer + "/token\",\"end_session_endpoint\":\"" + issuer + "/logout\"}";
    }

    JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().issuer(issuer).audience(AUDIENCE).subject("alice")
                .claim("preferred_username", "alice").claim("scope", "openid mcp")
                .issueTime(Date.from(clock.instant())).expirationTime(Date.from(clock.instant().plusSeconds(300)));
    }

    static String sign(JWK key, JWSAlgorithm alg, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(), claims);
        jwt.sign(key instanceof RSAKey r ? new RSASSASigner(r) : new ECDSASigner((ECKey) key));
        return jwt.serialize();
    }

    Reason rejection(String token) {
        return assertThrows(JwtRejected.class, () -> provider.verify(token, AUDIENCE)).reason();
    }

    @Test
    void nothingIsFetchedBeforeTheFirstToken() throws Exception {
        assertEquals(0, discoveryFetches.get() + keyFetches.get());
        provider.verify(sign(rsa, JWSAlgorithm.RS256, claims().build()), AUDIENCE);
        assertEquals(1, discoveryFetches.get());
        assertEquals(1, keyFetches.get());
    }

    @Test
    void acceptsATokenOfTheProviderAndReadsItsClaims() throws Exception {
        VerifiedJwt token = provider.verify(sign(rsa, JWSAlgorithm.RS256, claims().build()), AUDIENCE);
        assertEquals(issuer, token.issuer());
        assertEquals("alice", token.string("preferred_username").orElseThrow());
        assertEquals(Set.of("openid", "mcp"), token.scopes());
        assertEquals(List.of(AUDIENCE), token.audiences());
        assertEquals("k1", token.header().getString("kid"));
        // the keys and the document are kept: a second token fetches nothing
        provider.verify(sign(rsa, JWSAlgorithm.PS256, claims().subject("bob").build()), AUDIENCE);
        assertEquals(1, discoveryFetches.get());
        assertEquals(1, keyFetches.get());
        OidcDiscovery doc = provider.discovery();
        assertEquals(URI.create(issuer + "/token"), doc.tokenEndpoint());
        assertEquals(URI.create(issuer + "/logout"), doc.endSessionEndpoint());
        assertEquals(null, doc.userinfoEndpoint());
    }

    @Test
    void acceptsEcKeysAndScpArrays() throws Exception {
        ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("e1").generate();
        published.set(new JWKSet(List.of(rsa, ec)));
        VerifiedJwt token = provider.verify(sign(ec, JWSAlgorithm.ES256,
                claims().claim("scope", null).claim("scp", List.of("mcp", "read")).build()), AUDIENCE);
        assertEquals(Set.of("mcp", "read"), token.scopes());
    }

    @Test
    void refusesWrongIssuerAudienceAndTimes() throws Exception {
        assertEquals(Reason.ISSUER, rejection(sign(rsa, JWSAlgorithm.RS256, claims().issuer(issuer + "2").build())));
        assertEquals(Reason.AUDIENCE, rejection(sign(rsa, JWSAlgorithm.RS256, claims().audience("https://other/mcp").build())));
        assertEquals(Reason.AUDIENCE, rejection(sign(rsa, JWSAlgorithm.RS256, claims().audience((String) null).build())));
        Instant now = clock.instant();
        assertEquals(Reason.EXPIRED, rejection(sign(rsa, JWSAlgorithm.RS256,
                claims().expirationTime(Date.from(now.minusSeconds(OidcProvider.CLOCK_SKEW_SECONDS + 1))).build())));
        assertEquals(Reason.EXPIRED, rejection(sign(rsa, JWSAlgorithm.RS256, claims().expirationTime(null).build())));
        assertEquals(Reason.NOT_YET_VALID, rejection(sign(rsa, JWSAlgorithm.RS256,
                claims().notBeforeTime(Date.from(now.plusSeconds(OidcProvider.CLOCK_SKEW_SECONDS + 5))).build())));
        // within the clock skew both ways: accepted
        provider.verify(sign(rsa, JWSAlgorithm.RS256, claims().expirationTime(Date.from(now.minusSeconds(10)))
                .notBeforeTime(Date.from(now.plusSeconds(10))).build()), AUDIENCE);
    }

    @Test
    void refusesForgedSignaturesUnsignedTokensAndHmac() throws Exception {
        RSAKey forger = new RSAKeyGenerator(2048).keyID("k1").generate(); // same kid, another key
        assertEquals(Reason.SIGNATURE, rejection(sign(forger, JWSAlgorithm.RS256, claims().build())));
        String genuine = sign(rsa, JWSAlgorithm.RS256, claims().build());
        String[] parts = genuine.split("\\.");
        String tampered = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                claims().subject("mallory").claim("preferred_username", "admin").build().toString()
                        .getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertEquals(Reason.SIGNATURE, rejection(tampered));
        assertEquals(Reason.MALFORMED, rejection(new PlainJWT(claims().build()).serialize()));
        SignedJWT hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims().build());
        hmac.sign(new MACSigner(new byte[32]));
        assertEquals(Reason.MALFORMED, rejection(hmac.serialize()));
        assertEquals(Reason.MALFORMED, rejection("not-a-jwt"));
        assertEquals(Reason.MALFORMED, rejection("a".repeat(OidcProvider.MAX_TOKEN_CHARS + 1)));
    }

    @Test
    void anUnknownKidFetchesTheKeysAgainAtMostOncePerInterval() throws Exception {
        provider.verify(sign(rsa, JWSAlgorithm.RS256, claims().build()), AUDIENCE);
        assertEquals(1, keyFetches.get());
        // the provider rotates: k2 replaces k1
        RSAKey rotated = new RSAKeyGenerator(2048).keyID("k2").generate();
        published.set(new JWKSet(rotated));
        clock.advance(OidcProvider.MIN_REFETCH_SECONDS);
        provider.verify(sign(rotated, JWSAlgorithm.RS256, claims().build()), AUDIENCE);
        assertEquals(2, keyFetches.get());
        // made-up kids right after: no fetch each time
        RSAKey madeUp = new RSAKeyGenerator(2048).keyID("k3").generate();
        for (int i = 0; i < 5; i++) {
            assertEquals(Reason.SIGNATURE, rejection(sign(madeUp, JWSAlgorithm.RS256, claims().build())));
        }
        assertEquals(2, keyFetches.get());
        // after the interval, one more fetch; k1 is gone
        clock.advance(OidcProvider.MIN_REFETCH_SECONDS);
        assertEquals(Reason.SIGNATURE, rejection(sign(rsa, JWSAlgorithm.RS256, claims().build())));
        assertEquals(3, keyFetches.get());
    }

    @Test
    void concurrentFirstTokensAndRotationsShareOneFetch() throws Exception {
        keyDelayMs = 300;
        assertEquals(8, verifyConcurrently(sign(rsa, JWSAlgorithm.RS256, claims().build())));
        assertEquals(1, discoveryFetches.get());
        assertEquals(1, keyFetches.get());
        RSAKey rotated = new RSAKeyGenerator(2048).keyID("k2").generate();
        published.set(new JWKSet(rotated));
        clock.advance(OidcProvider.MIN_REFETCH_SECONDS);
        assertEquals(8, verifyConcurrently(sign(rotated, JWSAlgorithm.RS256, claims().build())));
        assertEquals(2, keyFetches.get());
    }

    /** Verifies the token on 8 threads released together; answers how many were accepted. */
    int verifyConcurrently(String token) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            results.add(pool.submit(() -> {
                go.await();
                try {
                    provider.verify(token, AUDIENCE);
                    return true;
                } catch (JwtRejected e) {
                    return false;
                }
            }));
        }
        go.countDown();
        int accepted = 0;
        for (java.util.concurrent.Future<Boolean> result : results) {
            accepted += result.get() ? 1 : 0;
        }
        pool.shutdown();
        return accepted;
    }

    @Test
    void keysAreFetchedAgainWhenOldAndKeptWhenTheProviderIsDown() throws Exception {
        String token = sign(rsa, JWSAlgorithm.RS256, claims().expirationTime(Date.from(clock.instant().plusSeconds(86_400))).build());
        provider.verify(token, AUDIENCE);
        clock.advance(OidcProvider.KEYS_MAX_AGE_MINUTES * 60);
        provider.verify(token, AUDIENCE);
        assertEquals(2, keyFetches.get());
        server.stop(0);
        clock.advance(OidcProvider.KEYS_MAX_AGE_MINUTES * 60);
        provider.verify(token, AUDIENCE); // the old keys still verify
    }

    @Test
    void refusesADiscoveryDocumentThatLeavesTheIssuerOrNamesAnother() throws Exception {
        discoveryJson.set(discovery(issuer, "http://keys.elsewhere.example/keys"));
        JwtRejected off = assertThrows(JwtRejected.class, () -> provider.discovery());
        assertEquals(Reason.PROVIDER_UNAVAILABLE, off.reason());
        assertTrue(off.getMessage().contains("jwks_uri"), off.getMessage());
        // a failure is kept a few seconds, then tried again
        discoveryJson.set(discovery(issuer, "https://keys.elsewhere.example/keys"));
        assertThrows(JwtRejected.class, () -> provider.discovery());
        assertEquals(1, discoveryFetches.get());
        clock.advance(OidcProvider.FAILED_DISCOVERY_RETRY_SECONDS);
        assertEquals(URI.create("https://keys.elsewhere.example/keys"), provider.discovery().jwksUri());

        OidcProvider other = new OidcProvider(issuer, HttpClient.newHttpClient(), clock);
        discoveryJson.set(discovery("https://evil.example", issuer + "/keys"));
        JwtRejected named = assertThrows(JwtRejected.class, other::discovery);
        assertTrue(named.getMessage().contains("another issuer"), named.getMessage());
    }

    @Test
    void refusesOversizedKeySetsAndBadIssuers() throws Exception {
        StringBuilder huge = new StringBuilder("{\"keys\":[");
        while (huge.length() <= OidcProvider.MAX_DOCUMENT_BYTES) {
            huge.append(rsa.toPublicJWK().toJSONString()).append(',');
        }
        server.removeContext("/realms/test/keys");
        String body = huge.append(rsa.toPublicJWK().toJSONString()).append("]}").toString();
        server.createContext("/realms/test/keys", exchange -> respond(exchange, body));
        assertEquals(Reason.PROVIDER_UNAVAILABLE, rejection(sign(rsa, JWSAlgorithm.RS256, claims().build())));
        assertThrows(IllegalArgumentException.class, () -> new OidcProvider("ftp://idp.example"));
        assertThrows(IllegalArgumentException.class, () -> new OidcProvider("https://idp.example/?tenant=1"));
        assertThrows(IllegalArgumentException.class, () -> new OidcProvider("/relative"));
    }

    static final class MutableClock extends Clock {
        private final AtomicReference<Instant> now;

        MutableClock(Instant start) {
            now = new AtomicReference<>(start);
        }

        void advance(long seconds) {
            now.updateAndGet(t -> t.plusSeconds(seconds));
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    }
}
