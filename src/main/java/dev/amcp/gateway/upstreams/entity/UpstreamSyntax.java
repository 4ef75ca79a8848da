package dev.amcp.gateway.upstreams.entity;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** How an outbound call's settings, upstream names and headers are written, for every package that writes one. */
public final class UpstreamSyntax {

    /** Settings a URL may reference; nothing else of the configuration can leak into an upstream call. */
    public static final String SETTING_PREFIX = "AMCP_UPSTREAM_";
    /** A setting reference in a URL template, {@code ${AMCP_UPSTREAM_<NAME>}}. */
    public static final Pattern SETTING = Pattern.compile("\\$\\{([A-Z0-9_]+)}");
    /** The name of a workspace upstream. */
    public static final Pattern UPSTREAM_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    /** Headers no argument or credential may set: the gateway decides them. */
    public static final Set<String> RESERVED_HEADERS = Set.of("host", "content-length", "content-type",
            "connection", "transfer-encoding", "expect", "upgrade");

    private UpstreamSyntax() {}

    /** Whether the gateway sets this header itself (so no argument or credential may). */
    public static boolean reserved(String header) {
        return RESERVED_HEADERS.contains(header.toLowerCase(Locale.ROOT));
    }
}
