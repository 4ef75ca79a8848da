package dev.amcp.gateway.sources.entity;

/**
 * What an admin asks an OpenAPI import to read: a {@code url} (which may start with an {@code ${AMCP_UPSTREAM_<NAME>}}
 * setting) or a pasted {@code document}, for the workspace server {@code server}. {@code base} overrides the document's
 * server URL as the tools' base, {@code credential} the credential bound to that base, {@code prefix} goes before every
 * tool name. With {@code upstream} (a workspace upstream's name) the tools call that upstream, whose base stands for the
 * document's server URL and whose credential goes with them; {@code url} is then a path under its base, and
 * {@code base} and {@code credential} stay empty. All but one source and the server may be null.
 */
public record OpenApiImportRequest(String server, String url, String document, String base, String credential, String prefix,
                                   String upstream) {

    public OpenApiImportRequest(String server, String url, String document, String base, String credential, String prefix) {
        this(server, url, document, base, credential, prefix, null);
    }
}
