package dev.amcp.gateway.upstreams.control;

import java.util.List;

/**
 * What calls an upstream, answered by the package whose rows do ({@code tools}), so that this package, which
 * judges every call, imports none of its callers.
 */
public interface UpstreamUsers {

    /** A saved HTTP tool that names no workspace upstream: its URL template with each argument filled, and its credential. */
    record DirectCall(long workspaceId, String url, String credential) {}

    /** The names of the workspace's tools that call its upstream {@code upstream}. */
    List<String> toolsCalling(long workspaceId, String upstream);

    /** Every saved HTTP tool that names no workspace upstream. */
    List<DirectCall> directCalls();
}
