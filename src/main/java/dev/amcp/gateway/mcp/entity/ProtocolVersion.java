package dev.amcp.gateway.mcp.entity;

import java.util.List;

/** The MCP protocol revisions this gateway speaks, newest first, and what differs between them. */
public enum ProtocolVersion {

    V2025_11_25("2025-11-25"),
    V2025_06_18("2025-06-18"),
    V2025_03_26("2025-03-26");

    public static final ProtocolVersion LATEST = V2025_11_25;
    /** Assumed when a request names no revision (no header, no session), as the transport spec says. */
    public static final ProtocolVersion DEFAULT = V2025_03_26;
    public static final List<String> SUPPORTED = List.of("2025-11-25", "2025-06-18", "2025-03-26");

    private final String wire;

    ProtocolVersion(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static ProtocolVersion of(String wire) {
        for (ProtocolVersion v : values()) {
            if (v.wire.equals(wire)) {
                return v;
            }
        }
        return null;
    }

    /** The client's revision if supported, else our latest (the client then decides whether to go on). */
    public static ProtocolVersion negotiate(String requested) {
        ProtocolVersion v = of(requested);
        return v == null ? LATEST : v;
    }

    /** JSON-RPC batches exist in 2025-03-26 only; later revisions removed them. */
    public boolean allowsBatches() {
        return this == V2025_03_26;
    }

    /** {@code title}, {@code outputSchema} and {@code structuredContent} arrived in 2025-06-18. */
    public boolean hasStructuredOutput() {
        return this != V2025_03_26;
    }
}
