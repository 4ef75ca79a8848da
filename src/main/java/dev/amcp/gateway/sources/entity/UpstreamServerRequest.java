package dev.amcp.gateway.sources.entity;

import dev.amcp.gateway.upstreams.entity.PersonalAccounts;

/**
 * Registration of an upstream MCP server: the workspace server its tools join, a name, the Streamable HTTP URL, an
 * optional tool-name prefix, and how it is reached. Either {@code upstream} names one of the workspace's upstreams
 * ({@code url} is then a path under its base, and its own credential is sent), or {@code url} is a full URL (which may
 * start with an operator's {@code ${AMCP_UPSTREAM_<NAME>}} base) with an optional operator {@code credential} name.
 * With {@code accounts}, no shared credential goes: each person calls with their own account there.
 */
public record UpstreamServerRequest(String server, String name, String url, String prefix, String credential, String upstream,
                                    PersonalAccounts accounts) {

    public UpstreamServerRequest(String server, String name, String url, String prefix, String credential, String upstream) {
        this(server, name, url, prefix, credential, upstream, null);
    }
}
