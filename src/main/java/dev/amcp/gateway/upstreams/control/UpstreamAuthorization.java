package dev.amcp.gateway.upstreams.control;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.OAuthRequests;
import dev.amcp.gateway.platform.control.Texts;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.upstreams.entity.AuthorizationServer;
import dev.amcp.gateway.upstreams.entity.CheckedUpstream;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The gateway as an OAuth client of a protected upstream MCP server, as the MCP authorization spec asks of a client:
 * discovery of the resource's authorization server (RFC 9728 protected resource metadata, named by the server's 401
 * {@code WWW-Authenticate} or at its well-known URL; then RFC 8414 or OpenID metadata), dynamic client registration
 * (RFC 7591) where the server offers it, and the token endpoint's authorization code (with the PKCE verifier), refresh
 * and revocation requests, each with the {@code resource} parameter (RFC 8707). Every request it makes goes through
 * the caller's {@link Egress}, the same upstream rule the server's own URL passed, so metadata an upstream controls
 * cannot point the gateway at an address the rule refuses.
 */
@ApplicationScoped
public class UpstreamAuthorization {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_BYTES = 256 * 1024;
    private static final Pattern RESOURCE_METADATA = Pattern.compile("resource_metadata=\"([^\"]{1,2000})\"");
    private static final String PROBE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"amcp-gateway\",\"version\":\"1\"}}}";

    @Inject
    OutboundHttp http;

    /** The upstream rule for one server's calls: a URL checked and resolved, or refused with the rule's message. */
    @FunctionalInterface
    public interface Egress {
        CheckedUpstream check(URI target);
    }

    /** A client of the authorization server: its id, and its secret when it has one (null: a public client). */
    public record Client(String id, String secret) {
        @Override
        public String toString() {
            return "Client[" + id + "]"; // never the secret
        }
    }

    /** Tokens as the token endpoint answered: a refresh token and an expiry only where it gave them. */
    public record Tokens(String access, String refresh, Instant expiresAt, String scope) {
        @Override
        public String toString() {
            return "Tokens[expires " + expiresAt + "]";
        }
    }

    /** The token endpoint refused (an error the person can act on) or could not be used. */
    public static final class TokenRefused extends Exception {
        private final String error;

        TokenRefused(String error, String message) {
            super(message);
            this.error = error;
        }

        /** The OAuth error code ({@code invalid_grant}: the grant is gone and the person must connect again). */
        public String error() {
            return error;
        }
    }

    // ---- discovery ----

    /** The authorization server of the MCP server at {@code resource}; a 400 naming the step that failed. */
    public AuthorizationServer discover(URI resource, Egress egress) {
        JsonObject metadata = protectedResourceMetadata(resource, egress);
        String named = JsonSupport.string(metadata, "resource", "");
        if (!named.isEmpty() && !sameResource(URI.create(named), resource)) {
            throw problem("its protected resource metadata names the resource {0}, not {1}", named, resource);
        }
        if (!(metadata.get("authorization_servers") instanceof JsonArray servers) || servers.isEmpty()
                || !(servers.get(0) instanceof JsonString first)) {
            throw problem("its protected resource metadata names no authorization_servers");
        }
        String issuer = first.getString();
        JsonObject as = authorizationServerMetadata(issuer, egress);
        String authorization = url(as, "authorization_endpoint");
        String token = url(as, "token_endpoint");
        if (authorization == null || token == null) {
            throw problem("the metadata of authorization server {0} names no authorization_endpoint or token_endpoint", issuer);
        }
        if (as.get("code_challenge_methods_supported") instanceof JsonArray methods
                && methods.getValuesAs(JsonValue.class).stream().noneMatch(m -> m instanceof JsonString s && "S256".equals(s.getString()))) {
            throw problem("authorization server {0} does not offer PKCE with S256, which the gateway requires", issuer);
        }
        String scopes = metadata.get("scopes_supported") instanceof JsonArray supported ? supported.getValuesAs(JsonValue.class).stream()
                .filter(JsonString.class::isInstance).map(v -> ((JsonString) v).getString()).collect(Collectors.joining(" ")) : null;
        return new AuthorizationServer(named.isEmpty() ? resource.toString() : named, issuer, authorization, token,
                url(as, "registration_endpoint"), url(as, "revocation_endpoint"), scopes == null || scopes.isBlank() ? null : scopes);
    }

