package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.platform.control.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which browser origins may call the MCP endpoints (DNS-rebinding protection). A request without {@code Origin}
 * (every non-browser client) is allowed. With {@code AMCP_ALLOWED_ORIGINS} unset, only loopback origins
 * ({@code http(s)://localhost|127.0.0.1|[::1]} on any port) are allowed; set it to a comma-separated list of exact
 * origins ({@code https://app.example.com}) to replace that default, or to {@code *} to allow every origin.
 */
@ApplicationScoped
public class OriginPolicy {

    public static final String SETTING = "AMCP_ALLOWED_ORIGINS";
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    @Inject
    Settings settings;

    public boolean allows(String origin) {
        if (origin == null) {
            return true;
        }
        String configured = settings.get(SETTING).orElse(null);
        if (configured == null) {
            return isLoopback(origin);
        }
        Set<String> allowed = Arrays.stream(configured.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .map(OriginPolicy::normalize).collect(Collectors.toSet());
        return allowed.contains("*") || allowed.contains(normalize(origin));
    }

    static boolean isLoopback(String origin) {
        try {
            URI uri = URI.create(origin.strip());
            String scheme = uri.getScheme();
            return ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && uri.getHost() != null
                    && LOOPBACK.contains(uri.getHost().toLowerCase(Locale.ROOT))
                    && (uri.getRawPath() == null || uri.getRawPath().isEmpty()) && uri.getRawUserInfo() == null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String normalize(String origin) {
        String o = origin.strip().toLowerCase(Locale.ROOT);
        return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
    }
}
