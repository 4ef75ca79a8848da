package dev.amcp.gateway.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * Typed access to the gateway's settings. Every setting comes from MicroProfile Config, so an operator sets it as
 * an environment variable, a server.xml variable or a system property.
 */
@ApplicationScoped
public class Settings {

    @Inject
    Config config;

    public Optional<String> get(String name) {
        return config.getOptionalValue(name, String.class).filter(v -> !v.isBlank());
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