    /** RFC 9728: the document the server's 401 names, else its well-known URLs (with the server's path, then without). */
    private JsonObject protectedResourceMetadata(URI resource, Egress egress) {
        List<URI> candidates = new ArrayList<>();
        probe(resource, egress).ifPresent(candidates::add);
        String path = resource.getRawPath() == null || resource.getRawPath().equals("/") ? "" : resource.getRawPath();
        candidates.add(URI.create(origin(resource) + "/.well-known/oauth-protected-resource" + path));
        if (!path.isEmpty()) {
            candidates.add(URI.create(origin(resource) + "/.well-known/oauth-protected-resource"));
        }
        for (URI candidate : candidates) {
            Optional<JsonObject> document = getJson(candidate, egress);
            if (document.isPresent()) {
                return document.get();
            }
        }
        throw problem("it names no protected resource metadata (RFC 9728): none at {0}", candidates.stream().map(URI::toString).distinct()
                .collect(Collectors.joining(", ")));
    }

    /** Asks the server without a token; its 401 may name its metadata ({@code WWW-Authenticate: Bearer resource_metadata=}). */
    private Optional<URI> probe(URI resource, Egress egress) {
        CheckedUpstream checked = egress.check(resource);
        HttpRequest.Builder request = HttpRequest.newBuilder(checked.pinnedUri()).timeout(TIMEOUT)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(PROBE));
        http.pinHost(request, checked);
        try {
            HttpResponse<Void> response = http.clientFor(checked).send(request.build(), HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() != 401) {
                return Optional.empty();
            }
            for (String challenge : response.headers().allValues("WWW-Authenticate")) {
                Matcher m = RESOURCE_METADATA.matcher(challenge);
                if (m.find()) {
                    return Optional.of(URI.create(m.group(1)));
                }
            }
            return Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            throw problem("it could not be reached ({0})", e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw problem("interrupted");
        }
    }

    /** RFC 8414 (path inserted), then OpenID discovery (inserted, then appended); the issuer must name itself. */
    private JsonObject authorizationServerMetadata(String issuer, Egress egress) {
        URI uri;
        try {
            uri = URI.create(issuer);
        } catch (IllegalArgumentException e) {
            throw problem("its authorization server ''{0}'' is not a URL", issuer);
        }
        if (uri.getScheme() == null || uri.getHost() == null) {
            throw problem("its authorization server ''{0}'' is not a URL", issuer);
        }
        String path = uri.getRawPath() == null || uri.getRawPath().equals("/") ? "" : uri.getRawPath();
        List<URI> candidates = new ArrayList<>(List.of(URI.create(origin(uri) + "/.well-known/oauth-authorization-server" + path),
                URI.create(origin(uri) + "/.well-known/openid-configuration" + path)));
        if (!path.isEmpty()) {
            candidates.add(URI.create(origin(uri) + path + "/.well-known/openid-configuration"));
        }
        for (URI candidate : candidates) {
            Optional<JsonObject> document = getJson(candidate, egress);
            if (document.isPresent() && issuer.equals(JsonSupport.string(document.get(), "issuer", ""))) {
                return document.get();
            }
        }
        throw problem("authorization server {0} publishes no metadata naming itself (RFC 8414 or OpenID discovery)", issuer);
    }

    // ---- registration ----

    /** RFC 7591: a public client for the gateway's redirect URI, or a 400 when the server registers none. */
    public Client register(AuthorizationServer server, String redirectUri, String scope, Egress egress) {
        if (server.registrationEndpoint() == null) {
            throw problem("authorization server {0} offers no dynamic client registration: register the gateway there with the "
                    + "redirect URI {1} and give its clientId", server.issuer(), redirectUri);
        }
        JsonObject body = JsonSupport.JSON.createObjectBuilder().add("client_name", "AMCP Gateway")
                .add("redirect_uris", JsonSupport.JSON.createArrayBuilder().add(redirectUri))
                .add("grant_types", JsonSupport.JSON.createArrayBuilder().add("authorization_code").add("refresh_token"))
                .add("response_types", JsonSupport.JSON.createArrayBuilder().add("code"))
                .add("token_endpoint_auth_method", "none")
                .add("scope", scope == null ? "" : scope).build();
        CheckedUpstream checked = egress.check(URI.create(server.registrationEndpoint()));
        HttpRequest.Builder request = HttpRequest.newBuilder(checked.pinnedUri()).timeout(TIMEOUT)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        http.pinHost(request, checked);
        Answer answer = send(checked, request);
        if (answer.status() != 201 && answer.status() != 200 || !(answer.json().get("client_id") instanceof JsonString id)) {
            throw problem("the dynamic client registration of {0} answered HTTP {1}{2}", server.issuer(), answer.status(),
                    answer.json().get("error") instanceof JsonString e ? " (" + Texts.printable(e.getString(), 100) + ")" : "");
        }
        return new Client(id.getString(), answer.json().get("client_secret") instanceof JsonString s ? s.getString() : null);
    }

    // ---- the token endpoint ----

