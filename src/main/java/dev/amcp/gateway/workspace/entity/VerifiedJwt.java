package dev.amcp.gateway.workspace.entity;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A JWT whose signature, issuer, audience and times were checked ({@code OidcProvider.verify}): its header and claims
 * as JSON, with readers for the claims most callers need.
 */
public record VerifiedJwt(JsonObject header, JsonObject claims) {

    public String issuer() {
        return string("iss").orElse(null);
    }

    public String subject() {
        return string("sub").orElse(null);
    }

    /** A claim that is a JSON string; empty when absent or of another type. */
    public Optional<String> string(String claim) {
        JsonValue value = claims.get(claim);
        return value instanceof JsonString s ? Optional.of(s.getString()) : Optional.empty();
    }

    /** A claim that is a string or an array of strings (as {@code aud} and {@code groups} may be); other values are skipped. */
    public List<String> strings(String claim) {
        JsonValue value = claims.get(claim);
        List<String> out = new ArrayList<>();
        if (value instanceof JsonString s) {
            out.add(s.getString());
        } else if (value instanceof JsonArray array) {
            for (JsonValue item : array) {
                if (item instanceof JsonString s) {
                    out.add(s.getString());
                }
            }
        }
        return out;
    }

    public List<String> audiences() {
        return strings("aud");
    }

    /**
     * The granted scopes: {@code scope} as a space-separated string (RFC 9068, RFC 8693) or an array, and {@code scp}
     * (as some providers write it) in either form.
     */
    public Set<String> scopes() {
        Set<String> out = new LinkedHashSet<>();
        for (String claim : List.of("scope", "scp")) {
            for (String entry : strings(claim)) {
                for (String scope : entry.trim().split("\\s+")) {
                    if (!scope.isEmpty()) {
                        out.add(scope);
                    }
                }
            }
        }
        return out;
    }

    /** A NumericDate claim ({@code exp}, {@code nbf}, {@code iat}); empty when absent or not a number. */
    public Optional<Instant> time(String claim) {
        JsonValue value = claims.get(claim);
        return value instanceof JsonNumber n ? Optional.of(Instant.ofEpochSecond(n.longValue())) : Optional.empty();
    }

    public Instant expiresAt() {
        return time("exp").orElse(null);
    }
}
