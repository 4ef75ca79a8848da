package dev.amcp.gateway.platform.control;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The requests the gateway makes wherever it is an OAuth client (single sign-on, an upstream's client credentials, a
 * person's upstream account): the authorization URL a browser is sent to, and the form POST to a token or revocation
 * endpoint with the client's authentication. Callers send them their own way (through the upstream rule or not) and
 * read the answers with their own messages.
 */
public final class OAuthRequests {

    private OAuthRequests() {}

    /**
     * The request: with a secret, HTTP Basic ({@code client_secret_basic}, both parts form-encoded as RFC 6749 2.3.1
     * asks); without one, a public client naming itself with {@code client_id} in the form.
     */
    public static HttpRequest.Builder tokenPost(URI endpoint, String clientId, String clientSecret, Map<String, String> form, Duration timeout) {
        Map<String, String> fields = new LinkedHashMap<>(form);
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json");
        if (clientSecret != null) {
            String pair = encode(clientId) + ":" + encode(clientSecret);
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
        } else {
            fields.put("client_id", clientId);
        }
        return request.POST(HttpRequest.BodyPublishers.ofString(formEncoded(fields)));
    }

    /** The authorization endpoint with the query added (after the endpoint's own query, if it has one). */
    public static String authorizationUrl(String endpoint, Map<String, String> query) {
        return endpoint + (endpoint.contains("?") ? "&" : "?") + formEncoded(query);
    }

    private static String formEncoded(Map<String, String> fields) {
        return fields.entrySet().stream().map(e -> encode(e.getKey()) + "=" + encode(e.getValue())).collect(Collectors.joining("&"));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