    /** The authorization code for tokens, with the PKCE verifier and the redirect URI it was issued for. */
    public Tokens exchangeCode(AuthorizationServer server, Client client, String code, String verifier, String redirectUri, Egress egress)
            throws TokenRefused {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri);
        form.put("code_verifier", verifier);
        return tokens(server, client, form, null, egress);
    }

    /** A refresh; a server that sends no new refresh token keeps the old one valid. */
    public Tokens refresh(AuthorizationServer server, Client client, String refreshToken, Egress egress) throws TokenRefused {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", refreshToken);
        return tokens(server, client, form, refreshToken, egress);
    }

    /** RFC 7009, where the server offers it; a failure is only reported, the account is forgotten either way. */
    public boolean revoke(AuthorizationServer server, Client client, String token, Egress egress) {
        if (server.revocationEndpoint() == null || token == null) {
            return false;
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("token", token);
        try {
            return formPost(URI.create(server.revocationEndpoint()), client, form, egress).status() == 200;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private Tokens tokens(AuthorizationServer server, Client client, Map<String, String> form, String previousRefresh, Egress egress)
            throws TokenRefused {
        form.put("resource", server.resource());
        Answer answer;
        try {
            answer = formPost(URI.create(server.tokenEndpoint()), client, form, egress);
        } catch (InvalidInputException e) {
            throw new TokenRefused("unreachable", e.problem().english());
        }
        JsonObject body = answer.json();
        if (answer.status() != 200 || !(body.get("access_token") instanceof JsonString access) || access.getString().isBlank()) {
            String error = body.get("error") instanceof JsonString e ? Texts.printable(e.getString(), 100) : "HTTP " + answer.status();
            throw new TokenRefused(error, "the token endpoint of " + server.issuer() + " refused (" + error + ")");
        }
        Instant expires = body.get("expires_in") instanceof JsonNumber n ? Instant.now().plusSeconds(Math.max(0, n.longValue())) : null;
        String refresh = body.get("refresh_token") instanceof JsonString r ? r.getString() : previousRefresh;
        return new Tokens(access.getString(), refresh, expires, JsonSupport.string(body, "scope", null));
    }

    /** A form POST with the client's authentication: HTTP Basic with a secret, else {@code client_id} in the form. */
    private Answer formPost(URI endpoint, Client client, Map<String, String> form, Egress egress) {
        CheckedUpstream checked = egress.check(endpoint);
        HttpRequest.Builder request = OAuthRequests.tokenPost(checked.pinnedUri(), client.id(), client.secret(), form, TIMEOUT);
        http.pinHost(request, checked);
        return send(checked, request);
    }

    // ---- HTTP ----

    private record Answer(int status, JsonObject json) {}

    /** A JSON document, or empty for any other answer (the next candidate is tried). */
    private Optional<JsonObject> getJson(URI target, Egress egress) {
        CheckedUpstream checked = egress.check(target);
        HttpRequest.Builder request = HttpRequest.newBuilder(checked.pinnedUri()).timeout(TIMEOUT).header("Accept", "application/json").GET();
        http.pinHost(request, checked);
        Answer answer = send(checked, request);
        return answer.status() == 200 && !answer.json().isEmpty() ? Optional.of(answer.json()) : Optional.empty();
    }

    private Answer send(CheckedUpstream checked, HttpRequest.Builder request) {
        try {
            HttpResponse<InputStream> response = http.clientFor(checked).send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            byte[] body;
            try (InputStream in = response.body()) {
                body = in.readNBytes(MAX_BYTES + 1);
            }
            JsonObject json;
            try {
                json = body.length > MAX_BYTES ? JsonValue.EMPTY_JSON_OBJECT : JsonSupport.parseObject(new String(body, StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                json = JsonValue.EMPTY_JSON_OBJECT;
            }
            return new Answer(response.statusCode(), json);
        } catch (IOException e) {
            throw problem("{0} could not be reached ({1})", origin(checked.uri()), e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw problem("interrupted");
        }
    }

    // ---- helpers ----

    /** RFC 9728, 3.3: the metadata's resource is the server's URL (scheme and host compared without case). */
    static boolean sameResource(URI named, URI resource) {
        return origin(named).equalsIgnoreCase(origin(resource)) && trimSlash(named.getRawPath()).equals(trimSlash(resource.getRawPath()));
    }

    private static String trimSlash(String path) {
        return path == null ? "" : path.replaceAll("/+$", "");
    }

    static String origin(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }

    private static String url(JsonObject json, String key) {
        String value = JsonSupport.string(json, key, null);
        return value == null || !(value.startsWith("https://") || value.startsWith("http://")) || value.length() > 2000 ? null : value;
    }


    private static InvalidInputException problem(String english, Object... args) {
        // the detail names URLs and the server's own words; it stays English in every language of the editor
        return new InvalidInputException(Message.of("problem.upstreamServer.oauth",
                "The upstream MCP server''s sign-in cannot be used: {0}", java.text.MessageFormat.format(english, args)));
    }
}
