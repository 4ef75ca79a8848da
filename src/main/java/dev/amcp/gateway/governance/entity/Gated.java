package dev.amcp.gateway.governance.entity;

import java.util.ArrayList;
import java.util.List;

/** A result that passed the gates, with the warnings of any soft limit it went over. */
public record Gated<T>(T value, List<String> warnings) {

    public Gated {
        warnings = List.copyOf(warnings);
    }

    public static <T> Gated<T> of(T value) {
        return new Gated<>(value, List.of());
    }

    public Gated<T> withWarning(String warning) {
        List<String> more = new ArrayList<>(warnings);
        more.add(warning);
        return new Gated<>(value, more);
    }
}
