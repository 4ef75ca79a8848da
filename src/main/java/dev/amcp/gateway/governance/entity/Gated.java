package dev.amcp.gateway.governance.entity;

import dev.amcp.gateway.platform.entity.Message;
import java.util.ArrayList;
import java.util.List;

/** A result that passed the gates, with the warnings of any soft limit it went over (and other notices for people). */
public record Gated<T>(T value, List<Message> warnings) {

    public Gated {
        warnings = List.copyOf(warnings);
    }

    public static <T> Gated<T> of(T value) {
        return new Gated<>(value, List.of());
    }

    /** The warnings as REST and MCP clients get them. */
    public List<String> englishWarnings() {
        return warnings.stream().map(Message::english).toList();
    }

    public Gated<T> withWarning(Message warning) {
        List<Message> more = new ArrayList<>(warnings);
        more.add(warning);
        return new Gated<>(value, more);
    }
}
