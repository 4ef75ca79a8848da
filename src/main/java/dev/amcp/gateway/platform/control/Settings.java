package dev.amcp.gateway.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;

/**
 * Typed access to the gateway's settings. Every setting comes from MicroProfile Config, so an operator sets it as
 * an environment variable, a server.xml variable or a system property. Each is read once per application start and
 * then kept: some are read on every request, and a MicroProfile Config lookup walks every config source.
 */
@ApplicationScoped
public class Settings {

    @Inject
    Config config;

    private final Map<String, Optional<String>> read = new ConcurrentHashMap<>();

    public Optional<String> get(String name) {
        return read.computeIfAbsent(name, n -> config.getOptionalValue(n, String.class).filter(v -> !v.isBlank()));
    }

    public String get(String name, String fallback) {
        return get(name).orElse(fallback);
    }

    public int getInt(String name, int fallback) {
        return get(name).map(v -> parseInt(name, v)).orElse(fallback);
    }

    public long getLong(String name, long fallback) {
        return get(name).map(v -> parseLong(name, v)).orElse(fallback);
    }

    public boolean getBoolean(String name, boolean fallback) {
        return get(name).map(Boolean::parseBoolean).orElse(fallback);
    }

    private static int parseInt(String name, String value) {
        return (int) parseLong(name, value);
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Setting " + name + " must be a whole number, got '" + value + "'");
        }
    }
}
