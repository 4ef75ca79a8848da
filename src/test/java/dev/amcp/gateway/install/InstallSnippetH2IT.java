package dev.amcp.gateway.install;

/**
 * The same install and the same documented walk as {@link InstallSnippetIT}, on the embedded H2 database whatever
 * {@code DB_URL} says, so that CI (which sets {@code DB_URL} to PostgreSQL) proves the empty install on both databases.
 * Its server is {@code <it.install.server.name>-h2}, on the configured install ports plus 10. Without {@code DB_URL},
 * {@link InstallSnippetIT} installs on H2 already, and this one is skipped.
 */
class InstallSnippetH2IT extends InstallWalk {

    InstallSnippetH2IT() {
        super("-h2", 10, true);
    }

}
