package dev.amcp.gateway.mcp.entity;

import java.util.List;

/**
 * The MCP protocol revisions this gateway speaks, newest first, and what differs between them. 2026-07-28 is
 * stateless (no {@code initialize}, revision and client capabilities in every request's {@code _meta}); the older ones
 * keep the {@code initialize} handshake. Only the wire mapping differs: what runs beneath never knows the revision.
 */
public enum ProtocolVersion {

    V2026_07_28("2026-07-28"),
    V2025_11_25("2025-11-25"),
    V2025_06_18("2025-06-18"),
    V2025_03_26("2025-03-26");

    public static final ProtocolVersion LATEST = V2026_07_28;
    /** The newest revision with an {@code initialize} handshake: what {@code initialize} negotiates at most. */
    public static final ProtocolVersion LATEST_STATEFUL = V2025_11_25;
    /** Assumed when a request names no revision (no header, no session), as the transport spec says. */
    public static final ProtocolVersion DEFAULT = V2025_03_26;
    public static final List<String> SUPPORTED = List.of("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26");

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

    /**
     * What {@code initialize} negotiates: the client's revision if we speak it with a handshake, else our latest such
     * revision (the client then decides whether to go on). 2026-07-28 has no {@code initialize}.
     */
    public static ProtocolVersion negotiate(String requested) {
        ProtocolVersion v = of(requested);
        return v == null || v.stateless() ? LATEST_STATEFUL : v;
    }

    /** 2026-07-28: no handshake and no session; every request carries the revision and the client's capabilities. */
    public boolean stateless() {
        return this == V2026_07_28;
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
