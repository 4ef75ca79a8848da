package dev.amcp.gateway.upstreams.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.OAuthRequests;
import dev.amcp.gateway.platform.control.SecretBox;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.upstreams.entity.CheckedUpstream;
import dev.amcp.gateway.upstreams.entity.UpstreamCredential;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The header a credential sends upstream.
 * <ul>
 * <li>An operator's named credential, to an upstream MCP server: static ({@code AMCP_CREDENTIAL_<NAME>_VALUE},
 * optional {@code _HEADER}), as HTTP tools send it, or OAuth client credentials: with
 * {@code AMCP_CREDENTIAL_<NAME>_TOKEN_URL}, {@code _CLIENT_ID}, {@code _CLIENT_SECRET} and optional {@code _SCOPE} set,
 * a bearer token is fetched from that token endpoint (through {@link UpstreamRules}, client id and secret in HTTP Basic)
 * and reused until shortly before it expires. These secrets live only in the operator's settings.</li>
 * <li>A workspace upstream's credential ({@link #header(UpstreamDirectory.UpstreamRef, Caller)}): opened from its sealed
 * form for each call (a header, HTTP Basic, or a client-credentials token fetched the same way, its token URL inside
 * the operator's egress ceiling), and its use noted in the audit log ({@link WorkspaceUpstreams#noteUse}).</li>
 * </ul>
 * No secret ever leaves this class but in the header it builds.
 */
@ApplicationScoped
public class UpstreamCredentials {

    private static final Duration EARLY = Duration.ofSeconds(30);

    @Inject
    Settings settings;

    @Inject
    OutboundHttp http;

    @Inject
    UpstreamRules upstreams;

    @Inject
    SecretBox secrets;

    @Inject
    UpstreamDirectory directory;

    @Inject
    WorkspaceUpstreams workspaceUpstreams;

    private record Token(String value, Instant renewAt) {}

    private final Map<String, Token> tokens = new ConcurrentHashMap<>();
    /** When each workspace credential's use was last noted here, so the audit is asked at most hourly. */
    private final Map<Long, Instant> noted = new ConcurrentHashMap<>();

    /**
     * The header a workspace upstream's credential sends (none without a credential). The secret is opened now and
     * goes nowhere but into the header.
     */
    public Optional<Map.Entry<String, String>> header(UpstreamDirectory.UpstreamRef upstream, Caller caller) {
        Optional<Map.Entry<String, String>> header = header(upstream);
        if (header.isPresent()) {
            noteUse(upstream, caller);
        }
        return header;
    }

    /**
     * The same header without noting its use, for a connection that sends it on every request of calls noted one
     * by one ({@link #noteUse}).
     */
    public Optional<Map.Entry<String, String>> header(UpstreamDirectory.UpstreamRef upstream) {
        UpstreamDirectory.SealedCredential c = upstream.credential();
        if (c == null) {
            return Optional.empty();
        }
        String secret;
        try {
            secret = secrets.open(c.dataKeyId(), c.ciphertext(), UpstreamCredential.sealContext(upstream.workspaceId(), upstream.id(), c.kind()));
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("the credential of upstream '" + upstream.name() + "' cannot be opened: " + e.getMessage());
        }
        JsonObject params = c.params() == null ? JsonObject.EMPTY_JSON_OBJECT : c.params();
        return Optional.of(switch (c.kind()) {
            case UpstreamCredential.HEADER -> Map.entry(params.getString("header", "Authorization"), secret);
            case UpstreamCredential.BASIC -> Map.entry("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((params.getString("username", "") + ":" + secret).getBytes(StandardCharsets.UTF_8)));
            default -> Map.entry("Authorization", "Bearer " + workspaceToken(upstream, c, params, secret));
        });
    }

    private String workspaceToken(UpstreamDirectory.UpstreamRef upstream, UpstreamDirectory.SealedCredential c, JsonObject params, String secret) {
        String key = "upstream " + upstream.id() + " " + c.ciphertext(); // a new secret or setting is a new entry
        Token token = tokens.get(key);
        if (token == null || Instant.now().isAfter(token.renewAt())) {
            String label = "upstream '" + upstream.name() + "'";
            CheckedUpstream checked = upstreams.resolveInCeiling(URI.create(params.getString("tokenUrl")), directory.egressRules());
            token = fetch(label, checked, params.getString("clientId", ""), secret, Optional.ofNullable(params.getString("scope", null)));
            tokens.keySet().removeIf(k -> k.startsWith("upstream " + upstream.id() + " "));
            tokens.put(key, token);
        }
        return token.value();
    }

    /** Notes in the audit log that this caller's call sent the upstream's credential (at most hourly per credential). */
    public void noteUse(UpstreamDirectory.UpstreamRef upstream, Caller caller) {
        if (upstream.credential() == null) {
            return;
        }
        Instant last = noted.get(upstream.id());
        Instant now = Instant.now();
        if (last == null || now.isAfter(last.plus(Duration.ofHours(1)))) {
            noted.put(upstream.id(), now);
            try {
                workspaceUpstreams.noteUse(caller, upstream.workspaceId(), upstream.id(), upstream.name(), upstream.credential().fingerprint());
            } catch (RuntimeException e) {
                noted.remove(upstream.id()); // try again at the next call; the call itself goes on
            }
        }
    }

    /** Header name and value for this credential; throws IllegalArgumentException when it is not configured. */
    public Map.Entry<String, String> header(String credential) {
        String name = credential.toUpperCase(Locale.ROOT);
        String tokenUrl = settings.get(setting(name, "TOKEN_URL"), "");
        if (tokenUrl.isBlank()) {
            return staticHeader(name);
        }
        Token token = tokens.get(name);
        if (token == null || Instant.now().isAfter(token.renewAt())) {
            token = fetch(name, tokenUrl.strip());
            tokens.put(name, token);
        }
        return Map.entry("Authorization", "Bearer " + token.value());
    }

    /** A static credential's header ({@code AMCP_CREDENTIAL_<NAME>_HEADER}, default Authorization) and its secret value. */
    public Map.Entry<String, String> staticHeader(String credential) {
        String name = credential.toUpperCase(Locale.ROOT);
        String secret = settings.get(setting(name, "VALUE"))
                .orElseThrow(() -> new IllegalArgumentException("credential " + name + " is not configured (set " + setting(name, "VALUE") + ")"));
        return Map.entry(settings.get(setting(name, "HEADER"), "Authorization"), secret);
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
        return fetch("credential " + name, checked, clientId, secret, settings.get(setting(name, "SCOPE")));
    }

    /** A client-credentials token from a checked token endpoint, client id and secret in HTTP Basic. */
    private Token fetch(String name, CheckedUpstream checked, String clientId, String secret, Optional<String> scope) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        scope.ifPresent(s -> form.put("scope", s));
        HttpRequest.Builder request = OAuthRequests.tokenPost(checked.pinnedUri(), clientId, secret, form, Duration.ofSeconds(10));
        http.pinHost(request, checked);
        try {
            HttpResponse<String> response = http.clientFor(checked).send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalArgumentException("the token endpoint of " + name + " answered HTTP " + response.statusCode());
            }
            JsonObject body = JsonSupport.parseObject(response.body());
            String token = JsonSupport.string(body, "access_token", "");
            if (token.isBlank()) {
                throw new IllegalArgumentException("the token endpoint of " + name + " sent no access_token");
            }
            long seconds = body.containsKey("expires_in") && body.get("expires_in") instanceof jakarta.json.JsonNumber n ? n.longValue() : 300;
            return new Token(token, Instant.now().plusSeconds(seconds).minus(EARLY));
        } catch (IOException e) {
            throw new IllegalArgumentException("the token endpoint of " + name + " is unreachable (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalArgumentException("fetching a token was interrupted");
        }
    }

    private static String setting(String name, String part) {
        return "AMCP_CREDENTIAL_" + name + "_" + part;
    }
}
