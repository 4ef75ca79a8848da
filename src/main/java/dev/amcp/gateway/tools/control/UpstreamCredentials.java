package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.tools.entity.CheckedUpstream;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The header a named credential sends to an upstream MCP server. Either static ({@code AMCP_CREDENTIAL_<NAME>_VALUE},
 * optional {@code _HEADER}), as HTTP tools send it, or OAuth client credentials: with
 * {@code AMCP_CREDENTIAL_<NAME>_TOKEN_URL}, {@code _CLIENT_ID}, {@code _CLIENT_SECRET} and optional {@code _SCOPE} set,
 * a bearer token is fetched from that token endpoint (through {@link UpstreamRules}, client id and secret in HTTP Basic)
 * and reused until shortly before it expires. Secrets live only in the operator's settings, never in the database or
 * an API answer.
 */
@ApplicationScoped
public class UpstreamCredentials {

    private static final Duration EARLY = Duration.ofSeconds(30);

    @Inject
    Settings settings;

    @Inject
    HttpToolInvoker http;

    @Inject
    UpstreamRules upstreams;

    private record Token(String value, Instant renewAt) {}

    private final Map<String, Token> tokens = new ConcurrentHashMap<>();

    /** Header name and value for this credential; throws IllegalArgumentException when it is not configured. */
    public Map.Entry<String, String> header(String credential) {
        String name = credential.toUpperCase(Locale.ROOT);
        String tokenUrl = settings.get(setting(name, "TOKEN_URL"), "");
        if (tokenUrl.isBlank()) {
            return http.credentialHeader(name);
        }
        Token token = tokens.get(name);
        if (token == null || Instant.now().isAfter(token.renewAt())) {
            token = fetch(name, tokenUrl.strip());
            tokens.put(name, token);
        }
        return Map.entry("Authorization", "Bearer " + token.value());
    }

    /** Whether the operator configured this credential, statically or as client credentials. */
    public boolean configured(String credential) {
        String name = credential.toUpperCase(Locale.ROOT);
        return settings.get(setting(name, "VALUE")).isPresent() || settings.get(setting(name, "TOKEN_URL")).isPresent();
    }

    private Token fetch(String name, String tokenUrl) {
        String clientId = settings.get(setting(name, "CLIENT_ID"), "");
        String secret = settings.get(setting(name, "CLIENT_SECRET"), "");
        if (clientId.isBlank() || secret.isBlank()) {
            throw new IllegalArgumentException("credential " + name + " needs " + setting(name, "CLIENT_ID") + " and " + setting(name, "CLIENT_SECRET"));
        }
        CheckedUpstream checked = upstreams.resolveForCall(URI.create(upstreams.expandBases(tokenUrl)));
        String form = "grant_type=client_credentials" + settings.get(setting(name, "SCOPE"))
                .map(s -> "&scope=" + URLEncoder.encode(s, StandardCharsets.UTF_8)).orElse("");
        String basic = Base64.getEncoder().encodeToString((URLEncoder.encode(clientId, StandardCharsets.UTF_8) + ":"
                + URLEncoder.encode(secret, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(checked.pinnedUri()).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                .header("Authorization", "Basic " + basic).POST(HttpRequest.BodyPublishers.ofString(form));
        http.pinHost(request, checked);
        try {
            HttpResponse<String> response = http.clientFor(checked).send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalArgumentException("the token endpoint of credential " + name + " answered HTTP " + response.statusCode());
            }
            JsonObject body = JsonSupport.parseObject(response.body());
            String token = JsonSupport.string(body, "access_token", "");
            if (token.isBlank()) {
                throw new IllegalArgumentException("the token endpoint of credential " + name + " sent no access_token");
            }
            long seconds = body.containsKey("expires_in") && body.get("expires_in") instanceof jakarta.json.JsonNumber n ? n.longValue() : 300;
            return new Token(token, Instant.now().plusSeconds(seconds).minus(EARLY));
        } catch (IOException e) {
            throw new IllegalArgumentException("the token endpoint of credential " + name + " is unreachable (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalArgumentException("fetching a token was interrupted");
        }
    }

    private static String setting(String name, String part) {
        return "AMCP_CREDENTIAL_" + name + "_" + part;
    }
}
